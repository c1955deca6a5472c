"""What a served build folder is: its store, and the generation that says when it changed.

A build folder holds ``manifest.json`` (written last by every build, update or
removal) and the on-disk Oxigraph store ``store/``. The server never writes to
either: it opens the store read-only and reopens it when the generation changes.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> build_store(folder)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
kg.errors.UserError: E307: ... is not a kg build folder (no manifest.json): ...
"""

from __future__ import annotations

import os
from pathlib import Path

from kg.errors import UserError

#: The store's folder inside a build folder.
STORE = "store"
MANIFEST = "manifest.json"

Generation = tuple[int, ...]


def build_store(folder: str | Path) -> Path:
    """The store of the build in ``folder``; a one-line error when it is not a build.

    Raises
    ------
    UserError
        ``E307`` when ``folder`` has no ``manifest.json``; ``E341`` when it is a
        build from before builds wrote a store.
    """
    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise UserError("E307", path=folder)
    store = folder / STORE
    if not store.is_dir():
        raise UserError("E341", path=folder, store=store)
    return store


def generation(folder: str | Path) -> Generation:
    """A value that changes whenever a build, update or removal publishes into ``folder``.

    The manifest is replaced (a new inode) at the end of every build, and a new
    store is a new folder, so their inodes and times tell generations apart
    with two ``stat`` calls and no reading.
    """
    folder = Path(folder)
    stamps: list[int] = []
    for path in (folder / MANIFEST, folder / STORE):
        try:
            info = os.stat(path)
        except OSError:
            stamps += [0, 0, 0]
            continue
        stamps += [info.st_ino, info.st_mtime_ns, info.st_size]
    return tuple(stamps)
