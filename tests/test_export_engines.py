"""Exports for other engines: N-Quads/TriG with a graph per paper, and Neo4j's bulk-import CSV."""

from __future__ import annotations

import csv
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib

from kg.export import OPTIONAL, write_all
from kg.export.neo4j import ARRAY_DELIMITER, HEADERS, relationship_type
from kg.views import KnowledgeGraph
from kg.store.namespace import PREFIXES

from .conftest import tiny_resolution
from .test_export_support import small_kg

PROV = PREFIXES["prov"]


def make_graph(name: str) -> KnowledgeGraph:
    return KnowledgeGraph.from_resolution(*tiny_resolution()) if name == "tiny" else small_kg()


@pytest.fixture(scope="module", params=["tiny", "small"])
def graph(request) -> KnowledgeGraph:
    return make_graph(request.param)


@pytest.fixture(scope="module")
def exported(graph, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("engines")
    write_all(graph, folder, names=sorted(OPTIONAL))
    return folder


def quads_of(path: Path, fmt: ox.RdfFormat) -> set[str]:
    return {str(q) for q in ox.parse(path=str(path), format=fmt)}


# -- N-Quads and TriG -------------------------------------------------------------------


def test_nquads_loads_into_oxigraph_with_one_graph_per_paper(graph, exported, tmp_path):
    store = ox.Store(str(tmp_path / "store"))
    store.bulk_load(path=str(exported / "graph.nq"), format=ox.RdfFormat.N_QUADS)
    papers = {r["p"] for r in graph.select("SELECT ?p WHERE { ?p a kg:Paper }")}
    assert {g.value for g in store.named_graphs()} == papers
    # The union of all graphs is the graph, triple for triple.
    union = store.query("SELECT DISTINCT ?s ?p ?o WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }")
    assert {str(ox.Triple(r["s"], r["p"], r["o"])) for r in union} == {str(t) for t in graph.triples()}


def test_provenance_is_at_graph_level(graph, exported):
    store = ox.Store()
    store.bulk_load(path=str(exported / "graph.nq"), format=ox.RdfFormat.N_QUADS)
    # Each statement lives in the graph of its paper, and so does the direct triple it supports.
    rows = store.query(f"""SELECT ?st ?paper ?g ?s ?p ?o WHERE {{
        GRAPH ?g {{ ?st <{PROV}wasDerivedFrom> ?paper ; rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o }} }}""", prefixes=PREFIXES)
    rows = list(rows)
    assert rows and all(r["g"] == r["paper"] for r in rows)
    for r in rows:
        assert store.query("ASK { GRAPH ?g { ?s ?p ?o } }", substitutions={ox.Variable(v): r[k] for v, k in (("g", "paper"), ("s", "s"), ("p", "p"), ("o", "o"))})
    # Labels and types of entities are corpus-wide: default graph only.
    labels = list(store.quads_for_pattern(None, ox.NamedNode(PREFIXES["rdfs"] + "label"), None, None))
    assert all(q.graph_name == ox.DefaultGraph() for q in labels if "/paper/" not in q.subject.value)


def test_trig_holds_the_same_quads_and_rdflib_reads_it(exported):
    assert quads_of(exported / "graph.trig", ox.RdfFormat.TRIG) == quads_of(exported / "graph.nq", ox.RdfFormat.N_QUADS)
    dataset = rdflib.Dataset().parse(exported / "graph.trig", format="trig")
    assert sum(len(g) for g in dataset.graphs()) == len(quads_of(exported / "graph.nq", ox.RdfFormat.N_QUADS))


def test_nquads_is_byte_stable(request, exported, tmp_path):
    write_all(make_graph(request.node.callspec.params["graph"]), tmp_path, names=["graph.nq"])
    assert (tmp_path / "graph.nq").read_bytes() == (exported / "graph.nq").read_bytes()


def test_optional_exports_are_not_written_by_default(tmp_path):
    written = {p.name for p in write_all(small_kg(), tmp_path)}
    assert written and not written & OPTIONAL


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# The CLI comes with the test extra; a venv's bin folder need not be on PATH.
OXIGRAPH = shutil.which("oxigraph") or shutil.which("oxigraph", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(OXIGRAPH is None, reason="the oxigraph CLI (pip install oxigraph) is not installed")
def test_oxigraph_server_recipe(graph, exported, tmp_path):
    """docs/SERVING.md: `oxigraph load` the N-Quads, then `oxigraph serve-read-only --union-default-graph`."""
    location = tmp_path / "oxigraph"
    subprocess.run([OXIGRAPH, "load", "--location", str(location), "--file", str(exported / "graph.nq")], check=True, capture_output=True, timeout=120)
    port = _free_port()
    server = subprocess.Popen([OXIGRAPH, "serve-read-only", "--location", str(location), "--bind", f"127.0.0.1:{port}", "--union-default-graph"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        query = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
        url = f"http://127.0.0.1:{port}/query?" + urllib.parse.urlencode({"query": query})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        for _ in range(100):
            try:
                with opener.open(urllib.request.Request(url, headers={"Accept": "text/csv"}), timeout=10) as response:
                    body = response.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("oxigraph serve-read-only did not answer")
        # Union default graph: duplicates across paper graphs count once per graph, so at least every triple.
        assert int(body.split()[-1]) >= len(graph)
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- Neo4j ----------------------------------------------------------------------------------

# neo4j-admin database import: header fields are `name`, `name:type`, `name:type[]`, or the special `:ID`, `:LABEL`,
# `:START_ID`, `:END_ID`, `:TYPE` (optionally named, e.g. `iri:ID`), with the documented property types.
_TYPES = "int|long|float|double|boolean|byte|short|char|string|date|localtime|time|localdatetime|datetime|duration|point"
_FIELD = re.compile(rf"^(?:[A-Za-z_][A-Za-z0-9_]*)?:(?:ID|LABEL|START_ID|END_ID|TYPE|IGNORE)$|^[A-Za-z_][A-Za-z0-9_]*(?::(?:{_TYPES})(?:\[\])?)?$")
NODE_FILES = ("papers.csv", "entities.csv", "code.csv", "results.csv")
RELATIONSHIP_FILES = ("facts.csv", "mentions.csv")


def read(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        return header, [dict(zip(header, row, strict=True)) for row in reader]


def test_neo4j_headers_follow_the_import_format(exported):
    folder = exported / "neo4j"
    assert sorted(p.name for p in folder.iterdir()) == sorted(HEADERS)
    for name in HEADERS:
        header, rows = read(folder / name)
        assert all(_FIELD.match(field) for field in header), header
        specials = [field.split(":")[1] for field in header if ":" in field and field.split(":")[1] in ("ID", "LABEL", "START_ID", "END_ID", "TYPE")]
        expected = ["ID", "LABEL"] if name in NODE_FILES else ["START_ID", "END_ID", "TYPE"]
        assert sorted(specials) == sorted(expected), name
        for row in rows:
            for field, value in row.items():
                kind = field.partition(":")[2]
                if value and kind in ("int", "double"):
                    (int if kind == "int" else float)(value)


def test_neo4j_has_the_graphs_nodes_and_relationships(graph, exported):
    folder = exported / "neo4j"
    view = graph.to_networkx()
    nodes: dict[str, str] = {}
    for name in NODE_FILES:
        for row in read(folder / name)[1]:
            assert row["iri:ID"] not in nodes  # one ID space, no duplicates
            nodes[row["iri:ID"]] = row[":LABEL"]
    # Result nodes (numeric results) are not nodes of the NetworkX view; tests/test_results.py covers them.
    assert {n: t for n, t in nodes.items() if t != "Result"} == {n: a["type"] for n, a in view.nodes(data=True)}
    facts = read(folder / "facts.csv")[1]
    assert {(r[":START_ID"], r[":END_ID"], r[":TYPE"]) for r in facts} == {(s, o, relationship_type(k)) for s, o, k in view.edges(keys=True)}
    for r in facts:
        edge = view.edges[r[":START_ID"], r[":END_ID"], next(k for k in view[r[":START_ID"]][r[":END_ID"]] if relationship_type(k) == r[":TYPE"])]
        assert r["papers:string[]"].split(ARRAY_DELIMITER) == [str(p) for p in edge["papers"]]
        assert r["evidence:string[]"].split(ARRAY_DELIMITER) == edge["evidence"]
    mentions = read(folder / "mentions.csv")[1]
    expected = {(r["n"], r["p"]) for r in graph.select("SELECT ?n ?p WHERE { ?n kg:mentionedIn ?p }")}
    assert {(r[":START_ID"], r[":END_ID"]) for r in mentions} == expected
    assert all(r[":START_ID"] in nodes and r[":END_ID"] in nodes for r in facts + mentions)


def test_kg_export_writes_the_named_exports_of_a_build(tmp_path, capsys):
    from kg.cli import main

    build = tmp_path / "build"
    write_all(small_kg(), build, names=["graph.nt"])
    assert main(["export", str(build), "graph.nq", "neo4j", "--out", str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["graph.nq", "neo4j"]
    assert "graph.nq" in capsys.readouterr().out
    assert main(["export", str(build), "graph.pdf", "--out", str(tmp_path / "other")]) == 2
    assert "E305" in capsys.readouterr().err and not (tmp_path / "other").exists()
    (build / "manifest.json").write_text("{}")
    assert main(["export", str(build), "graph.nq", "--out", str(build)]) == 2
    assert "E372" in capsys.readouterr().err and sorted(p.name for p in build.iterdir()) == ["graph.nt", "manifest.json"]
