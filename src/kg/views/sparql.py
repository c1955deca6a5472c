"""SPARQL over a store: read-only, offline and bounded.

:func:`select` and :func:`query` serve the library's own views (fixed queries,
fully evaluated). :func:`run_query` is for queries people type (``kg query``,
a SPARQL endpoint): it refuses updates, ``SERVICE`` and ``LOAD`` before the
store sees the text, stops after ``limit`` rows, gives up after ``timeout``
seconds, and streams rows as Oxigraph produces them.

Limits and dangers
------------------
- **Offline.** pyoxigraph evaluates ``SERVICE`` by calling the remote endpoint
  over HTTP (after a DNS lookup). :func:`~kg.views.offline.refuse_network`
  parses the query with a SPARQL parser and refuses it when the parse tree holds
  a ``SERVICE`` pattern or ``LOAD``, whatever the spelling; the processes that
  evaluate typed queries for ``kg query`` and ``kg serve`` also cannot open an
  internet socket (:mod:`kg.views.sandbox`).
- **Timeout.** pyoxigraph has no way to interrupt a query. The query runs in a
  daemon thread; when the time is up the caller gets E332 and the thread is
  told to stop, which it does at its next row. An operator that must see every
  row before giving one (``ORDER BY``, ``GROUP BY``, ``DISTINCT`` over a huge
  join) keeps that thread busy until it finishes or the process exits. A
  command line exits at once; a long-running server should run queries in a
  worker process it can kill.
- **Memory.** Rows travel in small batches through a bounded queue, so a slow
  reader holds back the query instead of piling rows up in memory.

>>> import pyoxigraph as ox
>>> store = ox.Store()
>>> store.add(ox.Quad(ox.NamedNode("https://w3id.org/kg-lit/id/p1"), ox.NamedNode("https://w3id.org/kg-lit/vocab#doi"), ox.Literal("10.1/x")))
>>> select(store, "SELECT ?d WHERE { ?p kg:doi ?d }")
[{'d': '10.1/x'}]
>>> with run_query(store, "SELECT ?p WHERE { ?p ?q ?o }", timeout=5, limit=10) as rows:
...     [row["p"].value for row in rows]
['https://w3id.org/kg-lit/id/p1']
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from types import TracebackType
from typing import Any, Literal, cast

import pyoxigraph as ox

from kg.errors import UserError
from kg.views.bounded import (
    DEFAULT_LIMIT,
    DEFAULT_TIMEOUT,
    QUERY_ERRORS,
    check_bounds,
    check_query,
    evaluate,
    user_error,
)

__all__ = ["QueryStream", "query", "run_query", "select", "to_python"]

def to_python(term: Any) -> Any:
    """A Python value for an RDF term: IRIs as strings, typed literals as numbers.

    >>> to_python(ox.Literal("3", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")))
    3
    """
    if term is None:
        return None
    if isinstance(term, ox.Literal):
        datatype = term.datatype.value
        if datatype.endswith("#integer") or datatype.endswith("#int") or datatype.endswith("#long"):
            return int(term.value)
        if datatype.endswith("#decimal") or datatype.endswith("#double") or datatype.endswith("#float"):
            return float(Decimal(term.value))
        if datatype.endswith("#boolean"):
            return term.value == "true"
        return term.value
    return term.value


def query(store: ox.Store, sparql: str, bindings: Mapping[str, Any] | None = None) -> Any:
    """Run a read-only SPARQL query with the usual prefixes pre-bound; no timeout or limit.

    ``bindings`` maps variable names to values (strings become literals
    unless they are ``pyoxigraph`` terms), substituted safely rather than
    pasted into the query text; a bound variable must be in the SELECT
    projection (SPARQL SEP-0007). Returns pyoxigraph's result object.
    """
    return evaluate(store, sparql, bindings=bindings)


def select(store: ox.Store, sparql: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Run a SELECT query and return rows of plain Python values (ready for pandas)."""
    solutions = query(store, sparql, bindings)
    names = [v.value for v in solutions.variables]
    return [{name: to_python(row[name]) for name in names} for row in solutions]


# ----------------------------------------------------------------------------- bounded queries

_BATCH = 256  # rows per hand-over between the query thread and the reader
_BATCH_SECONDS = 0.05  # ...or fewer, when rows come slowly, so the first ones show at once


class _Worker(threading.Thread):
    """Runs one query and hands its results over in batches through a bounded queue."""

    def __init__(self, evaluate: Callable[[], Any], limit: int | None, sparql: str) -> None:
        super().__init__(name="kg-sparql", daemon=True)
        self.evaluate = evaluate
        self.sparql = sparql
        self.limit = limit
        self.out: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=8)
        self.stop = threading.Event()

    def _put(self, kind: str, value: Any) -> bool:
        while not self.stop.is_set():
            try:
                self.out.put((kind, value), timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def run(self) -> None:
        try:
            result = self.evaluate()
            if isinstance(result, ox.QueryBoolean):
                self._put("ask", bool(result))
                return
            names = tuple(v.value for v in result.variables) if isinstance(result, ox.QuerySolutions) else ()
            if not self._put("select" if isinstance(result, ox.QuerySolutions) else "graph", names):
                return
            self._stream(iter(result))
        except UserError as error:
            self._put("error", error)
        except QUERY_ERRORS as error:
            self._put("error", user_error(error, self.sparql))

    def _stream(self, items: Iterator[Any]) -> None:
        batch: list[Any] = []
        sent, last = 0, time.monotonic()
        for item in items:
            if self.stop.is_set():
                return
            if self.limit is not None and sent + len(batch) >= self.limit:
                if self._put("rows", batch):
                    self._put("more", None)
                return
            batch.append(item)
            if len(batch) >= _BATCH or time.monotonic() - last > _BATCH_SECONDS:
                if not self._put("rows", batch):
                    return
                sent, batch, last = sent + len(batch), [], time.monotonic()
        if self._put("rows", batch):
            self._put("end", None)


class QueryStream:
    """The streaming result of :func:`run_query`.

    Attributes
    ----------
    kind
        ``"select"`` (iterate :class:`pyoxigraph.QuerySolution` rows),
        ``"ask"`` (read :attr:`boolean`) or ``"graph"`` (CONSTRUCT and
        DESCRIBE: iterate :class:`pyoxigraph.Triple`).
    variables
        The projected variable names of a SELECT, in order; empty otherwise.
    boolean
        The answer of an ASK; ``None`` otherwise.
    truncated
        ``True`` once iteration stopped at the row limit with rows left over.

    Iterate it once. Leaving the ``with`` block (or :meth:`close`) stops the
    query thread at its next row.
    """

    def __init__(self, worker: _Worker, deadline: float | None, timeout: float | None) -> None:
        self._worker = worker
        self._deadline = deadline
        self._timeout = timeout
        self.truncated = False
        self.boolean: bool | None = None
        self.variables: tuple[str, ...] = ()
        kind, value = self._next()
        if kind == "ask":
            self.boolean = value
            self._finished = True
        else:
            self.variables = value
            self._finished = False
        self.kind: Literal["select", "ask", "graph"] = cast(Literal["select", "ask", "graph"], kind)  # the first message's kind is one of these

    def _next(self) -> tuple[str, Any]:
        # Checked before every read, not only when the queue is empty, so a fast stream stops on time too.
        if self._deadline is not None and time.monotonic() >= self._deadline:
            self.close()
            raise UserError("E332", seconds=f"{self._timeout:g}")
        wait = None if self._deadline is None else max(0.0, self._deadline - time.monotonic())
        try:
            kind, value = self._worker.out.get(timeout=wait)
        except queue.Empty:
            self.close()
            raise UserError("E332", seconds=f"{self._timeout:g}") from None
        if kind == "error":
            self.close()
            raise value
        return kind, value

    def __iter__(self) -> Iterator[Any]:
        try:
            while not self._finished:
                kind, value = self._next()
                if kind == "rows":
                    yield from value
                else:
                    self.truncated = kind == "more"
                    self._finished = True
        finally:
            self.close()

    def close(self) -> None:
        """Stop the query thread (at its next row) and drop what it has not handed over."""
        self._finished = True
        self._worker.stop.set()

    def __del__(self) -> None:
        # Dropped without being read to the end: let the query thread go.
        self._worker.stop.set()

    def __enter__(self) -> QueryStream:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


def run_query(
    store: ox.Store,
    sparql: str,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    limit: int | None = DEFAULT_LIMIT,
    bindings: Mapping[str, Any] | None = None,
) -> QueryStream:
    """Run a query someone typed: read-only, offline, at most ``limit`` rows within ``timeout`` seconds.

    Parameters
    ----------
    store
        The store to query (a read-only store on disk, or one in memory).
    sparql
        The query text; the prefixes of :data:`kg.store.namespace.PREFIXES` are pre-bound.
    timeout
        Seconds from the call until the last row; ``None`` (or 0) waits forever.
    limit
        Rows (SELECT) or triples (CONSTRUCT, DESCRIBE) at most; ``None`` (or 0) for all.
    bindings
        Variable name -> value, substituted by Oxigraph (never pasted into the text).

    Returns
    -------
    QueryStream
        Known kind and variables; rows arrive while iterating it.

    Raises
    ------
    UserError
        E304 for an update, E331 for ``SERVICE``/``LOAD`` (both before the
        store is touched), E303 for a syntax error, E332 when the time is up
        (here or while iterating), E334 when evaluation fails, E311 for a
        negative timeout or limit.
    """
    check_bounds(timeout, limit)
    check_query(sparql)
    worker = _Worker(lambda: evaluate(store, sparql, bindings=bindings, checked=True), limit or None, sparql)
    deadline = time.monotonic() + timeout if timeout else None
    worker.start()
    return QueryStream(worker, deadline, timeout)
