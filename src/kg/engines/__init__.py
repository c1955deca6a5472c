"""Extraction executors: where the per-paper extraction runs (local processes, a Dask cluster).

An executor maps the extraction pipeline over papers and yields each
:class:`~kg.model.Extraction` as soon as it is done, in any order. The build
caches each one at once and resolves over all papers in sorted-id order, so the
engine never changes the output bytes. Engines are named in :data:`ENGINES`
and imported only when asked for, so an engine's optional dependencies (Dask)
are needed only by those who use it.

>>> sorted(ENGINES)
['dask', 'local']
>>> make_executor("spark")
Traceback (most recent call last):
...
kg.errors.UserError: E251: unknown extraction engine 'spark': choose one of dask, local
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from kg.errors import UserError
from kg.model import Extraction, Paper

if TYPE_CHECKING:
    from spacy.language import Language


@dataclass(frozen=True)
class ExtractJob:
    """What a worker needs to rebuild the extraction pipeline: plain, picklable data."""

    spacy_model: str | None = None
    scierc_model: str | None = None
    batch_size: int = 32


class Executor(Protocol):
    """Runs the extraction of many papers somewhere; owns whatever it starts to do so."""

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        """Extract every paper; yield each Extraction as soon as it is done, in any order.

        The executor owns its resources: all it started is stopped when the iterator ends or is closed.
        """
        ...


_PIPELINES: dict[tuple[str | None, str | None], Language] = {}


def worker_pipeline(job: ExtractJob) -> Language:
    """The pipeline for ``job``, loaded once per process (module-level cache).

    A worker process runs many partitions; loading the models (seconds) once
    per process instead of once per partition is what makes small partitions cheap.
    """
    models = (job.spacy_model, job.scierc_model)
    nlp = _PIPELINES.get(models)
    if nlp is None:
        from kg.extract import load_pipeline

        nlp = _PIPELINES[models] = load_pipeline(job.spacy_model, scierc_model=job.scierc_model)
    return nlp


#: engine name -> "module:factory"; factories are imported only when asked for.
ENGINES: dict[str, str] = {"local": "kg.engines.local:make_executor", "dask": "kg.engines.dask_engine:make_executor"}


def make_executor(
    name: str,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    partitions: int | None = None,
    on_message: Callable[[str], None] | None = None,
) -> Executor:
    """The executor of engine ``name``; :class:`UserError` E251 for an unknown name.

    ``on_message`` receives one-line progress notes (partitions done, the
    dashboard link) for the caller to show; the library itself never prints.
    """
    if name not in ENGINES:
        raise UserError("E251", name=name, choices=", ".join(sorted(ENGINES)))
    module, factory = ENGINES[name].split(":")
    make = getattr(importlib.import_module(module), factory)
    return make(workers=workers, scheduler=scheduler, partitions=partitions, on_message=on_message)
