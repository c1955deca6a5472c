"""``kg report``: one static HTML page of plots and tables about a build, readable offline.

Every plot is drawn by matplotlib and inlined as SVG; the page has no script
and loads nothing (no CDN, no web font, no remote image), so it opens from a
file, an e-mail or an archive years later. Each plot comes with a caption and
the SPARQL query its numbers come from, shown on click and downloadable as a
``.rq`` file for ``kg query DIR @file.rq``. Each ``<figure>`` carries its
name, title and number of drawn marks as ``data-`` attributes, so tests (and
people) can tell a plot with data from an empty one.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from kg.analysis import plots, queries
from kg.analysis.networks import bridges, communities, community_table, entity_graph
from kg.analysis.quality import confidences, rejections, support_by_relation, support_share
from kg.analysis.tables import leaderboard, method_dataset_matrix, result_leaderboards, task_gaps, top_entities, trends
from kg.errors import UserError
from kg.io import atomic_write

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from kg.views import KnowledgeGraph

__all__ = ["Plot", "Table", "load_build", "missing_module", "render_report", "report_sections", "write_report"]

#: What the report needs beyond the core install (the ``analysis`` extra).
REPORT_MODULES = ("pandas", "matplotlib")


@dataclass(frozen=True)
class Plot:
    """One figure of the report: a short ``name`` (an HTML id), its caption and the SPARQL behind it."""

    name: str
    title: str
    caption: str
    sparql: str
    figure: Figure


@dataclass(frozen=True)
class Table:
    """One table of the report, with its caption and SPARQL."""

    name: str
    title: str
    caption: str
    sparql: str
    data: pd.DataFrame


def _fill(table: pd.DataFrame) -> pd.DataFrame:
    """Lists become ``; ``-joined text, counts by name ``12 Method, 3 Task``, floats three decimals (whole numbers without).

    >>> import pandas as pd
    >>> _fill(pd.DataFrame({"a": [["x", "y"]], "b": [0.12345], "c": [{"Method": 12, "Task": 3}], "d": [17.0]})).values.tolist()
    [['x; y', '0.123', '12 Method, 3 Task', '17']]
    """
    shown = table.copy()
    for column in shown.columns:
        if shown[column].map(lambda v: isinstance(v, list)).any():
            shown[column] = shown[column].map(lambda v: "; ".join(map(str, v)) if isinstance(v, list) else v)
        elif shown[column].map(lambda v: isinstance(v, dict)).any():
            shown[column] = shown[column].map(lambda v: ", ".join(f"{n} {k}" for k, n in v.items()) if isinstance(v, dict) else v)
        elif shown[column].dtype.kind == "f":
            shown[column] = shown[column].map(lambda v: f"{v:.0f}" if float(v).is_integer() else f"{v:.3f}")
    return shown


def report_sections(graph: KnowledgeGraph, build_dir: str | Path | None = None, *, top: int = 15, seed: int = 0) -> list[Plot | Table]:
    """Compute every plot and table of the report, in page order.

    ``build_dir`` is where ``rejected.jsonl`` is read from (none when ``None``).

    >>> from kg.analysis.sample import tiny_graph
    >>> sections = report_sections(tiny_graph())
    >>> [(s.name, plots.marks(s.figure) > 0) for s in sections if isinstance(s, Plot)][:4]
    [('top-tasks', True), ('top-datasets', True), ('top-metrics', True), ('method-dataset', True)]
    """
    G = entity_graph(graph)
    found = communities(G, seed=seed)
    support = support_by_relation(graph)
    share = support_share(graph)
    sections: list[Plot | Table] = []
    for kind, noun in (("Task", "tasks"), ("Dataset", "datasets"), ("Metric", "metrics")):
        sections.append(
            Plot(f"top-{noun}", f"Most mentioned {noun}", f"The {top} {noun} named by most abstracts (rows of type kg:{kind}).", queries.USAGE, plots.bar_chart(top_entities(graph, kind, top), f"Most mentioned {noun}"))
        )
    sections.append(
        Plot("method-dataset", "Methods × datasets for the top tasks", "Papers stating that a method is evaluated on a dataset, for the three tasks with most methods evaluated on one (the query gives every task).", queries.METHOD_DATASET, plots.heat_map(method_dataset_matrix(graph, tasks=3, methods=20, datasets=top), "Methods × datasets for the top tasks"))
    )
    board = leaderboard(graph)
    board = board[(board.datasets.map(len) + board.metrics.map(len)) > 0]
    if not board.empty:
        busiest = board.groupby("task").size().sort_index().sort_values(ascending=False, kind="stable").head(3).index
        board = board[board.task.isin(busiest)].groupby("task", sort=False).head(8)
    caption = "Methods per task (papers stating it) with the datasets and metrics each is evaluated with, for the three tasks with most evaluated methods."
    sections.append(Table("leaderboard", "Leaderboard of the busiest tasks", caption, queries.LEADERBOARD, board))
    from kg.views.numbers import LEADERBOARD_QUERY

    numbers = result_leaderboards(graph, boards=3, rows=10)
    caption = (
        "Reported numbers: for the (dataset, metric) pairs with most results, the absolute values abstracts state, best first "
        "(higher or lower by the metric), each with its paper and the sentence that states it."
    )
    sections.append(Table("result-leaderboards", "Leaderboards of reported results", caption, LEADERBOARD_QUERY, numbers))
    sections.append(
        Plot("communities", "Communities of entities", f"Louvain communities (seed {seed}) of the graph linking entities named in the same abstract; the best-connected members of the largest ones.", queries.COOCCURRENCE, plots.community_map(G, found, "Communities of entities", seed=seed))
    )
    sections.append(Table("community-members", "What each community is about", "The largest communities and their best-connected members.", queries.COOCCURRENCE, community_table(G, found).head(10)))
    sections.append(Table("bridges", "Bridges between communities", "Entities whose links spread over several communities (participation coefficient × weighted degree).", queries.COOCCURRENCE, bridges(G, found)[["label", "type", "community", "communities", "participation", "strength"]].head(top)))
    sections.append(Table("task-gaps", "Crowded tasks with few datasets", "Tasks many papers mention but few datasets serve: papers / (datasets + 1).", queries.TASK_GAPS, task_gaps(graph)[["label", "papers", "methods", "datasets", "gap"]].head(top)))
    sections.append(Plot("trends", "Tasks over the years", "Share of each year's dated papers that mention each of the most mentioned tasks.", queries.TRENDS, plots.trend_lines(trends(graph, "Task", top=6), "Tasks over the years")))
    sections.append(
        Plot("support", "Support per fact", f"Facts per relation by the number of papers stating them; {share:.1%} of facts have two or more.", queries.FACT_SUPPORT, plots.support_bars(support, "Support per fact"))
    )
    sections.append(Plot("confidence", "Confidence of the extracted facts", "The extractors' confidence for every fact as stated by one paper.", queries.CONFIDENCES, plots.histogram(confidences(graph).confidence, "Confidence of the extracted facts")))
    if build_dir is not None:
        rejected = rejections(build_dir)
    else:
        import pandas as pd

        rejected = pd.DataFrame(columns=["source", "code", "reason"])
    caption = f"{len(rejected)} input document(s) were rejected by the build (from rejected.jsonl); the first {top} are listed."
    sections.append(Table("rejected", "Rejected inputs", caption, "", rejected.head(top)))
    return sections


def _svg(figure: Figure) -> str:
    """``figure`` as an inline ``<svg>`` element: no XML prologue, no metadata, stable ids.

    >>> from matplotlib.figure import Figure
    >>> _svg(Figure()).startswith("<svg")
    True
    """
    from matplotlib import rc_context

    buffer = io.StringIO()
    with rc_context({"svg.hashsalt": "kg-report"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None, "Type": None, "Format": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _query_block(name: str, sparql: str) -> str:
    """The ``<details>`` block showing ``sparql``, with a ``data:`` link that saves it as ``NAME.rq``.

    >>> block = _query_block("top", "SELECT * WHERE { ?s ?p ?o }")
    >>> "&lt;" not in block, 'download="top.rq"' in block, _query_block("x", "")
    (True, True, '')
    """
    if not sparql:
        return ""
    query = sparql.strip() + "\n"
    link = "data:application/sparql-query;charset=utf-8," + quote(query)
    return f'<details><summary>SPARQL</summary><pre><code>{html.escape(query)}</code></pre><a download="{name}.rq" href="{html.escape(link)}">download {name}.rq</a></details>'


_STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
figure, section.table { margin: 2em 0; padding: 1em; border: 1px solid #ddd; border-radius: 6px; }
figure svg { max-width: 100%; height: auto; }
figcaption, .caption { color: #444; margin: .5em 0; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border-bottom: 1px solid #eee; padding: 3px 8px; text-align: left; vertical-align: top; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; font-size: 12px; }
th[data-sort] { cursor: pointer; user-select: none; }
th[data-sort="ascending"]::after { content: " ▲"; } th[data-sort="descending"]::after { content: " ▼"; }
input.filter { margin: .3em 0; padding: 2px 6px; font: inherit; font-size: 13px; }
.summary td:first-child { font-weight: 600; }
"""


