"""Extraction executors: where the papers of a build are run through the pipeline.

An :class:`Executor` takes papers and yields one :class:`~kg.model.Extraction`
per paper, in any order (``map``). A build uses ``write`` where an executor has
it (:class:`WritingExecutor`; both of kg's do): the papers are cut into
partitions, and the worker that extracted a partition hands it to a *sink* there
(the build's partition writer, :mod:`kg.pipeline.partitions`), so only what the
sink returns (a file name and keys) comes back. An executor with ``map`` alone
still works: :func:`write_partitions` then runs the sink in this process. The
build resolves over all papers in sorted-id order, so the engine never changes
the bytes of the output, only where and how fast the work is done.

Engines are looked up by name in :data:`ENGINES` (:data:`kg.registry.ENGINES`,
``name -> "module:factory"``) and imported only when asked for, so an optional
engine's dependencies (dask) cost nothing unless it is used. Another package
adds an engine through the ``kg.engines`` entry-point group: a factory
``make_executor(*, workers, scheduler, partitions, on_message) -> Executor``.

>>> sorted(ENGINES)
['dask', 'local']
>>> make_executor("spark")
Traceback (most recent call last):
...
kg.errors.UserError: E312: unknown engine 'spark': choose one of local, dask
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, TypeVar

from kg.errors import UserError
from kg.registry import ENGINES

if TYPE_CHECKING:
    from spacy.language import Language

    from kg.model import Extraction, Paper

__all__ = ["ENGINES", "Executor", "ExtractJob", "Sink", "WritingExecutor", "extract_batch", "flatten", "keep", "make_executor",
           "worker_pipeline", "write_partitions"]

T = TypeVar("T")

#: What a worker does with a partition it extracted: ``sink(papers, extractions)``, run where the
#: extraction ran; the executor sends only its return value back. It must pickle (a module-level
#: function, or a frozen dataclass with ``__call__``), since it travels to the workers.
Sink = Callable[["Sequence[Paper]", "list[Extraction]"], T]


@dataclass(frozen=True)
class ExtractJob:
    """What a worker needs to rebuild the extraction pipeline: plain, picklable data."""

    spacy_model: str | None = None
    scierc_model: str | None = None
    batch_size: int = 32


class Executor(Protocol):
    """Runs the extraction of many papers somewhere (this process, worker processes, a cluster)."""

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        """Extract every paper; yield each Extraction as soon as it is done, in any order.
        The executor owns its resources: all it started is stopped when the iterator ends or is closed."""
        ...


class WritingExecutor(Executor, Protocol):
    """An executor whose workers hand each partition they extracted to a sink, where they ran it."""

    def write(self, papers: Sequence[Paper], job: ExtractJob, sink: Sink[T]) -> Iterator[T]:
        """Extract every paper in partitions; yield ``sink(partition, its extractions)`` for each, as each is
        done, with ``sink`` called on the worker. Stops all it started when the iterator ends or is closed."""
        ...


def keep(papers: Sequence[Paper], extractions: list[Extraction]) -> list[Extraction]:
    """The sink that sends the extractions themselves back (what ``map`` is made of)."""
    return extractions


def flatten(parts: Iterator[list[Extraction]]) -> Iterator[Extraction]:
    """Each extraction of ``parts``; closing this closes ``parts`` (and so stops its workers)."""
    try:
        for part in parts:
            yield from part
    finally:
        close = getattr(parts, "close", None)
        if close is not None:
            close()


def write_partitions(executor: Executor, papers: Sequence[Paper], job: ExtractJob, sink: Sink[T], size: int) -> Generator[T, None, None]:
    """``executor.write(papers, job, sink)``; for an executor with ``map`` alone, its extractions cut into
    partitions of ``size`` papers in the order they come and handed to ``sink`` in this process."""
    write = getattr(executor, "write", None)
    if write is not None:
        yield from write(papers, job, sink)
        return
    by_id = {paper.id: paper for paper in papers}
    results = executor.map(papers, job)
    done: list[Extraction] = []
    try:
        for extraction in results:
            done.append(extraction)
            if len(done) == size:
                yield sink([by_id[e.paper_id] for e in done], done)
                done = []
        if done:
            yield sink([by_id[e.paper_id] for e in done], done)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # stops the executor's workers at once on an error or Ctrl-C


@lru_cache(maxsize=2)
def _load(spacy_model: str | None, scierc_model: str | None) -> Language:
    from kg.extract import load_pipeline

    return load_pipeline(spacy_model, scierc_model=scierc_model)


def worker_pipeline(job: ExtractJob) -> Language:
    """The pipeline for ``job``, loaded once per process (module-level cache).

    Notebooks, services and long-lived workers build repeatedly; loading spaCy
    and the trained models takes seconds, so each process does it once.
    """
    return _load(job.spacy_model, job.scierc_model)


def extract_batch(papers: Sequence[Paper], job: ExtractJob) -> list[Extraction]:
    """The Extractions of ``papers`` in this process: what one worker does with one batch."""
    from kg.extract import extract

    return list(extract(papers, worker_pipeline(job), workers=1, batch_size=job.batch_size))


#: engine name -> the extra that installs its dependencies.
EXTRAS: dict[str, str] = {"dask": "dask"}


def make_executor(name: str, *, workers: int = 1, scheduler: str | None = None,
                  partitions: int | None = None,
                  on_message: Callable[[str], None] | None = None) -> Executor:
    """The executor of engine ``name``, configured.

    Raises ``UserError`` E312 for an unknown engine and E313 when the engine's
    optional dependencies are not installed (one line naming the extra).
    """
    spec = ENGINES.spec(name)
    if spec is None:
        raise UserError("E312", name=name, choices=", ".join(ENGINES))
    try:
        factory = ENGINES[name]
    except ImportError as error:
        missing = error.name or str(error)
        if missing.startswith("kg.") and missing != spec.split(":")[0]:
            raise  # a bug inside kg, not a missing optional dependency
        raise UserError("E313", name=name, missing=missing, extra=EXTRAS.get(name, name)) from None
    return factory(workers=workers, scheduler=scheduler, partitions=partitions, on_message=on_message)
