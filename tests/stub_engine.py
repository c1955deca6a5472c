"""A test engine that needs no spaCy: extractions come from a donor build (or are empty).

``KG_STUB_DONOR`` names the build folder of a real build: a paper whose id is in
its cache gets that real extraction, so graphs are real; ``KG_STUB_DELAY``
seconds are spent per paper, so that extraction takes time a test can kill. It
writes partitions of ``KG_STUB_PARTITION`` papers (4 unless set) through the
build's sink, in this process, as a real engine's workers do.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from kg.buildfolder import BuildFolder
from kg.engines import ENGINES, ExtractJob, Sink, flatten, keep
from kg.model import Extraction, Paper
from kg.pipeline.partitions import PartitionCache

NAME = "stub"
SPEC = "tests.stub_engine:make_executor"
T = TypeVar("T")


@lru_cache(maxsize=1)
def _donor(folder: str) -> dict[str, Extraction]:
    cache = PartitionCache(BuildFolder(Path(folder)))
    return {paper.id: extraction for paper, extraction in cache.load(cache.keys()).entries.values()}


@dataclass(frozen=True)
class StubExecutor:
    delay: float = 0.0
    partition: int = 4

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        return flatten(self.write(papers, job, keep))

    def write(self, papers: Sequence[Paper], job: ExtractJob, sink: Sink[T]) -> Iterator[T]:
        donor = _donor(os.environ["KG_STUB_DONOR"]) if os.environ.get("KG_STUB_DONOR") else {}
        for start in range(0, len(papers), self.partition):
            part = papers[start : start + self.partition]
            time.sleep(self.delay * len(part))
            yield sink(part, [donor.get(paper.id, Extraction(paper_id=paper.id)) for paper in part])


def make_executor(*, workers=1, scheduler=None, partitions=None, on_message=None) -> StubExecutor:
    return StubExecutor(delay=float(os.environ.get("KG_STUB_DELAY", "0")), partition=int(os.environ.get("KG_STUB_PARTITION", "4")))


def register() -> None:
    """Make ``--engine stub`` known in this process (and in processes forked from it)."""
    ENGINES.register(NAME, SPEC)
