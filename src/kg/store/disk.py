"""Open a graph for reading: a build folder's on-disk store, a build's ``graph.nt``, or an RDF file.

A build writes its triples twice: ``graph.nt`` for people and ``diff``, and an
Oxigraph (RocksDB) store in ``store/`` that opens in milliseconds instead of
parsing the whole file. :func:`open_graph` prefers the store.

Limits and dangers
------------------
- Stores are opened with :meth:`pyoxigraph.Store.read_only`: nothing is
  written, no lock is taken, so any number of readers (threads or processes)
  can share one. Oxigraph does not support reading a store another process is
  writing; the build never does that: it writes a new store beside the old one
  and renames it into place (:mod:`kg.export.store`).
- Nothing is ever created by reading. A folder is opened as a store only if it
  already holds one (a RocksDB ``CURRENT`` file and a ``MANIFEST-*``); any other
  folder without ``graph.nt`` is refused with E330.
- A build folder without ``store/`` (written before stores existed, or with
  ``formats`` leaving it out) is read from ``graph.nt`` into memory, as before.
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox

from kg.buildfolder import BuildFolder
from kg.errors import UserError

__all__ = ["is_store", "open_graph", "open_store", "parse_file"]

_EXTENSIONS: dict[str, ox.RdfFormat] = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".json": ox.RdfFormat.JSON_LD,
    ".nq": ox.RdfFormat.N_QUADS,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML,
}


def is_store(folder: Path) -> bool:
    """Whether ``folder`` holds an Oxigraph (RocksDB) database, judged without opening it.

    >>> import tempfile
    >>> is_store(Path(tempfile.mkdtemp()))
    False
    """
    return (folder / "CURRENT").is_file() and any(folder.glob("MANIFEST-*"))


def open_store(folder: str | Path) -> ox.Store:
    """Open the Oxigraph store in ``folder`` read-only (E330 if there is none, E333 if it is unreadable)."""
    folder = Path(folder)
    if not is_store(folder):
        raise UserError("E330", path=folder)
    try:
        return ox.Store.read_only(str(folder))
    except (OSError, RuntimeError) as error:
        raise UserError("E333", path=folder, reason=" ".join(str(error).split())) from None


def parse_file(path: str | Path) -> ox.Store:
    """A new in-memory store holding the triples of one RDF file (format from its extension)."""
    path = Path(path)
    if not path.is_file():
        raise UserError("E301", path=path)
    fmt = _EXTENSIONS.get(path.suffix.lower())
    if fmt is None:
        raise UserError("E302", path=path, reason="unknown RDF file extension (use .ttl, .nt or .jsonld)")
    store = ox.Store()
    try:
        store.bulk_load(path=str(path), format=fmt)
    except (SyntaxError, ValueError, OSError) as error:
        raise UserError("E302", path=path, reason=str(error).splitlines()[0]) from None
    return store


def open_graph(path: str | Path) -> ox.Store:
    """The store to read for ``path``: a build folder, an Oxigraph store folder or an RDF file.

    A build folder opens its ``store/`` read-only, or else parses its
    ``graph.nt``; a folder that is itself an Oxigraph store opens read-only;
    a file is parsed into memory.

    Raises
    ------
    UserError
        E301 when ``path`` does not exist, E330 for a folder that is none of
        these, E302 for a file that does not parse, E333 for a store that does
        not open.
    """
    path = Path(path)
    if path.is_dir():
        build = BuildFolder(path)
        if is_store(build.store):
            return open_store(build.store)
        if build.ntriples.is_file():
            return parse_file(build.ntriples)
        return open_store(path)
    return parse_file(path)
