"""The explorer's page: one offline HTML file of the graph, or the frame of ``kg serve``'s ``/explore``.

The page is one self-contained file: vis-network's JavaScript is read at run
time from the installed ``pyvis`` package (never copied into this repository)
and inlined with our own script and styles (``kg/explorer/assets/``); the layout
is computed here (:func:`kg.explorer.layout.explorer_layout`, community-aware,
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

The page's data is one ``<script type="application/json" id="kg-data">`` block
made by :func:`kg.explorer.payload.explorer_payload` (its shapes are described
there); ``kg serve``'s ``/explore`` serves the same page frame
(:func:`explorer_page`), script and styles (:func:`explorer_asset`) and fetches
the data in pieces instead.

We do not use pyvis's own template: it loads Bootstrap from a CDN even with
``cdn_resources="in_line"``, is rendered without autoescaping and has
vis-network run physics in the browser. We use vis-network rather than a WebGL
renderer because no installed package ships one as a standalone file:
ipysigma bundles sigma.js and graphology only inside Jupyter widget bundles.

Limits and dangers
------------------
- **Escaping.** All text from the graph travels only inside the JSON block,
  with ``<``, ``>``, ``&``, ``'`` and (inside strings) ``"`` written as ``\\u``
  escapes, and it is put on screen only as DOM text (``textContent``), never
  parsed as HTML. A Content-Security-Policy (:func:`content_security_policy`)
  allows only the page's own inline script and style elements, by hash: no
  remote load, no inline event handler, no injected script can run.
- **Links.** Only ``http(s)`` URLs become links; they open in a new tab, and
  nothing is fetched until the reader clicks one.
- **Size.** About 0.47 MB of vis-network plus roughly 0.3 KB per node and
  edge (the caps on evidence, names and abstracts are in
  :mod:`kg.explorer.payload`). A 100,000-node graph makes a page of about
  47 MB (synthetic, 150,000 edges): it opens and searches within seconds
  (``benchmarks/page.py``), but ``graph.html`` (:func:`kg.export.html.write_html`)
  keeps :data:`kg.export.html.PAGE_LIMIT` nodes; ``kg serve``'s ``/explore``
  browses any size, fetching what it draws.
"""

from __future__ import annotations

import base64
import hashlib
import html
import importlib.util
import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

import networkx as nx

from kg.explorer.layout import explorer_layout, linked_nodes
from kg.explorer.payload import explorer_payload

__all__ = ["DEFAULT_CAP", "content_security_policy", "explorer_asset", "explorer_page", "generate_html", "json_for_html", "vis_network_js"]

#: Nodes drawn when the page opens (the most supported that pass the filters).
DEFAULT_CAP = 1500
VIS_VERSION = "9.1.2"

# Characters that must never appear raw in the page's data block.
_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "'": "\\u0027"}
# A JSON escape pair: `\\` must be consumed whole so that `\\"` is not read as `\"`.
_ESCAPE_PAIR = re.compile(r"\\.|[<>&']")


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


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


@lru_cache(maxsize=4)
def explorer_asset(name: str) -> str:
    """The text of one of the explorer's files in ``kg/explorer/assets`` (explorer.js, .css, .html)."""
    return resources.files("kg.explorer").joinpath("assets", name).read_text(encoding="utf-8")


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
    payload = explorer_payload(graph, papers or {}, mentions or {}, explorer_layout(graph, seed), cap, results)
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
