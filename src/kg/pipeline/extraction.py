"""Extract what the cache does not hold, through an executor whose workers write it, one partition at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from kg.engines import Executor, ExtractJob, write_partitions
from kg.errors import UserError
from kg.model import Extraction, Paper
from kg.pipeline.cache import cache_key
from kg.pipeline.partitions import PartitionCache
from kg.pipeline.report import Progress

__all__ = ["Extracted", "extract_papers", "load_existing"]


class Extracted(NamedTuple):
    """Each paper's extraction by id, and how many came from the executor and from the cache."""

    papers: dict[str, tuple[Paper, Extraction]]
    extracted: int
    from_cache: int


def extract_papers(papers: Sequence[Paper], cache: PartitionCache, executor: Executor, job: ExtractJob,
                   version: str, progress: Progress) -> Extracted:
    """Extractions for ``papers``: from the cache where present, else from ``executor``.

    The executor's workers write each partition they extract into the cache,
    and the partition is recorded as done the moment its worker says so, so a
    killed build resumes with the partitions it had not recorded. An unusable
    cache entry is extracted again. The new entries are then read back from
    the cache: the extractions themselves never travel back to this process.
    """
    keys = [cache_key(paper, version) for paper in papers]
    found = cache.load(keys).entries
    todo = [paper for paper, key in zip(papers, keys) if key not in found]
    from_cache = len(papers) - len(todo)
    progress("extract", from_cache, len(papers))
    if todo:
        cache.sweep()
        done = from_cache
        results = write_partitions(executor, todo, job, cache.writer(version), job.batch_size)
        try:
            for written in results:
                cache.record(written)
                done += len(written.keys)
                progress("extract", done, len(papers))
        finally:
            results.close()  # stops the executor's workers at once on an error or Ctrl-C
        # Written moments ago by this build's own writer: their fields' types need no check.
        found.update(_entries(cache, [cache_key(paper, version) for paper in todo], cache.folder.path, check=False))
    return Extracted({paper.id: (paper, found[key][1]) for paper, key in zip(papers, keys)}, len(todo), from_cache)


def load_existing(cache: PartitionCache, keys: Sequence[str], folder: object) -> dict[str, tuple[Paper, Extraction]]:
    """The papers of an existing build, by id, from its cache; E319 names an entry that is missing or unusable."""
    return {paper.id: (paper, extraction) for paper, extraction in _entries(cache, keys, folder).values()}


def _entries(cache: PartitionCache, keys: Sequence[str], folder: object, check: bool = True) -> dict[str, tuple[Paper, Extraction]]:
    """The entries of ``keys``, by key; E319 names the first that is missing or unusable."""
    loaded = cache.load(keys, check=check)
    for key in keys:
        if key in loaded.corrupt:
            error = loaded.corrupt[key]
            raise UserError("E319", path=error.path, reason=error.reason, folder=folder)
        if key not in loaded.entries:
            if cache.unreadable:  # the likely cause: a record that listed it
                raise UserError("E319", path=cache.unreadable[0], reason=f"unreadable, and entry {key} is missing", folder=folder)
            raise UserError("E319", path=cache.where(key), reason=f"missing entry {key}", folder=folder)
    return loaded.entries
