"""When a task of extraction counts as stalled: no progress within a deadline derived from the measured time per paper.

A worker can stop without dying (``kill -STOP``, a hung file system, a
debugger): its process lives, so nothing breaks, and a build waiting for its
batch would wait forever holding the lock. The executors (:mod:`kg.engines.local`,
:mod:`kg.engines.dask_engine`) give each task a deadline, kill the worker of a
task past it, retry its papers once, and stop the build with E324 when the
retry stalls too.

Progress is a paper done. The local engine's workers report each paper
(:meth:`StallWatch.progressed`), so a task is stalled when its next paper is
late: ``last + max(floor, factor * median seconds between papers)``; before a
task's first paper, ``start + max(floor, factor * the longest wait for a first
paper so far)`` (a worker's first paper includes loading the pipeline). The
Dask engine knows only whole partitions: ``start + floor + factor * papers *
the fastest seconds per paper of a partition done``. Before anything is done
the deadline is ``start + first`` (loading spaCy and the models, then a first
paper). ``floor`` absorbs a slow abstract (the longest allowed one takes well
under it; see docs/RELIABILITY.md).

``KG_STALL_FLOOR`` and ``KG_STALL_FIRST`` (seconds) override the floor and the
first deadline, for slow machines and for tests.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["FACTOR", "FIRST", "FLOOR", "StallWatch"]

_Key = TypeVar("_Key", bound=Hashable)

#: Seconds any paper may take, whatever the measurements say.
FLOOR = 30.0
#: How many times its expected time a paper (or a partition) may take.
FACTOR = 4.0
#: Seconds a task may take before anything is measured (loading the pipeline included).
FIRST = 600.0


def _seconds(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


@dataclass
class _Task:
    start: float
    papers: int
    last: float | None = None  # when its last paper was done


class StallWatch:
    """Start times, sizes and progress of running tasks; which of them are past their deadline.

    >>> now = [0.0]
    >>> watch = StallWatch(floor=10, factor=2, first=100, clock=lambda: now[0])
    >>> watch.started("a", 5)
    >>> watch.deadline("a")                       # nothing measured yet
    100.0
    >>> now[0] = 8.0; watch.progressed("a")        # the first paper, 8 s after the start
    >>> now[0] = 9.0; watch.progressed("a")        # then one a second
    >>> watch.deadline("a")                       # 9 + max(10, 2 * 1.0)
    19.0
    >>> watch.started("b", 5); watch.deadline("b")  # 9 + max(10, 2 * 8.0)
    25.0
    >>> now[0] = 26.0; watch.overdue(["a", "b"])
    ['a', 'b']
    """

    def __init__(self, floor: float | None = None, factor: float = FACTOR, first: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.floor = _seconds("KG_STALL_FLOOR", FLOOR) if floor is None else floor
        self.factor = factor
        self.first = _seconds("KG_STALL_FIRST", FIRST) if first is None else first
        self._clock = clock
        self._running: dict[Hashable, _Task] = {}
        self._between: list[float] = []  # seconds between two papers of one task
        self._first: list[float] = []  # seconds from a task's start to its first paper
        self._per_paper: list[float] = []  # seconds per paper of tasks done without progress reports

    def started(self, key: Hashable, papers: int) -> None:
        self._running[key] = _Task(self._clock(), max(1, papers))

    def progressed(self, key: Hashable) -> None:
        """Record one paper of ``key`` done."""
        task = self._running.get(key)
        if task is None:
            return
        now = self._clock()
        (self._first if task.last is None else self._between).append(now - (task.start if task.last is None else task.last))
        task.last = now

    def finished(self, key: Hashable) -> None:
        """Record a task done (its seconds per paper measure, when it reported no paper)."""
        task = self._running.pop(key, None)
        if task is not None and task.last is None:
            self._per_paper.append((self._clock() - task.start) / task.papers)

    def forget(self, key: Hashable) -> None:
        """A task that will not finish here (sent again, or cancelled): no measurement."""
        self._running.pop(key, None)

    def deadline(self, key: Hashable) -> float:
        task = self._running[key]
        if task.last is not None:
            return task.last + max(self.floor, self.factor * statistics.median(self._between or self._first))
        if self._first:
            return task.start + max(self.floor, self.factor * max(self._first))
        if self._per_paper:
            return task.start + self.floor + self.factor * task.papers * min(self._per_paper)
        return task.start + self.first

    def allowed(self, key: Hashable) -> float:
        """Seconds since the task's last progress (or start) that it was allowed."""
        task = self._running[key]
        return self.deadline(key) - (task.last if task.last is not None else task.start)
    def overdue(self, keys: Iterable[_Key]) -> list[_Key]:
        """The tasks among ``keys`` past their deadline."""
        now = self._clock()
        return [key for key in keys if key in self._running and self.deadline(key) <= now]

    def wait(self, keys: Iterable[Hashable]) -> float | None:
        """Seconds until the first deadline among ``keys`` (at least a tenth of a second); ``None`` without tasks."""
        deadlines = [self.deadline(key) for key in keys if key in self._running]
        return max(0.1, min(deadlines) - self._clock()) if deadlines else None
