"""Compressed inputs, recognised by their first bytes: gzip, bzip2, xz and Zstandard.

A file is decompressed as it is read, whatever its name says: ``papers.jsonl``
that is really gzip reads as JSON Lines, not as Latin-1 noise. The format is
still taken from the name, less a compression suffix (``papers.jsonl.gz`` is
JSON Lines; :func:`format_suffix`).

Zstandard needs the ``zstandard`` package (a dependency of kg) or Python 3.14's
``compression.zstd``; without either, a ``.zst`` file is an E102 rejection that
says what to install.

Limits: the decompressed stream is read two or three times (the encoding check,
then the lines), so a gzip, bzip2 or xz file costs two or three decompressions;
memory stays constant. A Zstandard file is decompressed once into a temporary
file (in memory up to 16 MB, on disk past that).
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import tempfile
import zlib
from pathlib import Path
from typing import BinaryIO

__all__ = ["COMPRESSION_SUFFIXES", "DECOMPRESSION_ERRORS", "decompressed", "format_suffix"]

#: Suffixes of compressed files, looked past to find the format.
COMPRESSION_SUFFIXES = frozenset({".gz", ".bz2", ".xz", ".zst"})
#: What reading a corrupt or truncated compressed stream raises (besides ``OSError``).
DECOMPRESSION_ERRORS: tuple[type[Exception], ...] = (OSError, EOFError, lzma.LZMAError, zlib.error)

_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


class MissingDecompressor(Exception):
    """A Zstandard file without a Zstandard reader installed."""


def format_suffix(path: Path) -> str:
    """The suffix that names a file's format, past a compression suffix (lower case).

    >>> format_suffix(Path("papers.JSONL.gz")), format_suffix(Path("notes.txt")), format_suffix(Path("x.gz"))
    ('.jsonl', '.txt', '')
    """
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in COMPRESSION_SUFFIXES:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def _zstd(file: BinaryIO) -> BinaryIO:
    """The decompressed bytes of a Zstandard file, in a temporary file (seekable; on disk past 16 MB)."""
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14

        return zstd.ZstdFile(file)  # type: ignore[no-any-return]
    except ImportError:
        pass
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        raise MissingDecompressor("compressed with Zstandard: pip install zstandard to read it") from None
    spool = tempfile.SpooledTemporaryFile(max_size=2**24)
    zstandard.ZstdDecompressor().copy_stream(file, spool)
    file.close()
    spool.seek(0)
    return spool  # type: ignore[return-value]


def decompressed(file: BinaryIO) -> BinaryIO:
    """``file`` itself, or a reader of its decompressed bytes when its first bytes say it is compressed.

    Raises :class:`MissingDecompressor` for Zstandard without a reader.
    """
    head = file.read(6)
    file.seek(0)
    if head.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=file)  # type: ignore[return-value]
    if head.startswith(b"BZh"):
        return bz2.BZ2File(file)  # type: ignore[return-value]
    if head.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(file)  # type: ignore[return-value]
    if head.startswith(_ZSTD_MAGIC):
        return _zstd(file)
    return file
