"""A lock held on a folder for the whole of a command that writes it.

:func:`folder_lock` holds a lock file with ``flock`` (through :mod:`filelock`),
so the kernel releases it when the holder dies, however it dies: a lock left
by a killed process is never mistaken for a held one, and no stale lock needs
breaking. A second holder is refused at once (``E306``), never made to wait.

Limits and dangers
------------------
- ``flock`` is advisory: only writers that take the lock are kept apart.
- On network file systems (NFS without lock support, some FUSE mounts) two
  machines may both take it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from kg.errors import UserError

__all__ = ["folder_lock"]


@contextlib.contextmanager
def folder_lock(lock_path: Path) -> Iterator[None]:
    """Hold ``lock_path`` (creating its folder if needed); a second holder gets E306 at once.

    A folder this call created is removed again if the block fails while the
    lock is all it holds.

    >>> import tempfile, pathlib
    >>> lock = pathlib.Path(tempfile.mkdtemp()) / "new" / ".lock"
    >>> with folder_lock(lock):
    ...     with folder_lock(lock):
    ...         pass
    Traceback (most recent call last):
    ...
    kg.errors.UserError: E306: another kg build or remove is writing to ... (it holds ...); wait for it to finish and run again
    """
    from filelock import FileLock, Timeout

    folder = lock_path.parent
    top = None  # the outermost folder this call creates
    for parent in (folder, *folder.parents):
        if parent.exists():
            break
        top = parent
    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(lock_path, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise UserError("E306", path=folder, lock=lock_path) from None
    failed = True
    try:
        yield
        failed = False
    finally:
        if failed and top is not None and os.listdir(folder) == [lock_path.name]:
            lock_path.unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # stops at the first folder that is not empty
                for parent in (folder, *folder.parents):
                    parent.rmdir()
                    if parent == top:
                        break
        lock.release()
