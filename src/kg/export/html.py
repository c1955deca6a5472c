"""``graph.html``: an explorer of the graph in one offline file.

The page is one self-contained file: vis-network's JavaScript is read at run
time from the installed ``pyvis`` package (never copied into this repository)
and inlined with our own script and styles (``kg/export/assets/``); the layout
is computed here (:func:`kg.export.layout.force_layout`, community-aware,
fixed seed) and physics is off, so the same graph always gives a
byte-identical page. What a reader can do with it:

- **Find** a node by any of its names, with suggestions ranked exact label >
  exact other name > prefix > substring, then by support (case, accents,
  hyphens and plurals ignored); choosing one focuses its neighbourhood.
- **Read** a node's details in a side panel (click, or Enter in the search):
  its names, type and support; an entity's facts grouped by relation with the
  supporting papers and the evidence sentences (both mentions highlighted, and
  the sentence naming the subject when the stating one does not); a
  paper's title, authors, year, link, abstract and facts. Clicking an edge
  shows that fact. All of it is plain selectable text with working links.
- **Filter** by type (the legend), relation, minimum support, minimum
  confidence and year; focus on a node's neighbours within one or two hops
  (the rest is dimmed); reset.
- **Scale**: only the :data:`DEFAULT_CAP` most supported nodes that take part
  in a fact and pass the filters are drawn at first ("Show more" adds as many again, a chosen node
  and its neighbours are always drawn), and labels are sized by support so the
  largest stay readable when zoomed out. ``benchmarks/page.py`` measures it.

We do not use pyvis's own template: it loads Bootstrap from a CDN even with
``cdn_resources="in_line"``, is rendered without autoescaping and has
vis-network run physics in the browser. We use vis-network rather than a WebGL
renderer because no installed package ships one as a standalone file:
ipysigma bundles sigma.js and graphology only inside Jupyter widget bundles.

Data
----
One ``<script type="application/json" id="kg-data">`` block: ``nodes`` (list;
the index is the id) with ``label``, ``type``, ``support``, ``x``, ``y``,
``iri`` and optionally ``alt`` (other names), ``paper`` (index into
``papers``), ``in`` (indexes of the papers mentioning it), ``link``, ``res`` (the numeric
results it reached or that were reported on it: ``[text, paper index, sentence, [[start, end]]]``,
the value highlighted); ``edges`` with ``from``, ``to``, ``rel``, ``support``,
``conf`` and ``ev``, a list of ``[paper index, sentence, [[start, end], ...]]``
(mention offsets in UTF-16 code units, as JavaScript counts), followed by
``naming sentence, [[start, end], ...]`` when the subject is named in another
sentence of the abstract than the one stating the fact; ``papers`` with
``id`` and optionally ``title`` (else ``label``, the abstract's first words), ``year``, ``authors``, ``link``, ``abstract``,
``node``; ``types``, ``relations``, ``colours`` and ``cap``. The script reads
it through a *source* object, so a served page can fetch the same shapes:
``kg serve``'s ``/explore`` (:mod:`kg.serve.explore`) makes pieces of the graph
with :func:`explorer_payload` and adds ``centre`` (the node a piece is about),
node fields ``facts`` (all its facts), ``more`` (neighbours left out) and
``inMore`` (mentioning papers left out), and, for the whole graph, ``counts``,
``total`` and ``years``. Search rules have a Python twin in :mod:`kg.export.search`.

Limits and dangers
------------------
- **Escaping.** All text from the graph travels only inside the JSON block,
  with ``<``, ``>``, ``&``, ``'`` and (inside strings) ``"`` written as ``\\u``
  escapes, and it is put on screen only as DOM text (``textContent``), never
  parsed as HTML. A Content-Security-Policy (:func:`content_security_policy`)
  allows only the page's own inline script and style elements, by hash: no
  remote load, no inline event handler, no injected script can run.
- **Links.** Only ``http(s)`` URLs become links (a paper's URL, else its DOI
  at doi.org; a ``hasCode`` URL); they open in a new tab, and nothing is
  fetched until the reader clicks one.
- **Size.** About 0.47 MB of vis-network plus roughly 0.3 KB per node and
  edge; each edge keeps at most :data:`MAX_EVIDENCE` sentences of
  :data:`MAX_TEXT` characters, each node :data:`MAX_ALT_LABELS` other names,
  each paper :data:`MAX_ABSTRACT` characters of abstract. A 100,000-node graph
  makes a page of about 47 MB (synthetic, 150,000 edges): it opens and searches
  within seconds (``benchmarks/page.py``), but :func:`write_html` keeps
  :data:`PAGE_LIMIT` nodes; ``kg serve``'s ``/explore`` browses any size, fetching what it draws.
"""

