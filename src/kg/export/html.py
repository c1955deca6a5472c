"""``graph.html``: the explorer (:mod:`kg.explorer`) of a build's graph, in one offline file.

:func:`write_html` reads what the page shows from a
:class:`~kg.views.KnowledgeGraph` (its NetworkX view, the papers' metadata
(:func:`paper_records`), the papers mentioning each node (:func:`mentioned_in`)
and the numeric results (:func:`result_records`)) and writes the page that
:func:`kg.explorer.page.generate_html` makes of them, atomically.

Limits
------
A page holds at most :data:`PAGE_LIMIT` nodes (:func:`page_nodes`); a larger
graph's page keeps the most supported and says how many it leaves out, and a
build says so (:func:`page_note`).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from kg.explorer.layout import linked_nodes
from kg.explorer.page import generate_html
from kg.explorer.payload import MAX_EVIDENCE, paper_record
from kg.io import atomic_write

if TYPE_CHECKING:
    from kg.views.graph import KnowledgeGraph

__all__ = ["PAGE_LIMIT", "mentioned_in", "page_nodes", "page_note", "paper_records", "result_records", "write_html"]

#: Most nodes one page holds. A larger graph's page keeps the ``PAGE_LIMIT`` most
#: supported nodes that take part in a fact (``benchmarks/page.py``: 20,000 nodes draw
#: in under 3 s); a page of every node of a field (200,000 and more) would be too
#: large to open, and ``kg serve``'s explorer browses such graphs whole.
PAGE_LIMIT = 20_000

_PAPERS = """
SELECT ?p ?id ?title ?label ?year ?doi ?url ?abstract WHERE {
  ?p a kg:Paper ; dcterms:identifier ?id .
  OPTIONAL { ?p dcterms:title ?title } OPTIONAL { ?p rdfs:label ?label } OPTIONAL { ?p dcterms:date ?year } OPTIONAL { ?p kg:doi ?doi }
  OPTIONAL { ?p schema:url ?url } OPTIONAL { ?p dcterms:abstract ?abstract }
} ORDER BY ?id ?title ?year ?doi ?url
"""

_AUTHORS = "SELECT ?id ?name WHERE { ?p a kg:Paper ; dcterms:identifier ?id ; dcterms:creator ?name }"

_MENTIONS = "SELECT ?n ?id WHERE { ?n kg:mentionedIn ?p . ?p dcterms:identifier ?id }"



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
