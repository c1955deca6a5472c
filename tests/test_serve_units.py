"""The pieces of ``kg serve`` that need no server: negotiation, the row limit, the guard, the examples."""

from __future__ import annotations

import json
import os

import pyoxigraph as ox
import pytest

from kg.buildfolder import BuildFolder
from kg.errors import UserError
from kg.serve.examples import EXAMPLES
from kg.serve.results import GRAPH_TYPES, SOLUTION_TYPES, negotiate, render
from kg.views.bounded import check_query, first_solutions

SELECT = list(SOLUTION_TYPES)
GRAPH = list(GRAPH_TYPES)


@pytest.mark.parametrize(
    "accept,offered,expected",
    [
        (None, SELECT, "application/sparql-results+json"),
        ("", GRAPH, "text/turtle"),
        ("*/*", SELECT, "application/sparql-results+json"),
        ("text/csv", SELECT, "text/csv"),
        ("text/csv;q=0.2, text/tab-separated-values;q=0.9", SELECT, "text/tab-separated-values"),
        ("application/sparql-results+xml, application/sparql-results+json", SELECT, "application/sparql-results+xml"),
        ("*/*;q=0.1, application/n-triples", GRAPH, "application/n-triples"),
        ("text/*;q=0.5, application/ld+json", GRAPH, "application/ld+json"),
        ("application/json", GRAPH, None),
        ("text/csv;q=0", SELECT, None),
        ("application/sparql-results+json, text/turtle;q=0.9", GRAPH, "text/turtle"),
    ],
)
def test_negotiate(accept, offered, expected):
    assert negotiate(accept, offered) == expected


