"""``graph.html``: an interactive page of the graph that works offline.

The page is one self-contained file: vis-network's JavaScript is read at run
time from the installed ``pyvis`` package (never copied into this repository)
and inlined, the layout is computed here (:func:`kg.export.layout.force_layout`,
fixed seed) and physics is off, so a browser draws thousands of nodes at once
and the same graph always gives a byte-identical page. Nodes are coloured by
type (with a legend) and sized by the number of papers that mention them;
hovering shows a node's label, type and other names, or an edge's relation and
a few evidence sentences. A search box finds a node by name.

We do not use pyvis's own template: it loads Bootstrap from a CDN even with
``cdn_resources="in_line"``, is rendered without autoescaping (its heading and
node menu go into the HTML raw), sets some tooltips with ``innerHTML``, and
has vis-network run physics in the browser.

Limits and dangers
------------------
- **Escaping.** All text from the graph (labels, titles, evidence sentences)
  travels only inside one ``<script type="application/json">`` block, with
  ``<``, ``>``, ``&``, ``'`` and (inside strings) ``"`` written as ``\\u`` escapes,
  and it is put on screen only as DOM text (``textContent``, vis-network's
  ``innerText``), never parsed as HTML. A label such as
  ``<script>alert(1)</script>`` is shown, not run.
- **No network.** The page references no remote resource (no ``src``/``href``
  to another site, no ``@import``, no ``url(http...)``). URLs in the data, such
  as a ``hasCode`` link, are shown as text and are not clickable.
- **Size.** About 0.47 MB of vis-network plus roughly 0.2 KB per node and
  edge (1.45 MB for 2,000 nodes and 3,000 edges with one sentence each);
  tooltips hold at most :data:`MAX_EVIDENCE` evidence sentences per edge, each
  cut at :data:`MAX_TEXT` characters, and :data:`MAX_ALT_LABELS` other names.
- **Scale.** Drawing without physics stays interactive to a few thousand nodes;
  far larger graphs should be filtered before export.
"""

from __future__ import annotations

import html
import importlib.util
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from kg.export.atomic import atomic_write
from kg.export.layout import force_layout, linked_nodes

if TYPE_CHECKING:
    from kg.store.graph import KnowledgeGraph

__all__ = [
    "COLOURS",
    "MAX_ALT_LABELS",
    "MAX_EVIDENCE",
    "MAX_TEXT",
    "generate_html",
    "json_for_html",
    "write_html",
]

#: Node colours by type (Okabe-Ito, safe for colour-blind readers); the last is for anything else.
COLOURS: dict[str, str] = {
    "Paper": "#9a9a9a",
    "Method": "#0072b2",
    "Task": "#e69f00",
    "Dataset": "#009e73",
    "Metric": "#cc79a7",
    "Code": "#56b4e9",
    "Other": "#d55e00",
}
#: Evidence sentences shown per edge, other names shown per node, characters per text.
MAX_EVIDENCE = 3
MAX_ALT_LABELS = 8
MAX_TEXT = 300
#: Characters of a label drawn on the canvas (the tooltip has it whole).
MAX_LABEL = 40
VIS_VERSION = "9.1.2"

# Characters that must never appear raw in the page's data block.
_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"}
# A JSON escape pair: `\\` must be consumed whole so that `\\"` is not read as `\"`.
_ESCAPE_PAIR = re.compile(r"\\.|[<>&']")

