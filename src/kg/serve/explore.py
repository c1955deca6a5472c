"""The served explorer's answers: an overview, searches and neighbourhoods, in graph.html's data shapes.

Each function runs in a worker process (like every query, under the server's
timeout) and returns an :class:`~kg.serve.results.Answer` holding JSON made by
:func:`kg.explorer.payload.explorer_payload`, the function that makes graph.html's
data, applied to a small piece of the graph: so the page's script reads
fetched pieces exactly as it reads the embedded graph, and merges them by IRI
and paper id. Nodes, facts and names come from the worker's in-memory index
(:mod:`kg.serve.graph_index`); evidence sentences, paper metadata and mentions
are read from the store for the few facts and papers a piece holds, each
query with its IRIs substituted, never pasted.

Layout
------
A neighbourhood is laid out here, by the page's own force layout, with its
centre at (0, 0); the script adds those offsets to the centre's place on screen
(or to where the nodes it already shows would put it), and never moves a node
it has drawn. So each fetch draws a readable star or cluster next to what the
reader was looking at, the same request always gives the same picture, and no
physics runs in the browser (vis-network's physics on thousands of nodes
would keep the page busy, and a picture that keeps moving is hard to read).

Limits
------
A piece holds at most :data:`MAX_NODES` nodes (the most supported neighbours;
the centre says how many were left out) and :data:`MAX_EDGES` facts, both
also capped by the server's ``--limit``. The centre's facts carry up to
:data:`~kg.explorer.payload.MAX_EVIDENCE` sentences each (fewer when it has many
facts), other facts :data:`FEW_EVIDENCE`; the panel says "+N more papers"
for the rest. The overview is the ends of the strongest facts (a fact is as
strong as its less supported end), :data:`OVERVIEW` nodes at most, with the facts among them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

import networkx as nx
import pyoxigraph as ox

from kg import vocab
from kg.buildfolder import Generation
from kg.errors import KgError, UserError
from kg.explorer.layout import explorer_layout
from kg.explorer.page import json_for_html
from kg.explorer.payload import MAX_EVIDENCE, explorer_payload, paper_record
from kg.explorer.search import find
from kg.serve.graph_index import GraphIndex, graph_index
from kg.serve.results import Answer
from kg.serve.worker import error_answer
from kg.store.namespace import PREFIXES

__all__ = ["FEW_EVIDENCE", "MAX_EDGES", "MAX_HITS", "MAX_MENTIONS", "MAX_NODES", "OVERVIEW", "WAIT", "neighbourhood", "overview", "search"]

#: Nodes in one fetched neighbourhood, facts in one piece, nodes in the overview.
MAX_NODES = 150
MAX_EDGES = 1000
OVERVIEW = 150
#: Sentences per fact away from the centre; sentences shared by the centre's facts.
FEW_EVIDENCE = 1
CENTRE_SENTENCES = 600
#: Papers listed as mentioning the centre; suggestions per search.
MAX_MENTIONS = 200
MAX_HITS = 50
#: Seconds a request waits for the graph's index on its first reading before answering 503 (E375).
WAIT = 10.0
_JSON = "application/json"

_PAPER_FIELDS = """OPTIONAL { ?paper dcterms:title ?title } OPTIONAL { ?paper rdfs:label ?label } OPTIONAL { ?paper dcterms:date ?year }
  OPTIONAL { ?paper kg:doi ?doi } OPTIONAL { ?paper schema:url ?url }"""
_EVIDENCE = f"""SELECT ?s ?p ?o ?paper ?id ?ev ?named ?title ?label ?year ?doi ?url WHERE {{
  ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; prov:wasDerivedFrom ?paper ; kg:evidence ?ev .
  OPTIONAL {{ ?st kg:subjectEvidence ?named }}
  ?paper dcterms:identifier ?id . {_PAPER_FIELDS}
}} ORDER BY ?id ?title ?year ?doi ?url LIMIT """
_MENTIONS = f"""SELECT ?n ?paper ?id ?title ?label ?year ?doi ?url WHERE {{
  ?n kg:mentionedIn ?paper . ?paper dcterms:identifier ?id . {_PAPER_FIELDS}
}} ORDER BY ?id ?title ?year ?doi ?url LIMIT {MAX_MENTIONS}"""
#: The entities named in the papers that name ?n, with the paper (the "Named with it" list of a node in no fact).
_NAMED_WITH = f"""SELECT ?n ?m ?id WHERE {{
  ?n kg:mentionedIn ?paper . ?m kg:mentionedIn ?paper . ?paper dcterms:identifier ?id . FILTER(?m != ?n)
}} ORDER BY ?id ?m LIMIT {MAX_MENTIONS * 10}"""
_PAPER = f"""SELECT ?paper ?id ?title ?label ?year ?doi ?url ?abstract WHERE {{
  ?paper dcterms:identifier ?id . {_PAPER_FIELDS} OPTIONAL {{ ?paper dcterms:abstract ?abstract }}
}} ORDER BY ?id ?title ?year ?doi ?url ?abstract LIMIT 1"""
_AUTHORS = "SELECT ?paper ?name WHERE { ?paper dcterms:creator ?name }"
# A fact's papers and highest confidence, as the NetworkX view counts them.
_SUPPORT = """SELECT ?s ?p ?o (COUNT(DISTINCT ?paper) AS ?n) (MAX(?c) AS ?conf) WHERE {
  ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; prov:wasDerivedFrom ?paper ; kg:confidence ?c .
} GROUP BY ?s ?p ?o"""


def _rows(store: ox.Store, sparql: str, **iris: str) -> list[dict[str, str]]:
    """Rows of a fixed SELECT with ``iris`` substituted, as ``name -> value`` (unbound names left out)."""
    substitutions: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {ox.Variable(name): ox.NamedNode(iri) for name, iri in iris.items()}
    solutions = cast(ox.QuerySolutions, store.query(sparql, prefixes=PREFIXES, substitutions=substitutions))  # a SELECT's answer
    names = [variable.value for variable in solutions.variables]
    return [{name: row[name].value for name in names if row[name] is not None} for row in solutions]


def _json(value: Any) -> Answer:
    return Answer(200, _JSON, json_for_html(value).encode("ascii"))


def _answer(make: Any, *args: Any) -> Answer:
    """``make(*args)`` as JSON, or the one-line error answer of a catalogued error."""
    try:
        return _json(make(*args))
    except KgError as error:
        failed = error_answer(error)
        if error.code == "E375":  # still reading the graph: ask again soon
            return Answer(failed.status, failed.media_type, failed.body, {"Retry-After": "1"})
        return failed
    except OSError as error:
        return error_answer(KgError("E348", path=str(args[0]), reason=" ".join(str(error).split())))


def _node_item(index: GraphIndex, node: int) -> dict[str, Any]:
    """A node as a search suggestion: the fields the script shows for it."""
    kind = index.types[node] or "Other"
    item: dict[str, Any] = {"label": index.labels[node], "type": kind if kind in vocab.COLOURS else "Other", "support": index.support[node], "iri": index.iris[node]}
    alts = index.shown_alts(node)
    if alts:
        item["alt"] = alts
    return item


def _rank(index: GraphIndex, node: int) -> tuple[int, int, str]:
    """Most supported first, then most facts, then IRI: the order graph.html draws nodes in."""
    return (-index.support[node], -len(index.adjacency[node]), index.iris[node])


def _other(index: GraphIndex, edge: int, node: int) -> int:
    s, o = index.edges[edge][:2]
    return o if s == node else s


def _around(index: GraphIndex, centre: int, hops: int, room: int) -> tuple[list[int], int]:
    """The centre and its most supported neighbours within ``hops`` (at most ``room`` nodes), and how many were left out.

    With two hops, the first takes at most half the room, so that the second has some.
    """
    chosen, frontier, left_out = [centre], [centre], 0
    seen = {centre}
    for step in range(hops):
        found = {other for node in frontier for e in index.adjacency[node] if (other := _other(index, e, node)) not in seen}
        share = room - len(chosen) if step == hops - 1 else (room - len(chosen) + 1) // 2
        ranked = sorted(found, key=lambda n: _rank(index, n))
        frontier = ranked[: max(0, share)]
        left_out += len(ranked) - len(frontier)
        chosen += frontier
        seen.update(found if step == hops - 1 else frontier)
    return chosen, left_out


def _facts_among(index: GraphIndex, nodes: Iterable[int], centre: int | None, cap: int) -> list[int]:
    """Facts between the given nodes: the centre's first, then the strongest, at most ``cap``."""
    inside = set(nodes)
    edges = {e for node in inside for e in index.adjacency[node] if _other(index, e, node) in inside}
    return sorted(edges, key=lambda e: (centre not in index.edges[e][:2], _strength(index, e)))[:cap]


