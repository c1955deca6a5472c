"""The closed namespace, the ontology file and the SHACL shapes agree."""

from __future__ import annotations

import pytest
import rdflib
from rdflib.namespace import OWL, RDF

from kg.store.namespace import KG, VOCAB
from kg.views.validate import ontology_text, validate

FIXED = ["Paper", "Method", "Task", "Dataset", "Metric", "proposes", "addresses", "evaluatedOn", "measuredBy", "outperforms", "uses", "hasCode"]


def _ontology() -> rdflib.Graph:
    return rdflib.Graph().parse(data=ontology_text("kg.ttl"), format="turtle")


def test_namespace_is_closed():
    with pytest.raises(AttributeError):
        KG.adresses  # noqa: B018 - a typo must raise, not mint a predicate


def test_namespace_and_ontology_declare_the_same_terms():
    graph = _ontology()
    declared = {str(s)[len(VOCAB):] for s in graph.subjects(RDF.type, None) if str(s).startswith(VOCAB)}
    in_namespace = {name for name in KG.__annotations__}
    assert declared == in_namespace
    assert set(FIXED) <= declared


def test_every_term_has_label_and_comment():
    graph = _ontology()
    for term in graph.subjects(RDF.type, None):
        if str(term).startswith(VOCAB):
            assert graph.value(term, rdflib.RDFS.label) is not None, term
            assert graph.value(term, rdflib.RDFS.comment) is not None, term


def test_fixed_relations_are_object_properties():
    graph = _ontology()
    for name in FIXED[5:]:
        assert (KG[name], RDF.type, OWL.ObjectProperty) in graph


def test_hand_made_graph_conforms(tiny_graph):
    conforms, text = validate(tiny_graph.store)
    assert conforms, text


def test_shapes_catch_a_wrong_range(tiny_graph):
    import pyoxigraph as ox

    from kg.store.namespace import entity_iri

    tiny_graph.store.add(ox.Quad(ox.NamedNode(entity_iri("method/foonet")), ox.NamedNode(str(KG.addresses)), ox.NamedNode(entity_iri("dataset/cifar-10"))))
    conforms, _ = validate(tiny_graph.store)
    assert not conforms