# Click a column's header to sort by it (again to reverse); type in the box above a table to keep
# the rows holding that text. Numbers sort as numbers. Inline, so the page stays one offline file.
_SCRIPT = """
document.querySelectorAll("section.table table").forEach(function (table) {
  var body = table.tBodies[0], heads = table.tHead ? table.tHead.rows[0].cells : [];
  var filter = document.createElement("input");
  filter.className = "filter"; filter.type = "search"; filter.placeholder = "Filter rows";
  filter.setAttribute("aria-label", "Filter the rows of this table");
  table.parentNode.insertBefore(filter, table);
  filter.addEventListener("input", function () {
    var wanted = filter.value.toLowerCase();
    Array.from(body.rows).forEach(function (row) { row.hidden = wanted && row.textContent.toLowerCase().indexOf(wanted) < 0; });
  });
  Array.from(heads).forEach(function (head, column) {
    head.dataset.sort = "none"; head.tabIndex = 0; head.title = "Sort by this column";
    function sort() {
      var up = head.dataset.sort !== "ascending";
      Array.from(heads).forEach(function (h) { h.dataset.sort = "none"; });
      head.dataset.sort = up ? "ascending" : "descending";
      var rows = Array.from(body.rows), key = function (row) { return row.cells[column].textContent.trim(); };
      var numeric = rows.every(function (row) { return key(row) === "" || !isNaN(Number(key(row))); });
      rows.sort(function (a, b) {
        var x = key(a), y = key(b), order = numeric ? Number(x) - Number(y) : x.localeCompare(y);
        return up ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    }
    head.addEventListener("click", sort);
    head.addEventListener("keydown", function (event) { if (event.key === "Enter") { sort(); } });
  });
});
"""


