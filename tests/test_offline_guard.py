"""No spelling of SERVICE reaches the network: the parsed guard, and the query process that has no sockets.

Spellings are generated (case, ``\\u`` escapes, comments and odd whitespace
between tokens, ``1.SERVICE`` after a number, SILENT, endpoints given as IRIs,
prefixed names, relative IRIs under BASE, or variables bound by VALUES, nested
in OPTIONAL, UNION, sub-selects and EXISTS). Each is refused, and a loopback
listener that stands in for the outside world must hear nothing, through
``kg query`` and ``kg serve`` alike; with the parsed guard switched off, the
query process itself still cannot connect.
"""

from __future__ import annotations

import socket
import threading
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.cli import main
from kg.errors import UserError
from kg.views.bounded import check_query

from .conftest import tiny_resolution
from .serve_build import Server, http, make_build


class Listener:
    """A TCP listener on a free loopback port that records every connection it gets."""

    def __init__(self) -> None:
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(64)
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.heard: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:
                continue
            connection.settimeout(1)
            try:
                self.heard.append(connection.recv(200) or b"(connected)")
            except OSError:
                self.heard.append(b"(connected)")
            connection.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.socket.close()


@pytest.fixture(scope="module")
def listener():
    heard = Listener()
    yield heard
    heard.close()


def _escape(char: str, how: int) -> str:
    return char if how == 0 else f"\\u{ord(char):04X}" if how == 1 else f"\\U{ord(char):08x}"


@st.composite
def keyword(draw: st.DrawFn) -> str:
    """SERVICE in any case, each letter possibly a \\u or \\U escape."""
    letters = [draw(st.sampled_from([c.lower(), c.upper()])) for c in "SERVICE"]
    return "".join(_escape(c, draw(st.sampled_from([0, 0, 0, 1, 2]))) for c in letters)


GAPS = st.sampled_from([" ", "\n", "\t", " # a comment\n", "\r\n  ", "#SERVICE\n"])


@st.composite
def service_query(draw: st.DrawFn, port: int) -> str:
    """A whole query that calls http://127.0.0.1:PORT/ through SERVICE, spelled some way."""
    url = f"http://127.0.0.1:{port}/sparql"
    prologue, endpoint, values = "", f"<{url}>", ""
    form = draw(st.sampled_from(["iri", "prefixed", "base", "variable"]))
    if form == "prefixed":
        prologue, endpoint = f"PREFIX ep: <http://127.0.0.1:{port}/>\n", "ep:sparql"
    elif form == "base":
        prologue, endpoint = f"BASE <http://127.0.0.1:{port}/>\n", "<sparql>"
    elif form == "variable":
        endpoint, values = "?endpoint", f" VALUES ?endpoint {{ <{url}> }}"
    gap = draw(GAPS)
    silent = draw(st.sampled_from(["", "SILENT" + draw(GAPS), "silent "]))
    lead = draw(st.sampled_from(["?s ?p ?o .", "?s ?p 1.", "?s ?p 1 .", ""]))
    call = f"{lead}{draw(keyword())}{gap}{silent}{endpoint}{draw(GAPS)}{{ ?a ?b ?c }}"
    wrapped = draw(st.sampled_from(["{}", "OPTIONAL {{ {} }}", "{{ ?x ?y ?z }} UNION {{ {} }}", "{{ SELECT * WHERE {{ {} }} }}", "FILTER EXISTS {{ {} }}"])).format(call)
    return f"{prologue}SELECT * WHERE {{ {wrapped}{values} }}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_generated_spelling_is_refused(data):
    text = data.draw(service_query(port=9))
    with pytest.raises(UserError, match="E331"):
        check_query(text)


def _spellings(port: int, count: int) -> list[str]:
    found: list[str] = []

    @settings(max_examples=count, deadline=None, database=None)
    @given(data=st.data())
    def collect(data):
        found.append(data.draw(service_query(port=port)))

    collect()
    return found


@pytest.mark.slow
def test_kg_query_sends_nothing_for_fifty_spellings(seed_build, listener, capsys):
    folder, _ = seed_build
    for text in _spellings(listener.port, 50):
        assert main(["query", str(folder), text]) == 2
        assert "E331" in capsys.readouterr().err
    assert listener.heard == []


@pytest.mark.slow
def test_the_query_process_cannot_connect_even_when_the_guard_is_bypassed(seed_build, listener, monkeypatch):
    import kg.views.isolated as isolated
    from kg.store.disk import open_graph

    folder, _ = seed_build
    monkeypatch.setattr(isolated, "check_query", lambda text: None)
    with pytest.raises(UserError, match="E334"):
        with isolated.run_isolated(open_graph(folder), f"SELECT * WHERE {{ SERVICE <http://127.0.0.1:{listener.port}/x> {{ ?a ?b ?c }} }}", timeout=20, limit=10) as rows:
            list(rows)
    assert listener.heard == []


def test_kg_serve_sends_nothing_for_fifty_spellings(listener, tmp_path):
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from kg.views import KnowledgeGraph

    server = Server(make_build(tmp_path / "build", KnowledgeGraph.from_resolution(*tiny_resolution())))
    try:
        statuses = set()
        for text in _spellings(listener.port, 50):
            status, _, body = http(server.endpoint + "?" + urllib.parse.urlencode({"query": text}))
            statuses.add(status)
            assert str(listener.port).encode() not in body or b"E331" in body
        assert statuses <= {400, 403}
    finally:
        server.stop()
    assert listener.heard == []


def test_the_serve_workers_cannot_connect_even_when_the_guard_is_bypassed(listener):
    from kg.views.sandbox import forbid_network

    # The initializer of kg serve's workers, run in a child so this test process keeps its sockets.
    import multiprocessing

    def child(port: int, out) -> None:
        forbid_network()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
            out.send("connected")
        except OSError as error:
            out.send(f"refused: {error}")

    reader, writer = multiprocessing.get_context("fork").Pipe(duplex=False)
    process = multiprocessing.get_context("fork").Process(target=child, args=(listener.port, writer))
    process.start()
    process.join(20)
    assert reader.recv().startswith("refused")
    assert listener.heard == []
