"""The NetworkX view, derived from the RDF each time it is asked for (never kept in step by hand)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kg.views.facts import FactRow, facts, labels, node_types
from kg.views.sparql import select

if TYPE_CHECKING:
    import networkx as nx
    import pyoxigraph as ox

__all__ = ["to_networkx"]


def to_networkx(store: ox.Store, rows: Iterable[FactRow] | None = None) -> nx.MultiDiGraph:
    """A NetworkX MultiDiGraph derived from the RDF graph in ``store``.

    Nodes are IRIs with ``type``, ``label``, ``alt_labels`` and ``support``
    (papers mentioning it; for a paper, 1); edges are keyed by relation and
    carry ``relation``, ``support`` (number of papers), ``papers``,
    ``evidence`` (one sentence per paper), ``subject_evidence`` (per paper, the
    sentence naming the subject when the evidence does not, else "") and
    ``confidence`` (the highest).
    Each call builds a new graph, so editing it never touches the store.
    ``rows`` passes :func:`kg.views.facts.facts` when the caller already has them.
    """
    import networkx as nx

    names, types = labels(store), node_types(store)
    alts: dict[str, list[str]] = defaultdict(list)
    for row in select(store, "SELECT ?n ?alt WHERE { ?n skos:altLabel ?alt }"):
        alts[row["n"]].append(row["alt"])
    support = {row["n"]: row["c"] for row in select(store, "SELECT ?n (COUNT(DISTINCT ?p) AS ?c) WHERE { ?n kg:mentionedIn ?p } GROUP BY ?n")}
    graph = nx.MultiDiGraph()
    for node in sorted(types):
        graph.add_node(node, type=types[node], label=names.get(node, node), alt_labels=sorted(alts.get(node, [])), support=support.get(node, 1))
    edges: dict[tuple[str, str, str], dict[str, Any]] = {}
    for fact in facts(store) if rows is None else rows:
        key = (fact.subject, fact.object, fact.relation)
        edge = edges.setdefault(key, {"relation": fact.relation, "papers": [], "evidence": [], "subject_evidence": [], "confidence": 0.0})
        edge["papers"].append(fact.paper_id)
        edge["evidence"].append(fact.evidence)
        edge["subject_evidence"].append(fact.subject_evidence)
        edge["confidence"] = max(edge["confidence"], fact.confidence)
    for (s, o, relation), attrs in sorted(edges.items()):
        for node in (s, o):
            if node not in graph:
                graph.add_node(node, type=types.get(node, ""), label=names.get(node, node), alt_labels=[], support=1)
        graph.add_edge(s, o, key=relation, support=len(set(attrs["papers"])), **attrs)
    return graph