from __future__ import annotations

import base64
import hashlib
import html
import importlib.util
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any

import networkx as nx

from kg import vocab
from kg.model import paper_label
from kg.export.atomic import atomic_write
from kg.export.layout import communities, force_layout, linked_nodes

if TYPE_CHECKING:
    from kg.store.graph import KnowledgeGraph

__all__ = [
    "COLOURS",
    "DEFAULT_CAP",
    "MAX_ABSTRACT",
    "MAX_ALT_LABELS",
    "MAX_EVIDENCE",
    "MAX_TEXT",
    "PAGE_LIMIT",
    "content_security_policy",
    "explorer_asset",
    "explorer_page",
    "explorer_payload",
    "generate_html",
    "json_for_html",
    "layout",
    "mention_spans",
    "mentioned_in",
    "page_note",
    "page_nodes",
    "paper_record",
    "paper_records",
    "vis_network_js",
    "write_html",
]

#: Node colours by type, in legend order (from the vocabulary table); the last is for anything else.
COLOURS: dict[str, str] = vocab.COLOURS
#: Evidence sentences kept per edge, other names per node, characters per sentence and abstract.
MAX_EVIDENCE = 25
MAX_ALT_LABELS = 12
MAX_TEXT = 600
MAX_ABSTRACT = 4000
#: Nodes drawn when the page opens (the most supported that pass the filters).
DEFAULT_CAP = 1500
#: Most nodes one page holds. A larger graph's page keeps the ``PAGE_LIMIT`` most
#: supported nodes that take part in a fact (``benchmarks/page.py``: 20,000 nodes draw
#: in under 3 s); a page of every node of a field (200,000 and more) would be too
#: large to open, and ``kg serve``'s explorer browses such graphs whole.
PAGE_LIMIT = 20_000
VIS_VERSION = "9.1.2"

# Characters that must never appear raw in the page's data block.
_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"}
# A JSON escape pair: `\\` must be consumed whole so that `\\"` is not read as `\"`.
_ESCAPE_PAIR = re.compile(r"\\.|[<>&']")
_HTTP = re.compile(r"^https?://[^\s]+$", re.IGNORECASE)

_PAPERS = """
SELECT ?p ?id ?title ?label ?year ?doi ?url ?abstract WHERE {
  ?p a kg:Paper ; dcterms:identifier ?id .
  OPTIONAL { ?p dcterms:title ?title } OPTIONAL { ?p rdfs:label ?label } OPTIONAL { ?p dcterms:date ?year } OPTIONAL { ?p kg:doi ?doi }
  OPTIONAL { ?p schema:url ?url } OPTIONAL { ?p dcterms:abstract ?abstract }
} ORDER BY ?id ?title ?year ?doi ?url
"""
_AUTHORS = "SELECT ?id ?name WHERE { ?p a kg:Paper ; dcterms:identifier ?id ; dcterms:creator ?name }"
_MENTIONS = "SELECT ?n ?id WHERE { ?n kg:mentionedIn ?p . ?p dcterms:identifier ?id }"

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
def vis_network_js() -> str:
    """vis-network's minified JavaScript, read from the installed pyvis package (safe to inline)."""
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
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _http(url: Any) -> str | None:
    """``url`` when it is an http(s) URL (the only links the page makes), else None."""
    return str(url) if url and _HTTP.match(str(url)) else None


