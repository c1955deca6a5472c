"""Bytes on disk to text: encodings, byte-order marks, newlines.

UTF-8 (with or without a BOM) and UTF-16/32 with a BOM are read as such.
Anything else is guessed with charset-normalizer and reported through
``on_warning``, because a guess can be wrong. Short Western-European text
often scores the same (no more "chaos") under several single-byte code pages,
and charset-normalizer's language scores are noise on so little text; such
ties go to Windows-1252 (a superset of Latin-1's printable characters and the commonest
non-UTF-8 encoding of such files), which is what a person would guess.
Bytes that still cannot be decoded become U+FFFD rather than an error.

Newlines become ``\\n`` and NUL characters are dropped here, before any
parser sees the text: they are never meaningful in these formats, and an
ASCII-range UTF-16 file without a BOM is otherwise valid UTF-8 with a NUL
after every character.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import charset_normalizer

from kg.model import Paper, Rejection

from ._records import reject

__all__ = ["decode", "load_text", "read_with", "split_lines"]

Parser = Callable[[str, str], Iterator[Paper | Rejection]]
Warn = Callable[[str], object]

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8-sig"),
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)
_TIE = 0.01
#: Encodings read without a guess, so without a warning.
_CERTAIN = frozenset({"utf-8", "utf-8-sig", "utf-16", "utf-32"})


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` for ``\\n``, ``\\r\\n`` or ``\\r`` endings (and nothing else).

    Unlike :meth:`str.splitlines`, U+2028 and form feeds stay inside a line, as
    they do inside a JSON string or a CSV field.

    >>> split_lines("a\\r\\nb\\rc\\u2028d\\n")
    ['a', 'b', 'c\\u2028d', '']
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _guess(data: bytes) -> str:
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    if best is None:
        return "cp1252" if _decodes(data, "cp1252") else "latin-1"
    # Language coherence is noise on a few hundred bytes; compare chaos only.
    tied = {name for m in matches if m.chaos <= best.chaos + _TIE for name in m.could_be_from_charset}
    if tied & {"cp1252", "latin_1", "iso8859_15"}:
        return "cp1252" if _decodes(data, "cp1252") else "latin-1"
    return best.encoding


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def decode(data: bytes) -> tuple[str, str]:
    """Decode file contents; return the text and the encoding used.

    >>> decode(b"\\xef\\xbb\\xbfna\\xc3\\xafve\\r\\n")
    ('naïve\\n', 'utf-8-sig')
    >>> decode("Les réseaux profonds sont très utilisés.".encode("latin-1"))[1]
    'cp1252'
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            break
    else:
        encoding = "utf-8" if _decodes(data, "utf-8") else _guess(data)
    text = data.decode(encoding, errors="replace")
    return "\n".join(split_lines(text)).replace("\x00", ""), encoding


def load_text(path: Path, on_warning: Warn | None = None) -> str | Rejection:
    """The decoded text of a file, or a Rejection (E102 unreadable, E112 empty)."""
    name = str(path)
    try:
        if not path.is_file():
            return reject("E102", name, reason="not a regular file")
        data = path.read_bytes()
    except OSError as error:
        return reject("E102", name, reason=error.strerror or type(error).__name__)
    text, encoding = decode(data)
    if encoding not in _CERTAIN and on_warning is not None:
        on_warning(f"{name}: not valid UTF-8; decoded as {encoding} (a guess: check accented letters)")
    if not text.strip():
        return reject("E112", name)
    return text


def read_with(parse: Parser, path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Read one file with ``parse``: what every ``read_<fmt>`` does."""
    loaded = load_text(Path(path), on_warning)
    if isinstance(loaded, Rejection):
        yield loaded
    else:
        yield from parse(loaded, str(path))