_CSS = """
html,body{margin:0;height:100%;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222}
#graph{position:absolute;inset:0;background:#fff}
#panel{position:absolute;top:12px;left:12px;background:rgba(255,255,255,.92);border:1px solid #ccc;
border-radius:6px;padding:8px 12px;max-width:300px;z-index:10}
#panel h1{font-size:15px;margin:0 0 4px}
#panel p{margin:2px 0 6px;color:#555;font-size:12px}
#legend{list-style:none;margin:0;padding:0}
#legend li{margin:2px 0;white-space:nowrap}
.swatch{display:inline-block;width:12px;height:12px;border-radius:50%;margin-right:6px;vertical-align:-1px}
#search{width:100%;box-sizing:border-box;margin-top:6px;padding:3px 6px;font:inherit}
div.vis-tooltip{position:absolute;visibility:hidden;z-index:5;pointer-events:none;background:#fffef6;
border:1px solid #999;border-radius:4px;box-shadow:2px 2px 8px rgba(0,0,0,.2);padding:6px 8px;
max-width:440px;white-space:normal;font-size:13px}
.tip-h{font-weight:600}
.tip-m{color:#555}
.tip-e{margin-top:4px;font-style:italic}
.tip-i{color:#888;font-size:11px;word-break:break-all}
"""

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  function tooltip(lines) {
    var box = document.createElement("div");
    lines.forEach(function (line) {
      var row = document.createElement("div");
      row.className = "tip-" + line[0];
      row.textContent = line[1];
      box.appendChild(row);
    });
    return box;
  }
  var nodes = new vis.DataSet(data.nodes.map(function (n) {
    return {id: n.id, label: n.label, x: n.x, y: n.y, size: n.size,
            color: data.colours[n.type], font: {size: n.font}, title: tooltip(n.tip)};
  }));
  var edges = new vis.DataSet(data.edges.map(function (e) {
    var edge = {id: e.id, from: e.from, to: e.to, width: e.width, title: tooltip(e.tip)};
    edge.smooth = e.bend ? {enabled: true, type: "curvedCW", roundness: e.bend} : false;
    return edge;
  }));
  var network = new vis.Network(document.getElementById("graph"), {nodes: nodes, edges: edges}, {
    physics: false,
    layout: {improvedLayout: false},
    interaction: {hover: true, tooltipDelay: 120, hideEdgesOnDrag: true},
    nodes: {shape: "dot", borderWidth: 1, font: {color: "#222", strokeWidth: 3, strokeColor: "#fff"}},
    edges: {arrows: {to: {enabled: true, scaleFactor: 0.4}}, color: {color: "#b8bec4", highlight: "#333", hover: "#555"}}
  });
  var labels = data.nodes.map(function (n) { return n.tip[0][1].toLowerCase(); });
  document.getElementById("search").addEventListener("keydown", function (event) {
    if (event.key !== "Enter") { return; }
    var wanted = event.target.value.trim().toLowerCase();
    var found = wanted ? labels.indexOf(wanted) : -1;
    if (found < 0 && wanted) { found = labels.findIndex(function (l) { return l.indexOf(wanted) >= 0; }); }
    if (found >= 0) {
      var id = data.nodes[found].id;
      network.selectNodes([id]);
      network.focus(id, {scale: 1.2, animation: false});
    }
  });
})();
"""


def json_for_html(value: Any) -> str:
    """JSON text that is safe inside ``<script type="application/json">``.

    Besides JSON's own escapes (everything outside ASCII, control characters),
    ``<``, ``>``, ``&`` and ``'`` are written as ``\\u`` escapes everywhere, and
    a double quote inside a string as ``\\u0022``, so no text from the graph can
    close the script element or an attribute, or open a comment.

    >>> json_for_html({"a": '</script> "x" & y'})
    '{"a":"\\\\u003c/script\\\\u003e \\\\u0022x\\\\u0022 \\\\u0026 y"}'
    >>> json.loads(json_for_html(["<b>", '"\\\\']))
    ['<b>', '"\\\\']
    """
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)

    def fix(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == '\\"':
            return "\\u0022"
        return _UNSAFE.get(token, token)

    return _ESCAPE_PAIR.sub(fix, text)


@lru_cache(maxsize=1)
def _vis_network() -> str:
    """vis-network's minified JavaScript, read from the installed pyvis package."""
    spec = importlib.util.find_spec("pyvis")  # locates pyvis without importing it
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("pyvis is not installed; it is needed for graph.html (pip install pyvis==0.3.2)")
    folder = Path(next(iter(spec.submodule_search_locations)))
    source = (folder / "lib" / f"vis-{VIS_VERSION}" / "vis-network.min.js").read_text(encoding="utf-8")
    # Inline script text must not contain "</script" or "<!--"; in JS strings, regexes and
    # comments `<\/` and `<\!` mean the same characters.
    source = re.sub(r"</(script)", r"<\\/\1", source, flags=re.IGNORECASE)
    return source.replace("<!--", "<\\!--")


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _node_tip(node: Any, attrs: Mapping[str, Any], kind: str) -> list[list[str]]:
    label = str(attrs.get("label", node))
    lines = [["h", label], ["m", f"{kind} · {_plural(int(attrs.get('support', 1)), 'paper')}"]]
    for field in ("title", "identifier"):
        if attrs.get(field) and str(attrs[field]) != label:
            lines.append(["m", _cut(f"{field}: {attrs[field]}")])
    alts = _as_list(attrs.get("alt_labels"))
    if alts:
        shown = ", ".join(alts[:MAX_ALT_LABELS])
        more = f" (+{len(alts) - MAX_ALT_LABELS} more)" if len(alts) > MAX_ALT_LABELS else ""
        lines.append(["m", _cut(f"also: {shown}") + more])
    if str(node) != label:
        lines.append(["i", str(node)])
    return lines