def _utf16(text: str, index: int) -> int:
    """The offset in UTF-16 code units (what JavaScript counts) of ``text[index]``."""
    return len(text[:index].encode("utf-16-le")) // 2


def mention_spans(sentence: str, *names: Sequence[str]) -> list[list[int]]:
    """Where each list of ``names`` is first mentioned in ``sentence``, as JavaScript offsets.

    For each list (a node's label and other names), the longest name found as
    a whole word, ignoring case, gives one ``[start, end)``; lists with no name
    in the sentence give nothing, and a span overlapping an earlier one is dropped.

    >>> mention_spans("We apply LoRA to question answering.", ["Low-Rank Adaptation", "LoRA"], ["QA", "question answering"])
    [[9, 13], [17, 35]]
    >>> mention_spans("Nothing here.", ["BERT"])
    []
    """
    return [[_utf16(sentence, a), _utf16(sentence, b)] for a, b in mention_matches(sentence, *names)]


def mention_matches(sentence: str, *names: Sequence[str]) -> list[tuple[int, int]]:
    """:func:`mention_spans` in Python string offsets, in the order of ``names``."""
    spans: list[tuple[int, int]] = []
    for forms in names:
        for form in sorted({f for f in forms if len(f.strip()) >= 2}, key=lambda f: (-len(f), f)):
            match = re.search(rf"(?<!\w){re.escape(form)}(?!\w)", sentence, flags=re.IGNORECASE)
            if match and not any(match.start() < end and start < match.end() for start, end in spans):
                spans.append((match.start(), match.end()))
                break
    return spans


def paper_record(iri: str, fields: Mapping[str, Any], authors: Iterable[str] = ()) -> dict[str, Any]:
    """One paper's metadata as the explorer keeps it, from its stored ``title``, ``abstract``, ``year``, ``doi``, ``url``.

    ``link`` is the URL when it is http(s), else the DOI as a ``https://doi.org/``
    link; ``year`` the first four digits of the date; authors are sorted (RDF keeps no order).

    >>> paper_record("i", {"year": "2021", "doi": "10.1/x", "url": "ftp://x"}, ["B", "A"])
    {'iri': 'i', 'authors': ['A', 'B'], 'year': 2021, 'link': 'https://doi.org/10.1/x'}
    """
    record: dict[str, Any] = {"iri": iri, "authors": sorted(str(a) for a in authors)}
    for field in ("title", "abstract", "label"):
        if fields.get(field) is not None:
            record[field] = str(fields[field])
    year = re.match(r"\d{4}", str(fields.get("year") or ""))
    if year:
        record["year"] = int(year.group(0))
    doi = fields.get("doi")
    record["link"] = _http(fields.get("url")) or (f"https://doi.org/{doi}" if doi else None)
    return record


def paper_records(kg: KnowledgeGraph) -> dict[str, dict[str, Any]]:
    """``paper id -> {iri, title, year, authors, link, abstract}`` from the graph's metadata (:func:`paper_record`)."""
    iris: dict[str, str] = {}
    fields: dict[str, dict[str, Any]] = {}
    for row in kg.select(_PAPERS):
        pid = str(row["id"])
        iris.setdefault(pid, row["p"])
        found = fields.setdefault(pid, {})
        for field in ("title", "label", "abstract", "doi", "url", "year"):
            if row.get(field) is not None and field not in found:
                found[field] = row[field]
    authors: defaultdict[str, list[str]] = defaultdict(list)
    for row in kg.select(_AUTHORS):
        authors[str(row["id"])].append(str(row["name"]))
    return {pid: paper_record(iris[pid], found, authors.get(pid, ())) for pid, found in fields.items()}


