"""How much each answer rests on: support per fact, confidence per statement, rejected inputs.

A fact stated by one abstract is weaker evidence than one stated by several;
these tables let a surveyor see how much of the graph is single-sourced and
how confident the extractors were, and what the build could not read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from kg.analysis.queries import CONFIDENCES, FACT_SUPPORT, frame
from kg.views.sparql import select

if TYPE_CHECKING:
    import pandas as pd

    from kg.views import KnowledgeGraph

__all__ = ["checkable_evidence", "confidences", "rejections", "support_by_relation", "support_share"]


def support_by_relation(graph: KnowledgeGraph) -> pd.DataFrame:
    """Facts per relation by how many papers support them: columns ``relation``, ``support`` (1, 2, ... ), ``facts``.

    >>> from kg.analysis.sample import tiny_graph
    >>> table = support_by_relation(tiny_graph())
    >>> table[table.relation == "addresses"][["support", "facts"]].values.tolist()
    [[1, 1], [2, 2], [3, 1]]
    """
    facts = frame(graph, FACT_SUPPORT, ["subject", "relation", "object", "support", "confidence"])
    table = facts.groupby(["relation", "support"]).size().rename("facts").reset_index()
    return table.astype({"support": "int64", "facts": "int64"})


def support_share(graph: KnowledgeGraph, at_least: int = 2) -> float:
    """The share of facts supported by ``at_least`` papers (0.0 for a graph without facts).

    >>> from kg.analysis.sample import tiny_graph
    >>> round(support_share(tiny_graph()), 3)
    0.312
    """
    table = support_by_relation(graph)
    total = int(table.facts.sum())
    return float(table[table.support >= at_least].facts.sum() / total) if total else 0.0


def confidences(graph: KnowledgeGraph) -> pd.DataFrame:
    """The confidence of every statement (one fact as stated by one paper): ``relation``, ``confidence``.

    >>> from kg.analysis.sample import tiny_graph
    >>> table = confidences(tiny_graph())
    >>> len(table), float(table.confidence.min()), float(table.confidence.max())
    (22, 0.5, 0.95)
    """
    return frame(graph, CONFIDENCES, ["relation", "confidence"]).astype({"confidence": "float64"})


def rejections(build_dir: str | Path) -> pd.DataFrame:
    """The input documents a build rejected (``DIR/rejected.jsonl``): ``source``, ``code``, ``reason``.

    Empty when the build rejected nothing or the file is absent. Lines that
    are not JSON objects are skipped: this is a report, not a validator.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "rejected.jsonl").write_text('{"source": "a.txt:3", "reason": "no abstract", "code": "E106"}\\n')
    >>> rejections(folder).values.tolist()
    [['a.txt:3', 'E106', 'no abstract']]
    """
    import pandas as pd

    from kg.buildfolder import BuildFolder

    columns = ["source", "code", "reason"]
    path = BuildFolder(Path(build_dir)).rejected
    rows = []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                rows.append([str(record.get(c, "")) for c in columns])
    return pd.DataFrame(rows, columns=columns)


_NAMES = "SELECT ?e ?name WHERE { { ?e rdfs:label ?name } UNION { ?e skos:altLabel ?name } }"
_OWN = " (this paper)"  # the suffix of a paper's own unnamed method, not in its sentences


def checkable_evidence(graph: KnowledgeGraph, relation: str = "addresses") -> tuple[int, int]:
    """How many statements of ``relation`` a reader can check from their evidence, and how many there are.

    A statement is checkable when its evidence (the sentence stating the fact and,
    when the subject is named elsewhere, the sentence naming it: ``kg:subjectEvidence``)
    holds the subject's label or one of its other names, case-insensitively (a paper's
    own unnamed method counts without its " (this paper)" suffix).

    >>> from kg.analysis.sample import tiny_graph
    >>> checkable_evidence(tiny_graph())
    (8, 8)
    """
    names: dict[str, set[str]] = {}
    for row in select(graph.store, _NAMES):
        names.setdefault(row["e"], set()).add(row["name"].casefold().removesuffix(_OWN))
    rows = [f for f in graph.facts() if f.relation == relation]
    named = sum(any(n in f"{f.evidence} {f.subject_evidence}".casefold() for n in names.get(f.subject, ())) for f in rows)
    return named, len(rows)
