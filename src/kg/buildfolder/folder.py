"""The build folder's layout: the one module that names its files.

``kg build --out DIR`` makes ``DIR`` a build folder::

    DIR/
      .kg.lock           the build lock (held by a build or remove)
      manifest.json      written last by every generation: what it holds and what made it
      cache/             the extractions, shared by all generations:
        partitions/      one file per partition of papers, written by the worker that extracted it
        recorded/        one record per partition the build saw done: its keys, in row order
      store/             the graph as an Oxigraph store, for read commands and the server
      graph.nt ...       the exports (:data:`EXPORTS`), rejected.jsonl, iri-changes.jsonl
    .DIR.kg-staging/     the next generation while it is written (beside DIR)
    .DIR.kg-old/         the previous one during a swap without renameat2

Every other module asks :class:`BuildFolder` for a path instead of joining a
name itself, and a test (``tests/test_buildfolder.py``) fails when a module
of ``src/kg`` spells one of these names.

>>> folder = BuildFolder(Path("/data/out"))
>>> folder.manifest_path, folder.staging
(PosixPath('/data/out/manifest.json'), PosixPath('/data/.out.kg-staging'))
>>> is_build_folder(Path("/nonexistent"))
False
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kg.buildfolder.manifest import SCHEMA, Manifest, TooNew
from kg.errors import UserError
from kg.io import atomic_write

__all__ = ["CACHE", "CACHE_NAMES", "EXPORTS", "FACTS", "GRAPHML", "IRI_CHANGES", "JSONLD", "LOCK", "MANIFEST", "NEO4J", "NQUADS",
           "NTRIPLES", "OWN_NAMES", "PAGE", "PARTITION", "PARTITIONS", "RECORD", "RECORDED", "REJECTED", "RESULTS", "STORE", "TRIG", "TURTLE", "BuildFolder", "Generation",
           "is_build_folder"]

LOCK = ".kg.lock"
MANIFEST = "manifest.json"
CACHE = "cache"
STORE = "store"
REJECTED = "rejected.jsonl"
IRI_CHANGES = "iri-changes.jsonl"
#: Inside the cache: the partition files, and the records of those a build saw done.
PARTITIONS = "partitions"
RECORDED = "recorded"
#: A partition file's suffix: gzip-compressed JSON Lines, one cache entry a line; a record's suffix.
PARTITION = ".jsonl.gz"
RECORD = ".json"
#: The names inside the cache folder.
CACHE_NAMES = frozenset({PARTITIONS, RECORDED})

TURTLE = "graph.ttl"
NTRIPLES = "graph.nt"
JSONLD = "graph.jsonld"
GRAPHML = "graph.graphml"
FACTS = "facts.csv"
RESULTS = "results.csv"
PAGE = "graph.html"
NQUADS = "graph.nq"
TRIG = "graph.trig"
NEO4J = "neo4j"
#: Every export a build folder may hold (:data:`kg.export.EXPORTERS` writes them; ``store`` is one too).
EXPORTS = (TURTLE, NTRIPLES, STORE, JSONLD, GRAPHML, FACTS, RESULTS, PAGE, NQUADS, TRIG, NEO4J)
#: Names a build writes into its folder besides the exports.
OWN_NAMES = frozenset({LOCK, CACHE, STORE, MANIFEST, REJECTED, IRI_CHANGES})

#: A value that changes whenever a build, update or removal publishes into a folder.
Generation = tuple[int, ...]


def is_build_folder(path: Path) -> bool:
    """Whether ``path`` is a folder kg build wrote or is writing: it holds the build's lock or its manifest.

    The one test of a build folder: a folder walk never reads one as input,
    ``kg export`` never writes into one, and read commands (``kg serve``,
    ``kg report``) refuse any other folder with E307.
    """
    return (path / LOCK).is_file() or (path / MANIFEST).is_file()


@dataclass(frozen=True)
class BuildFolder:
    """A build folder at ``path``: where each of its files lives, its generation and its manifest."""

    path: Path

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> BuildFolder:
        """The build folder at ``path`` for a command that reads it; ``E307`` if it is not one."""
        folder = cls(Path(path))
        if not is_build_folder(folder.path):
            raise UserError("E307", path=folder.path)
        return folder

    @property
    def lock(self) -> Path:
        return self.path / LOCK

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def cache(self) -> Path:
        return self.path / CACHE

    @property
    def store(self) -> Path:
        return self.path / STORE

    @property
    def partitions(self) -> Path:
        """The folder of partition files (:mod:`kg.pipeline.partitions`)."""
        return self.cache / PARTITIONS

    @property
    def recorded(self) -> Path:
        """The folder of records of partitions done."""
        return self.cache / RECORDED

    def partition(self, name: str) -> Path:
        """The file of partition ``name``."""
        return self.partitions / f"{name}{PARTITION}"

    def record(self, name: str) -> Path:
        """The record that partition ``name`` is done."""
        return self.recorded / f"{name}{RECORD}"

    def legacy_entry(self, key: str) -> Path:
        """Where kg before partition files kept the entry ``key``: one JSON file per paper, read, never written."""
        return self.cache / key[:2] / f"{key}.json"

    @property
    def ntriples(self) -> Path:
        return self.path / NTRIPLES

    @property
    def rejected(self) -> Path:
        return self.path / REJECTED

    @property
    def iri_changes(self) -> Path:
        return self.path / IRI_CHANGES

    @property
    def staging(self) -> Path:
        """Where the next generation is written: beside the folder, on the same file system."""
        return self.path.with_name(f".{self.path.name}.kg-staging")

    @property
    def old(self) -> Path:
        """Where the previous generation waits during a swap of two renames."""
        return self.path.with_name(f".{self.path.name}.kg-old")

    def is_build(self) -> bool:
        return is_build_folder(self.path)

    def served_store(self) -> Path:
        """The store a server reads; ``E307`` when this is not a build folder, ``E341`` for a build without a store."""
        if not self.is_build():
            raise UserError("E307", path=self.path)
        if not self.store.is_dir():
            raise UserError("E341", path=self.path, store=self.store)
        return self.store

    def generation(self) -> Generation:
        """A value that changes whenever a build, update or removal publishes into the folder.

        The manifest is replaced (a new inode) at the end of every build, and a
        new store is a new folder, so their inodes and times tell generations
        apart with two ``stat`` calls and no reading.
        """
        stamps: list[int] = []
        for path in (self.manifest_path, self.store):
            try:
                info = os.stat(path)
            except OSError:
                stamps += [0, 0, 0]
                continue
            stamps += [info.st_ino, info.st_mtime_ns, info.st_size]
        return tuple(stamps)

    def read_manifest(self) -> Manifest:
        """The folder's manifest.

        Raises ``UserError`` E307 if there is none, E317 (naming the file and
        the fix) if it is not a manifest, E318 if a newer kg wrote it.
        """
        path = self.manifest_path
        try:
            text = path.read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            raise UserError("E307", path=self.path) from None
        except (OSError, UnicodeDecodeError) as error:
            raise UserError("E317", path=path, reason=str(error), folder=self.path) from None
        try:
            return Manifest.from_json(text)
        except TooNew as error:
            raise UserError("E318", path=path, found=error.schema, known=SCHEMA) from None
        except (ValueError, TypeError) as error:
            raise UserError("E317", path=path, reason=str(error).splitlines()[0], folder=self.path) from None

    def manifest_or_none(self) -> Manifest | None:
        """The folder's manifest, or ``None`` when it has no readable one (for commands that can do without)."""
        try:
            return self.read_manifest()
        except UserError:
            return None

    def write_manifest(self, manifest: Manifest) -> Path:
        """Write the manifest atomically; returns its path."""
        with atomic_write(self.manifest_path, "w") as handle:
            handle.write(manifest.to_json())
        return self.manifest_path
