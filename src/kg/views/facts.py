"""Facts as rows: one per fact and supporting paper, with labels and node types (``facts.csv``)."""

from __future__ import annotations

from typing import NamedTuple

import pyoxigraph as ox

from kg import vocab
from kg.store.namespace import VOCAB
from kg.views.sparql import select

__all__ = ["NODE_TYPES", "FactRow", "facts", "labels", "local_name", "node_count", "node_types"]

#: Classes whose instances are nodes of the NetworkX view, by local type name (from the vocabulary table).
NODE_TYPES: dict[str, str] = vocab.NODE_TYPES

_STATEMENTS = """
SELECT ?s ?p ?o ?paper ?id ?ev ?c ?x ?named WHERE {
  ?st a rdf:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ;
      prov:wasDerivedFrom ?paper ; kg:evidence ?ev ; kg:confidence ?c ; kg:extractor ?x .
  ?paper dcterms:identifier ?id .
  OPTIONAL { ?st kg:subjectEvidence ?named }
}
"""


class FactRow(NamedTuple):
    """One fact as supported by one paper: a row of ``facts.csv``."""

    paper_id: str
    subject: str
    subject_label: str
    subject_type: str
    relation: str
    object: str
    object_label: str
    object_type: str
    evidence: str
    confidence: float
    extractor: str
    #: The sentence naming the subject when ``evidence`` does not (``kg:subjectEvidence``), else "".
    subject_evidence: str = ""


def local_name(iri: str) -> str:
    """The name of a ``kg:`` term (``kg:addresses`` -> ``addresses``); other IRIs unchanged.

    >>> local_name(VOCAB + "addresses"), local_name("http://x/y")
    ('addresses', 'http://x/y')
    """
    return iri[len(VOCAB):] if iri.startswith(VOCAB) else iri


def labels(store: ox.Store) -> dict[str, str]:
    """Node IRI -> its ``rdfs:label``."""
    return {row["n"]: row["label"] for row in select(store, "SELECT ?n ?label WHERE { ?n rdfs:label ?label }")}


def node_types(store: ox.Store) -> dict[str, str]:
    """Node IRI -> its type name from :data:`NODE_TYPES` (nodes of other classes are left out)."""
    rows = select(store, "SELECT ?n ?t WHERE { ?n a ?t }")
    return {row["n"]: NODE_TYPES[row["t"]] for row in rows if row["t"] in NODE_TYPES}


def node_count(store: ox.Store) -> int:
    """The number of nodes of :data:`NODE_TYPES` classes, counted by the store (no node is held)."""
    rows = select(store, "SELECT ?t (COUNT(DISTINCT ?n) AS ?c) WHERE { ?n a ?t } GROUP BY ?t")
    return sum(row["c"] for row in rows if row["t"] in NODE_TYPES)


def facts(store: ox.Store) -> list[FactRow]:
    """One row per fact and supporting paper, sorted, with labels and types."""
    names, types = labels(store), node_types(store)
    rows = []
    for row in select(store, _STATEMENTS):
        s, o = row["s"], row["o"]
        rows.append(
            FactRow(
                paper_id=row["id"],
                subject=s,
                subject_label=names.get(s, s),
                subject_type=types.get(s, ""),
                relation=local_name(row["p"]),
                object=o,
                object_label=names.get(o, o),
                object_type=types.get(o, ""),
                evidence=row["ev"],
                confidence=row["c"],
                extractor=row["x"],
                subject_evidence=row["named"] or "",
            )
        )
    rows.sort()
    return rows
