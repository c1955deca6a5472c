"""Write a file so that readers see either the old content or the new, never half.

:func:`atomic_write` writes to a temporary file in the destination's folder,
flushes and fsyncs it, optionally runs a check on the finished temporary file,
and only then renames it over the destination with :func:`os.replace`.

Limits and dangers
------------------
- The rename is atomic only within one file system, which is why the temporary
  file lives in the destination's own folder (never in ``/tmp``).
- On any exception (while writing, in the check, or in the rename) the
  temporary file is removed and the previous file, if any, is left untouched.
- The file, and after the rename its folder (on POSIX), are fsynced so the new
  content survives a power cut; this costs a few milliseconds a file, which
  ``durable=False`` saves where a lost file is only a cache miss.
- The new file gets the usual permissions for a new file (``0o666`` less the
  umask), not the old file's mode.
- Two writers racing on the same path both succeed; the last rename wins. The
  build lock, not this function, keeps builds apart.
"""

from __future__ import annotations

import codecs
import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, Literal

__all__ = ["atomic_write", "fsync_folder"]


def _create_temporary(final: Path) -> tuple[int, Path]:
    """Create a new, empty, uniquely named file next to ``final``; return its fd and path.

    ``os.open`` with mode 0o666 lets the kernel apply the umask, as for any new
    file (``mkstemp`` would make it private, and reading the umask means
    changing it, which races with other threads).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = final.with_name(f".{final.name}.{os.urandom(6).hex()}.tmp")  # os.urandom, not secrets: that import costs 20 ms of every command's start
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new entry in ``folder`` durable (POSIX; a no-op elsewhere, where folders
    cannot be opened for it)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_write(
    path: str | os.PathLike[str],
    mode: Literal["wb", "w"] = "wb",
    encoding: str | None = None,
    newline: str | None = None,
    check: Callable[[Path], Any] | None = None,
    durable: bool = True,
) -> Iterator[IO[Any]]:
    """Open a temporary file for writing that replaces ``path`` when the block ends.

    Parameters
    ----------
    path
        The final destination. Its folder must exist.
    mode
        ``"wb"`` for bytes or ``"w"`` for text.
    encoding, newline
        Passed to :func:`open` in text mode (``encoding`` defaults to UTF-8);
        must be ``None`` in binary mode.
    check
        Called with the path of the finished, fsynced temporary file before the
        rename; it raises to refuse the file (its return value is ignored).
    durable
        Fsync the file and then its folder (the default). ``False`` skips both
        (some milliseconds a file): the rename is still atomic if the process
        dies, but a power cut may lose the new file; fine for caches.

    Yields
    ------
    IO
        The open temporary file.

    Raises
    ------
    ValueError
        For a mode other than ``"w"``/``"wb"``, or an encoding in binary mode.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_write(target, "w") as handle:
    ...     _ = handle.write("new")
    >>> target.read_text()
    'new'
    >>> try:
    ...     with atomic_write(target, "w") as handle:
    ...         _ = handle.write("half")
    ...         raise RuntimeError("crash")
    ... except RuntimeError:
    ...     pass
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('new', ['out.txt'])
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_write mode must be 'w' or 'wb', not {mode!r}")
    if mode == "wb" and (encoding is not None or newline is not None):
        raise ValueError("atomic_write: encoding and newline apply to text mode only")
    if mode == "w":
        encoding = codecs.lookup(encoding or "utf-8").name  # a bad name fails before any file exists
    final = Path(path)
    fd, tmp = _create_temporary(final)
    try:
        handle: IO[Any] = open(fd, mode, encoding=encoding, newline=newline) if mode == "w" else open(fd, mode)
        with handle:
            yield handle
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        if check is not None:
            check(tmp)
        os.replace(tmp, final)
    except BaseException:
        # Also on KeyboardInterrupt: never leave a stray temporary file behind.
        tmp.unlink(missing_ok=True)
        raise
    if durable:
        fsync_folder(final.parent)
