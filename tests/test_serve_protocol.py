"""``kg serve`` as a client sees it: the SPARQL 1.1 Protocol over HTTP, in a real server process.

A server is started on a free loopback port (``--port 0``; the test reads the
URL it prints) and stopped with SIGINT, as Ctrl-C would. Answers are checked
with SPARQLWrapper and raw HTTP, each result format read by a real parser, and
compared with the same query run in-process on the same graph.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import subprocess
import sys
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from rdflib.query import Result

from kg.model import Entity, Paper, Resolution
from kg.views import KnowledgeGraph

from .conftest import tiny_resolution
from .serve_build import Server as _Server
from .serve_build import http, make_build, publish, publish_folder

pytest.importorskip("starlette", reason="the serve extra is not installed")
SPARQLWrapper = pytest.importorskip("SPARQLWrapper")

TIMEOUT = 2.0
LIMIT = 40
# Five joins over ~90 triples: billions of rows, far past any timeout.
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n1 ?o }"
CLASSES = "SELECT ?class (COUNT(?node) AS ?n) WHERE { ?node a ?class } GROUP BY ?class ORDER BY ?class"


class Server(_Server):
    """A ``kg serve`` child process with this module's timeout and row limit."""

    def __init__(self, folder: Path, *extra: str) -> None:
        super().__init__(folder, "--timeout", str(TIMEOUT), "--limit", str(LIMIT), *extra)


