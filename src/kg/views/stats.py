"""Counts of nodes by class and of facts by relation (``kg stats``)."""

from __future__ import annotations

import pyoxigraph as ox

from kg.views.facts import local_name
from kg.views.sparql import select

__all__ = ["stats"]

_CLASSES = "SELECT ?t (COUNT(?s) AS ?n) WHERE { ?s a ?t FILTER(STRSTARTS(STR(?t), STR(kg:))) } GROUP BY ?t"
# Direct triples between nodes; the statement and mention bookkeeping is not a fact.
_RELATIONS = """
SELECT ?p (COUNT(*) AS ?n) WHERE {
  ?s ?p ?o
  FILTER(STRSTARTS(STR(?p), STR(kg:))
         && ?p NOT IN (kg:evidence, kg:evidenceStart, kg:evidenceEnd, kg:confidence, kg:extractor, kg:mentionedIn, kg:mentionCount, kg:doi))
} GROUP BY ?p
"""


def stats(store: ox.Store) -> dict[str, dict[str, int]]:
    """``{"classes": {name: nodes}, "relations": {name: facts}}``, each sorted by name."""
    classes = {local_name(r["t"]): r["n"] for r in select(store, _CLASSES)}
    relations = {local_name(r["p"]): r["n"] for r in select(store, _RELATIONS)}
    return {"classes": dict(sorted(classes.items())), "relations": dict(sorted(relations.items()))}