@pytest.fixture(scope="module")
def store() -> ox.Store:
    store = ox.Store()
    a, p, q = ox.NamedNode("http://a/a"), ox.NamedNode("http://a/p"), ox.NamedNode("http://a/q")
    blank = ox.BlankNode()
    store.extend([
        ox.Quad(a, p, ox.Literal("x", language="en")),
        ox.Quad(a, p, ox.Literal("2", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer"))),
        ox.Quad(a, q, blank),
        ox.Quad(blank, p, ox.Literal("tab\there \"quoted\"\nline")),
    ])
    return store


QUERIES = [
    "SELECT ?s ?p ?o WHERE { ?s ?p ?o }",
    "SELECT ?s ?missing WHERE { ?s ?p ?o OPTIONAL { ?s <http://a/none> ?missing } }",
    "SELECT ?row0 ?o WHERE { ?row0 ?p ?o }",  # a variable named like the helper's own
    "SELECT ?s WHERE { ?s ?p ?o }",  # duplicate rows stay
    "SELECT * WHERE { }",  # one row, no variables
    "SELECT ?s WHERE { ?s <http://a/none> ?o }",  # no rows
]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("fmt", sorted(set(SOLUTION_TYPES.values()), key=str))
def test_under_the_limit_the_bytes_are_pyoxigraphs_own(store, query, fmt):
    limited, cut = first_solutions(store.query(query), 100)
    assert not cut
    expected = store.query(query).serialize(format=fmt)
    if fmt == ox.QueryResultsFormat.JSON:  # blank node labels are the store's own: compare shapes
        got, want = json.loads(limited.serialize(format=fmt)), json.loads(expected)
        assert got["head"] == want["head"]
        assert [{k: v["type"] for k, v in b.items()} for b in got["results"]["bindings"]] == [{k: v["type"] for k, v in b.items()} for b in want["results"]["bindings"]]
        assert [{k: v.get("value") for k, v in b.items() if v["type"] != "bnode"} for b in got["results"]["bindings"]] == [
            {k: v.get("value") for k, v in b.items() if v["type"] != "bnode"} for b in want["results"]["bindings"]
        ]
    elif "_:" not in expected.decode():
        assert limited.serialize(format=fmt) == expected


def test_the_limit_keeps_the_first_rows_in_order(store):
    query = "SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY DESC(STR(?o))"
    everything = [tuple(str(row[v]) for v in ("s", "p", "o")) for row in store.query(query)]
    limited, cut = first_solutions(store.query(query), 2)
    assert cut == "rows" and [tuple(str(row[v]) for v in ("s", "p", "o")) for row in limited] == everything[:2]
    assert first_solutions(store.query(query), len(everything))[1] is False


def test_render_cuts_graphs_and_reports_406(store):
    answer = render(store.query("CONSTRUCT WHERE { ?s ?p ?o }"), "application/n-triples", None, 3)
    assert answer.status == 200 and len(answer.body.splitlines()) == 3 and answer.headers == {"X-Kg-Truncated": "3", "X-Kg-Truncated-By": "rows"}
    assert render(store.query("ASK { ?s ?p ?o }"), "text/turtle", None, 3).status == 406
    assert render(store.query("ASK { ?s ?p ?o }"), None, "csv", 3).body == b"true"


def test_render_cuts_at_the_byte_cap_as_at_the_row_cap():
    # One long literal per row: 20 rows of 1,000 characters, cut at 5,500 bytes of terms.
    store = ox.Store()
    p = ox.NamedNode("http://a/p")
    store.extend([ox.Quad(ox.NamedNode(f"http://a/{i:02d}"), p, ox.Literal(str(i % 10) * 1000)) for i in range(20)])
    select = "SELECT ?s ?o WHERE { ?s ?p ?o } ORDER BY ?s"
    answer = render(store.query(select), None, "csv", 100, max_bytes=5500)
    assert answer.status == 200 and answer.headers == {"X-Kg-Truncated": "5", "X-Kg-Truncated-By": "bytes"}
    assert len(answer.body.splitlines()) == 1 + 5 and len(answer.body) < 5500
    answer = render(store.query("CONSTRUCT WHERE { ?s ?p ?o }"), "application/n-triples", None, 100, max_bytes=5500)
    assert answer.headers["X-Kg-Truncated-By"] == "bytes" and len(answer.body.splitlines()) == 5
    # One row bigger than the cap (a GROUP_CONCAT over everything): nothing is sent but the head.
    answer = render(store.query("SELECT (GROUP_CONCAT(?o) AS ?all) WHERE { ?s ?p ?o }"), None, "csv", 100, max_bytes=5500)
    assert answer.body.splitlines() == [b"all"] and answer.headers["X-Kg-Truncated"] == "0"
    assert "X-Kg-Truncated" not in render(store.query(select), None, "csv", 100, max_bytes=10**6).headers


@pytest.mark.parametrize(
    "query,refused",
    [
        ("SELECT * WHERE { SERVICE <http://x/sparql> { ?s ?p ?o } }", "E331"),
        ("select * where { service silent <http://x/> { ?s ?p ?o } }", "E331"),
        ("PREFIX s: <http://x/> SELECT * WHERE { ?s ?p ?o FILTER(?o<3)SERVICE<http://x/>{?a ?b ?c} }", "E331"),
        ("INSERT DATA { <http://a> <http://b> <http://c> }", "E304"),
        ("# a comment\nLOAD <http://x/data.ttl>", "E331"),
        ("SELECT ?service WHERE { ?service <http://x/SERVICE> 'SERVICE' } # SERVICE", None),
        ("SELECT * WHERE { ?s ex:SERVICE ?o }", None),
        ('SELECT * WHERE { ?s ?p """a\nSERVICE <http://x/> { }""" }', None),
    ],
)
def test_guard(query, refused):
    if refused is None:
        check_query(query)
    else:
        with pytest.raises(UserError) as error:
            check_query(query)
        assert error.value.code == refused


def test_generation_changes_when_a_build_publishes(tmp_path):
    (tmp_path / "store").mkdir()
    (tmp_path / "manifest.json").write_text("{}")
    first = BuildFolder(tmp_path).generation()
    assert BuildFolder(tmp_path).generation() == first
    staged = tmp_path / "manifest.json.new"
    staged.write_text("{}")
    os.replace(staged, tmp_path / "manifest.json")  # same content and size, new file
    assert BuildFolder(tmp_path).generation() != first


@pytest.mark.slow
def test_every_example_answers_on_the_example_corpus(seed_build):
    from kg.views import KnowledgeGraph

    graph = KnowledgeGraph.load(seed_build[0])
    assert len(EXAMPLES) == 10 and len({e.title for e in EXAMPLES}) == 10
    for example in EXAMPLES:
        assert list(graph.query(example.sparql)), example.title


def test_yasgui_comes_from_the_installed_oxigraph_package_and_is_not_in_the_repository():
    from pathlib import Path

    from kg.serve.yasgui import oxigraph_executable, yasgui_assets

    repository = Path(__file__).resolve().parents[1]
    assert not [p for p in (repository / "src").rglob("*") if "yasgui" in p.name.lower() and p.suffix in (".js", ".css")]
    if oxigraph_executable() is None:
        pytest.skip("no oxigraph executable (the serve extra installs it)")
    assets = yasgui_assets()
    assert set(assets) == {"yasgui.min.js", "yasgui.min.css"}
    assert b"Yasgui" in assets["yasgui.min.js"] and len(assets["yasgui.min.css"]) > 1000
