"""The vocabulary table (kg.vocab) agrees with the ontology and the SHACL shapes.

The table is the one source the code reads; kg.ttl and shapes.ttl are its
published form. Each test below fails when someone edits one side only.
"""

from __future__ import annotations

import pytest
import rdflib
from rdflib.collection import Collection
from rdflib.namespace import OWL, RDF, RDFS

from kg.model import SIGNATURES
from kg.views.validate import ontology_text
from kg.vocab import (
    CLASSES,
    COLOURS,
    NODE_TYPES,
    RELATIONS,
    SCHEMA,
    URL_LABEL,
    VOCAB,
    Relation,
    term_names,
)

SH = rdflib.Namespace("http://www.w3.org/ns/shacl#")
ENTITY = rdflib.URIRef(VOCAB + "Entity")
CODE = rdflib.URIRef(SCHEMA + "SoftwareSourceCode")
#: Relations the shapes leave unconstrained, with the reason.
UNCONSTRAINED = {Relation.SUBTYPE_OF: "any entity class on either side, checked by the resolver"}


@pytest.fixture(scope="module")
def ontology() -> rdflib.Graph:
    return rdflib.Graph().parse(data=ontology_text("kg.ttl"), format="turtle")


@pytest.fixture(scope="module")
def shapes() -> rdflib.Graph:
    return rdflib.Graph().parse(data=ontology_text("shapes.ttl"), format="turtle")


def _iri(name: str) -> rdflib.URIRef:
    return rdflib.URIRef(CODE if name == URL_LABEL else CLASSES[name].iri)


def _ontology_class(names: frozenset[str]) -> rdflib.URIRef:
    """The single class kg.ttl should name for a set of table classes."""
    return _iri(next(iter(names))) if len(names) == 1 else ENTITY


def test_table_and_ontology_declare_the_same_terms(ontology):
    declared = {str(s)[len(VOCAB) :] for s in ontology.subjects(RDF.type, None) if str(s).startswith(VOCAB)}
    assert declared == set(term_names())


@pytest.mark.parametrize("name", [n for n, t in CLASSES.items() if t.iri.startswith(VOCAB)])
def test_each_class_is_an_owl_class_with_the_table_label(ontology, name):
    iri = rdflib.URIRef(CLASSES[name].iri)
    assert (iri, RDF.type, OWL.Class) in ontology
    assert str(ontology.value(iri, RDFS.label)) == CLASSES[name].label


@pytest.mark.parametrize("relation", list(Relation))
def test_each_relation_has_the_table_label_domain_and_range(ontology, relation):
    term = RELATIONS[relation]
    iri = rdflib.URIRef(term.iri)
    assert (iri, RDF.type, OWL.ObjectProperty) in ontology
    assert str(ontology.value(iri, RDFS.label)) == term.label
    assert ontology.value(iri, RDFS.domain) == _ontology_class(term.domain)
    assert ontology.value(iri, RDFS.range) == _ontology_class(term.range)


def _shape_constraints(shapes: rdflib.Graph) -> dict[rdflib.URIRef, tuple[set, set]]:
    """path -> (target classes of the shapes that constrain it, classes allowed for its values)."""
    found: dict[rdflib.URIRef, tuple[set, set]] = {}
    for shape in shapes.subjects(RDF.type, SH.NodeShape):
        targets = set(shapes.objects(shape, SH.targetClass))
        for prop in shapes.objects(shape, SH.property):
            path = shapes.value(prop, SH.path)
            allowed = set(shapes.objects(prop, SH["class"]))
            for alternatives in shapes.objects(prop, SH["or"]):
                allowed |= {c for node in Collection(shapes, alternatives) for c in shapes.objects(node, SH["class"])}
            if allowed:
                domain, ranges = found.setdefault(path, (set(), set()))
                domain |= targets
                ranges |= allowed
    return found


@pytest.mark.parametrize("relation", [r for r in Relation if r not in UNCONSTRAINED])
def test_shapes_constrain_each_relation_as_the_table_says(shapes, relation):
    term = RELATIONS[relation]
    domain, ranges = _shape_constraints(shapes)[rdflib.URIRef(term.iri)]
    assert domain == {_iri(n) for n in term.domain}
    assert ranges == {_iri(n) for n in term.range}


def test_signatures_colours_and_node_types_come_from_the_table():
    assert SIGNATURES == {r: (t.domain, t.range) for r, t in RELATIONS.items()}
    assert list(COLOURS)[: len(CLASSES)] == list(CLASSES)
    assert set(NODE_TYPES.values()) == set(CLASSES)
