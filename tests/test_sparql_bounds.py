"""SPARQL typed by people stays offline, bounded in time and rows, and streams."""

from __future__ import annotations

import http.server
import shutil
import subprocess
import sys
import threading
import time
from itertools import islice
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.cli import main
from kg.errors import UserError
from kg.export import write_all
from kg.store.disk import open_graph
from kg.store.namespace import KG, entity_iri
from kg.views.isolated import run_isolated
from kg.views.offline import refuse_network
from kg.views.queries import run_named
from kg.views.sparql import run_query

# Six patterns with no shared variable: 85^6 rows for the tiny graph, counted in constant memory,
# so it runs for hours unless stopped.
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { " + " ".join(f"?a{i} ?b{i} ?c{i} ." for i in range(6)) + " }"
# The same cross product without COUNT: rows come one at a time, forever.
ENDLESS_ROWS = "SELECT ?a0 ?a1 ?a2 WHERE { " + " ".join(f"?a{i} ?b{i} ?c{i} ." for i in range(6)) + " }"


@pytest.fixture
def build_dir(tiny_graph, tmp_path):
    write_all(tiny_graph, tmp_path, ["graph.nt", "store"])
    return tmp_path


@pytest.fixture
def listener():
    """A local HTTP server on a free port that records every request it receives."""
    heard: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            heard.append(f"{self.command} {self.path}")
            body = b'{"head": {"vars": ["s"]}, "results": {"bindings": [{"s": {"type": "literal", "value": "from the network"}}]}}'
            self.send_response(200)
            self.send_header("Content-Type", "application/sparql-results+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/sparql", heard
    server.shutdown()
    server.server_close()


def test_the_listener_would_hear_an_unguarded_service_call(listener):
    """Control: pyoxigraph itself does call SERVICE endpoints, so 'heard nothing' below means something."""
    url, heard = listener
    try:
        rows = list(ox.Store().query("SELECT ?s WHERE { SERVICE <" + url + "> { ?s ?p ?o } }"))
    except (OSError, RuntimeError, SyntaxError) as error:  # a pyoxigraph built without its HTTP client
        pytest.skip(f"this pyoxigraph cannot call SERVICE: {error}")
    assert heard and [r["s"].value for r in rows] == ["from the network"]


@pytest.mark.parametrize(
    "template",
    [
        "SELECT ?s WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }}",
        "select ?s where {{ service silent <{url}> {{ ?s ?p ?o }} }}",
        "SELECT ?s WHERE {{ SERV\\u0049CE <{url}> {{ ?s ?p ?o }} }}",
        "SELECT ?s WHERE {{ {{ SELECT ?s WHERE {{ ?x ?y ?z . SERVICE <{url}> {{ ?s ?p ?o }} }} }} }}",
        "PREFIX e: <{url}>\nSELECT ?s WHERE {{ SERVICE e: {{ ?s ?p ?o }} }}",
        "LOAD <{url}>",
        "LOAD <{url}> INTO GRAPH <http://a/g>",
    ],
)
def test_service_and_load_are_refused_before_any_request(capsys, build_dir, listener, template):
    url, heard = listener
    code = main(["query", str(build_dir), template.format(url=url)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "E331" in err
    assert heard == []


def test_from_a_url_reads_only_the_store(capsys, build_dir, listener):
    url, heard = listener
    assert main(["query", str(build_dir), f"SELECT (COUNT(*) AS ?n) FROM <{url}> WHERE {{ ?s ?p ?o }}", "-f", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == ["n", "0"]  # an empty graph of the store, not a download
    assert heard == []


class _Spy:
    """A stand-in store that records whether anything tried to run a query on it."""

    def __init__(self) -> None:
        self.calls = 0

    def query(self, *args: object, **kwargs: object) -> None:
        self.calls += 1
        raise AssertionError("the query reached the store")


@pytest.mark.parametrize("text", ["SELECT * WHERE { SERVICE <http://nonexistent.invalid/> { ?s ?p ?o } }", "LOAD <http://nonexistent.invalid/x>"])
def test_refusal_comes_before_the_store_sees_the_query(text):
    spy = _Spy()
    with pytest.raises(UserError, match="E331"):
        run_query(spy, text)  # type: ignore[arg-type]
    assert spy.calls == 0


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_service_to_an_unknown_host_makes_no_dns_lookup(build_dir, tmp_path):
    trace = tmp_path / "trace"
    command = [sys.executable, "-m", "kg.cli", "query", str(build_dir), "SELECT * WHERE { SERVICE <http://nonexistent.invalid/> { ?s ?p ?o } }"]
    done = subprocess.run(["strace", "-f", "-qq", "-e", "trace=connect,sendto,sendmmsg", "-o", str(trace), *command], capture_output=True, text=True, timeout=120)
    if not trace.exists():
        pytest.skip(f"strace cannot trace here: {done.stderr.strip()[:200]}")
    assert done.returncode == 2 and "E331" in done.stderr
    calls = [line for line in trace.read_text().splitlines() if "connect(" in line or "send" in line]
    assert calls == []  # no resolver socket (nscd, port 53), no HTTP


@pytest.mark.parametrize(
    "text",
    [
        "SELECT ?service WHERE { ?service ?p ?o }",
        "SELECT ?s WHERE { ?s <http://example.org/SERVICE> 'SERVICE' } # SERVICE <http://x/>",
        "PREFIX load: <http://example.org/>\nSELECT ?s WHERE { ?s load:SERVICE \"\"\"a\nLOAD\"\"\" }",
        "SELECT ?s WHERE { ?s ?p ?o FILTER(?o != 'say \\'SERVICE\\'') }",
    ],
)
def test_the_words_elsewhere_are_not_refused(text):
    refuse_network(text)


def test_a_query_past_its_timeout_stops_with_one_line(build_dir):
    # A subprocess: when the time is up the command must exit, whatever the query thread is doing.
    done = subprocess.run([sys.executable, "-m", "kg.cli", "query", str(build_dir), ENDLESS, "--timeout", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "E332" in done.stderr and "--timeout" in done.stderr


def test_run_query_timeout_is_a_user_error(build_dir):
    with pytest.raises(UserError, match="E332"):
        run_query(open_graph(build_dir), ENDLESS, timeout=0.3)


def test_rows_stream_before_the_query_ends(build_dir):
    with run_query(open_graph(build_dir), ENDLESS_ROWS, timeout=60, limit=None) as result:
        first = list(islice(result, 1000))
    assert len(first) == 1000 and result.variables == ("a0", "a1", "a2")


def test_kg_query_prints_rows_while_the_query_runs(build_dir):
    command = [sys.executable, "-m", "kg.cli", "query", str(build_dir), ENDLESS_ROWS, "-f", "csv", "--limit", "0", "--timeout", "0"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as running:
        lines = [running.stdout.readline() for _ in range(5)]
        still_running = running.poll() is None
        running.kill()
    assert lines[0] == "a0,a1,a2\n" and all(line.count(",") == 2 for line in lines[1:])
    assert still_running
    # The query process it forked dies with it: none is left running (or blocked on the pipe) after a SIGKILL.
    assert _query_processes_gone(str(build_dir))


def _query_processes_gone(marker: str, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = []
        for entry in Path("/proc").iterdir():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"kg.cli" in words and marker.encode() in words:
                left.append(entry.name)
        if not left:
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("limit,rows,truncated", [(3, 3, True), (85, 85, False), (0, 85, False)])
def test_the_row_limit(build_dir, limit, rows, truncated):
    with run_query(open_graph(build_dir), "SELECT * WHERE { ?s ?p ?o }", limit=limit) as result:
        assert len(list(result)) == rows
    assert result.truncated is truncated


def test_kg_query_limit_and_its_warning(capsys, build_dir):
    assert main(["query", str(build_dir), "SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s", "-f", "csv", "--limit", "4"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1 + 4
    assert "stopped after 4 rows" in captured.err
    assert main(["query", str(build_dir), "SELECT ?s WHERE { ?s ?p ?o }", "-f", "csv", "--limit", "0"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1 + 85 and captured.err == ""


def test_json_output_is_valid_sparql_json(capsys, build_dir):
    import json

    assert main(["query", str(build_dir), "SELECT ?s ?o WHERE { ?s rdfs:label ?o } ORDER BY ?o", "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["head"]["vars"] == ["s", "o"]
    labels = [b["o"]["value"] for b in data["results"]["bindings"]]
    assert labels == sorted(labels) and "FooNet" in labels
    assert all(b["s"]["type"] == "uri" for b in data["results"]["bindings"])


def test_a_long_table_is_printed_in_pages_with_one_header(capsys, build_dir):
    assert main(["query", str(build_dir), "SELECT ?s ?o WHERE { ?s ?p ?x . ?o ?q ?y } LIMIT 1200", "--limit", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count(" s ") == 1  # the header, once, over three pages
    assert sum(1 for line in out.splitlines() if line.strip().startswith("http") or line.strip().startswith("_:")) >= 1200


def test_construct_streams_ntriples_within_the_limit(capsys, build_dir):
    assert main(["query", str(build_dir), "CONSTRUCT WHERE { ?s a ?t }", "--limit", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and len(list(ox.parse("\n".join(lines), format=ox.RdfFormat.N_TRIPLES))) == 2


def test_bindings_are_substituted(build_dir):
    query = "SELECT ?e ?name WHERE { ?e rdfs:label ?name }"
    store = open_graph(build_dir)
    assert list(run_query(store, query, bindings={"name": 'FooNet" } #'})) == []
    assert [r["e"].value for r in run_query(store, query, bindings={"name": "FooNet"})] == [entity_iri("method/foonet")]


@pytest.mark.parametrize("timeout,limit", [(-1, 10), (10, -1)])
def test_negative_bounds_are_refused(build_dir, timeout, limit):
    with pytest.raises(UserError, match="E311"):
        run_query(open_graph(build_dir), "ASK { ?s ?p ?o }", timeout=timeout, limit=limit)


def _values(result, *names):
    return [tuple(row[n].value for n in names) for row in result]


def test_named_queries(tiny_graph):
    store = tiny_graph.store
    store.add(ox.Quad(ox.NamedNode(entity_iri("method/barnet")), ox.NamedNode(str(KG.addresses)), ox.NamedNode(entity_iri("task/image-classification"))))
    assert _values(run_named(store, "methods-for-task", task="image classification"), "label") == [("BarNet",), ("FooNet",)]
    assert _values(run_named(store, "datasets-per-method"), "label", "datasets") == [("FooNet", "1")]
    assert _values(run_named(store, "top-datasets"), "label", "methods") == [("CIFAR-10", "1")]
    assert _values(run_named(store, "related-methods", method_label="FooNet"), "label", "tasks") == [("BarNet", "1")]
    assert _values(run_named(store, "related-methods", method_label="BarNet"), "label", "tasks") == [("FooNet", "1")]
    provenance = run_named(store, "fact-provenance", s=entity_iri("method/foonet"), p=str(KG.evaluatedOn), o=entity_iri("dataset/cifar-10"))
    assert _values(provenance, "id", "extractor") == [("p 2", "kg.relations/1")]
    with pytest.raises(UserError, match="E311"):
        run_named(store, "methods-for-task")
    with pytest.raises(UserError, match="E311"):
        run_named(store, "no-such-query")


def test_the_command_line_defaults_are_the_library_defaults():
    import typer

    from kg.cli import app
    from kg.views.bounded import DEFAULT_LIMIT, DEFAULT_TIMEOUT

    params = {p.name: p.default for p in typer.main.get_command(app).commands["query"].params}
    assert (params["timeout"], params["limit"]) == (DEFAULT_TIMEOUT, DEFAULT_LIMIT)


# -- the query process's bounds (issue 27, items 3 and 7) ------------------------------------


def _kg_query(build_dir, sparql, *options):
    return subprocess.run([sys.executable, "-m", "kg.cli", "query", str(build_dir), sparql, *options], capture_output=True, text=True, timeout=120)


def test_kg_query_without_a_row_limit_stops_at_its_timeout(build_dir):
    done = _kg_query(build_dir, ENDLESS_ROWS, "-f", "csv", "--limit", "0", "--timeout", "1")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "E332" in done.stderr


@pytest.mark.parametrize("run", [run_query, run_isolated], ids=["in-process", "isolated"])
def test_the_deadline_is_checked_before_every_read(build_dir, run):
    # Rows are waiting when the deadline passes: the old check (only when none was waiting) handed them out.
    # A deadline of 2 s, not less: the forked query must send its first rows before it passes, also on a loaded machine.
    result = run(open_graph(build_dir), ENDLESS_ROWS, timeout=2.0, limit=None)
    time.sleep(3.0)
    rows = 0
    with pytest.raises(UserError, match="E332"):
        for _ in result:
            rows += 1
    assert rows == 0


def test_a_query_past_its_memory_limit_ends_with_one_line(build_dir):
    # ORDER BY over a cross product holds every row: it grows until the memory cap stops it.
    done = _kg_query(build_dir, ENDLESS_ROWS + " ORDER BY ?c0 ?c5", "--memory", "700", "--timeout", "0")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "E336" in done.stderr and "0.7 GB" in done.stderr


def test_results_are_cut_at_the_byte_cap_with_a_warning(build_dir):
    done = _kg_query(build_dir, ENDLESS_ROWS, "-f", "csv", "--limit", "0", "--timeout", "0", "--max-mb", "1")
    assert done.returncode == 0
    assert 0.5 * 2**20 < len(done.stdout.encode()) < 4 * 2**20
    assert "stopped after 1 MB" in done.stderr
