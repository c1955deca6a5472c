"""The local engine: extraction in this process, or in supervised worker processes.

With one worker the pipeline runs in this process, streaming through
``nlp.pipe``. With more, batches of papers go to a pool of worker processes
that each load the pipeline once (:func:`kg.engines.worker_pipeline`).

Supervision
-----------
- A worker that dies (killed, out of memory) breaks the pool; the batches it
  may have held are sent again to a fresh pool. A batch that was in flight
  when the pool broke :data:`ATTEMPTS` times stops the build with E323,
  naming its first paper: the papers extracted before are already cached.
- A worker that stops without dying (``kill -STOP``, a hang) is found when its
  batch makes no progress within its deadline (:class:`kg.engines.stall.StallWatch`,
  derived from the measured seconds per paper): each worker counts the papers
  it has done in shared memory (a lock-free counter per batch, so a stopped
  worker blocks no other), running them through spaCy :data:`PROGRESS_EVERY`
  at a time. The pool is killed and the batches in flight sent again to a
  fresh pool; a batch that stalls twice stops the build with E324. At most
  ``workers`` batches are handed out at a time, so a batch's time counts from
  when a worker takes it.
- Workers never outlive the build: each asks the kernel to kill it when its
  parent dies (``PR_SET_PDEATHSIG`` on Linux), ignores Ctrl-C (the parent
  handles it) and is terminated when the iterator is closed or fails.
- Workers are started with ``spawn``: forking a parent that runs threads (the
  progress bar) can deadlock.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from kg.engines import ExtractJob, Sink, flatten, keep, worker_pipeline
from kg.engines.stall import StallWatch
from kg.errors import KgError, UserError
from kg.model import Extraction, Paper

__all__ = ["ATTEMPTS", "LocalExecutor", "make_executor"]

#: How many pools a batch may see break before the build gives up on it.
ATTEMPTS = 3
_PR_SET_PDEATHSIG = 1
T = TypeVar("T")


def make_executor(*, workers: int = 1, scheduler: str | None = None, partitions: int | None = None,
                  on_message: Callable[[str], None] | None = None) -> LocalExecutor:
    """The local executor; ``scheduler`` and ``partitions`` belong to the dask engine (E311)."""
    if scheduler is not None or partitions is not None:
        raise UserError("E311", reason="--scheduler and --partitions need --engine dask")
    if workers < 1:
        raise UserError("E311", reason=f"--workers must be at least 1, not {workers}")
    return LocalExecutor(workers=workers, on_message=on_message)


@dataclass(frozen=True)
class LocalExecutor:
    """Extraction on this machine: in-process for one worker, supervised processes for more."""

    workers: int = 1
    on_message: Callable[[str], None] | None = None

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        """Extract every paper; yield each Extraction as its batch is done (in input order for one worker)."""
        return flatten(self.write(papers, job, keep))

    def write(self, papers: Sequence[Paper], job: ExtractJob, sink: Sink[T]) -> Iterator[T]:
        """Extract every paper in batches of ``job.batch_size``; yield ``sink(batch, extractions)``, called
        in the worker process that extracted the batch, as each batch is done."""
        if self.workers == 1 or len(papers) <= job.batch_size:
            return _in_process(papers, job, sink)
        return _supervised(papers, job, self.workers, self.on_message or _ignore, sink)


def _in_process(papers: Sequence[Paper], job: ExtractJob, sink: Sink[T]) -> Iterator[T]:
    """One stream through the pipeline in this process, handed to ``sink`` a batch at a time."""
    from kg.extract import extract

    start, done = 0, []
    for extraction in extract(papers, worker_pipeline(job), workers=1, batch_size=job.batch_size):
        done.append(extraction)
        if len(done) == job.batch_size:
            yield sink(papers[start : start + len(done)], done)
            start, done = start + len(done), []
    if done:
        yield sink(papers[start:], done)


def _ignore(message: str) -> None:
    return None


#: Papers a worker runs through spaCy at a time, and so how often it reports progress.
PROGRESS_EVERY = 8
# In a worker: papers done per batch, shared with the parent (one writer per batch, so no lock).
_PROGRESS: Any = None


def _worker_init(parent: int, progress: Any = None) -> None:
    """Tie a worker's life to its parent's, leave Ctrl-C to the parent, keep the progress counters."""
    global _PROGRESS
    _PROGRESS = progress
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)


def _stop(pool: ProcessPoolExecutor, *, graceful: bool) -> None:
    """Shut the pool down; unless ``graceful``, kill its workers instead of waiting for them."""
    if graceful:
        pool.shutdown(wait=True)
        return
    # ProcessPoolExecutor has no public way to stop busy workers before Python 3.14.
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(timeout=5)


def _extract_counted(papers: Sequence[Paper], job: ExtractJob, number: int, sink: Sink[T]) -> T:
    """In a worker: extract a batch, counting each paper done in the shared counters, and hand it to ``sink``."""
    from kg.extract import extract

    done = []
    for extraction in extract(papers, worker_pipeline(job), workers=1, batch_size=min(job.batch_size, PROGRESS_EVERY)):
        done.append(extraction)
        if _PROGRESS is not None:
            _PROGRESS[number] += 1
    return sink(papers, done)


def _submit(pool: ProcessPoolExecutor, batches: list[Sequence[Paper]], todo: deque[int], running: dict[Future[Any], int], tries: list[int], most: int, job: ExtractJob, watch: StallWatch, progress: Any, sink: Sink[Any]) -> bool:
    """Hand batches to ``pool`` until ``most`` are running; ``False`` if the pool is broken (the batch stays to do)."""
    while todo and len(running) < most:
        number = todo[0]
        progress[number] = 0
        try:
            future = pool.submit(_extract_counted, batches[number], job, number, sink)
        except BrokenProcessPool:
            return False
        todo.popleft()
        tries[number] += 1
        running[future] = number
        watch.started(number, len(batches[number]))
    return True


def _observe(running: dict[Future[Any], int], progress: Any, seen: list[int], watch: StallWatch) -> None:
    """Tell ``watch`` of the batches whose workers counted papers since the last look."""
    for number in running.values():
        if progress[number] > seen[number]:
            seen[number] = progress[number]
            watch.progressed(number)


def _stalled(running: dict[Future[Any], int], batches: list[Sequence[Paper]], stalls: list[int], tries: list[int], watch: StallWatch, on_message: Callable[[str], None]) -> bool:
    """Whether a running batch is past its deadline; E324 when one is for the second time.

    The batches in flight are not charged a death (``tries``): the pool is
    killed because of a stall, not because it broke.
    """
    overdue = watch.overdue(running.values())
    if not overdue:
        return False
    for number in overdue:
        stalls[number] += 1
        if stalls[number] >= 2:
            raise KgError("E324", seconds=watch.allowed(number), what=f"a batch of {len(batches[number])} paper(s)", first=batches[number][0].id)
    for number in running.values():
        tries[number] -= 1
    first = batches[overdue[0]]
    on_message(
        f"an extraction worker made no progress for {watch.allowed(overdue[0]):.0f} s on a batch of {len(first)} paper(s) "
        f"starting with {first[0].id!r}; killing the workers and retrying the papers in flight"
    )
    return True


def _supervised(papers: Sequence[Paper], job: ExtractJob, workers: int, on_message: Callable[[str], None], sink: Sink[T]) -> Iterator[T]:
    """Batches of papers through worker pools, restarting a pool whose worker died; ``sink`` runs in the workers."""
    batches = [papers[i : i + job.batch_size] for i in range(0, len(papers), job.batch_size)]
    tries = [0] * len(batches)
    stalls = [0] * len(batches)
    todo = deque(range(len(batches)))
    context = multiprocessing.get_context("spawn")
    watch = StallWatch()
    progress = context.Array("i", len(batches), lock=False)
    seen = [0] * len(batches)
    while todo:
        pool = ProcessPoolExecutor(min(workers, len(todo)), mp_context=context, initializer=_worker_init, initargs=(os.getpid(), progress))
        running: dict[Future[T], int] = {}
        graceful = stalled = False
        try:
            while todo or running:
                if not _submit(pool, batches, todo, running, tries, workers, job, watch, progress, sink):
                    break  # the pool broke between two results: a worker died while idle or starting
                done, _ = wait(running, timeout=min(1.0, watch.wait(running.values()) or 1.0), return_when=FIRST_COMPLETED)
                _observe(running, progress, seen, watch)
                if not done and _stalled(running, batches, stalls, tries, watch, on_message):
                    stalled = True
                    break
                broken = [future for future in done if isinstance(future.exception(), BrokenProcessPool)]
                if broken:
                    break
                for future in done:
                    watch.finished(running.pop(future))
                    yield future.result()
            else:
                graceful = True
                continue
            for number in running.values():
                watch.forget(number)
            lost = sorted(running.values())
            if not lost:  # broken before anything ran: charge the next batch, so a pool that never starts ends
                lost = [todo.popleft()]
                tries[lost[0]] += 1
            for number in lost:
                if tries[number] >= ATTEMPTS:
                    raise KgError("E323", attempts=tries[number], count=len(batches[number]), first=batches[number][0].id)
            for number in lost:
                seen[number] = 0  # sent again: its counter starts from 0
            todo.extendleft(reversed(lost))
            if not stalled:  # a stall said so already
                on_message(f"an extraction worker died; retrying {sum(len(batches[n]) for n in lost)} paper(s) in a new worker pool")
        finally:
            _stop(pool, graceful=graceful)
