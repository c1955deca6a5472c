"""The data of an entity's own page (``/entity?iri=...``): label, types, facts, evidence and reported results.

:func:`describe` runs in a worker process, like every query, and returns plain
data for the page's template. The IRI is substituted into the queries, never
pasted into their text. It works for any node: a method, a task, a paper (its
metadata and what it states), or a fact's ``rdf:Statement``.
"""

from __future__ import annotations

from typing import Any

from kg.buildfolder import Generation
from kg.explorer.payload import mention_matches
from kg.serve.worker import select

_OUT = """SELECT ?e ?p ?o ?label WHERE {
  ?e ?p ?o . OPTIONAL { ?o rdfs:label ?label }
} ORDER BY ?p ?o LIMIT 2000"""

_IN = """SELECT ?e ?s ?p ?label WHERE {
  ?s ?p ?e . FILTER NOT EXISTS { ?s a rdf:Statement } OPTIONAL { ?s rdfs:label ?label }
} ORDER BY ?p ?s LIMIT 2000"""

_EVIDENCE = """SELECT ?e ?st ?s ?sl ?p ?o ?ol ?paper ?pl ?evidence ?named ?confidence ?extractor WHERE {
  { ?st rdf:subject ?e } UNION { ?st rdf:object ?e } UNION { ?st prov:wasDerivedFrom ?e }
  ?st a rdf:Statement ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ;
      prov:wasDerivedFrom ?paper ; kg:evidence ?evidence ; kg:confidence ?confidence ; kg:extractor ?extractor .
  OPTIONAL { ?st kg:subjectEvidence ?named }
  OPTIONAL { ?s rdfs:label ?sl } OPTIONAL { ?o rdfs:label ?ol } OPTIONAL { ?paper rdfs:label ?pl }
} ORDER BY ?p ?s ?o ?paper LIMIT 2000"""

# The numeric results that name the node (as method, metric, dataset, task or reference) or come from the paper.
_RESULTS = """SELECT ?e ?r ?valueText ?unit ?kind ?m ?ml ?metricLabel ?d ?dl ?c ?cl ?paper ?pl ?evidence WHERE {
  ?r a kg:Result .
  { ?r kg:method ?e } UNION { ?r kg:metric ?e } UNION { ?r kg:onDataset ?e } UNION { ?r kg:forTask ?e }
  UNION { ?r kg:comparedTo ?e } UNION { ?r prov:wasDerivedFrom ?e }
  ?r kg:valueText ?valueText ; kg:resultKind ?kind ; kg:method ?m ; prov:wasDerivedFrom ?paper ; kg:evidence ?evidence ; kg:valueStart ?start .
  OPTIONAL { ?m rdfs:label ?ml } OPTIONAL { ?r kg:unit ?unit } OPTIONAL { ?r kg:metricLabel ?metricLabel }
  OPTIONAL { ?r kg:onDataset ?d . ?d rdfs:label ?dl } OPTIONAL { ?r kg:comparedTo ?c . ?c rdfs:label ?cl }
  OPTIONAL { ?paper rdfs:label ?pl }
} ORDER BY ?dl ?metricLabel ?paper ?start LIMIT 2000"""

_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def _value(cell: dict[str, Any] | None) -> str:
    return "" if cell is None else cell["value"]


def marked(sentence: str, *labels: str) -> list[tuple[str, bool]]:
    """``sentence`` cut into pieces, each marked when it names one of ``labels`` (the page highlights those).

    >>> marked("We propose FooNet for parsing.", "FooNet", "parsing")
    [('We propose ', False), ('FooNet', True), (' for ', False), ('parsing', True), ('.', False)]
    """
    names = [[label, label.removesuffix(" (this paper)")] for label in labels if label]
    pieces, at = [], 0
    for start, end in sorted(mention_matches(sentence, *names)):
        pieces += [(sentence[at:start], False), (sentence[start:end], True)]
        at = end
    pieces.append((sentence[at:], False))
    return [piece for piece in pieces if piece[0]]


def describe(store: str, generation: Generation, iri: str) -> dict[str, Any]:
    """Everything the entity page shows about ``iri``; ``found`` is false for an unknown IRI."""
    binding = {"e": iri}
    out = select(store, generation, _OUT, binding)
    incoming = select(store, generation, _IN, binding)
    evidence = select(store, generation, _EVIDENCE, binding)
    reported = select(store, generation, _RESULTS, binding)
    labels = [row["o"]["value"] for row in out if row["p"]["value"] == _LABEL]
    types = [row["o"]["value"] for row in out if row["p"]["value"] == _RDF_TYPE]
    properties = [
        {"predicate": row["p"]["value"], "value": row["o"]["value"], "iri": row["o"]["iri"], "label": _value(row["label"])}
        for row in out
        if row["p"]["value"] not in (_LABEL, _RDF_TYPE)
    ]
    links = [{"predicate": row["p"]["value"], "value": row["s"]["value"], "iri": row["s"]["iri"], "label": _value(row["label"])} for row in incoming]
    facts = [
        {
            "statement": row["st"]["value"],
            "subject": row["s"]["value"],
            "subject_label": _value(row["sl"]),
            "predicate": row["p"]["value"],
            "object": row["o"]["value"],
            "object_label": _value(row["ol"]),
            "paper": row["paper"]["value"],
            "paper_label": _value(row["pl"]),
            "evidence": row["evidence"]["value"],
            "evidence_parts": marked(row["evidence"]["value"], _value(row["sl"]), _value(row["ol"])),
            "naming_parts": marked(_value(row["named"]), _value(row["sl"]), _value(row["ol"])),
            "confidence": row["confidence"]["value"],
            "extractor": row["extractor"]["value"],
        }
        for row in evidence
    ]
    results = [
        {
            "value": _value(row["valueText"]) + ("" if row["unit"] is None else (" " + _value(row["unit"]) if _value(row["unit"]) not in ("%", "x") else _value(row["unit"]))),
            "kind": _value(row["kind"]),
            "metric": _value(row["metricLabel"]),
            "method": _value(row["m"]),
            "method_label": _value(row["ml"]),
            "dataset": _value(row["d"]),
            "dataset_label": _value(row["dl"]),
            "reference": _value(row["c"]),
            "reference_label": _value(row["cl"]),
            "paper": _value(row["paper"]),
            "paper_label": _value(row["pl"]),
            "evidence_parts": marked(_value(row["evidence"]), _value(row["valueText"]), _value(row["ml"])),
        }
        for row in reported
    ]
    return {
        "iri": iri,
        "found": bool(out or incoming),
        "results": results,
        "label": labels[0] if labels else iri,
        "types": types,
        "properties": properties,
        "incoming": links,
        "evidence": facts,
    }
