"""Property tests: any Unicode label, id or abstract survives every RDF serialisation."""

from __future__ import annotations

import pyoxigraph as ox
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.model import Entity, Paper, Resolution, ResolvedFact
from kg.views import KnowledgeGraph

# Any Unicode except lone surrogates (not representable in RDF); the store replaces those.
texts = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=60)
tricky = st.sampled_from(['"', "\\", "\n", "\r", "<", ">", "&", "{", "}", "'''", '"""', "\u2028", "\x00", "\x7f", "#", "%", " ", "\t"])
labels = st.lists(st.one_of(texts, tricky), min_size=1, max_size=4).map("".join)


def _graph(paper_id: str, abstract: str, label: str, alt: str) -> KnowledgeGraph:
    sentence = abstract[: max(1, len(abstract) // 2)]
    entities = (
        Entity(key="method/" + label, type="Method", label=label, alt_labels=(alt,), papers=(paper_id,), mentions=2),
        Entity(key="task/" + alt, type="Task", label=alt, papers=(paper_id,), mentions=1),
    )
    facts = (ResolvedFact(paper_id, "addresses", "method/" + label, "task/" + alt, sentence, 0, len(sentence), "test/1", 0.5),)
    return KnowledgeGraph.from_resolution([Paper(id=paper_id, abstract=abstract, title=label)], Resolution(entities, facts))


def _triples(data: bytes, fmt: ox.RdfFormat) -> set[str]:
    return {str(t) for t in ox.parse(data, format=fmt)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(paper_id=labels, abstract=labels, label=labels, alt=labels)
def test_every_format_round_trips(paper_id, abstract, label, alt):
    graph = _graph(paper_id, abstract, label, alt)
    reference = _triples(graph.serialize("ntriples"), ox.RdfFormat.N_TRIPLES)
    assert len(reference) == len(graph)
    assert _triples(graph.serialize("turtle"), ox.RdfFormat.TURTLE) == reference
    assert _triples(graph.serialize("jsonld"), ox.RdfFormat.JSON_LD) == reference
    texts_back = {r["l"] for r in graph.select("SELECT ?l WHERE { ?e rdfs:label ?l }")}
    assert {label, alt} <= texts_back


@settings(max_examples=60, deadline=None)
@given(paper_id=labels, abstract=labels, label=labels, alt=labels)
def test_rdflib_reads_our_turtle(paper_id, abstract, label, alt):
    import rdflib
    from rdflib.compare import isomorphic

    graph = _graph(paper_id, abstract, label, alt)
    ours = rdflib.Graph().parse(data=graph.serialize("ntriples").decode("utf-8"), format="nt")
    assert isomorphic(ours, rdflib.Graph().parse(data=graph.serialize("turtle").decode("utf-8"), format="turtle"))
