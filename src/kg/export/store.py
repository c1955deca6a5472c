"""``store/``: the graph as an on-disk Oxigraph store, so reading a build never re-parses it.

:func:`write_store` bulk-loads the triples into a new store in a temporary
folder beside the destination, closes it, opens it again read-only and counts
its triples, and only then renames it into place. Readers
(:func:`kg.store.disk.open_graph`) open the store read-only.
:func:`load_store` does the same from any stream of triples: a build loads its
store straight from the triples of its papers (:func:`kg.store.rdf.graph_triples`)
and writes its other files from that store, never holding the graph in memory.

Limits and dangers
------------------
- The folder is new on every build: a published store is never written again,
  which is what lets any number of readers open it read-only (Oxigraph does
  not support reading a store while another process writes it).
- Replacing an existing ``store/`` takes two renames (old one aside, new one
  in) and the old folder is then deleted. Between the renames, microseconds,
  the build folder has no store and a reader falls back to ``graph.nt``; a
  crash there leaves ``.store.*.old`` beside it, removed by no one but
  harmless. A reader that still has the old store open keeps the files it
  opened (POSIX); publish whole build generations for stronger isolation.
- The store takes about as much disk as ``graph.nt`` (RocksDB compresses the
  three indexes it keeps).
"""

from __future__ import annotations

import itertools
import os
import secrets
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from kg.errors import KgError
from kg.io import fsync_folder

if TYPE_CHECKING:
    from kg.views.graph import KnowledgeGraph

__all__ = ["BATCH", "check_store", "load_store", "write_store"]

#: Quads handed to Oxigraph's bulk loader at once. It holds what it is given in memory until it
#: writes its sorted files (about 750 bytes a triple, up to a million triples a batch: 300 MB at
#: 405,625 triples, 770 MB at a million, measured), so a build feeds it bounded slices and compacts
#: the store after (185 MB at 405,625 triples; docs/SCALE.md).
BATCH = 100_000


def _beside(final: Path, suffix: str) -> Path:
    return final.with_name(f".{final.name}.{secrets.token_hex(6)}.{suffix}")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def check_store(folder: Path, triples: int | None) -> int:
    """Open the store in ``folder`` read-only, check it holds ``triples`` triples (E350 if not), return its count.

    ``triples=None`` checks only that the store opens and can be counted.
    """
    try:
        found = len(ox.Store.read_only(str(folder)))
    except (OSError, RuntimeError) as error:
        raise KgError("E350", path=folder, reason=" ".join(str(error).split())) from None
    if triples is not None and found != triples:
        raise KgError("E350", path=folder, reason=f"{found} triples in the store, {triples} in the graph")
    return found


def write_store(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``kg`` as an Oxigraph store in the folder ``path``, replacing any store there.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from kg.views import KnowledgeGraph
    >>> from kg.store.disk import open_store
    >>> kg = KnowledgeGraph()
    >>> kg.store.add(ox.Quad(ox.NamedNode("http://a/x"), ox.NamedNode("http://a/p"), ox.Literal("1")))
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "store"
    >>> write_store(kg, folder)
    >>> len(open_store(folder))
    1
    """
    load_store(kg.store.quads_for_pattern(None, None, None, ox.DefaultGraph()), path, triples=len(kg))


def load_store(quads: Iterable[ox.Quad], path: str | Path, *, triples: int | None = None) -> int:
    """Bulk-load ``quads`` into a new Oxigraph store in the folder ``path``, replacing any store there.

    The quads go to Oxigraph's bulk loader :data:`BATCH` at a time, so memory
    stays bounded whatever their number; the store is then compacted
    (:meth:`pyoxigraph.Store.optimize`), so that reading it is as fast as after
    one load. Quads that repeat are stored once.
    The store is checked to hold ``triples`` triples when given (E350 if not).
    Returns its number of triples.

    >>> import tempfile, pathlib
    >>> q = ox.Quad(ox.NamedNode("http://a/x"), ox.NamedNode("http://a/p"), ox.Literal("1"))
    >>> load_store(iter([q, q]), pathlib.Path(tempfile.mkdtemp()) / "store")
    1
    """
    final = Path(path)
    tmp = _beside(final, "tmp")
    old = None
    try:
        disk = ox.Store(str(tmp))
        stream = iter(quads)
        while batch := list(itertools.islice(stream, BATCH)):
            disk.bulk_extend(batch)
        disk.flush()
        disk.optimize()
        del disk  # closes the database, so the check below sees exactly what is on disk
        count = check_store(tmp, triples)
        if final.exists() or final.is_symlink():
            old = _beside(final, "old")
            os.rename(final, old)
        os.rename(tmp, final)
    except BaseException:
        # Also on KeyboardInterrupt: never leave a half-written store behind, and put the old one back.
        _remove(tmp)
        if old is not None and not final.exists():
            os.rename(old, final)
        raise
    fsync_folder(final.parent)
    if old is not None:
        _remove(old)
    return count