def _piece(store: ox.Store, index: GraphIndex, nodes: list[int], edges: list[int], centre: int | None) -> dict[str, Any]:
    """graph.html's payload for ``nodes`` and ``edges``, with evidence, mentions and papers read from the store."""
    graph = nx.MultiDiGraph()
    for node in nodes:
        graph.add_node(index.iris[node], type=index.types[node], label=index.labels[node], alt_labels=index.alts[node], support=index.support[node])
    fields: dict[str, dict[str, str]] = {}

    def cite(row: dict[str, str]) -> str:
        fields.setdefault(row["id"], row)
        return row["id"]

    centre_facts = sum(1 for e in edges if centre in index.edges[e][:2])
    share = min(MAX_EVIDENCE, max(3, CENTRE_SENTENCES // max(1, centre_facts)))
    for e in edges:
        s, o, relation = index.edges[e]
        ends = {"s": index.iris[s], "p": vocab.VOCAB + relation, "o": index.iris[o]}
        rows = _rows(store, _EVIDENCE + str(share if centre in (s, o) else FEW_EVIDENCE), **ends)
        papers = [cite(row) for row in rows]
        evidence = [row["ev"] for row in rows]
        naming = [row.get("named") or "" for row in rows]
        counted = _rows(store, _SUPPORT, **ends)
        support = int(counted[0]["n"]) if counted else len(papers)
        confidence = float(counted[0]["conf"]) if counted and "conf" in counted[0] else None
        graph.add_edge(ends["s"], ends["o"], key=relation, relation=relation, support=support, papers=papers, evidence=evidence, subject_evidence=naming, confidence=confidence)
    mentions: dict[str, list[str]] = {}
    if centre is not None and index.types[centre] != "Paper":
        named = sorted({cite(row) for row in _rows(store, _MENTIONS, n=index.iris[centre])})
        mentions[index.iris[centre]] = named[:MAX_MENTIONS]
        if not index.adjacency[centre]:  # in no fact: the entities its papers name too, so the panel leads on
            listed = set(mentions[index.iris[centre]])
            for row in _rows(store, _NAMED_WITH, n=index.iris[centre]):
                other = index.ids.get(row["m"])
                if other is None or index.types[other] == "Paper" or row["id"] not in listed:
                    continue
                if row["m"] not in graph:
                    graph.add_node(row["m"], type=index.types[other], label=index.labels[other], alt_labels=index.alts[other], support=index.support[other])
                mentions.setdefault(row["m"], []).append(row["id"])
    records = {pid: paper_record(row["paper"], row) for pid, row in fields.items()}
    for node in nodes:  # a paper drawn as a node: its abstract and authors too
        if index.types[node] == "Paper":
            found = _rows(store, _PAPER, paper=index.iris[node])
            authors = [row["name"] for row in _rows(store, _AUTHORS, paper=index.iris[node])]
            if found:
                records[found[0]["id"]] = paper_record(index.iris[node], found[0], authors)
    positions = explorer_layout(graph)
    if centre is not None:
        x0, y0 = positions[index.iris[centre]]
        positions = {node: (x - x0, y - y0) for node, (x, y) in positions.items()}
    payload = explorer_payload(graph, records, mentions, positions, cap=len(index.iris))
    return payload


def _mark_centre(payload: dict[str, Any], index: GraphIndex, centre: int, left_out: int, hops: int) -> None:
    """Say which node the piece is about, and what it leaves out of that node's facts and mentions."""
    at = next(i for i, node in enumerate(payload["nodes"]) if node["iri"] == index.iris[centre])
    node = payload["nodes"][at]
    node["facts"] = len(index.adjacency[centre])
    if left_out:
        node["more"] = left_out
    listed = len(node.get("in", ()))
    if index.types[centre] != "Paper" and index.support[centre] > listed and listed:
        node["inMore"] = index.support[centre] - listed
    payload["centre"] = at
    payload["hops"] = hops


def _strength(index: GraphIndex, edge: int) -> tuple[int, int, int]:
    """A fact is as strong as the less supported of its ends: the strongest sort first."""
    s, o, _relation = index.edges[edge]
    return (-min(index.support[s], index.support[o]), -max(index.support[s], index.support[o]), edge)


def _strongest(index: GraphIndex, size: int) -> list[int]:
    """The ends of the strongest facts, ``size`` nodes at most (the overview).

    The most supported nodes alone are mostly hubs (tasks, datasets, metrics)
    with no fact among them; the strongest facts give hubs with their best
    supported methods, linked. Sorting every fact once per generation is kept.
    """
    if index.ranked_facts is None:
        index.ranked_facts = sorted(range(len(index.edges)), key=lambda e: _strength(index, e))
    chosen: dict[int, None] = {}
    for e in index.ranked_facts:
        if len(chosen) >= size:
            break
        s, o, _relation = index.edges[e]
        if len(chosen) + (s not in chosen) + (o not in chosen) <= size:
            chosen.update(dict.fromkeys((s, o)))
    return list(chosen)


def _overview(path: str, generation: Generation, size: int, limit: int, wait: float) -> dict[str, Any]:
    store, index = graph_index(path, generation, wait)
    nodes = _strongest(index, min(size, limit))
    payload = _piece(store, index, nodes, _facts_among(index, nodes, None, min(MAX_EDGES, limit)), None)
    types = index.type_counts()
    relations = index.relation_counts()
    payload.update(
        types=[kind for kind in vocab.COLOURS if kind in types],
        relations=sorted(relations),
        counts={"types": types, "relations": relations},
        total={"nodes": len(index.iris), "edges": len(index.edges)},
        years=list(index.years) if index.years else None,
    )
    return payload


def overview(path: str, generation: Generation, size: int = OVERVIEW, limit: int = 10_000, *, wait: float = WAIT) -> Answer:
    """The page's opening data: the ends of the strongest facts, the facts among them, and the graph's types, relations, counts and years."""
    return _answer(_overview, path, generation, size, limit, wait)


def _search(path: str, generation: Generation, query: str, count: int, wait: float) -> dict[str, Any]:
    _store, index = graph_index(path, generation, wait)
    hits, total, complete = find(index.names, query, count)
    return {
        "nodes": [_node_item(index, hit.node) for hit in hits],
        "hits": [{"node": k, "rank": hit.rank, "via": hit.via} for k, hit in enumerate(hits)],
        "total": total,
        "complete": complete,
    }


def search(path: str, generation: Generation, query: str, count: int = 12, *, wait: float = WAIT) -> Answer:
    """The first ``count`` nodes matching ``query``, ranked as graph.html ranks them, and how many match."""
    return _answer(_search, path, generation, query, min(count, MAX_HITS), wait)


def _neighbourhood(path: str, generation: Generation, iri: str, hops: int, limit: int, wait: float) -> dict[str, Any]:
    store, index = graph_index(path, generation, wait)
    centre = index.ids.get(iri)
    if centre is None:
        raise UserError("E374", iri=iri)
    nodes, left_out = _around(index, centre, hops, min(MAX_NODES, limit))
    payload = _piece(store, index, nodes, _facts_among(index, nodes, centre, min(MAX_EDGES, limit)), centre)
    _mark_centre(payload, index, centre, left_out, hops)
    return payload


def neighbourhood(path: str, generation: Generation, iri: str, hops: int = 1, limit: int = 10_000, *, wait: float = WAIT) -> Answer:
    """The node ``iri`` with its neighbours within ``hops`` (1 or 2) and the facts among them; 404 (E374) for an unknown node."""
    return _answer(_neighbourhood, path, generation, iri, hops, limit, wait)
