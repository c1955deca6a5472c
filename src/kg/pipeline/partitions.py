"""The extraction cache as partition files: the worker that extracted a partition writes it, the build records it.

Layout (every path from :class:`kg.buildfolder.BuildFolder`)::

    cache/partitions/<name>.jsonl.gz   one partition's entries, written by the worker that extracted them
    cache/recorded/<name>.json         the build's record that the partition is done: {"keys": [...]}, in line order

Format: gzip-compressed JSON Lines. Each line is one cache entry, the same JSON
text (:func:`kg.pipeline.cache.entry_text`) as the one file per paper of earlier
versions: ``{"extraction": ..., "key": ..., "paper": ...}``. Existing engines read
it as it is (``pandas.read_json(path, lines=True)``, ``dask.bag.read_text``,
DuckDB's ``read_json``). It is not columnar: Parquet would be, and pyarrow is not
a dependency of kg. Only :func:`pack` and :func:`unpack` know the format, so a
Parquet pair (a table of the same three columns) can replace them.

- **Done means recorded.** The worker writes the partition's file; the build
  (the client) records it once the worker says so, one small record per
  partition, each written atomically (one index file rewritten per partition
  would cost time quadratic in the partitions). A file without a record (its
  worker finished and the build was killed before recording it, or a worker
  outlived a killed build) is removed by the next build (:meth:`PartitionCache.sweep`),
  so a resumed build runs again exactly the papers of the partitions it had
  not recorded.
- **Names are content addresses.** A partition's name is a hash of its keys,
  and its bytes depend only on its entries, so a partition run twice (a retry,
  a worker Dask thought dead) writes the same file.
- **Lookups go through the records**, never through the files: a key names
  its partition and line. When several records list a key, the newest wins (a
  full build that re-extracted an unusable entry records it again).
- **Older folders** (one JSON file per paper under ``cache/``) are still read,
  for the keys no record lists; nothing is written there any more.

Limits: the workers must reach the build folder at the same path (a local
cluster, or storage shared with the cluster). A worker that cannot see the
folder hands the file's bytes back and the build writes them. Entries no
generation uses are never removed, as before.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from kg.buildfolder import RECORD, BuildFolder
from kg.io import atomic_write
from kg.model import Extraction, Paper
from kg.pipeline.cache import CacheCorrupt, cache_key, entry_text, json_text, parse_entry

__all__ = ["Loaded", "PartitionCache", "PartitionWriter", "Written", "pack", "partition_name", "unpack"]

#: gzip's level for partition files: 6 packs a partition of arXiv entries about 5 to 1 in a few milliseconds.
LEVEL = 6


def pack(lines: Iterable[str]) -> bytes:
    """A partition file's bytes: ``lines`` as gzip-compressed JSON Lines, the same bytes for the same lines.

    >>> unpack(pack(['{"a": 1}', '{"b": 2}']))
    ['{"a": 1}', '{"b": 2}']
    """
    return gzip.compress("".join(f"{line}\n" for line in lines).encode("utf-8"), compresslevel=LEVEL, mtime=0)


def unpack(data: bytes) -> list[str]:
    """The lines of a partition file's bytes; ``EOFError``, ``OSError`` or ``zlib.error`` when they are not gzip, or cut."""
    text = gzip.decompress(data).decode("utf-8")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def partition_name(keys: Sequence[str]) -> str:
    """The name of the partition holding ``keys`` in this order: a hash of them."""
    return hashlib.sha256("\n".join(keys).encode("ascii")).hexdigest()[:32]


@dataclass(frozen=True)
class Written:
    """A partition done, as its worker hands it back: its name, its keys in line order, and the
    file's bytes when the worker could not write them itself (``None`` once written)."""

    name: str
    keys: tuple[str, ...]
    data: bytes | None = None


def _write_file(folder: BuildFolder, name: str, data: bytes) -> None:
    folder.partitions.mkdir(parents=True, exist_ok=True)
    with atomic_write(folder.partition(name), "wb") as handle:
        handle.write(data)


@dataclass(frozen=True)
class PartitionWriter:
    """The sink a worker calls with each partition it extracted (:data:`kg.engines.Sink`): it writes the
    partition's file into ``folder``'s cache and returns its :class:`Written`. Plain data, so it pickles."""

    folder: BuildFolder
    version: str

    def __call__(self, papers: Sequence[Paper], extractions: list[Extraction]) -> Written:
        by_id = {extraction.paper_id: extraction for extraction in extractions}
        keys = tuple(cache_key(paper, self.version) for paper in papers)
        data = pack(entry_text(key, paper, by_id[paper.id]) for key, paper in zip(keys, papers))
        name = partition_name(keys)
        if not self.folder.path.is_dir():  # a worker on a machine that does not share the folder
            return Written(name, keys, data)
        _write_file(self.folder, name, data)
        return Written(name, keys)


class Loaded(NamedTuple):
    """What a lookup found: the usable entries by key, and the unusable ones (why, where)."""

    entries: dict[str, tuple[Paper, Extraction]]
    corrupt: dict[str, CacheCorrupt]


