"""Extract what the cache does not hold, through an executor, saving each result at once."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kg.engines import Executor, ExtractJob
from kg.errors import UserError
from kg.model import Extraction, Paper
from kg.pipeline.cache import CacheCorrupt, ExtractionCache, cache_key
from kg.pipeline.report import Progress

__all__ = ["Extracted", "extract_papers", "load_existing"]


class Extracted(NamedTuple):
    """Each paper's extraction by id, and how many came from the executor and from the cache."""

    papers: dict[str, tuple[Paper, Extraction]]
    extracted: int
    from_cache: int


def extract_papers(papers: Sequence[Paper], cache: ExtractionCache, executor: Executor, job: ExtractJob,
                   version: str, progress: Progress) -> Extracted:
    """Extractions for ``papers``: from the cache where present, else from ``executor``.

    Each new extraction is saved the moment it arrives, so a killed build
    resumes; an unusable cache entry is extracted again and overwritten.
    """
    done: dict[str, tuple[Paper, Extraction]] = {}
    todo: list[Paper] = []
    for paper in papers:
        try:
            cached = cache.get(cache_key(paper, version))
        except CacheCorrupt:
            cached = None
        if cached is None:
            todo.append(paper)
        else:
            done[paper.id] = (paper, cached[1])
    from_cache = len(done)
    progress("extract", len(done), len(papers))
    if todo:
        by_id = {p.id: p for p in todo}
        results = executor.map(todo, job)
        try:
            for extraction in results:
                paper = by_id[extraction.paper_id]
                cache.put(cache_key(paper, version), paper, extraction)
                done[paper.id] = (paper, extraction)
                progress("extract", len(done), len(papers))
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()  # stops the executor's workers at once on an error or Ctrl-C
    return Extracted(done, len(done) - from_cache, from_cache)


def load_existing(cache: ExtractionCache, keys: Sequence[str], folder: object) -> dict[str, tuple[Paper, Extraction]]:
    """The papers of an existing build, from its cache; E319 names an entry that is missing or unusable."""
    loaded = {}
    for key in keys:
        try:
            item = cache.get(key)
        except CacheCorrupt as error:
            raise UserError("E319", path=error.path, reason=error.reason, folder=folder) from None
        if item is None:
            raise UserError("E319", path=cache.where(key), reason="missing", folder=folder)
        loaded[item[0].id] = item
    return loaded