def _edge_tip(source: str, target: str, attrs: Mapping[str, Any]) -> list[list[str]]:
    relation = str(attrs.get("relation", ""))
    papers = _as_list(attrs.get("papers"))
    support = int(attrs.get("support", len(papers) or 1))
    summary = _plural(support, "paper")
    if attrs.get("confidence") is not None:
        summary += f" · confidence {float(attrs['confidence']):.2f}"
    lines = [["h", f"{source} {relation} {target}"], ["m", summary]]
    evidence = _as_list(attrs.get("evidence"))
    lines += [["e", _cut(sentence)] for sentence in evidence[:MAX_EVIDENCE]]
    if len(evidence) > MAX_EVIDENCE:
        lines.append(["m", f"(+{len(evidence) - MAX_EVIDENCE} more sentences)"])
    return lines


def _payload(graph: nx.Graph, seed: int) -> tuple[dict[str, Any], Counter[str]]:
    """The page's data: nodes with positions and tooltips, edges, colours."""
    legend_order = {kind: i for i, kind in enumerate(COLOURS)}

    def by_type_and_label(node: Any) -> tuple[int, str, str]:
        attrs = graph.nodes[node]
        return (legend_order.get(str(attrs.get("type")), len(COLOURS)), str(attrs.get("label", "")), str(node))

    positions = force_layout(graph, seed=seed, isolated_key=by_type_and_label)
    order = sorted(graph.nodes, key=str)
    ids = {node: i for i, node in enumerate(order)}
    kinds: Counter[str] = Counter()
    nodes = []
    for node in order:
        attrs = graph.nodes[node]
        kind = str(attrs.get("type") or "Other")
        colour_key = kind if kind in COLOURS else "Other"
        kinds[colour_key] += 1
        support = max(1, int(attrs.get("support", 1)))
        x, y = positions[node]
        label = str(attrs.get("label", node))
        nodes.append(
            {
                "id": ids[node],
                "label": _cut(label, MAX_LABEL),
                "x": x,
                "y": y,
                "size": round(min(40.0, 6 + 4 * math.sqrt(support)), 1),
                "font": round(min(60.0, 12 + 6 * math.sqrt(support - 1)), 1),
                "type": colour_key,
                "tip": _node_tip(node, attrs, kind),
            }
        )
    edge_items = (
        sorted(graph.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2])))
        if graph.is_multigraph()
        else sorted(((u, v, None, d) for u, v, d in graph.edges(data=True)), key=lambda e: (str(e[0]), str(e[1])))
    )
    parallel: defaultdict[frozenset[int], int] = defaultdict(int)
    edges = []
    for source, target, _key, attrs in edge_items:
        pair = frozenset((ids[source], ids[target]))
        rank = parallel[pair]  # parallel or opposite edges of one pair bend apart
        parallel[pair] += 1
        support = max(1, int(attrs.get("support", 1)))
        edges.append(
            {
                "id": len(edges),
                "from": ids[source],
                "to": ids[target],
                "width": round(1 + math.log2(support), 2),
                "bend": round(0.15 * rank, 2),
                "tip": _edge_tip(
                    str(graph.nodes[source].get("label", source)), str(graph.nodes[target].get("label", target)), attrs
                ),
            }
        )
    return {"nodes": nodes, "edges": edges, "colours": COLOURS}, kinds


