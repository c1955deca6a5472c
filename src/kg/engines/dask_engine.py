"""The Dask engine: extraction partitioned over the workers of a ``dask.distributed`` cluster.

Papers are cut into contiguous partitions; each partition is one task that
runs :func:`kg.extract.extract` on a worker with the pipeline of
:func:`kg.engines.worker_pipeline` (loaded once per worker process) and hands
the partition's :class:`~kg.model.Extraction` records to the build's sink there
(:meth:`DaskExecutor.write`: the build's partition writer, which writes the
partition's file and sends back its name and keys), or sends them back
(:meth:`DaskExecutor.map`). Results are yielded as partitions complete, so the
build records them at once and a killed build loses at most the partitions in
flight. A worker that dies is replaced and its
partitions rescheduled by Dask itself (up to ``distributed.scheduler.allowed-failures``
times per partition).

Without ``scheduler`` the engine starts a :class:`distributed.LocalCluster` of
``workers`` processes with one thread each, and stops it when the iterator
ends or is closed. With ``scheduler`` it connects to an existing cluster (whose
workers need ``kg`` and its models installed), and closes only its client.
The workers of that ``LocalCluster`` start with this process's environment, as
local ``--workers`` processes do: kg drops the environment Dask's nanny sets
by default (one BLAS/OpenMP thread, a fixed ``MALLOC_TRIM_THRESHOLD_``) and its
sampling profiler (:data:`LOCAL_WORKER_ENVIRON`), which made spaCy measurably
slower. A cluster of your own keeps its own settings.

Limits: the texts travel inside the tasks (through the scheduler), at most
``AHEAD`` partitions per worker thread at a time; that keeps a worker's death
recoverable (data scattered to a worker dies with it) and the scheduler's
memory bounded, while the client still holds every paper. With the build's
sink, the workers write into the build folder: they must reach it at the same
path (kg's own ``LocalCluster``, or shared storage); a sink may hand the bytes
back instead where they cannot (:class:`kg.pipeline.partitions.PartitionWriter` does).

A worker that stops without dying (``kill -STOP``, a hang) is not replaced by
Dask itself (issue 27's probe waited for ever at 150 of 200 papers). Each partition has a
deadline (:class:`kg.engines.stall.StallWatch`, from the measured seconds per
paper); the worker holding a partition past it is killed (its nanny starts a
new one and Dask sends the partition elsewhere), and a partition that stalls
twice stops the build with E324.

Dask is the optional extra ``dask``; this module imports it only when an
executor is made.
"""

from __future__ import annotations

import logging
import math
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from kg.engines import ExtractJob, Sink, flatten, keep, worker_pipeline
from kg.engines.stall import StallWatch
from kg.errors import KgError, UserError
from kg.model import Extraction, Paper

