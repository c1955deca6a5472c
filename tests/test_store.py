"""The RDF store: triples, SPARQL, serialisation and the NetworkX view."""

from __future__ import annotations

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.compare import isomorphic

from kg.errors import UserError
from kg.views import KnowledgeGraph
from kg.store.namespace import KG, entity_iri, paper_iri

from .conftest import tiny_resolution


def test_every_paper_has_identifier_and_abstract(tiny_graph):
    rows = tiny_graph.select("SELECT ?id ?a WHERE { ?p a kg:Paper ; dcterms:identifier ?id ; dcterms:abstract ?a } ORDER BY ?id")
    papers, _ = tiny_resolution()
    assert [(r["id"], r["a"]) for r in rows] == sorted((p.id, p.abstract) for p in papers)


def test_direct_triple_and_statement_agree(tiny_graph):
    rows = tiny_graph.select(
        """SELECT ?ev ?c ?x WHERE {
             ?st rdf:subject ?m ; rdf:predicate kg:addresses ; rdf:object ?t ;
                 kg:evidence ?ev ; kg:confidence ?c ; kg:extractor ?x ; prov:wasDerivedFrom ?p .
             ?m kg:addresses ?t . }"""
    )
    assert rows == [{"ev": "We propose FooNet for image classification.", "c": 0.8, "x": "kg.relations/1"}]


def test_evidence_is_verbatim_from_the_abstract(tiny_graph):
    rows = tiny_graph.select("SELECT ?ev ?a WHERE { ?st kg:evidence ?ev ; prov:wasDerivedFrom ?p . ?p dcterms:abstract ?a }")
    assert rows and all(r["ev"] in r["a"] for r in rows)


def test_bindings_are_substituted_not_pasted(tiny_graph):
    query = "SELECT ?e ?name WHERE { ?e rdfs:label ?name }"
    assert tiny_graph.select(query, {"name": 'FooNet" } #'}) == []
    assert tiny_graph.select(query, {"name": "FooNet"}) == [{"e": entity_iri("method/foonet"), "name": "FooNet"}]


@pytest.mark.parametrize(
    "update,code",
    [("INSERT DATA { <a:b> <a:c> <a:d> }", "E304"), ("PREFIX x: <http://x/>\n# c\nDELETE WHERE { ?s ?p ?o }", "E304"), ("CLEAR ALL", "E304"), ("LOAD <http://example.org/x>", "E331")],
)
def test_updates_are_refused(tiny_graph, update, code):
    before = len(tiny_graph)
    with pytest.raises(UserError, match=code):
        tiny_graph.query(update)
    assert len(tiny_graph) == before


def test_syntax_error_is_a_user_error(tiny_graph):
    with pytest.raises(UserError, match="E338: SPARQL syntax error: .* not .SELEC."):
        tiny_graph.query("SELEC ?x WHERE { }")


def test_ntriples_sorted_and_deterministic():
    papers, resolution = tiny_resolution()
    first = KnowledgeGraph.from_resolution(papers, resolution).serialize("ntriples")
    again = KnowledgeGraph.from_resolution(list(reversed(papers)), resolution).serialize("ntriples")
    assert first == again
    lines = first.decode().splitlines()
    assert lines == sorted(lines) and len(lines) == len(set(lines))


@pytest.mark.parametrize("fmt,parser", [("turtle", "turtle"), ("jsonld", "json-ld"), ("ntriples", "nt")])
def test_serialisations_round_trip(tiny_graph, fmt, parser):
    reference = rdflib.Graph().parse(data=tiny_graph.serialize("ntriples").decode(), format="nt")
    parsed = rdflib.Graph().parse(data=tiny_graph.serialize(fmt).decode(), format=parser)
    assert isomorphic(reference, parsed)


def test_turtle_binds_kg_prefix(tiny_graph):
    assert b"@prefix kg: <https://w3id.org/kg-lit/vocab#> ." in tiny_graph.serialize("turtle")


def test_load_round_trips_through_files(tiny_graph, tmp_path):
    for name, fmt in (("g.ttl", "turtle"), ("g.nt", "ntriples"), ("g.jsonld", "jsonld")):
        (tmp_path / name).write_bytes(tiny_graph.serialize(fmt))
        assert KnowledgeGraph.load(tmp_path / name).serialize("ntriples") == tiny_graph.serialize("ntriples")


def test_load_errors_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="E301"):
        KnowledgeGraph.load(tmp_path / "missing.ttl")
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle")
    with pytest.raises(UserError, match="E302"):
        KnowledgeGraph.load(bad)


def test_rdflib_view_shares_the_store(tiny_graph):
    view = tiny_graph.rdflib
    assert len(view) == len(tiny_graph)
    methods = set(view.subjects(rdflib.RDF.type, KG.Method))
    assert methods == {rdflib.URIRef(entity_iri("method/foonet")), rdflib.URIRef(entity_iri("method/barnet"))}


def test_networkx_view_is_derived_from_rdf(tiny_graph):
    graph = tiny_graph.to_networkx()
    foonet = entity_iri("method/foonet")
    assert graph.nodes[foonet] == {"type": "Method", "label": "FooNet", "alt_labels": ["FN"], "support": 2}
    edge = graph.edges[foonet, entity_iri("dataset/cifar-10"), "evaluatedOn"]
    assert edge["relation"] == "evaluatedOn" and edge["support"] == 1 and edge["papers"] == ["p 2"]
    assert graph.has_edge(paper_iri("p1"), foonet, "proposes")
    assert graph.nodes["https://github.com/a/b"]["type"] == "Code"


def test_stats_counts_classes_and_relations(tiny_graph):
    stats = tiny_graph.stats()
    assert stats["classes"] == {"Dataset": 1, "Method": 2, "Paper": 2, "Task": 1}
    assert stats["relations"] == {"addresses": 1, "evaluatedOn": 1, "hasCode": 1, "outperforms": 1, "proposes": 1}


def test_iris_are_valid_whatever_the_ids():
    from kg.model import Entity, Paper, Resolution

    odd = 'a b<c>"{d}\\e\u00e9/?#'
    graph = KnowledgeGraph.from_resolution(
        [Paper(id=odd, abstract="text")],
        Resolution(entities=(Entity(key="method/" + odd, type="Method", label=odd, papers=(odd,), mentions=1),), facts=()),
    )
    data = graph.serialize("ntriples")
    assert len(list(ox.parse(data, format=ox.RdfFormat.N_TRIPLES))) == len(graph)


def test_views_follow_the_store_at_once(tiny_graph):
    first = tiny_graph.to_networkx()
    first.nodes[entity_iri("method/foonet")]["label"] = "edited"  # a view is a copy: editing it changes nothing
    assert tiny_graph.to_networkx().nodes[entity_iri("method/foonet")]["label"] == "FooNet"
    # A new node with the same number of triples as an old one removed: a size-keyed cache would miss it.
    size = len(tiny_graph)
    tiny_graph.store.remove(ox.Quad(ox.NamedNode(entity_iri("method/barnet")), ox.NamedNode(str(rdflib.RDFS.label)), ox.Literal("BarNet")))
    tiny_graph.store.add(ox.Quad(ox.NamedNode(entity_iri("method/barnet")), ox.NamedNode(str(rdflib.RDFS.label)), ox.Literal("BazNet")))
    assert len(tiny_graph) == size
    assert tiny_graph.to_networkx().nodes[entity_iri("method/barnet")]["label"] == "BazNet"
    assert {f.object_label for f in tiny_graph.facts() if f.relation == "outperforms"} == {"BazNet"}