def mentioned_in(kg: KnowledgeGraph) -> dict[str, list[str]]:
    """``node IRI -> ids of the papers mentioning it`` (``kg:mentionedIn``), sorted."""
    found: defaultdict[str, list[str]] = defaultdict(list)
    for row in kg.select(_MENTIONS):
        found[str(row["n"])].append(str(row["id"]))
    return {node: sorted(ids) for node, ids in found.items()}


def _paper_entry(paper_id: str, record: Mapping[str, Any], node: int | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": paper_id}
    if record.get("title"):
        entry["title"] = str(record["title"])
    else:  # what a person reads instead of the id: the abstract's first words
        entry["label"] = str(record.get("label") or paper_label(None, record.get("abstract"), paper_id))
    if record.get("year"):
        entry["year"] = int(record["year"])
    if record.get("authors"):
        entry["authors"] = [str(a) for a in record["authors"]]
    if _http(record.get("link")):
        entry["link"] = record["link"]
    if record.get("abstract"):
        entry["abstract"] = _cut(str(record["abstract"]), MAX_ABSTRACT)
    if node is not None:
        entry["node"] = node
    return entry


def _edge_items(graph: nx.Graph) -> list[tuple[Any, Any, Mapping[str, Any]]]:
    if graph.is_multigraph():
        items = sorted(graph.edges(keys=True, data=True), key=lambda e: (str(e[0]), str(e[1]), str(e[2])))
        return [(u, v, d) for u, v, _k, d in items]
    return sorted(graph.edges(data=True), key=lambda e: (str(e[0]), str(e[1])))


def layout(graph: nx.Graph, seed: int = 0) -> dict[Any, tuple[int, int]]:
    """The explorer's positions for ``graph``: community-aware force layout, nodes in no fact in rows below."""
    legend_order = {kind: i for i, kind in enumerate(COLOURS)}

    def by_type_and_label(node: Any) -> tuple[int, str, str]:
        attrs = graph.nodes[node]
        return (legend_order.get(str(attrs.get("type")), len(COLOURS)), str(attrs.get("label", "")), str(node))

    return force_layout(graph, seed=seed, isolated_key=by_type_and_label, groups=communities(graph, seed=seed))


def explorer_payload(
    graph: nx.Graph,
    papers: Mapping[str, Mapping[str, Any]],
    mentions: Mapping[str, Sequence[str]],
    positions: Mapping[Any, tuple[float, float]],
    cap: int,
    results: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The explorer's data (see Data above): nodes at ``positions``, edges with their evidence, papers, colours.

    ``graph`` is a NetworkX view as :func:`generate_html` takes it; the served
    explorer passes a neighbourhood of the stored graph, so both pages get one shape.
    """
    order = sorted(graph.nodes, key=str)
    ids = {node: i for i, node in enumerate(order)}
    paper_of_iri = {str(r.get("iri")): pid for pid, r in papers.items() if r.get("iri")}
    edge_items = _edge_items(graph)
    drawn = {pid for iri, pid in paper_of_iri.items() if iri in graph}
    named = {str(p) for node in graph for p in mentions.get(str(node), ())}
    results = results or {}
    reporting = {str(r["paper"]) for node in graph for r in results.get(str(node), ())}
    cited = sorted({str(p) for _u, _v, attrs in edge_items for p in _as_list(attrs.get("papers"))} | drawn | named | reporting)
    paper_index = {pid: i for i, pid in enumerate(cited)}
    paper_node: dict[str, int] = {}
    nodes = []
    for node in order:
        attrs = graph.nodes[node]
        kind = str(attrs.get("type") or "Other")
        label = str(attrs.get("label", node))
        x, y = positions[node]
        item: dict[str, Any] = {
            "label": label,
            "type": kind if kind in COLOURS else "Other",
            "support": max(1, int(attrs.get("support", 1))),
            "x": x,
            "y": y,
            "iri": str(node),
        }
        if kind != item["type"]:
            item["kind"] = kind
        alts = [a for a in _as_list(attrs.get("alt_labels")) if a != label][:MAX_ALT_LABELS]
        if alts:
            item["alt"] = alts
        if mentions.get(str(node)) and kind != "Paper":
            item["in"] = [paper_index[str(p)] for p in mentions[str(node)]]
        if kind == "Code" and _http(node):
            item["link"] = str(node)
        if results.get(str(node)):
            item["res"] = [
                [str(r["text"]), paper_index[str(r["paper"])], _cut(str(r["sentence"])), mention_spans(_cut(str(r["sentence"])), [str(r["value"])])]
                for r in results[str(node)][:MAX_EVIDENCE]
            ]
        pid = paper_of_iri.get(str(node))
        if pid is not None:
            item["paper"] = paper_index[pid]
            paper_node[pid] = ids[node]
        nodes.append(item)
    parallel: defaultdict[frozenset[int], int] = defaultdict(int)
    edges = []
    for source, target, attrs in edge_items:
        pair = frozenset((ids[source], ids[target]))
        rank = parallel[pair]  # parallel or opposite edges of one pair bend apart
        parallel[pair] += 1
        ends = [_names(graph.nodes[source]), _names(graph.nodes[target])]
        cited_by = _as_list(attrs.get("papers"))
        evidence = _as_list(attrs.get("evidence"))
        naming = _as_list(attrs.get("subject_evidence"))
        sources = []
        for k, pid in enumerate(cited_by[:MAX_EVIDENCE]):
            sentence = _cut(evidence[k]) if k < len(evidence) else ""
            entry = [paper_index[pid], sentence, mention_spans(sentence, *ends) if sentence else []]
            named = _cut(naming[k]) if k < len(naming) and naming[k] else ""
            if named:  # the sentence naming the subject, when the evidence does not
                entry += [named, mention_spans(named, *ends)]
            sources.append(entry)
        edge: dict[str, Any] = {
            "from": ids[source],
            "to": ids[target],
            "rel": str(attrs.get("relation", "")),
            "support": max(1, int(attrs.get("support", len(set(cited_by)) or 1))),
            "conf": round(float(attrs["confidence"]), 4) if attrs.get("confidence") is not None else 1.0,
            "ev": sources,
        }
        if rank:
            edge["bend"] = round(0.15 * rank, 2)
        edges.append(edge)
    present = {node["type"] for node in nodes}
    return {
        "colours": COLOURS,
        "types": [kind for kind in COLOURS if kind in present],
        "relations": sorted({edge["rel"] for edge in edges}),
        "cap": cap,
        "nodes": nodes,
        "edges": edges,
        "papers": [_paper_entry(pid, papers.get(pid, {}), paper_node.get(pid)) for pid in cited],
    }


def _names(attrs: Mapping[str, Any]) -> list[str]:
    """The names a node may be mentioned by: its label and other names (a paper: none)."""
    if attrs.get("type") == "Paper":
        return []
    return [str(attrs.get("label", ""))] + _as_list(attrs.get("alt_labels"))


@lru_cache(maxsize=4)
def explorer_asset(name: str) -> str:
    """The text of one of the explorer's files in ``kg/export/assets`` (explorer.js, .css, .html)."""
    return resources.files("kg.export").joinpath("assets", name).read_text(encoding="utf-8")


def _hash(text: str) -> str:
    """A CSP source expression allowing exactly the inline element whose text is ``text``."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy(scripts: Sequence[str], styles: Sequence[str]) -> str:
    """The page's policy: nothing from anywhere; only our own inline scripts and styles, by hash.

    Hashes rather than ``'unsafe-inline'`` mean an injected ``<script>`` or an
    inline event handler (``onerror=...``) would not run even if escaping failed.

    >>> policy = content_security_policy(["1"], [])
    >>> policy.startswith("default-src 'none'; script-src 'sha256-"), "unsafe-inline" in policy
    (True, False)
    """
    return "; ".join(
        [
            "default-src 'none'",
            "script-src " + " ".join(_hash(s) for s in scripts),
            "style-src " + (" ".join(_hash(s) for s in styles) or "'none'"),
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


def generate_html(
    graph: nx.Graph,
    *,
    papers: Mapping[str, Mapping[str, Any]] | None = None,
    mentions: Mapping[str, Sequence[str]] | None = None,
    results: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    title: str = "Knowledge graph",
    seed: int = 0,
    omitted: int = 0,
    cap: int = DEFAULT_CAP,
) -> str:
    """The whole ``graph.html`` page for a NetworkX graph, as text.

    Parameters
    ----------
    graph
        The graph's NetworkX view (``KnowledgeGraph.to_networkx()``): node
        attributes ``type``, ``label``, ``alt_labels``, ``support``; edge
        attributes ``relation``, ``support``, ``papers`` (ids), ``evidence``
        (one sentence per paper), ``confidence``. Missing attributes are tolerated.
    papers
        ``paper id -> metadata`` (:func:`paper_records`): ``iri`` (the paper's
        node), ``title``, ``year``, ``authors``, ``link``, ``abstract``.
    mentions
        ``node -> ids of the papers mentioning it`` (:func:`mentioned_in`),
        listed in an entity's panel.
    results
        ``node -> the numeric results it reached or that were reported on it``
        (:func:`result_records`), listed in its panel.
    title
        The page's title and heading.
    seed
        Seed of the layout; the same graph and seed give the same bytes.
    omitted
        How many nodes the caller left out (said on the page).
    cap
        Nodes drawn at first, the most supported; "Show more" adds as many again.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.MultiDiGraph()
    >>> g.add_node("m", type="Method", label="<b>BERT</b>", support=2)
    >>> g.add_node("t", type="Task", label="QA")
    >>> _ = g.add_edge("m", "t", key="addresses", relation="addresses", papers=["p1"], evidence=["We use BERT for QA."])
    >>> page = generate_html(g)
    >>> "<b>BERT</b>" in page, "\\\\u003cb\\\\u003eBERT" in page, "2 nodes, 1 edge" in page
    (False, True, True)
    """
    payload = explorer_payload(graph, papers or {}, mentions or {}, layout(graph, seed), cap, results)
    count = f"{_plural(graph.number_of_nodes(), 'node')}, {_plural(graph.number_of_edges(), 'edge')}"
    unlinked = graph.number_of_nodes() - len(linked_nodes(graph))
    if unlinked:
        count += f"; {_plural(unlinked, 'node')} in no fact (entities only mentioned, papers without facts) can be found but are not drawn"
    if omitted:
        count += f"; {_plural(omitted, 'other node')} left out of this page (the least supported, those in no fact first): the RDF files and kg serve have them"
    style, vis, script = explorer_asset("explorer.css"), vis_network_js(), explorer_asset("explorer.js")
    return explorer_page(
        csp=content_security_policy([vis, script], [style]),
        title=title,
        summary=html.escape(count + ". Scroll to zoom, drag to pan, click for details."),
        head=f"<style>{style}</style>\n<script>{vis}</script>",
        scripts=f'<script type="application/json" id="kg-data">{json_for_html(payload)}</script>\n<script>{script}</script>',
    )


def explorer_page(*, csp: str, title: str, summary: str, head: str, scripts: str) -> str:
    """The explorer's page (``assets/explorer.html``) around the given styles and scripts.

    ``title`` is text (escaped here); ``summary``, ``head`` (styles and
    vis-network, before the body) and ``scripts`` (the data source and
    explorer.js, at its end) are markup the caller made safe. graph.html inlines
    them; ``kg serve``'s ``/explore`` links them from the server.
    """
    return Template(explorer_asset("explorer.html")).substitute(csp=csp, title=html.escape(title), summary=summary, head=head, scripts=scripts)


def page_nodes(graph: nx.Graph, limit: int = PAGE_LIMIT) -> set[Any] | None:
    """The nodes a page of ``graph`` holds: ``None`` (all of them) up to ``limit`` nodes.

    Above ``limit``, the nodes that take part in a fact come first (they are the
    ones drawn), then those only found by search; within each, the most
    supported (ties by number of links, then by IRI, so the choice is stable).

    >>> g = nx.MultiDiGraph([("a", "b"), ("b", "c")])
    >>> g.add_node("d", support=9)
    >>> g.nodes["c"]["support"] = 5
    >>> page_nodes(g, 4) is None, sorted(page_nodes(g, 2)), sorted(page_nodes(g, 3))
    (True, ['b', 'c'], ['a', 'b', 'c'])
    """
    if graph.number_of_nodes() <= limit:
        return None
    linked = linked_nodes(graph)
    ranked = sorted(graph.nodes, key=lambda n: (n not in linked, -int(graph.nodes[n].get("support", 1) or 1), -graph.degree(n), str(n)))
    return set(ranked[:limit])


def page_note(kg: KnowledgeGraph, limit: int = PAGE_LIMIT) -> str | None:
    """What a build says when ``graph.html`` cannot hold the whole graph (``None`` when it can)."""
    graph = kg.to_networkx()
    keep = page_nodes(graph, limit)
    if keep is None:
        return None
    return (f"graph.html holds {len(keep):,} of the graph's {graph.number_of_nodes():,} nodes, those in facts and the most "
            "supported (a page of every node would be too large to open); browse the whole graph with `kg serve`")


def result_records(kg: KnowledgeGraph) -> dict[str, list[dict[str, Any]]]:
    """``node IRI -> its numeric results``: a method's (it reached them) and a dataset's (reported on it).

    Each is ``text`` ("93.2 % accuracy on ImageNet, by X, absolute"), ``value``,
    ``paper`` and ``sentence``, in the order of :meth:`KnowledgeGraph.results`.
    """
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in kg.results():
        unit = row.unit if row.unit in ("%", "x", "") else f" {row.unit}"
        text = f"{row.value_text}{unit}" + (f" {row.metric_label}" if row.metric_label else "")
        text += (f" on {row.dataset_label}" if row.dataset_label else "") + f", by {row.method_label}"
        text += f" ({row.kind}" + (f", over {row.compared_to_label})" if row.compared_to_label else ")")
        record = {"text": text, "value": row.value_text, "paper": row.paper_id, "sentence": row.evidence}
        for node in {row.method, row.dataset} - {""}:
            found[node].append(record)
    return dict(found)


def write_html(kg: KnowledgeGraph, path: str | Path, limit: int = PAGE_LIMIT) -> None:
    """Write ``graph.html`` for ``kg`` to ``path`` atomically; see :func:`generate_html`.

    Every node is on the page, but only those taking part in facts are drawn;
    entities that are only mentioned (and papers without facts) would otherwise
    fill most of the drawing, so they are found by search instead. A graph of
    more than ``limit`` nodes gets a page of its most supported ones
    (:func:`page_nodes`), which says how many it leaves out.
    """
    graph = kg.to_networkx()
    mentions = mentioned_in(kg)
    keep = page_nodes(graph, limit)
    omitted = 0
    if keep is not None:
        omitted = graph.number_of_nodes() - len(keep)
        graph = graph.subgraph(keep)
        # A node of a whole field is mentioned in thousands of papers; the page lists a few.
        kept = {str(node) for node in keep}
        mentions = {node: ids[:MAX_EVIDENCE] for node, ids in mentions.items() if node in kept}
    page = generate_html(graph, papers=paper_records(kg), mentions=mentions, results=result_records(kg), omitted=omitted)
    with atomic_write(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(page)
