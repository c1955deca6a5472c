"""End to end: the bundled example corpus through every stage, and the bars it must reach.

One full build (the ``seed_build`` fixture in conftest) is shared by the session; further builds reuse its per-paper
cache (copied), which is itself part of what is tested: a cached build must
write exactly what an uncached one writes.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import rdflib
from rdflib.compare import isomorphic

import kg
from kg.views import KnowledgeGraph
from kg.views.validate import validate

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "examples" / "corpus"
FILES = sorted(CORPUS.glob("*.txt"))


def _with_cache(source: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    shutil.copytree(source / "cache", target / "cache")
    return target


def test_counts_add_up(seed_build):
    _, report = seed_build
    assert report.read == 240
    assert report.read == report.built + report.duplicates + report.rejected
    assert report.papers == 215 and report.duplicates == 25 and report.rejected == 0


def test_papers_and_abstracts(seed_build):
    graph = KnowledgeGraph.load(seed_build[0] / "graph.ttl")
    rows = graph.select("SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a kg:Paper ; dcterms:abstract ?a ; dcterms:identifier ?i }")
    assert rows == [{"n": 215}]


def test_extraction_reaches_the_foundation_bar(seed_build):
    graph = KnowledgeGraph.load(seed_build[0])
    proposing = graph.select("SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a kg:Paper ; kg:proposes ?x }")[0]["n"]
    assert proposing >= 0.8 * 215
    relations = graph.stats()["relations"]
    assert relations.get("addresses", 0) >= 150
    assert relations.get("evaluatedOn", 0) >= 40


def test_every_fact_has_verbatim_evidence(seed_build):
    graph = KnowledgeGraph.load(seed_build[0])
    unsupported = graph.select(
        """SELECT ?s ?p ?o WHERE {
             VALUES ?p { kg:proposes kg:addresses kg:evaluatedOn kg:measuredBy kg:outperforms kg:uses kg:hasCode kg:comparedWith kg:subtypeOf }
             ?s ?p ?o .
             FILTER NOT EXISTS { ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; kg:evidence ?e ; prov:wasDerivedFrom ?paper } }"""
    )
    assert unsupported == []
    abstracts = {r["id"]: r["a"] for r in graph.select("SELECT ?id ?a WHERE { ?p dcterms:identifier ?id ; dcterms:abstract ?a }")}
    facts = list(graph.facts())
    assert facts and all(f.evidence and f.evidence in abstracts[f.paper_id] for f in facts)


def test_every_entity_has_a_label(seed_build):
    graph = KnowledgeGraph.load(seed_build[0])
    unlabelled = graph.select(
        "SELECT ?e WHERE { ?e a ?t . VALUES ?t { kg:Method kg:Task kg:Dataset kg:Metric } FILTER NOT EXISTS { ?e rdfs:label ?l } }"
    )
    assert unlabelled == []


def test_turtle_reparses_isomorphic_and_shapes_validate(seed_build):
    out = seed_build[0]
    from_ttl = rdflib.Graph().parse(out / "graph.ttl", format="turtle")
    from_nt = rdflib.Graph().parse(out / "graph.nt", format="nt")
    assert isomorphic(from_ttl, from_nt)
    conforms, text = validate(KnowledgeGraph.load(out).store)
    assert conforms, text[:2000]


def test_all_exports_written(seed_build):
    out = seed_build[0]
    for name in ("graph.ttl", "graph.nt", "graph.jsonld", "graph.graphml", "facts.csv", "graph.html", "manifest.json", "rejected.jsonl"):
        assert (out / name).is_file() and (out / name).stat().st_size > 0 or name == "rejected.jsonl", name


def test_html_loads_no_remote_resource(seed_build):
    page = (seed_build[0] / "graph.html").read_text(encoding="utf-8")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.IGNORECASE)
    assert not re.search(r"""@import|url\(\s*["']?(?:https?:)?//""", page, re.IGNORECASE)


def test_second_build_is_byte_identical(seed_build, tmp_path):
    again = tmp_path / "again"
    kg.build([str(CORPUS)], again)
    assert (again / "graph.nt").read_bytes() == (seed_build[0] / "graph.nt").read_bytes()


def test_update_equals_full_build_and_remove_undoes_it(seed_build, tmp_path):
    full_nt = (seed_build[0] / "graph.nt").read_bytes()
    first = _with_cache(seed_build[0], tmp_path / "first")
    report = kg.build([str(FILES[0])], first)
    assert report.extracted == 0  # everything came from the cache
    first_nt = (first / "graph.nt").read_bytes()

    kg.build([str(FILES[1])], first, update=True)
    assert (first / "graph.nt").read_bytes() == full_nt
    assert (first / "iri-changes.jsonl").is_file()

    again = kg.build([str(FILES[1])], first, update=True)
    assert again.built == 0 and (first / "graph.nt").read_bytes() == full_nt

    everything = {r["i"] for r in kg.load(seed_build[0]).select("SELECT ?i WHERE { ?p dcterms:identifier ?i }")}
    only_second = sorted(everything - set(_ids(first_nt)))
    assert only_second
    kg_remove(first, only_second)
    assert (first / "graph.nt").read_bytes() == first_nt


def _ids(nt: bytes) -> list[str]:
    graph = rdflib.Graph().parse(data=nt.decode(), format="nt")
    return [str(o) for o in graph.objects(None, rdflib.DCTERMS.identifier)]


def kg_remove(out: Path, ids: list[str]) -> None:
    from kg.pipeline import remove

    report = remove(out, ids)
    assert report.removed == len(ids)
