"""A pool of worker processes that answers queries within a timeout, a memory cap and a fair queue.

pyoxigraph cannot interrupt a running query, so each query runs in a worker
process (pebble's :class:`~pebble.ProcessPool`) and one that outlives the
timeout is stopped by ending its process; pebble starts a fresh worker in its
place, and the other queries go on. Workers are spawned, not forked, so they
inherit none of the server's threads or sockets.

Each worker's address space is capped (``memory`` bytes): a query that would
exhaust the machine fails inside its worker (a ``MemoryError``, or Rust's
allocator aborting the process), and the request is answered 503 (E376) while
pebble replaces the worker.

Requests wait for a worker in a bounded, fair queue (:class:`Turns`): at most
``queue`` requests wait, served round robin across clients (one client's six
slow queries do not hold a seventh client's request behind all of them), and a
full queue answers 503 with ``Retry-After`` (E377). The time a request waits
counts in its timeout.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from pebble import ProcessExpired, ProcessPool

from kg.errors import KgError
from kg.views.sandbox import forbid_network, limit_memory

#: A worker's address space by default: two workers and the server fit a 24 GB machine with room to spare.
DEFAULT_MEMORY = 4 * 2**30
#: Requests that may wait for a worker by default.
DEFAULT_QUEUE = 32
# Rust's allocator aborts (SIGABRT) on a failed allocation; the kernel's OOM killer sends SIGKILL.
_MEMORY_SIGNALS = {-signal.SIGABRT, -signal.SIGKILL, -signal.SIGSEGV}


def _start_worker(memory: int | None) -> None:
    """Worker initializer: no internet sockets, a capped address space, and SIGTERM ending the process at once.

    A worker evaluates the queries people send, so it gets no way to open an
    internet socket (:func:`kg.views.sandbox.forbid_network`): even a ``SERVICE``
    the offline guard missed reaches nothing.

    pebble stops a worker with SIGTERM and handles it in Python, but a Python
    handler cannot run while pyoxigraph is inside a query, so the stop would
    wait for pebble's SIGKILL three seconds later. A worker holds nothing that
    needs cleaning up (the store is open read-only), so the default action is safe.
    """
    forbid_network()
    limit_memory(memory)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _gigabytes(size: int | None) -> str:
    return f"{(size or 0) / 2**30:.1f}"


class Turns:
    """Worker slots handed out fairly: round robin across clients, first come first served within one.

    Runs on one event loop. :meth:`acquire` waits for a slot (at most ``wait``
    seconds) and :meth:`release` hands it to the next client in turn.
    """

    def __init__(self, slots: int, queue: int, retry_after: float) -> None:
        self._free = slots
        self._queue = queue
        self._retry_after = retry_after
        # Insertion order is the turn order: a client served goes to the back.
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._count = 0

    @property
    def waiting(self) -> int:
        """Requests waiting for a slot now."""
        return self._count

    async def acquire(self, client: str, wait: float) -> bool:
        """Take a slot for ``client``; ``False`` when none came within ``wait`` seconds.

        Raises :class:`~kg.errors.KgError` E377 at once when the queue is full.
        """
        if self._free > 0 and not self._count:
            self._free -= 1
            return True
        if self._count >= self._queue:
            raise KgError("E377", waiting=self._count, seconds=math.ceil(self._retry_after))
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, deque()).append(turn)
        self._count += 1
        try:
            await asyncio.wait({turn}, timeout=max(wait, 0.0))
        except BaseException:  # the request was cancelled (its client went away)
            if turn.done():
                self.release()  # the slot came as the request ended: pass it on
            else:
                turn.cancel()
                self._forget(client, turn)
            raise
        if not turn.done():  # no slot within ``wait``
            turn.cancel()
            self._forget(client, turn)
            return False
        return True

    def _forget(self, client: str, turn: asyncio.Future[None]) -> None:
        line = self._waiting.get(client)
        if line is not None and turn in line:
            line.remove(turn)
            self._count -= 1
            if not line:
                del self._waiting[client]

    def release(self) -> None:
        """Give the slot to the next waiting client in turn, or free it."""
        while self._waiting:
            client = next(iter(self._waiting))
            line = self._waiting.pop(client)
            turn = line.popleft()
            self._count -= 1
            if line:
                self._waiting[client] = line  # to the back of the turn order
            if not turn.done():
                turn.set_result(None)
                return
        self._free += 1


class QueryPool:
    """``workers`` processes; :meth:`run` awaits one function call in one of them.

    :meth:`run` raises :class:`~kg.errors.KgError` E344 when the call, its wait
    for a worker included, ran longer than ``timeout`` seconds; E376 when the
    worker ran out of its ``memory``; E377 when ``queue`` requests wait already;
    E378 when the worker died for another reason.
    """

    def __init__(self, workers: int, timeout: float, memory: int | None = DEFAULT_MEMORY, queue: int = DEFAULT_QUEUE) -> None:
        self.timeout = timeout
        self.memory = memory
        self.turns = Turns(workers, queue, retry_after=timeout)
        self._pool = ProcessPool(max_workers=workers, initializer=_start_worker, initargs=(memory,), context=multiprocessing.get_context("spawn"))

    async def run(self, function: Callable[..., Any], *args: Any, client: str = "") -> Any:
        started = time.monotonic()
        if not await self.turns.acquire(client, self.timeout):
            raise KgError("E344", seconds=self.timeout)
        try:
            left = self.timeout - (time.monotonic() - started)
            if left <= 0:
                raise KgError("E344", seconds=self.timeout)
            future = self._pool.schedule(function, args=args, timeout=left)
            try:
                return await asyncio.wrap_future(future)
            except TimeoutError:
                raise KgError("E344", seconds=self.timeout) from None
            except MemoryError:
                raise KgError("E376", size=_gigabytes(self.memory)) from None
            except ProcessExpired as error:
                if self.memory and error.exitcode in _MEMORY_SIGNALS:
                    raise KgError("E376", size=_gigabytes(self.memory)) from None
                raise KgError("E378", reason=f"exit status {error.exitcode}") from None
        finally:
            self.turns.release()

    def close(self) -> None:
        """Stop every worker (a running query included) and wait for them to end."""
        self._pool.stop()
        self._pool.join(timeout=10)
