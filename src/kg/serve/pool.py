"""A pool of worker processes that answers queries with a timeout that really stops them.

pyoxigraph cannot interrupt a running query, so each query runs in a worker
process (pebble's :class:`~pebble.ProcessPool`) and one that outlives the
timeout is stopped by ending its process; pebble starts a fresh worker in its
place, and the other queries go on. Workers are spawned, not forked, so they
inherit none of the server's threads or sockets.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import signal
from collections.abc import Callable
from typing import Any

from pebble import ProcessPool

from kg.errors import KgError
from kg.views.sandbox import forbid_network


def _end_on_sigterm() -> None:
    """Worker initializer: no internet sockets, and let SIGTERM end the process at once.

    A worker evaluates the queries people send, so it gets no way to open an
    internet socket (:func:`kg.views.sandbox.forbid_network`): even a ``SERVICE``
    the offline guard missed reaches nothing.

    pebble stops a worker with SIGTERM and handles it in Python, but a Python
    handler cannot run while pyoxigraph is inside a query, so the stop would
    wait for pebble's SIGKILL three seconds later. A worker holds nothing that
    needs cleaning up (the store is open read-only), so the default action is safe.
    """
    forbid_network()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class QueryPool:
    """``workers`` processes; :meth:`run` awaits one function call in one of them.

    :meth:`run` raises :class:`~kg.errors.KgError` E344 when the call ran longer
    than ``timeout`` seconds (time spent waiting for a free worker does not count).
    """

    def __init__(self, workers: int, timeout: float) -> None:
        self.timeout = timeout
        self._pool = ProcessPool(max_workers=workers, initializer=_end_on_sigterm, context=multiprocessing.get_context("spawn"))

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        future = self._pool.schedule(function, args=args, timeout=self.timeout)
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError:
            raise KgError("E344", seconds=self.timeout) from None

    def close(self) -> None:
        """Stop every worker (a running query included) and wait for them to end."""
        self._pool.stop()
        self._pool.join(timeout=10)
