"""Typed queries in a process of their own: offline by construction, bounded in time, memory and bytes.

``kg query`` runs each query in a child process forked from itself. The child
takes away its own ability to open internet sockets
(:func:`kg.views.sandbox.forbid_network`), caps its address space
(:func:`kg.views.sandbox.limit_memory`), evaluates the query and sends the rows
back in pickled batches through a pipe. The parent reads them against one
deadline and one byte budget:

- the deadline is checked while waiting for every batch, so ``--timeout`` holds
  whatever ``--limit`` is; when it passes the child is killed (E332);
- a query that exhausts its memory cap dies alone, and the parent reports it in
  one line (E336) instead of the machine swapping;
- rows past ``limit`` or past ``max_bytes`` of pickled terms are cut, and
  :attr:`ProcessQueryStream.truncated` says why (``"rows"`` or ``"bytes"``).

Forking keeps the store the parent opened (or the graph file it parsed) without
reopening it. Linux and macOS fork; where there is no fork, use
:func:`kg.views.sparql.run_query` in-process.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import time
from collections.abc import Iterator, Mapping
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any, Literal

import pyoxigraph as ox

from kg.errors import KgError, UserError
from kg.views.bounded import (
    DEFAULT_MAX_BYTES,
    QUERY_ERRORS,
    check_bounds,
    check_query,
    evaluate,
    user_error,
)
from kg.views.sandbox import die_with_parent, forbid_network, limit_memory

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MEMORY", "ProcessQueryStream", "run_isolated"]

#: The address space of the query process (``kg query --memory``); the parent stays small.
DEFAULT_MEMORY = 1536 * 1024 * 1024
_BATCH = 256
_BATCH_SECONDS = 0.05


def _silence_stderr() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)


def _child(
    store: ox.Store, sparql: str, bindings: Mapping[str, Any] | None, limit: int | None, memory: int | None, out: Connection, inherited: Connection
) -> None:
    """Evaluate one query and send ("head", kind, names), ("rows", [...])..., ("end" | "more", None).

    The child's stderr goes to /dev/null: when the memory cap is reached Rust's allocator
    aborts with a message and a backtrace there, and the parent reports it in one line.
    The child closes its copy of the pipe's read end and dies with its parent, so a
    parent killed outright (SIGKILL, no clean-up) never leaves a query running or
    blocked on a pipe nobody reads.
    """
    inherited.close()
    die_with_parent()
    _silence_stderr()
    forbid_network()
    limit_memory(memory)
    try:
        result = evaluate(store, sparql, bindings=bindings, checked=True)
        if isinstance(result, ox.QueryBoolean):
            out.send(("ask", bool(result), None))
            return
        if isinstance(result, ox.QuerySolutions):
            names = tuple(v.value for v in result.variables)
            out.send(("head", "select", names))
            rows: Iterator[Any] = (tuple(row) for row in result)
        else:
            out.send(("head", "graph", ()))
            rows = iter(result)
        batch: list[Any] = []
        sent, last = 0, time.monotonic()
        for row in rows:
            if limit is not None and sent + len(batch) >= limit:
                out.send(("rows", batch, None))
                out.send(("more", None, None))
                return
            batch.append(row)
            if len(batch) >= _BATCH or time.monotonic() - last > _BATCH_SECONDS:
                out.send(("rows", batch, None))
                sent, batch, last = sent + len(batch), [], time.monotonic()
        out.send(("rows", batch, None))
        out.send(("end", None, None))
    except UserError as error:
        out.send(("error", error, None))
    except QUERY_ERRORS as error:
        out.send(("error", user_error(error, sparql), None))
    except MemoryError:
        out.send(("memory", None, None))


class ProcessQueryStream:
    """The streaming result of :func:`run_isolated`; the same reading interface as :class:`~kg.views.sparql.QueryStream`.

    Rows of a SELECT are dicts from variable name to term (``None`` when unbound);
    CONSTRUCT and DESCRIBE give :class:`pyoxigraph.Triple`. ``truncated`` is
    ``False``, ``"rows"`` or ``"bytes"`` once iteration has stopped.
    """

    def __init__(self, process: Any, pipe: Connection, deadline: float | None, timeout: float | None, max_bytes: int | None, memory: int | None) -> None:
        self._process = process
        self._pipe = pipe
        self._deadline = deadline
        self._timeout = timeout
        self._max_bytes = max_bytes
        self._memory = memory
        self._received = 0
        self._finished = False
        self.truncated: Literal[False, "rows", "bytes"] = False
        self.boolean: bool | None = None
        self.variables: tuple[str, ...] = ()
        kind, value, names = self._next()
        if kind == "ask":
            self.kind: Literal["select", "ask", "graph"] = "ask"
            self.boolean = value
            self.close()
        else:
            self.kind = value
            self.variables = names

    def _next(self) -> tuple[str, Any, Any]:
        while True:
            # Checked before every read, not only when the pipe is quiet, so a fast stream stops on time too.
            if self._deadline is not None and time.monotonic() >= self._deadline:
                self.close()
                raise UserError("E332", seconds=f"{self._timeout:g}")
            wait = 0.5 if self._deadline is None else min(0.5, max(0.0, self._deadline - time.monotonic()))
            try:
                if self._pipe.poll(wait):
                    data = self._pipe.recv_bytes()
                    break
            except (EOFError, OSError):
                data = b""
                break
            if not self._process.is_alive() and not self._pipe.poll(0):
                data = b""
                break
        if not data:
            self.close()
            self._process.join(5)
            raise self._died()
        self._received += len(data)
        kind, value, names = pickle.loads(data)
        if kind == "error":
            self.close()
            raise value
        if kind == "memory":
            self.close()
            raise self._died(memory=True)
        return kind, value, names

    def _died(self, memory: bool = False) -> KgError:
        code = self._process.exitcode
        # Rust aborts (SIGABRT) and Python raises MemoryError when the address-space cap is reached.
        if memory or code in (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGKILL, 1):
            return UserError("E336", size=f"{(self._memory or 0) / 2**30:.1f}")
        return KgError("E334", reason=f"the query process ended with status {code}")

    def __iter__(self) -> Iterator[Any]:
        try:
            while not self._finished:
                kind, value, _ = self._next()
                if kind == "rows":
                    if self._max_bytes is not None and self._received > self._max_bytes:
                        self.truncated = "bytes"
                        return
                    for row in value:
                        yield dict(zip(self.variables, row)) if self.kind == "select" else row
                else:
                    self.truncated = "rows" if kind == "more" else False
                    self._finished = True
        finally:
            self.close()

    def close(self) -> None:
        """End the query process, wherever it is."""
        self._finished = True
        if self._process.is_alive():
            os.kill(self._process.pid, signal.SIGKILL)
        self._process.join(5)
        self._pipe.close()

    def __enter__(self) -> ProcessQueryStream:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


def run_isolated(
    store: ox.Store,
    sparql: str,
    *,
    timeout: float | None,
    limit: int | None,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    memory: int | None = DEFAULT_MEMORY,
    bindings: Mapping[str, Any] | None = None,
    started: float | None = None,
) -> ProcessQueryStream:
    """Run a typed query in a forked, offline, memory-capped process; rows stream back.

    Raises :class:`~kg.errors.UserError` E304/E331/E303 before anything runs
    (see :func:`kg.views.bounded.check_query`), E332 past ``timeout`` and E336
    past ``memory``, while starting or while iterating. The timeout counts from
    ``started`` (a :func:`time.monotonic` value; the command's start) when given,
    so the time spent starting up and opening the store is inside it.
    """
    check_bounds(timeout, limit)
    check_query(sparql)
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    deadline = (started if started is not None else time.monotonic()) + timeout if timeout else None
    process = context.Process(target=_child, args=(store, sparql, dict(bindings) if bindings else None, limit or None, memory, writer, reader), daemon=True)
    process.start()
    writer.close()
    return ProcessQueryStream(process, reader, deadline, timeout, max_bytes or None, memory)
