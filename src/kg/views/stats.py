"""Counts of nodes by class and of facts by relation (``kg stats``)."""

from __future__ import annotations

import pyoxigraph as ox

from kg import vocab
from kg.views.facts import local_name
from kg.views.sparql import select

__all__ = ["stats"]

# Counted for every class and predicate, then kept if the vocabulary table names them:
# the statement and mention bookkeeping is not a fact, and only kg's own classes are counted.
_CLASSES = "SELECT ?t (COUNT(?s) AS ?n) WHERE { ?s a ?t } GROUP BY ?t"
_RELATIONS = "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p"
_CLASS_IRIS = frozenset(term.iri for term in vocab.CLASSES.values() if term.iri.startswith(vocab.VOCAB))
_RELATION_IRIS = frozenset(term.iri for term in vocab.RELATIONS.values())


def stats(store: ox.Store) -> dict[str, dict[str, int]]:
    """``{"classes": {name: nodes}, "relations": {name: facts}}``, each sorted by name."""
    classes = {local_name(r["t"]): r["n"] for r in select(store, _CLASSES) if r["t"] in _CLASS_IRIS}
    relations = {local_name(r["p"]): r["n"] for r in select(store, _RELATIONS) if r["p"] in _RELATION_IRIS}
    return {"classes": dict(sorted(classes.items())), "relations": dict(sorted(relations.items()))}