def render_report(sections: list[Plot | Table], title: str, summary: dict[str, str]) -> str:
    """The report page: a summary table, then every section; text only, nothing remote.

    >>> from kg.analysis.sample import tiny_graph
    >>> page = render_report(report_sections(tiny_graph()), "Tiny", {"papers": "6"})
    >>> page.count("<figure"), "http://" in page.replace('xmlns="http://www.w3.org/2000/svg"', "").replace('xmlns:xlink="http://www.w3.org/1999/xlink"', "")
    (8, False)
    """
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        '<table class="summary">' + "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in summary.items()) + "</table>",
        "<nav><ul>" + "".join(f'<li><a href="#{s.name}">{html.escape(s.title)}</a></li>' for s in sections) + "</ul></nav>",
    ]
    for section in sections:
        if isinstance(section, Plot):
            drawn = plots.marks(section.figure)
            empty = plots.empty_reason(section.figure)
            note = f' data-empty="{html.escape(empty)}"' if empty else ""
            caption = section.caption + (f" Nothing to draw: {empty}." if empty else "")
            parts.append(
                f'<figure id="{section.name}" data-plot="{section.name}" data-title="{html.escape(section.title)}" data-marks="{drawn}"{note}>'
                f"<h2>{html.escape(section.title)}</h2>{_svg(section.figure)}"
                f"<figcaption>{html.escape(caption)}</figcaption>{_query_block(section.name, section.sparql)}</figure>"
            )
        else:
            body = _fill(section.data).to_html(index=False, border=0, escape=True) if not section.data.empty else "<p>none</p>"
            parts.append(
                f'<section class="table" id="{section.name}" data-table="{section.name}" data-title="{html.escape(section.title)}" data-rows="{len(section.data)}">'
                f'<h2>{html.escape(section.title)}</h2><p class="caption">{html.escape(section.caption)}</p>{body}{_query_block(section.name, section.sparql)}</section>'
            )
    parts.append("<footer><p>Made by <code>kg report</code>. Reproduce any number with <code>kg query DIR @query.rq</code>.</p></footer>")
    parts.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