class PartitionCache:
    """A build folder's extraction cache: the partition files, the records of those done, and the
    per-paper files of earlier versions. The build holds the folder's lock while it uses one."""

    def __init__(self, folder: BuildFolder) -> None:
        self.folder = folder
        self._index: dict[str, tuple[str, int]] | None = None
        self._names: set[str] = set()
        #: Records that could not be read: the keys they listed count as not cached.
        self.unreadable: list[Path] = []

    def _records(self) -> dict[str, tuple[str, int]]:
        """Key -> (partition, line), from the records, the newest record last so that it wins."""
        if self._index is None:
            self._index = {}
            try:
                names = [path.name.removesuffix(RECORD) for path in self.folder.recorded.iterdir()]
            except FileNotFoundError:
                names = []
            paths = [(path.stat().st_mtime_ns, name, path) for name in names if (path := self.folder.record(name)).is_file()]
            for _, name, path in sorted(paths):  # a temporary file of a record being written is no record
                keys = _record_keys(path)
                if keys is None:
                    self.unreadable.append(path)
                else:
                    self._names.add(name)
                    self._index.update((key, (name, row)) for row, key in enumerate(keys))
        return self._index

    def keys(self) -> list[str]:
        """The keys the records list (not those of per-paper files), in no particular order."""
        return list(self._records())

    def writer(self, version: str) -> PartitionWriter:
        """The sink that writes partitions of entries keyed with ``version`` into this cache."""
        return PartitionWriter(self.folder, version)

    def record(self, written: Written) -> None:
        """Record a partition as done (writing its file first if the worker could not)."""
        if written.data is not None:
            _write_file(self.folder, written.name, written.data)
        self.folder.recorded.mkdir(parents=True, exist_ok=True)
        # Not fsynced: the file it records is (a record lost to a power cut only means its papers are extracted again).
        with atomic_write(self.folder.record(written.name), "w", encoding="utf-8", durable=False) as handle:
            handle.write(json_text({"keys": list(written.keys)}))
        self._records().update((key, (written.name, row)) for row, key in enumerate(written.keys))
        self._names.add(written.name)

    def sweep(self) -> int:
        """Remove the partition files no record lists (work of a killed build, never recorded); how many."""
        self._records()
        recorded = {self.folder.partition(name) for name in self._names}
        try:
            present = [path for path in self.folder.partitions.iterdir() if path.is_file()]
        except FileNotFoundError:
            return 0
        removed = [path for path in present if path not in recorded]
        for path in removed:
            path.unlink(missing_ok=True)
        return len(removed)

    def load(self, keys: Iterable[str], *, check: bool = True) -> Loaded:
        """The entries of ``keys`` that the cache holds, each partition file read once; keys it does not
        hold are in neither field of the result. ``check=False`` trusts the fields' types (entries this
        build has just written: see :func:`kg.pipeline.cache.parse_entry`)."""
        index = self._records()
        wanted: dict[str, list[tuple[int, str]]] = {}
        unlisted = []
        for key in keys:
            place = index.get(key)
            if place is None:
                unlisted.append(key)
            else:
                wanted.setdefault(place[0], []).append((place[1], key))
        found = Loaded({}, {})
        for name, rows in wanted.items():
            _read_partition(self.folder.partition(name), rows, found, check)
        if unlisted and self._has_legacy():
            for key in unlisted:
                _read_legacy(self.folder.legacy_entry(key), key, found)
        return found

    def where(self, key: str) -> Path:
        """The file that holds (or would hold) ``key``, for messages."""
        place = self._records().get(key)
        return self.folder.partition(place[0]) if place is not None else self.folder.recorded

    def _has_legacy(self) -> bool:
        """Whether the cache holds per-paper files of an earlier version (folders named by a key's first two characters)."""
        try:
            return any(len(path.name) == 2 and path.is_dir() for path in self.folder.cache.iterdir())
        except FileNotFoundError:
            return False


def _record_keys(path: Path) -> list[str] | None:
    """The keys a record lists; ``None`` for a record that cannot be read (its partition then counts as not done)."""
    try:
        keys = json.loads(path.read_text(encoding="utf-8"))["keys"]
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        return None
    return keys if isinstance(keys, list) and all(isinstance(key, str) for key in keys) else None


def _read_partition(path: Path, rows: list[tuple[int, str]], found: Loaded, check: bool) -> None:
    """Parse the lines ``rows`` (line, key) of the partition file ``path`` into ``found``."""
    reason = "empty"
    try:
        lines = unpack(path.read_bytes())
    except FileNotFoundError:
        lines, reason = [], "missing"
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as error:
        lines, reason = [], "truncated or not gzip" if isinstance(error, (EOFError, zlib.error, gzip.BadGzipFile)) else f"unreadable ({error.__class__.__name__})"
    for row, key in rows:
        if row >= len(lines):
            found.corrupt[key] = CacheCorrupt(path, f"without line {row + 1}" if lines else reason)
            continue
        try:
            found.entries[key] = parse_entry(lines[row], path, key, check=check)
        except CacheCorrupt as error:
            found.corrupt[key] = CacheCorrupt(path, f"{error.reason} at line {row + 1}")


def _read_legacy(path: Path, key: str, found: Loaded) -> None:
    """One per-paper entry of an earlier version into ``found``, if it is there."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    except (OSError, UnicodeDecodeError) as error:
        found.corrupt[key] = CacheCorrupt(path, f"unreadable ({error.__class__.__name__})")
        return
    try:
        found.entries[key] = parse_entry(text, path)
    except CacheCorrupt as error:
        found.corrupt[key] = error
