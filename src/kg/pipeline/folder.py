"""One build folder, one transaction: the lock, the staging folder and the swap.

A build writes a whole new *generation* of ``DIR`` (exports, store,
manifest, rejections, and the cache hard-linked from the live folder) into a
staging folder beside it (:attr:`kg.buildfolder.BuildFolder.staging`), on the
same file system. When everything is written, the two folders are swapped:

- on Linux with one ``renameat2(RENAME_EXCHANGE)`` call, atomic: a reader
  sees the old generation or the new one, never a mix, and a kill at any
  moment leaves one whole generation at ``DIR``;
- elsewhere (or on a file system without the call) with two renames,
  ``DIR`` to :attr:`~kg.buildfolder.BuildFolder.old` and staging to ``DIR``;
  a kill between them leaves no ``DIR``, and :func:`recover` (run by the next
  build or remove) puts the complete one back.

The lock (:attr:`~kg.buildfolder.BuildFolder.lock`) is held with ``flock``
(:func:`kg.io.folder_lock`) for the whole command. The staging folder gets a
hard link to the same file, so after the swap the folder's lock is still the
inode this build holds, and a second build started meanwhile still finds it
locked.
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

from kg.buildfolder import OWN_NAMES, BuildFolder, Manifest
from kg.errors import UserError
from kg.io import folder_lock, fsync_folder

__all__ = ["build_lock", "check_out", "foreign_names", "new_staging", "recover", "swap_in"]

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def foreign_names(folder: BuildFolder, manifest: Manifest | None) -> list[str]:
    """Entries of ``folder`` that no kg build wrote.

    A build's own are the lock, the cache, and the files its manifest lists
    (any export name for a manifest older than the ``files`` field); without
    a manifest, everything but the lock and the cache is foreign.
    """
    own = {folder.lock.name, folder.cache.name}
    if folder.manifest_path.exists():
        from kg.export import EXPORTERS

        files = manifest.files if manifest is not None else ()
        own |= OWN_NAMES | (set(files) if files else set(EXPORTERS))
    return sorted(name for name in os.listdir(folder.path) if name not in own)


def check_out(folder: BuildFolder, inputs: Sequence[str | os.PathLike[str]], *, force: bool) -> None:
    """Refuse an output folder that would overwrite what a build did not write, before taking its lock.

    ``E314`` when it is a file; ``E316`` when it lies inside a folder given as
    input; ``E315`` when it holds files that are not a build's own. ``force``
    lifts the last two (a build's own output is never read anyway).
    """
    out = folder.path
    if out.exists() and not out.is_dir():
        raise UserError("E314", path=out)
    if force:
        return
    real = Path(os.path.realpath(out))
    for argument in inputs:
        given = Path(argument)
        if given.is_dir() and real.is_relative_to(os.path.realpath(given)):
            raise UserError("E316", path=out, input=given)
    if not out.is_dir():
        return
    foreign = foreign_names(folder, folder.manifest_or_none())
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise UserError("E315", path=out, names=shown)


def build_lock(folder: BuildFolder) -> contextlib.AbstractContextManager[None]:
    """Hold the folder's build lock (creating the folder if needed); a second holder gets E306 at once.

    A folder this call created is removed again if the block fails before
    anything was published into it.
    """
    return folder_lock(folder.lock)


def recover(folder: BuildFolder) -> None:
    """Finish or undo a swap that a killed build left half done, and drop leftovers.

    Needs no lock when the folder is missing (nothing else can hold it then);
    otherwise call it with the lock held.
    """
    out, staging, old = folder.path, folder.staging, folder.old
    if not out.exists() and old.is_dir():
        # Killed between the two renames of the fallback swap: the staged generation is complete.
        os.rename(staging if BuildFolder(staging).manifest_path.is_file() else old, out)
    for leftover in (staging, old):
        if leftover.is_dir():
            shutil.rmtree(leftover)


def new_staging(folder: BuildFolder, *, keep: Iterable[str] = ()) -> BuildFolder:
    """An empty staging folder beside ``folder``, holding the lock and the cache as hard links.

    ``keep`` names further entries of the folder to carry into the new
    generation (the files ``--force`` keeps).
    """
    staging = BuildFolder(folder.staging)
    if staging.path.exists():
        shutil.rmtree(staging.path)
    staging.path.mkdir()
    with contextlib.suppress(OSError):
        os.chmod(staging.path, os.stat(folder.path).st_mode & 0o7777)
    os.link(folder.lock, staging.lock)
    for name in (folder.cache.name, *keep):
        if (folder.path / name).exists():
            _link_tree(folder.path / name, staging.path / name)
    return staging


def _link_tree(source: Path, target: Path) -> None:
    """Hard-link ``source`` (a file or a folder tree) at ``target``; copy where links fail."""
    if not source.is_dir():
        _link(source, target)
        return
    for here_folder, _, files in os.walk(source):
        here = target / Path(here_folder).relative_to(source)
        here.mkdir(exist_ok=True)
        for name in files:
            if name.startswith(".") and name.endswith(".tmp"):
                Path(here_folder, name).unlink(missing_ok=True)  # left by a killed build
            else:
                _link(Path(here_folder, name), here / name)


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


def swap_in(folder: BuildFolder, staging: BuildFolder) -> None:
    """Make the staged generation the folder's, atomically where the system allows; drop the old one."""
    out, done = folder.path, staging.path
    if not _exchange(done, out):
        os.rename(out, folder.old)
        os.rename(done, out)
        done = folder.old
    fsync_folder(out.parent)
    shutil.rmtree(done)