def _legend(kinds: Counter[str]) -> str:
    rows = [
        f'<li><span class="swatch" style="background:{COLOURS[kind]}"></span>{html.escape(kind)} ({count})</li>'
        for kind, count in ((k, kinds[k]) for k in COLOURS)
        if count
    ]
    return '<ul id="legend">' + "".join(rows) + "</ul>"


def generate_html(graph: nx.Graph, *, title: str = "Knowledge graph", seed: int = 0, omitted: int = 0) -> str:
    """The whole ``graph.html`` page for a NetworkX graph, as text.

    Parameters
    ----------
    graph
        The graph's NetworkX view (``KnowledgeGraph.to_networkx()``): node
        attributes ``type``, ``label``, ``alt_labels``, ``support``; edge
        attributes ``relation``, ``support``, ``evidence``, ``confidence``.
        Missing attributes are tolerated.
    title
        The page's title and heading.
    seed
        Seed of the layout; the same graph and seed give the same bytes.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("m", type="Method", label="<b>BERT</b>", support=2)
    >>> g.add_node("t", type="Task", label="QA")
    >>> _ = g.add_edge("m", "t", key="addresses", relation="addresses", evidence=["We use BERT for QA."])
    >>> page = generate_html(g)
    >>> "<b>BERT</b>" in page, "\\\\u003cb\\\\u003eBERT" in page, "Method (1)" in page
    (False, True, True)
    """
    payload, kinds = _payload(graph, seed)
    count = f"{_plural(graph.number_of_nodes(), 'node')}, {_plural(graph.number_of_edges(), 'edge')}"
    linked = linked_nodes(graph)
    if 0 < len(linked) < graph.number_of_nodes():
        count += f"; unlinked nodes ({graph.number_of_nodes() - len(linked)}) sit in rows below"
    if omitted:
        count += f"; {_plural(omitted, 'node')} in no fact (entities only mentioned, papers without facts) left out; the RDF files keep them"
    heading = html.escape(title)
    return "".join(
        [
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            f"<title>{heading}</title>\n<style>{_CSS}</style>\n",
            f"<script>{_vis_network()}</script>\n</head>\n<body>\n",
            '<div id="graph"></div>\n<div id="panel">',
            f"<h1>{heading}</h1><p>{count}. Hover for details, scroll to zoom, drag to pan.</p>",
            _legend(kinds),
            '<input id="search" type="search" placeholder="Find a node, then Enter" aria-label="Find a node">',
            "</div>\n",
            f'<script type="application/json" id="kg-data">{json_for_html(payload)}</script>\n',
            f"<script>{_SCRIPT}</script>\n</body>\n</html>\n",
        ]
    )


def write_html(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``graph.html`` for ``kg`` to ``path`` atomically; see :func:`generate_html`.

    The page draws the nodes that take part in facts; entities that are only
    mentioned would otherwise fill most of it (their count is shown instead;
    the RDF exports keep them).
    """
    view = kg.to_networkx()
    linked = linked_nodes(view)
    omitted = view.number_of_nodes() - len(linked) if linked else 0
    page = generate_html(view.subgraph(linked) if omitted else view, omitted=omitted)
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(page)
