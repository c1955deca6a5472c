"""A test engine that needs no spaCy: extractions come from a donor cache (or are empty).

``KG_STUB_DONOR`` names the ``cache/`` folder of a real build: a paper whose id
is there gets that real extraction, so graphs are real; ``KG_STUB_DELAY``
seconds are spent per paper, so that extraction takes time a test can kill.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kg.engines import ENGINES, ExtractJob
from kg.model import Extraction, Paper

NAME = "stub"
SPEC = "tests.stub_engine:make_executor"


@lru_cache(maxsize=1)
def _donor(folder: str) -> dict[str, dict]:
    found = {}
    for path in Path(folder).rglob("*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        found[record["paper"]["id"]] = record["extraction"]
    return found


@dataclass(frozen=True)
class StubExecutor:
    delay: float = 0.0

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        donor = _donor(os.environ["KG_STUB_DONOR"]) if os.environ.get("KG_STUB_DONOR") else {}
        for paper in papers:
            time.sleep(self.delay)
            yield Extraction.from_dict(donor[paper.id]) if paper.id in donor else Extraction(paper_id=paper.id)


def make_executor(*, workers=1, scheduler=None, partitions=None, on_message=None) -> StubExecutor:
    return StubExecutor(delay=float(os.environ.get("KG_STUB_DELAY", "0")))


def register() -> None:
    """Make ``--engine stub`` known in this process (and in processes forked from it)."""
    ENGINES.register(NAME, SPEC)
