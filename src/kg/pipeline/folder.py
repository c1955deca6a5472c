"""One build folder, one transaction: the lock, the staging folder and the swap.

A build writes a whole new *generation* of ``DIR`` (exports, ``store/``,
``manifest.json``, ``rejected.jsonl``, and ``cache/`` hard-linked from the
live folder) into a staging folder beside it, ``.DIR.kg-staging``, on the same
file system. When everything is written, the two folders are swapped:

- on Linux with one ``renameat2(RENAME_EXCHANGE)`` call, atomic: a reader
  sees the old generation or the new one, never a mix, and a kill at any
  moment leaves one whole generation at ``DIR``;
- elsewhere (or on a file system without the call) with two renames,
  ``DIR -> .DIR.kg-old`` and staging ``-> DIR``; a kill between them leaves
  no ``DIR``, and :func:`recover` (run by the next build or remove) puts the
  complete one back.

The lock is ``DIR/.kg.lock``, held with ``flock`` (:func:`kg.io.folder_lock`)
for the whole command. The staging folder gets a hard link to the same file,
so after the swap ``DIR/.kg.lock`` is still the inode this build holds, and a
second build started meanwhile still finds it locked.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from kg.errors import UserError
from kg.io import folder_lock, fsync_folder
from kg.pipeline.cache import CACHE_DIR
from kg.pipeline.manifest import MANIFEST, read_manifest

__all__ = ["LOCK", "OWN_NAMES", "build_lock", "check_out", "foreign_names", "is_build_folder", "new_staging", "recover",
           "staging_path", "swap_in"]

LOCK = ".kg.lock"
REJECTED = "rejected.jsonl"
IRI_CHANGES = "iri-changes.jsonl"
#: Names a build writes into its folder besides the exporters' files.
OWN_NAMES = frozenset({LOCK, CACHE_DIR, "store", MANIFEST, REJECTED, IRI_CHANGES})
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def staging_path(out: Path) -> Path:
    """Where the next generation of ``out`` is written."""
    return out.with_name(f".{out.name}.kg-staging")


def _old_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.kg-old")


def is_build_folder(folder: Path) -> bool:
    """Whether ``folder`` is a kg build folder (a build's lock, or a manifest beside a cache)."""
    return (folder / LOCK).is_file() or ((folder / MANIFEST).is_file() and (folder / CACHE_DIR).is_dir())


def foreign_names(out: Path) -> list[str]:
    """Entries of ``out`` that no kg build wrote.

    A build's own are the lock, the cache, and the files its manifest lists
    (any export name for a manifest older than the ``files`` field); without
    a manifest, everything but the lock and the cache is foreign.
    """
    own = {LOCK, CACHE_DIR}
    if (out / MANIFEST).exists():
        from kg.export import EXPORTERS

        try:
            files = read_manifest(out).files
        except UserError:
            files = ()
        own |= OWN_NAMES | (set(files) if files else set(EXPORTERS))
    return sorted(name for name in os.listdir(out) if name not in own)


def check_out(out: Path, inputs: Sequence[str | os.PathLike[str]], *, force: bool) -> None:
    """Refuse an output folder that would overwrite what a build did not write.

    ``E314`` when ``out`` is a file; ``E316`` when it lies inside a folder
    given as input; ``E315`` when it holds files that are not a build's own.
    ``force`` lifts the last two (a build's own output is never read anyway).
    """
    if out.exists() and not out.is_dir():
        raise UserError("E314", path=out)
    if force:
        return
    real = Path(os.path.realpath(out))
    for argument in inputs:
        folder = Path(argument)
        if folder.is_dir() and real.is_relative_to(os.path.realpath(folder)):
            raise UserError("E316", path=out, input=folder)
    if not out.is_dir():
        return
    foreign = foreign_names(out)
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise UserError("E315", path=out, names=shown)


def build_lock(out: Path) -> contextlib.AbstractContextManager[None]:
    """Hold ``out``'s build lock (creating ``out`` if needed); a second holder gets E306 at once.

    A folder this call created is removed again if the block fails before
    anything was published into it.
    """
    return folder_lock(out / LOCK)


def recover(out: Path) -> None:
    """Finish or undo a swap that a killed build left half done, and drop leftovers.

    Needs no lock when ``out`` is missing (nothing else can hold it then);
    otherwise call it with the lock held.
    """
    staging, old = staging_path(out), _old_path(out)
    if not out.exists() and old.is_dir():
        # Killed between the two renames of the fallback swap: the staged generation is complete.
        os.rename(staging if (staging / MANIFEST).is_file() else old, out)
    for leftover in (staging, old):
        if leftover.is_dir():
            shutil.rmtree(leftover)


def new_staging(out: Path, *, keep: Iterable[str] = ()) -> Path:
    """An empty staging folder beside ``out``, holding the lock and ``out``'s cache as hard links.

    ``keep`` names further entries of ``out`` to carry into the new
    generation (the files ``--force`` keeps).
    """
    staging = staging_path(out)
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir()
    with contextlib.suppress(OSError):
        os.chmod(staging, os.stat(out).st_mode & 0o7777)
    os.link(out / LOCK, staging / LOCK)
    for name in (CACHE_DIR, *keep):
        if (out / name).exists():
            _link_tree(out / name, staging / name)
    return staging


def _link_tree(source: Path, target: Path) -> None:
    """Hard-link ``source`` (a file or a folder tree) at ``target``; copy where links fail."""
    if not source.is_dir():
        _link(source, target)
        return
    for folder, _, files in os.walk(source):
        here = target / Path(folder).relative_to(source)
        here.mkdir(exist_ok=True)
        for name in files:
            if name.startswith(".") and name.endswith(".tmp"):
                Path(folder, name).unlink(missing_ok=True)  # left by a killed build
            else:
                _link(Path(folder, name), here / name)


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError as error:
        if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP):
            raise
        shutil.copy2(source, target)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically with ``renameat2(RENAME_EXCHANGE)``; False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:  # glibc older than 2.28
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def swap_in(out: Path, staging: Path) -> None:
    """Make the staged generation ``out``'s, atomically where the system allows; drop the old one."""
    if not _exchange(staging, out):
        old = _old_path(out)
        os.rename(out, old)
        os.rename(staging, out)
        staging = old
    fsync_folder(out.parent)
    shutil.rmtree(staging)