def _summary(graph: KnowledgeGraph, share: float) -> dict[str, str]:
    """The summary table at the top of the report: papers, entities, facts, support.

    >>> from kg.analysis.sample import tiny_graph
    >>> _summary(tiny_graph(), 0.5)["entities"]
    '5 methods, 2 tasks, 3 datasets, 2 metrics'
    """
    counts = graph.stats()
    classes = counts["classes"]
    return {
        "papers": str(classes.get("Paper", 0)),
        "entities": ", ".join(f"{classes.get(k, 0)} {k.lower()}s" for k in ("Method", "Task", "Dataset", "Metric")),
        "facts": ", ".join(f"{n} {r}" for r, n in counts["relations"].items()) or "none",
        "facts with support ≥ 2": f"{share:.1%}",
    }


def missing_module(modules: tuple[str, ...] | None = None) -> str | None:
    """The first of ``modules`` (default :data:`REPORT_MODULES`) that is not installed, or ``None``.

    >>> missing_module(("json", "no_such_module_kg"))
    'no_such_module_kg'
    """
    import importlib.util

    modules = REPORT_MODULES if modules is None else modules
    return next((name for name in modules if importlib.util.find_spec(name) is None), None)


def load_build(build_dir: str | Path) -> KnowledgeGraph:
    """The graph of a build folder, refusing a folder that is not one (``E307``) rather than opening it as a store.

    >>> import tempfile
    >>> load_build(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    kg.errors.UserError: E307: ... is not a kg build folder (no manifest.json): build it first with `kg build INPUT --out ...`
    """
    from kg.buildfolder import is_build_folder
    from kg.views import load

    folder = Path(build_dir)
    if folder.is_dir() and not is_build_folder(folder):
        raise UserError("E307", path=folder)
    return load(folder)


def write_report(build_dir: str | Path, out: str | Path, *, title: str | None = None, graph: KnowledgeGraph | None = None) -> Path:
    """Write the report of the build in ``build_dir`` to ``out`` (atomically); return ``out``.

    Raises :class:`~kg.errors.UserError` ``E301``/``E307`` when there is no
    graph in ``build_dir`` and ``E391`` when ``out``'s folder does not exist;
    nothing is written then. ``graph`` saves loading the build again.

    >>> import tempfile, pathlib
    >>> from kg.analysis.sample import tiny_build
    >>> folder = tiny_build(pathlib.Path(tempfile.mkdtemp()))
    >>> write_report(folder, folder / "report.html").read_text(encoding="utf-8").count('data-plot="')
    8
    """
    out = Path(out)
    if not out.parent.is_dir():
        raise UserError("E391", path=out, folder=out.parent)
    graph = graph if graph is not None else load_build(build_dir)
    sections = report_sections(graph, build_dir)
    name = title or f"kg report: {Path(build_dir).resolve().name}"
    page = render_report(sections, name, _summary(graph, support_share(graph)))
    with atomic_write(out, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(page)
    return out