def fingerprint(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def graph() -> KnowledgeGraph:
    return KnowledgeGraph.from_resolution(*tiny_resolution())


@pytest.fixture(scope="module")
def served(graph, tmp_path_factory):
    folder = make_build(tmp_path_factory.mktemp("serve") / "build", graph)
    before = fingerprint(folder)
    server = Server(folder)
    yield server
    code, err = server.stop()
    assert code == 0, err
    assert "server stopped" in err and "Traceback" not in err
    # Shutdown leaves the store as it was, and it still opens with every triple.
    assert fingerprint(folder) == before
    assert len(ox.Store.read_only(str(folder / "store"))) == len(graph)


def get(server: Server, query: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    return http(server.endpoint + "?" + urllib.parse.urlencode({"query": query}), headers=headers)


def expected_rows(graph: KnowledgeGraph, query: str) -> list[tuple[str, ...]]:
    solutions = graph.query(query)
    names = [v.value for v in solutions.variables]
    return [tuple(row[n].value if row[n] is not None else "" for n in names) for row in solutions]


def json_rows(body: bytes) -> list[tuple[str, ...]]:
    data = json.loads(body)
    return [tuple(b.get(v, {}).get("value", "") for v in data["head"]["vars"]) for b in data["results"]["bindings"]]


# -- the three ways to send a query --------------------------------------------------


def test_get_answers_with_prefixes_pre_bound(served, graph):
    assert served.url.startswith("http://127.0.0.1:")  # loopback unless --host says otherwise
    status, headers, body = get(served, CLASSES)
    assert status == 200 and headers["content-type"].startswith("application/sparql-results+json")
    assert json_rows(body) == expected_rows(graph, CLASSES)


@pytest.mark.parametrize("how", ["urlencoded", "postdirectly"])
def test_post_form_and_body_with_sparqlwrapper(served, graph, how):
    client = SPARQLWrapper.SPARQLWrapper(served.endpoint)
    client.setMethod(SPARQLWrapper.POST)
    client.setRequestMethod({"urlencoded": SPARQLWrapper.URLENCODED, "postdirectly": SPARQLWrapper.POSTDIRECTLY}[how])
    client.setQuery(CLASSES)
    client.setReturnFormat(SPARQLWrapper.JSON)
    data = client.query().convert()
    rows = [(b["class"]["value"], b["n"]["value"]) for b in data["results"]["bindings"]]
    assert rows == expected_rows(graph, CLASSES)


def test_rdflib_sparqlstore_reads_through_the_endpoint(served, graph):
    remote = rdflib.Graph(store="SPARQLStore")
    remote.open(served.endpoint)
    method = rdflib.URIRef("https://w3id.org/kg-lit/id/method/foonet")
    assert set(remote.objects(method, rdflib.RDFS.label)) == {rdflib.Literal("FooNet")}
    assert len(remote) == len(graph)


def test_raw_post_body_and_ask(served):
    status, _, body = http(served.endpoint, data=b"ASK { ?m kg:outperforms ?n }", headers={"Content-Type": "application/sparql-query"})
    assert status == 200 and json.loads(body) == {"head": {}, "boolean": True}


# -- every result format, read by a real parser ---------------------------------------

SELECT_FORMATS = {
    "application/sparql-results+json": "json",
    "application/sparql-results+xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}


@pytest.mark.parametrize("media", list(SELECT_FORMATS))
def test_select_formats_parse_to_the_same_rows(served, graph, media):
    query = "SELECT ?s ?label WHERE { ?s rdfs:label ?label } ORDER BY ?s"
    status, headers, body = get(served, query, Accept=media)
    assert status == 200 and headers["content-type"].startswith(media)
    result = Result.parse(io.BytesIO(body), format=SELECT_FORMATS[media])
    rows = [tuple(str(row[v]) for v in result.vars) for row in result]
    assert rows == expected_rows(graph, query)
    if media == "text/csv":  # and the standard library reads it too
        table = list(csv.reader(io.StringIO(body.decode("utf-8"))))
        assert table[0] == ["s", "label"] and [tuple(r) for r in table[1:]] == rows


GRAPH_FORMATS = {"text/turtle": "turtle", "application/n-triples": "nt", "application/ld+json": "json-ld"}


@pytest.mark.parametrize("media", list(GRAPH_FORMATS))
def test_construct_formats_parse_to_the_same_triples(served, graph, media):
    query = "CONSTRUCT { ?m kg:addresses ?t } WHERE { ?m kg:addresses ?t }"
    status, headers, body = get(served, query, Accept=media)
    assert status == 200 and headers["content-type"].startswith(media)
    parsed = rdflib.Graph().parse(data=body, format=GRAPH_FORMATS[media])
    expected = {(str(t.subject.value), str(t.predicate.value), str(t.object.value)) for t in graph.query(query)}
    assert {(str(s), str(p), str(o)) for s, p, o in parsed} == expected and expected


def test_describe_answers_turtle_by_default(served):
    status, headers, body = get(served, "DESCRIBE <https://w3id.org/kg-lit/id/method/foonet>")
    assert status == 200 and headers["content-type"].startswith("text/turtle")
    labels = set(rdflib.Graph().parse(data=body, format="turtle").objects(None, rdflib.RDFS.label))
    assert rdflib.Literal("FooNet") in labels


def test_format_parameter_and_unacceptable_accept(served):
    status, headers, body = http(served.endpoint + "?" + urllib.parse.urlencode({"query": CLASSES, "format": "tsv"}))
    assert status == 200 and headers["content-type"].startswith("text/tab-separated-values")
    status, _, body = get(served, CLASSES, Accept="image/png")
    assert status == 406 and body.startswith(b"E347")


# -- refusals and limits --------------------------------------------------------------


def test_malformed_query_is_400_with_the_position(served):
    status, _, body = get(served, "SELECT ?x WHERE { ?x ?y }")
    assert status == 400 and body.startswith(b"E303") and b"line 1, column" in body
    assert http(served.endpoint)[0] == 400  # no query at all


@pytest.mark.parametrize(
    "data,ctype",
    [
        (b"update=" + urllib.parse.quote_plus("DELETE WHERE { ?s ?p ?o }").encode(), "application/x-www-form-urlencoded"),
        (b"DELETE WHERE { ?s ?p ?o }", "application/sparql-update"),
        (b"query=" + urllib.parse.quote_plus("INSERT DATA { <urn:a> <urn:b> <urn:c> }").encode(), "application/x-www-form-urlencoded"),
        (b"DROP ALL", "application/sparql-query"),
    ],
)
def test_updates_are_refused_and_change_nothing(served, graph, data, ctype):
    status, _, body = http(served.endpoint, data=data, headers={"Content-Type": ctype})
    assert status == 403 and body.startswith(b"E304")
    status, _, body = get(served, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
    assert json_rows(body) == [(str(len(graph)),)]


def test_other_methods_and_federation_are_refused(served):
    assert http(served.endpoint, data=b"x", method="PUT")[0] == 405
    assert http(served.endpoint, method="DELETE")[0] == 405
    assert http(served.endpoint, data=b"SELECT * {}", headers={"Content-Type": "text/plain"})[0] == 415
    status, _, body = get(served, "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }")
    assert status == 403 and body.startswith(b"E331")


def test_results_are_cut_at_the_limit_and_say_so(served, graph):
    query = "SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o"
    assert len(graph) > LIMIT
    status, headers, body = get(served, query)
    assert status == 200 and headers["x-kg-truncated"] == str(LIMIT)
    assert json_rows(body) == expected_rows(graph, query)[:LIMIT]
    status, headers, body = get(served, "CONSTRUCT WHERE { ?s ?p ?o }", Accept="application/n-triples")
    assert headers["x-kg-truncated"] == str(LIMIT) and len(body.splitlines()) == LIMIT
    assert "x-kg-truncated" not in get(served, CLASSES)[1]


def test_a_query_past_the_timeout_is_stopped_and_the_server_goes_on(served, graph):
    started = time.monotonic()
    status, _, body = get(served, ENDLESS)
    waited = time.monotonic() - started
    assert status == 503 and body.startswith(b"E344")
    assert waited < 60  # stopped, not run to the end (that takes hours)
    status, _, body = get(served, CLASSES)
    assert status == 200 and json_rows(body) == expected_rows(graph, CLASSES)


def test_fifty_concurrent_queries_from_ten_clients(served, graph):
    queries = [
        CLASSES,
        "SELECT ?m ?t WHERE { ?m kg:addresses ?t } ORDER BY ?m ?t",
        "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p ORDER BY ?p",
        "SELECT ?st ?ev WHERE { ?st kg:evidence ?ev } ORDER BY ?st",
        "SELECT ?e ?l WHERE { ?e skos:altLabel ?l } ORDER BY ?e ?l",
    ]
    expected = {q: expected_rows(graph, q) for q in queries}

    def client(n: int) -> list[bool]:
        answers = []
        for i in range(5):
            query = queries[(n + i) % len(queries)]
            status, _, body = get(served, query)
            answers.append(status == 200 and json_rows(body) == expected[query])
        return answers

    with ThreadPoolExecutor(max_workers=10) as clients:
        answers = [ok for batch in clients.map(client, range(10)) for ok in batch]
    assert len(answers) == 50 and all(answers)


# -- pages ----------------------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value or "" for name, value in attrs if name in ("src", "href")]


def test_landing_page_is_offline_and_lists_ten_examples(served):
    status, headers, body = http(served.url)
    assert status == 200 and "default-src 'none'" in headers["content-security-policy"]
    page = body.decode("utf-8")
    assert page.count("data-example=") == 10
    links = _Links()
    links.feed(page)
    assert "/static/kg.js" in links.urls and all(url.startswith("/") and not url.startswith("//") for url in links.urls)
    script = http(served.url + "static/kg.js")[2].decode("utf-8")
    assert re.findall(r"fetch\(([^,)]*)", script) == ['"/sparql"'] and "import" not in script
    assert http(served.url + "static/kg.css")[0] == 200


def test_entity_page_shows_label_facts_and_evidence(served):
    iri = "https://w3id.org/kg-lit/id/method/foonet"
    status, _, body = http(served.url + "entity?" + urllib.parse.urlencode({"iri": iri}))
    page = body.decode("utf-8")
    assert status == 200 and "<h1>FooNet</h1>" in page
    assert "kg:evaluatedOn" in page and "/entity?iri=https%3A//w3id.org/kg-lit/id/dataset/cifar-10" in page
    assert "&#34;beats&#34; &lt;b&gt;BarNet&lt;/b&gt;" in page  # the evidence, escaped
    assert http(served.url + "entity?iri=urn%3Anothing")[0] == 404
    assert http(served.url + "entity")[0] == 400


# -- the folder ------------------------------------------------------------------------


def test_a_rebuild_is_seen_without_a_restart(graph, tmp_path):
    folder = make_build(tmp_path / "build", graph)
    server = Server(folder)
    try:
        count = "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }"
        assert json_rows(get(server, count)[2]) == [("2",)]
        papers, resolution = tiny_resolution()
        bigger = KnowledgeGraph.from_resolution([*papers, Paper(id="p3", abstract="We study Z.")], resolution)
        publish(folder, bigger)
        assert json_rows(get(server, count)[2]) == [("3",)]
        smaller = KnowledgeGraph.from_resolution([Paper(id="p9", abstract="Only this.")], Resolution(entities=(Entity(key="task/z", type="Task", label="Z", papers=("p9",), mentions=1),), facts=()))
        publish_folder(folder, smaller)  # the whole folder swapped, as kg build does
        assert json_rows(get(server, count)[2]) == [("1",)]
        publish_folder(folder, bigger)
        assert json_rows(get(server, count)[2]) == [("3",)]
    finally:
        code, err = server.stop()
    assert code == 0, err


def one_line_error(args: list[str], env_code: str = "") -> tuple[int, str]:
    code = f"import sys\n{env_code}\nfrom kg.cli import main\nsys.exit(main({args!r}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return done.returncode, lines[0]


def test_refuses_a_folder_that_is_not_a_build(tmp_path, graph):
    code, line = one_line_error(["serve", str(tmp_path)])
    assert code == 2 and "E307" in line and list(tmp_path.iterdir()) == []
    folder = make_build(tmp_path / "old", graph)
    import shutil

    shutil.rmtree(folder / "store")
    code, line = one_line_error(["serve", str(folder)])
    assert code == 2 and "E341" in line


def test_port_in_use_is_a_one_line_error(served):
    port = urllib.parse.urlsplit(served.url).port
    code, line = one_line_error(["serve", str(served.folder), "--port", str(port)])
    assert code == 2 and "E342" in line and str(port) in line


def test_without_the_extra_the_error_names_it(tmp_path):
    code, line = one_line_error(["serve", str(tmp_path)], env_code="sys.modules['uvicorn'] = None")
    assert code == 2 and "E340" in line and "kg-lit[serve]" in line


CHROMIUM = next((path for path in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(path).exists()), None)


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium to load the page in")
def test_the_page_runs_a_shared_query_and_links_every_iri(served):
    """In a real browser: /?query=... runs the query and shows a table whose IRIs link to entity pages."""
    url = served.url + "?" + urllib.parse.urlencode({"query": "SELECT ?m ?label WHERE { ?m a kg:Method ; rdfs:label ?label } ORDER BY ?label"})
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-proxy-server", "--virtual-time-budget=10000", "--dump-dom", url]
    dom = subprocess.run(args, capture_output=True, text=True, timeout=120).stdout
    assert "2 rows in" in dom
    assert dom.index(">BarNet<") < dom.index(">FooNet<")
    assert 'href="/entity?iri=https%3A%2F%2Fw3id.org%2Fkg-lit%2Fid%2Fmethod%2Ffoonet"' in dom
