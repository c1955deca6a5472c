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

from kg.engines import ExtractJob, extract_batch, worker_pipeline
from kg.errors import KgError, UserError
from kg.model import Extraction, Paper

__all__ = ["ATTEMPTS", "LocalExecutor", "make_executor"]

#: How many pools a batch may see break before the build gives up on it.
ATTEMPTS = 3
_PR_SET_PDEATHSIG = 1


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
        """Extract every paper; yield each Extraction as soon as it is done (in input order for one worker)."""
        if self.workers == 1 or len(papers) <= job.batch_size:
            from kg.extract import extract

            return extract(papers, worker_pipeline(job), workers=1, batch_size=job.batch_size)
        return _supervised(papers, job, self.workers, self.on_message or _ignore)


def _ignore(message: str) -> None:
    return None


def _worker_init(parent: int) -> None:
    """Tie a worker's life to its parent's, and leave Ctrl-C to the parent."""
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


def _submit(pool: ProcessPoolExecutor, batches: list[Sequence[Paper]], todo: deque[int], running: dict[Future[list[Extraction]], int], tries: list[int], most: int, job: ExtractJob) -> bool:
    """Hand batches to ``pool`` until ``most`` are running; ``False`` if the pool is broken (the batch stays to do)."""
    while todo and len(running) < most:
        number = todo[0]
        try:
            future = pool.submit(extract_batch, batches[number], job)
        except BrokenProcessPool:
            return False
        todo.popleft()
        tries[number] += 1
        running[future] = number
    return True


def _supervised(papers: Sequence[Paper], job: ExtractJob, workers: int, on_message: Callable[[str], None]) -> Iterator[Extraction]:
    """Batches of papers through worker pools, restarting a pool whose worker died."""
    batches = [papers[i : i + job.batch_size] for i in range(0, len(papers), job.batch_size)]
    tries = [0] * len(batches)
    todo = deque(range(len(batches)))
    context = multiprocessing.get_context("spawn")
    while todo:
        pool = ProcessPoolExecutor(min(workers, len(todo)), mp_context=context, initializer=_worker_init, initargs=(os.getpid(),))
        running: dict[Future[list[Extraction]], int] = {}
        graceful = False
        try:
            while todo or running:
                if not _submit(pool, batches, todo, running, tries, 2 * workers, job):
                    break  # the pool broke between two results: a worker died while idle or starting
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                broken = [future for future in done if isinstance(future.exception(), BrokenProcessPool)]
                if broken:
                    break
                for future in done:
                    running.pop(future)
                    yield from future.result()
            else:
                graceful = True
                continue
            lost = sorted(running.values())
            if not lost:  # broken before anything ran: charge the next batch, so a pool that never starts ends
                lost = [todo.popleft()]
                tries[lost[0]] += 1
            for number in lost:
                if tries[number] >= ATTEMPTS:
                    raise KgError("E323", attempts=tries[number], count=len(batches[number]), first=batches[number][0].id)
            todo.extendleft(reversed(lost))
            on_message(f"an extraction worker died; retrying {sum(len(batches[n]) for n in lost)} paper(s) in a new worker pool")
        finally:
            _stop(pool, graceful=graceful)
