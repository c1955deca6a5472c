"""Tables a surveyor asks for: what is used most, leaderboards, co-occurrence, gaps, trends.

Every function takes a loaded graph (:func:`kg.load`) and returns a pandas
DataFrame; each starts from one query in :mod:`kg.analysis.queries`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg.analysis.queries import ENTITIES, MENTIONS, METHOD_DATASET, METHOD_TARGETS, METHOD_TASKS, PAPERS_PER_YEAR, TASK_GAPS, TRENDS, USAGE, frame
from kg.errors import UserError

if TYPE_CHECKING:
    import pandas as pd

    from kg.views import KnowledgeGraph

__all__ = ["claimed_improvements", "cooccurrence", "entity_pairs", "leaderboard", "result_leaderboards", "method_dataset_matrix", "papers_per_year", "task_gaps", "top_entities", "trends", "usage"]

ENTITY_TYPES = ("Method", "Task", "Dataset", "Metric")


def _check_type(kind: str | None) -> None:
    """Refuse an entity class the graph does not have (``E392``).

    >>> _check_type("Paper")
    Traceback (most recent call last):
    ...
    kg.errors.UserError: E392: unknown entity type 'Paper': choose one of Method, Task, Dataset, Metric
    """
    if kind is not None and kind not in ENTITY_TYPES:
        raise UserError("E392", name=kind, choices=", ".join(ENTITY_TYPES))


def _node(iri: str) -> object:
    """A pyoxigraph IRI for a SPARQL binding.

    >>> _node("https://example.org/x").value
    'https://example.org/x'
    """
    import pyoxigraph as ox

    return ox.NamedNode(iri)


def _ranked(totals: pd.Series) -> pd.Series:
    """``totals`` largest first, ties in index order, so that results never depend on row order.

    >>> import pandas as pd
    >>> _ranked(pd.Series({"b": 1, "a": 1, "c": 2})).index.tolist()
    ['c', 'a', 'b']
    """
    return totals.sort_index(kind="stable").sort_values(ascending=False, kind="stable")


def usage(graph: KnowledgeGraph, kind: str | None = None) -> pd.DataFrame:
    """Every entity (of class ``kind``, or all) with the number of papers that mention it, most used first.

    Columns: ``entity`` (IRI), ``type``, ``label``, ``papers``.

    >>> from kg.analysis.sample import tiny_graph
    >>> usage(tiny_graph(), "Dataset")[["label", "papers"]].values.tolist()
    [['ImageNet', 2], ['SQuAD', 2], ['GLUE', 1]]
    """
    _check_type(kind)
    table = frame(graph, USAGE, ["entity", "type", "label", "papers"])
    if kind is not None:
        table = table[table.type == kind]
    return table.sort_values(["papers", "label", "entity"], ascending=[False, True, True], kind="stable").reset_index(drop=True)


def top_entities(graph: KnowledgeGraph, kind: str, n: int = 10) -> pd.DataFrame:
    """The ``n`` most mentioned entities of class ``kind`` (``Task``, ``Dataset``, ``Metric``, ``Method``).

    >>> from kg.analysis.sample import tiny_graph
    >>> top_entities(tiny_graph(), "Task", 1).label.tolist()
    ['question answering']
    """
    return usage(graph, kind).head(n)


def leaderboard(graph: KnowledgeGraph, task: str | None = None) -> pd.DataFrame:
    """Methods per task, with the datasets and metrics each method is evaluated with.

    One row per (task, method): ``task``, ``method`` (labels), ``papers`` (papers
    stating that the method addresses the task), ``datasets`` and ``metrics``
    (sorted labels). Datasets and metrics belong to the method, not to the
    pair: an abstract seldom says which of a method's tasks a benchmark was
    for. Rows are grouped by task, methods with most evidence first.
    ``task`` keeps one task (by label, case-insensitive).

    >>> from kg.analysis.sample import tiny_graph
    >>> board = leaderboard(tiny_graph(), "Question Answering")
    >>> board[["method", "papers", "datasets", "metrics"]].values.tolist()
    [['BERT', 3, ['SQuAD'], ['F1']], ['GPT', 2, ['GLUE'], []]]
    """
    import pandas as pd

    columns = ["task", "method", "papers", "datasets", "metrics"]
    pairs = frame(graph, METHOD_TASKS, ["task", "taskLabel", "method", "methodLabel", "papers"])
    if task is not None:
        pairs = pairs[pairs.taskLabel.str.lower() == task.lower()]
    if pairs.empty:
        return pd.DataFrame(columns=columns)
    # Targets per method, joined to the (task, method) pairs afterwards: one row per target
    # and task would multiply a busy method's datasets by its tasks.
    targets = frame(graph, METHOD_TARGETS, ["method", "relation", "targetLabel"])
    targets = targets[targets.method.isin(set(pairs.method))]
    lists = targets.groupby(["method", "relation"]).targetLabel.agg(lambda labels: sorted(set(labels)))
    board = pairs.rename(columns={"taskLabel": "task_label", "methodLabel": "method_label"})
    for relation, column in (("evaluatedOn", "datasets"), ("measuredBy", "metrics")):
        chosen = lists[lists.index.get_level_values("relation") == relation].droplevel("relation") if not lists.empty else pd.Series(dtype=object)
        board[column] = board.method.map(chosen).map(lambda v: v if isinstance(v, list) else [])
    board["_evaluated"] = board.datasets.map(len) + board.metrics.map(len)
    board = board.sort_values(["task_label", "papers", "_evaluated", "method_label", "task", "method"], ascending=[True, False, False, True, True, True], kind="stable")
    board = board.drop(columns=["task", "method"]).rename(columns={"task_label": "task", "method_label": "method"})
    return board[columns].reset_index(drop=True)


def method_dataset_matrix(graph: KnowledgeGraph, tasks: int = 3, methods: int = 20, datasets: int = 15) -> pd.DataFrame:
    """Methods × datasets for the ``tasks`` busiest tasks: papers per cell.

    The tasks are those with most methods evaluated on a dataset. Rows are the ``methods``
    methods with most evaluations, columns the
    ``datasets`` most used datasets; a cell counts the papers stating that the
    method is evaluated on the dataset (0 where none does).

    >>> from kg.analysis.sample import tiny_graph
    >>> method_dataset_matrix(tiny_graph(), tasks=2).to_dict()
    {'ImageNet': {'BERT': 0, 'ResNet': 2, 'GPT': 0, 'ViT': 1}, 'SQuAD': {'BERT': 2, 'ResNet': 0, 'GPT': 0, 'ViT': 0}, 'GLUE': {'BERT': 0, 'ResNet': 0, 'GPT': 1, 'ViT': 0}}
    """
    import pandas as pd

    pairs = frame(graph, METHOD_TASKS, ["task", "taskLabel", "method", "methodLabel", "papers"])
    if pairs.empty:
        return pd.DataFrame()
    # The tasks with most methods evaluated on some dataset, then one query per task: joining
    # every task's methods with every method's datasets at once multiplies a busy method's rows.
    targets = frame(graph, METHOD_TARGETS, ["method", "relation", "targetLabel"])
    evaluated = set(targets[targets.relation == "evaluatedOn"].method)
    pairs = pairs[pairs.method.isin(evaluated)]
    busiest = _ranked(pairs.groupby("task").method.nunique()).head(tasks).index
    columns = ["task", "taskLabel", "method", "methodLabel", "dataset", "datasetLabel", "papers"]
    found = [frame(graph, METHOD_DATASET, columns, bindings={"task": _node(t)}) for t in busiest]
    rows = pd.concat(found, ignore_index=True) if found else pd.DataFrame(columns=columns)
    if rows.empty:
        return pd.DataFrame()
    rows = rows.drop_duplicates(["method", "dataset"])
    keep_methods = _ranked(rows.groupby("methodLabel").papers.sum()).head(methods).index
    keep_datasets = _ranked(rows.groupby("datasetLabel").papers.sum()).head(datasets).index
    rows = rows[rows.methodLabel.isin(keep_methods) & rows.datasetLabel.isin(keep_datasets)]
    matrix = rows.pivot_table(index="methodLabel", columns="datasetLabel", values="papers", aggfunc="sum", fill_value=0)
    matrix = matrix.loc[_ranked(matrix.sum(axis=1)).index, _ranked(matrix.sum(axis=0)).index]
    matrix.index.name, matrix.columns.name = "method", "dataset"
    return matrix


def entity_pairs(graph: KnowledgeGraph, min_papers: int = 1) -> pd.DataFrame:
    """Columns ``a``, ``b`` (entity IRIs, ``a < b``) and ``papers`` naming both, for pairs sharing ``min_papers`` or more.

    The table the ``COOCCURRENCE`` query gives, paired in pandas from the
    mentions: several times faster than Oxigraph's self-join on large builds
    (a test checks that the two agree).

    >>> from kg.analysis.sample import tiny_graph
    >>> len(entity_pairs(tiny_graph())), len(entity_pairs(tiny_graph(), 3))
    (27, 1)
    """
    import pandas as pd

    mentions = frame(graph, MENTIONS, ["entity", "type", "paper"])[["entity", "paper"]].drop_duplicates()
    both = mentions.merge(mentions, on="paper", suffixes=("_a", "_b"))
    both = both[both.entity_a < both.entity_b]
    if both.empty:
        return pd.DataFrame(columns=["a", "b", "papers"])
    pairs = both.groupby(["entity_a", "entity_b"]).size().rename("papers").reset_index().rename(columns={"entity_a": "a", "entity_b": "b"})
    return pairs[pairs.papers >= min_papers].reset_index(drop=True)


def cooccurrence(graph: KnowledgeGraph, min_papers: int = 1) -> pd.DataFrame:
    """Pairs of entities named in the same abstracts, with the number of papers they share.

    Columns ``a``, ``b`` (IRIs, ``a < b``), their ``a_label``, ``a_type``,
    ``b_label``, ``b_type`` and ``papers``; pairs sharing fewer than
    ``min_papers`` papers are left out. Most shared first.

    >>> from kg.analysis.sample import tiny_graph
    >>> pairs = cooccurrence(tiny_graph(), min_papers=3)
    >>> pairs[["a_label", "b_label", "papers"]].values.tolist()
    [['BERT', 'question answering', 4]]
    """
    pairs = entity_pairs(graph, min_papers)
    names = frame(graph, ENTITIES, ["entity", "type", "label"]).set_index("entity")
    pairs = pairs[pairs.a.isin(names.index) & pairs.b.isin(names.index)]
    for end in ("a", "b"):
        pairs[f"{end}_label"] = pairs[end].map(names.label)
        pairs[f"{end}_type"] = pairs[end].map(names.type)
    pairs = pairs.sort_values(["papers", "a_label", "b_label", "a", "b"], ascending=[False, True, True, True, True], kind="stable")
    return pairs[["a", "b", "a_label", "a_type", "b_label", "b_type", "papers"]].reset_index(drop=True)


def task_gaps(graph: KnowledgeGraph, min_papers: int = 2) -> pd.DataFrame:
    """Tasks that many papers mention but few datasets serve: candidates for new benchmarks.

    Columns ``task``, ``label``, ``papers``, ``methods`` (addressing it),
    ``datasets`` (those methods are evaluated on) and ``gap`` =
    ``papers / (datasets + 1)``, largest gap first. Tasks mentioned by fewer
    than ``min_papers`` papers are left out.

    >>> from kg.analysis.sample import tiny_graph
    >>> task_gaps(tiny_graph())[["label", "papers", "datasets", "gap"]].values.tolist()
    [['question answering', 4, 2, 1.3333333333333333], ['image classification', 2, 1, 1.0]]
    """
    gaps = frame(graph, TASK_GAPS, ["task", "label", "papers", "methods", "datasets"])
    gaps = gaps[gaps.papers >= min_papers].copy()
    gaps["gap"] = gaps.papers / (gaps.datasets + 1)
    return gaps.sort_values(["gap", "papers", "label", "task"], ascending=[False, False, True, True], kind="stable").reset_index(drop=True)


def papers_per_year(graph: KnowledgeGraph) -> pd.DataFrame:
    """Dated papers per year (``year``, ``papers``); empty when no paper has a date.

    >>> from kg.analysis.sample import tiny_graph
    >>> papers_per_year(tiny_graph()).values.tolist()
    [[2020, 2], [2021, 2], [2022, 2]]
    """
    return frame(graph, PAPERS_PER_YEAR, ["year", "papers"]).astype({"year": "int64", "papers": "int64"})


def trends(graph: KnowledgeGraph, kind: str = "Task", top: int = 8) -> pd.DataFrame:
    """How often the ``top`` most mentioned entities of class ``kind`` appear, year by year.

    Long format: ``year``, ``label``, ``papers`` (dated papers that year
    mentioning it) and ``share`` (of that year's dated papers); years where
    an entity is absent have ``papers`` 0. Empty when no paper has a date.

    >>> from kg.analysis.sample import tiny_graph
    >>> trends(tiny_graph(), "Task", top=1)[["year", "label", "share"]].values.tolist()
    [[2020, 'question answering', 1.0], [2021, 'question answering', 1.0], [2022, 'question answering', 0.0]]
    """
    import pandas as pd

    _check_type(kind)
    rows = frame(graph, TRENDS, ["year", "entity", "type", "label", "papers"])
    rows = rows[rows.type == kind]
    years = papers_per_year(graph).set_index("year").papers
    if rows.empty or years.empty:
        return pd.DataFrame(columns=["year", "entity", "label", "papers", "share"])
    totals = rows.groupby(["entity", "label"]).papers.sum().reset_index().sort_values(["papers", "label"], ascending=[False, True], kind="stable")
    chosen = totals.head(top)[["entity", "label"]]
    grid = chosen.merge(pd.DataFrame({"year": years.index}), how="cross")
    table = grid.merge(rows[["year", "entity", "papers"]], on=["year", "entity"], how="left").fillna({"papers": 0})
    table["papers"] = table.papers.astype("int64")
    table["share"] = table.papers / table.year.map(years)
    order = {entity: i for i, entity in enumerate(chosen.entity)}
    table = table.sort_values(["year", "entity"], key=lambda col: col.map(order) if col.name == "entity" else col, kind="stable")
    return table[["year", "entity", "label", "papers", "share"]].reset_index(drop=True)


def result_leaderboards(graph: KnowledgeGraph, *, boards: int | None = None, rows: int | None = None, min_entries: int = 1) -> pd.DataFrame:
    """Reported numbers ranked: per (dataset, metric), the absolute results best first.

    One row per result: ``task``, ``dataset``, ``metric``, ``rank``, ``method``,
    ``value`` (a number), ``value_text`` and ``unit`` as written, ``direction``
    (``higher``/``lower`` is better, from the metric table; ``unknown`` is ranked
    as higher), ``paper`` and ``evidence`` (the sentence that states it). Boards
    with most results first; ``boards`` and ``rows`` keep that many of each. The
    query is :data:`kg.views.numbers.LEADERBOARD_QUERY` (``kg query`` with
    ``?dataset_label`` and ``?metric_label`` bound gives one board).

    >>> from kg.analysis.sample import tiny_graph
    >>> result_leaderboards(tiny_graph()).empty
    True
    """
    import pandas as pd

    from kg.views.numbers import direction, leaderboards

    columns = ["task", "dataset", "metric", "rank", "method", "value", "value_text", "unit", "direction", "paper", "evidence"]
    found = []
    for number, ((dataset, _), board) in enumerate(leaderboards(graph.store, min_entries=min_entries).items()):
        if boards is not None and number >= boards:
            break
        for rank, row in enumerate(board[:rows] if rows else board, 1):
            found.append([row.task_label, dataset, row.metric_label, rank, row.method_label, float(row.value), row.value_text, row.unit, direction(row.metric_label), row.paper_id, row.evidence])
    return pd.DataFrame(found, columns=columns)


def claimed_improvements(graph: KnowledgeGraph) -> pd.DataFrame:
    """The improvements and relative results claimed over a named reference, one row each.

    Columns: ``method``, ``compared_to``, ``kind``, ``value`` (a number), ``value_text``,
    ``unit``, ``metric``, ``dataset``, ``paper``, ``evidence``.

    >>> from kg.analysis.sample import tiny_graph
    >>> list(claimed_improvements(tiny_graph()).columns)[:3]
    ['method', 'compared_to', 'kind']
    """
    import pandas as pd

    from kg.views.numbers import improvements

    columns = ["method", "compared_to", "kind", "value", "value_text", "unit", "metric", "dataset", "paper", "evidence"]
    rows = [
        [r.method_label, r.compared_to_label, r.kind, float(r.value), r.value_text, r.unit, r.metric_label, r.dataset_label, r.paper_id, r.evidence]
        for r in improvements(graph.store)
    ]
    return pd.DataFrame(rows, columns=columns)