#: Papers per partition when ``partitions`` is not given: seconds of work per task
#: (at 10-20 papers/s per core), small enough that a lost worker costs little.
PARTITION_SIZE = 200
#: At least this many partitions per worker thread, so small corpora still spread evenly.
PER_CORE = 4
#: Partitions submitted ahead per worker thread; the rest wait on the client.
AHEAD = 2
#: Seconds to wait for an existing scheduler to answer.
CONNECT_TIMEOUT = 10
#: Dask settings for the ``LocalCluster`` kg starts: its nanny's usual environment for new
#: workers (one BLAS/OpenMP thread, ``MALLOC_TRIM_THRESHOLD_``) is dropped, so a worker runs
#: spaCy as a local ``--workers`` process does. Measured on 2,000 arXiv abstracts, 2 workers:
#: one BLAS thread per process made the local engine 20% slower (68.9 s against 57.5 s), and
#: the fixed trim threshold cost the Dask workers a further 7%.
#: Dask's sampling profiler (a thread waking every 10 ms in each worker, for the dashboard's
#: profile page) is off as well: kg's tasks are one long call whose profile says little.
LOCAL_WORKER_ENVIRON: dict[str, object] = {
    **{f"distributed.nanny.pre-spawn-environ.{name}": None
       for name in ("MALLOC_TRIM_THRESHOLD_", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
    "distributed.worker.profile.enabled": False,
}

T = TypeVar("T")

# One extraction at a time per worker process: a spaCy pipeline is not documented as
# thread-safe, so extra threads of a worker started with --nthreads > 1 wait here.
_EXTRACTING = threading.Lock()


def split(items: Sequence[T], count: int) -> list[Sequence[T]]:
    """``items`` cut into ``count`` contiguous parts whose sizes differ by at most one.

    >>> [list(p) for p in split(range(7), 3)]
    [[0, 1, 2], [3, 4], [5, 6]]
    >>> len(split(range(2), 5))
    2
    """
    count = max(1, min(count, len(items)))
    size, extra = divmod(len(items), count)
    parts, start = [], 0
    for index in range(count):
        end = start + size + (index < extra)
        parts.append(items[start:end])
        start = end
    return parts


def partition_count(papers: int, cores: int, partitions: int | None = None) -> int:
    """How many partitions ``papers`` papers make: ``partitions`` if given, else by size and cores.

    >>> partition_count(5000, cores=2), partition_count(240, cores=2), partition_count(3, cores=2)
    (25, 8, 3)
    >>> partition_count(5000, cores=2, partitions=4)
    4
    """
    if partitions is None:
        partitions = max(math.ceil(papers / PARTITION_SIZE), PER_CORE * cores)
    return max(1, min(partitions, papers))


class WorkerError(Exception):
    """A catalogue error raised on a worker, as plain arguments (a :class:`KgError` does not unpickle)."""

    def as_kg_error(self) -> KgError:
        code, values, user = self.args
        return (UserError if user else KgError)(code, **values)


def extract_partition(papers: Sequence[Paper], job: ExtractJob, sink: Sink[T]) -> T:
    """Run on a worker: ``sink(papers, the Extractions of the partition in order)``."""
    from kg.extract import extract

    try:
        with _EXTRACTING:
            extractions = list(extract(papers, worker_pipeline(job), batch_size=job.batch_size))
        return sink(papers, extractions)
    except KgError as error:
        raise WorkerError(error.code, error.values, isinstance(error, UserError)) from None


def peak_memory_mb() -> float:
    """This process's peak resident memory in MB (run on each worker at the end)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _ignore(message: str) -> None:
    return None


@dataclass(frozen=True)
class DaskExecutor:
    """Extraction over a Dask cluster: a new ``LocalCluster``, or the one at ``scheduler``."""

    workers: int = 1
    scheduler: str | None = None
    partitions: int | None = None
    on_message: Callable[[str], None] = _ignore

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        """Extract every paper; yield each partition's Extractions as the partition completes."""
        return flatten(self.write(papers, job, keep))

    def write(self, papers: Sequence[Paper], job: ExtractJob, sink: Sink[T]) -> Iterator[T]:
        """Extract every paper; yield ``sink(partition, its extractions)``, run on the worker, as each partition completes."""
        if not papers:
            return
        client, cluster = self._connect()
        try:
            yield from self._run(client, papers, job, sink, cluster)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()

    def _connect(self) -> tuple[Any, Any]:
        """A client, and the cluster this executor started (``None`` for an existing one)."""
        import dask
        from distributed import Client, LocalCluster

        if self.scheduler is not None:
            try:
                return Client(self.scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False), None
            except OSError as error:  # refused, unreachable or timed out
                raise UserError("E252", address=self.scheduler, reason=str(error) or type(error).__name__) from None
        with dask.config.set(LOCAL_WORKER_ENVIRON):
            cluster = LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR,
            )
        try:
            return Client(cluster, set_as_default=False), cluster
        except BaseException:
            cluster.close()
            raise

    def _run(self, client: Any, papers: Sequence[Paper], job: ExtractJob, sink: Sink[T], cluster: Any = None) -> Iterator[T]:
        from distributed.scheduler import KilledWorker

        threads = client.nthreads()
        cores = sum(threads.values()) or self.workers
        parts = split(papers, partition_count(len(papers), cores, self.partitions))
        self._describe(client, threads, len(parts), len(papers))
        token = uuid.uuid4().hex
        waiting = iter(enumerate(parts, start=1))
        number: dict[str, int] = {}
        running: dict[str, Any] = {}
        watch = StallWatch()
        stalls: dict[str, int] = {}

        def submit_next() -> None:
            item = next(waiting, None)
            if item is not None:
                index, part = item
                future = client.submit(extract_partition, part, job, sink, key=f"kg-extract-{token}-{index}", pure=False)
                number[future.key] = index
                running[future.key] = future
                watch.started(future.key, len(part))

        for _ in range(AHEAD * cores):
            submit_next()
        done = 0
        while running:
            future = _first_done(running, watch)
            if future is None:
                self._stalled(client, cluster, watch, running, stalls, number, parts)
                continue
            del running[future.key]
            watch.finished(future.key)
            index = number.pop(future.key)
            try:
                result = future.result()
            except WorkerError as error:
                raise error.as_kg_error() from None
            except KilledWorker:
                reason = "every worker that ran it died (see the workers' logs)"
                raise KgError("E253", partition=index, partitions=len(parts), reason=reason) from None
            except Exception as error:  # kg missing on a worker, a bug: one line, the cause kept for --debug
                raise KgError("E253", partition=index, partitions=len(parts), reason=f"{type(error).__name__}: {error}") from error
            future.release()
            submit_next()
            done += len(parts[index - 1])
            self.on_message(f"partition {index}/{len(parts)} done: {done}/{len(papers)} papers")
            yield result
        peaks = client.run(peak_memory_mb)
        self.on_message("peak memory per worker: " + ", ".join(f"{mb:.0f}" for mb in peaks.values()) + " MB")

    def _stalled(self, client: Any, cluster: Any, watch: StallWatch, running: dict[str, Any], stalls: dict[str, int], number: dict[str, int], parts: list[Sequence[Paper]]) -> None:
        """Kill the workers holding partitions past their deadline; E324 for a partition's second stall."""
        overdue = watch.overdue(running)
        if not overdue:
            return
        holders = {key: address for address, keys in client.processing().items() for key in keys}
        for key in overdue:
            stalls[key] = stalls.get(key, 0) + 1
            part = parts[number[key] - 1]
            if stalls[key] >= 2:
                raise KgError("E324", seconds=watch.allowed(key), what=f"partition {number[key]} ({len(part)} papers)", first=part[0].id)
            self.on_message(
                f"a Dask worker made no progress for {watch.allowed(key):.0f} s on partition {number[key]}/{len(parts)}; "
                "killing it and running the partition again"
            )
            address = holders.get(key)
            if address is not None:
                _kill_worker(client, cluster, address)
            watch.forget(key)
            watch.started(key, len(part))

    def _describe(self, client: Any, threads: dict[str, int], parts: int, papers: int) -> None:
        """Say where the work goes: workers, partitions, the dashboard when there is one."""
        self.on_message(f"Dask: {papers} papers in {parts} partitions over {len(threads)} workers at {client.scheduler.address}")
        if "dashboard" in client.scheduler_info().get("services", {}):
            self.on_message(f"Dask dashboard: {client.dashboard_link}")
        if any(n > 1 for n in threads.values()):
            self.on_message("workers with several threads extract one partition at a time; start them with --nthreads 1")


def _first_done(running: dict[str, Any], watch: StallWatch) -> Any:
    """The first finished future among ``running`` (in submission order), or ``None`` once a deadline passes."""
    while True:
        for future in running.values():
            if future.done():
                return future
        if watch.overdue(running):
            return None
        time.sleep(0.05)


def _kill_worker(client: Any, cluster: Any, address: str) -> None:
    """End the worker process at ``address``: SIGKILL from its nanny's record in a cluster kg started, else ask its nanny."""
    for nanny in getattr(cluster, "workers", {}).values():
        process = getattr(nanny, "process", None)
        if getattr(nanny, "worker_address", None) == address and process is not None and process.pid:
            os.kill(process.pid, signal.SIGKILL)  # also ends a stopped process
            return
    try:
        client.restart_workers([address], timeout=30, raise_for_error=False)
    except KeyError:
        pass  # the worker is already gone (killed outright, or its nanny with it): nothing left to end


def make_executor(
    *,
    workers: int = 1,
    scheduler: str | None = None,
    partitions: int | None = None,
    on_message: Callable[[str], None] | None = None,
) -> DaskExecutor:
    """A :class:`DaskExecutor`; :class:`UserError` E250 when the ``dask`` extra is missing.

    ``workers`` sizes the ``LocalCluster`` (ignored with ``scheduler``, whose
    cluster has its own); ``partitions`` overrides the number of partitions.
    """
    try:
        import distributed  # noqa: F401
    except ImportError as error:
        raise UserError("E250", missing=error.name or "distributed") from None
    if partitions is not None and partitions < 1:
        raise UserError("E311", reason=f"--partitions must be at least 1, not {partitions}")
    return DaskExecutor(workers=workers, scheduler=scheduler, partitions=partitions, on_message=on_message or _ignore)
