"""``kg serve`` bounded: request bodies (413), worker memory (503), a fair bounded queue, labels that say what happened.

The pool is tested directly with small module-level functions (the spawned
workers import them from here); the HTTP limits with a real server on a free
loopback port.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading
import time
import urllib.parse

import pytest

from kg.errors import KgError
from kg.views import KnowledgeGraph

from .conftest import tiny_resolution
from .serve_build import Server, http, make_build

pytest.importorskip("starlette", reason="the serve extra is not installed")

from kg.serve.pool import QueryPool, Turns  # noqa: E402

# Five joins over ~90 triples, sorted: every row is held, so memory grows until something stops it.
HUNGRY = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o } ORDER BY ?c ?f ?i ?l ?o"
ENDLESS = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n1 ?o }"
CLASSES = "SELECT ?class (COUNT(?node) AS ?n) WHERE { ?node a ?class } GROUP BY ?class"


def _sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def _quick() -> str:
    return "done"


def _exit(code: int) -> None:
    os._exit(code)


def _abort() -> None:
    os.kill(os.getpid(), signal.SIGABRT)


def _no_memory() -> None:
    raise MemoryError


# -- the pool --------------------------------------------------------------------------


def test_the_wait_for_a_worker_counts_in_the_timeout():
    async def scenario() -> tuple[object, object]:
        pool = QueryPool(1, timeout=1.0, memory=None)
        try:
            await pool.run(_quick)  # the worker is up
            slow = asyncio.create_task(pool.run(_sleep, 30))
            await asyncio.sleep(0)
            fast = asyncio.create_task(pool.run(_quick))
            return tuple(await asyncio.gather(slow, fast, return_exceptions=True))
        finally:
            pool.close()

    slow, fast = asyncio.run(scenario())
    # The quick call waited its whole second behind the slow one: it is stopped too, not run late.
    assert isinstance(slow, KgError) and slow.code == "E344"
    assert isinstance(fast, KgError) and fast.code == "E344"


@pytest.mark.parametrize("function,code", [(_exit, "E378"), (_abort, "E376"), (_no_memory, "E376")])
def test_a_worker_that_dies_is_labelled_and_replaced(function, code):
    async def scenario() -> tuple[object, object]:
        pool = QueryPool(1, timeout=30.0, memory=2**31)
        try:
            args = (3,) if function is _exit else ()
            failed = await asyncio.gather(pool.run(function, *args), return_exceptions=True)
            return failed[0], await pool.run(_quick)
        finally:
            pool.close()

    failed, after = asyncio.run(scenario())
    assert isinstance(failed, KgError) and failed.code == code
    assert after == "done"


def test_turns_go_round_robin_across_clients_and_the_queue_is_bounded():
    async def scenario() -> tuple[list[str], KgError]:
        turns = Turns(slots=1, queue=4, retry_after=30)
        order: list[str] = []
        assert await turns.acquire("a", 10)

        async def wait(client: str) -> None:
            if await turns.acquire(client, 10):
                order.append(client)

        waiting = [asyncio.create_task(wait(client)) for client in ("a", "a", "a", "b")]
        await asyncio.sleep(0)
        with pytest.raises(KgError) as full:
            await turns.acquire("c", 10)
        for _ in range(4):
            turns.release()
            await asyncio.sleep(0)
        await asyncio.gather(*waiting)
        return order, full.value

    order, full = asyncio.run(scenario())
    assert order == ["a", "b", "a", "a"]  # first come first served would give a, a, a, b
    assert full.code == "E377" and full.values["seconds"] == 30


def test_a_request_that_gives_up_leaves_the_queue():
    async def scenario() -> int:
        turns = Turns(slots=1, queue=1, retry_after=1)
        assert await turns.acquire("a", 1)
        assert not await turns.acquire("b", 0.05)  # timed out
        return turns.waiting

    assert asyncio.run(scenario()) == 0


# -- over HTTP ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return make_build(tmp_path_factory.mktemp("bounds") / "build", KnowledgeGraph.from_resolution(*tiny_resolution()))


def get(server: Server, query: str) -> tuple[int, dict[str, str], bytes]:
    return http(server.endpoint + "?" + urllib.parse.urlencode({"query": query}))


def _peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def _post_huge(url: str, size: int, chunked: bool) -> bytes:
    """POST ``size`` bytes of query text from another thread; the response as it arrives."""
    parts = urllib.parse.urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=120)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    sock.sendall(f"POST {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/sparql-query\r\n{framing}\r\n\r\n".encode())
    block = b"#" * 2**20

    def send() -> None:
        try:
            for _ in range(size // len(block)):
                sock.sendall(f"{len(block):x}\r\n".encode() + block + b"\r\n" if chunked else block)
        except OSError:  # the server answered and closed: what it should do
            pass

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    received = b""
    try:
        while b"\r\n\r\n" not in received or not received.rstrip().endswith(b"\n") and len(received) < 4096:
            data = sock.recv(65536)
            if not data:
                break
            received += data
            if b"E379" in received:
                break
    finally:
        sock.close()
        sender.join(30)
    return received


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_300_mb_body_gets_413_and_the_server_stays_small(folder, chunked):
    server = Server(folder, "--max-body-kb", "64")
    try:
        received = _post_huge(server.endpoint, 300 * 2**20, chunked)
        assert received.startswith(b"HTTP/1.1 413") and b"E379" in received and b"0.0625 MB" in received
        assert _peak_rss_mb(server.process.pid) < 200
        assert get(server, CLASSES)[0] == 200
    finally:
        server.stop()


def test_a_body_under_the_limit_is_read(folder):
    server = Server(folder, "--max-body-kb", "64")
    try:
        padded = CLASSES + " #" + "x" * 60_000
        status, _, _ = http(server.endpoint, data=padded.encode(), headers={"Content-Type": "application/sparql-query"})
        assert status == 200
        status, _, body = http(server.endpoint, data=(padded + "x" * 10_000).encode(), headers={"Content-Type": "application/sparql-query"})
        assert status == 413 and body.startswith(b"E379")
    finally:
        server.stop()


def test_a_query_past_the_memory_cap_gets_503_and_the_server_goes_on(folder):
    server = Server(folder, "--memory", "1000", "--timeout", "120", "--workers", "1")
    try:
        status, headers, body = get(server, HUNGRY)
        assert status == 503 and body.startswith(b"E376") and b"1.0 GB" in body and body.count(b"\n") == 1
        assert headers["content-type"].startswith("text/plain")
        assert get(server, CLASSES)[0] == 200
    finally:
        code, err = server.stop()
    assert "Traceback" not in err


def test_a_full_queue_answers_503_with_retry_after(folder):
    server = Server(folder, "--workers", "1", "--queue", "1", "--timeout", "5")
    try:
        busy = [threading.Thread(target=get, args=(server, ENDLESS), daemon=True) for _ in range(2)]
        for thread in busy:  # one runs, one waits
            thread.start()
            time.sleep(0.5)
        status, headers, body = get(server, CLASSES)
        assert status == 503 and body.startswith(b"E377") and headers["retry-after"] == "5"
        for thread in busy:
            thread.join(60)
        assert get(server, CLASSES)[0] == 200
    finally:
        server.stop()
