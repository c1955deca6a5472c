"""The local engine: ``nlp.pipe`` in this process, or in ``workers`` processes.

Provisional stand-in on the ``dask`` branch so that the build can go through
:func:`kg.engines.make_executor`; the build branch owns the real module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from kg.engines import ExtractJob, worker_pipeline
from kg.errors import UserError
from kg.model import Extraction, Paper


@dataclass(frozen=True)
class LocalExecutor:
    """Extraction with spaCy's own multiprocessing (``n_process=workers``)."""

    workers: int = 1

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        from kg.extract import extract

        return extract(papers, worker_pipeline(job), workers=self.workers, batch_size=job.batch_size)


def make_executor(*, workers: int = 1, scheduler: str | None = None, partitions: int | None = None, on_message: Callable[[str], None] | None = None) -> LocalExecutor:
    """A :class:`LocalExecutor`; ``scheduler`` and ``partitions`` belong to the Dask engine."""
    if scheduler is not None or partitions is not None:
        raise UserError("E311", reason="--scheduler and --partitions need --engine dask")
    return LocalExecutor(workers)
