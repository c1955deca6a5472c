"""Bytes on disk to lines of text: encodings, byte-order marks, newlines, in constant memory.

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

Files are streamed, never held whole: whether a file is valid UTF-8 is
checked in a first pass over its bytes, a line at a time, and the lines are then
decoded one at a time. A guess looks at a sample: the whole file up to
:data:`SAMPLE_BYTES`, else its head and the bytes from its first non-UTF-8
byte on. A line longer than :data:`MAX_RECORD_CHARS` is cut to one
character over that length (the rest is skipped unread into memory), so a
parser sees it is too long and rejects it (E116) without holding it.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import charset_normalizer

from kg.model import Paper, Rejection

from ._compressed import DECOMPRESSION_ERRORS, MissingDecompressor, decompressed
from ._records import reject

__all__ = [
    "MAX_RECORD_CHARS", "SAMPLE_BYTES", "Format", "Lines", "decode", "load_lines", "load_text", "parse_lines", "read_with",
    "split_lines", "stream_with", "unreadable",
]

Parser = Callable[[str, str], Iterator[Paper | Rejection]]
LineParser = Callable[[Iterable[str], str], Iterator[Paper | Rejection]]
Warn = Callable[[str], object]
#: A file as ``(first non-blank line, every line)``: what :func:`load_lines` returns.
Lines = tuple[str, Iterator[str]]

#: The longest record (a line, a JSON value, a CSV record, a paragraph) a reader holds, in characters.
MAX_RECORD_CHARS = 2**24
#: Files up to this size are given whole to the encoding guesser; larger ones are sampled.
SAMPLE_BYTES = 2**20
# Reads of at most this much, ending at a newline where there is one: decoding big blocks
# fragments the heap (resident memory grew with the file's size), decoding lines does not.
_BLOCK = 2**16

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


def _guess(data: bytes, decodes: Callable[[str], bool]) -> str:
    """The likeliest single-byte or multi-byte encoding of ``data`` (a sample of the file)."""
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    latin = "cp1252" if decodes("cp1252") else "latin-1"
    if best is None:
        return latin
    # Language coherence is noise on a few hundred bytes; compare chaos only.
    tied = {name for m in matches if m.chaos <= best.chaos + _TIE for name in m.could_be_from_charset}
    if tied & {"cp1252", "latin_1", "iso8859_15"}:
        return latin
    return best.encoding


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _first_error(file: BinaryIO, encoding: str) -> int | None:
    """Offset of the first byte ``file`` cannot be decoded at in ``encoding``, read a line at a time."""
    file.seek(0)
    decoder = codecs.getincrementaldecoder(encoding)()
    offset = 0  # bytes read before this block; the decoder may still hold `pending` of them
    while True:
        pending = len(decoder.getstate()[0])
        block = file.readline(_BLOCK)
        try:
            decoder.decode(block, final=not block)
        except UnicodeDecodeError as error:
            return offset - pending + error.start
        if not block:
            return None
        offset += len(block)


def _encoding(file: BinaryIO) -> str:
    """The encoding of an open file: from its BOM, UTF-8 if it all decodes, else a guess."""
    head = file.read(SAMPLE_BYTES)
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding
    bad = _first_error(file, "utf-8")
    if bad is None:
        return "utf-8"
    if len(head) < SAMPLE_BYTES:  # the whole file (read past its end, not sought: a compressed stream cannot)
        return _guess(head, lambda encoding: _decodes(head, encoding))
    file.seek(max(bad, len(head)))
    sample = head + file.read(SAMPLE_BYTES)
    return _guess(sample, lambda encoding: _first_error(file, encoding) is None)


def decode(data: bytes) -> tuple[str, str]:
    """Decode file contents; return the text and the encoding used.

    >>> decode(b"\\xef\\xbb\\xbfna\\xc3\\xafve\\r\\n")
    ('naïve\\n', 'utf-8-sig')
    >>> decode("Les réseaux profonds sont très utilisés.".encode("latin-1"))[1]
    'cp1252'
    """
    encoding = _encoding(io.BytesIO(data))
    text = data.decode(encoding, errors="replace")
    return "\n".join(split_lines(text)).replace("\x00", ""), encoding


def _read_lines(file: BinaryIO, encoding: str) -> Generator[str, None, None]:
    """Decoded lines of ``file`` as :func:`split_lines` gives them, NULs dropped, each cut past :data:`MAX_RECORD_CHARS`."""
    file.seek(0)
    ended = False  # with a newline: then a last, empty line follows, as split_lines gives
    with io.TextIOWrapper(file, encoding=encoding, errors="replace", newline=None) as text:
        while line := text.readline(MAX_RECORD_CHARS + 1):
            ended = line.endswith("\n")
            if not ended:
                # Cut (or the last line): skip the rest of an overlong line without keeping it.
                while rest := text.readline(_BLOCK):
                    if ended := rest.endswith("\n"):
                        break
            yield line.removesuffix("\n").replace("\x00", "")
    if ended:
        yield ""


def unreadable(path: str | Path, error: OSError) -> Rejection:
    """The E102 Rejection of a file that could not be read."""
    return reject("E102", str(path), reason=error.strerror or type(error).__name__)


def _open(path: Path) -> tuple[BinaryIO, str] | Rejection:
    """The open file (decompressed when its first bytes say so) and its encoding, or an E102 Rejection."""
    try:
        if not path.is_file():
            return reject("E102", str(path), reason="not a regular file")
        file: BinaryIO = path.open("rb")
    except OSError as error:
        return unreadable(path, error)
    try:
        file = decompressed(file)
        return file, _encoding(file)
    except MissingDecompressor as error:
        file.close()
        return reject("E102", str(path), reason=str(error))
    except DECOMPRESSION_ERRORS as error:
        file.close()
        return _broken(path, error)


def _broken(path: str | Path, error: Exception) -> Rejection:
    """E102 for a read that failed: the system's reason, or a corrupt compressed stream's."""
    if isinstance(error, OSError) and error.strerror:
        return unreadable(path, error)
    return reject("E102", str(path), reason=f"corrupt or truncated compressed data ({type(error).__name__}: {error})")


def load_lines(path: Path, on_warning: Warn | None = None) -> Lines | Rejection:
    """The lines of a file with its first non-blank line, or a Rejection (E102 unreadable, E112 empty).

    The file stays open until the lines are read to the end (or the iterator is closed).
    """
    opened = _open(path)
    if isinstance(opened, Rejection):
        return opened
    file, encoding = opened
    lines = _read_lines(file, encoding)
    blank = []  # whitespace only, so small unless the file is pathological
    try:
        for line in lines:
            if line.strip():
                break
            blank.append(line)
        else:
            lines.close()
            return reject("E112", str(path))
    except DECOMPRESSION_ERRORS as error:
        lines.close()
        return _broken(path, error)
    if encoding not in _CERTAIN and on_warning is not None:
        on_warning(f"{path}: not valid UTF-8; decoded as {encoding} (a guess: check accented letters)")
    return line, _chain(blank, line, lines)


def _chain(blank: list[str], first: str, rest: Iterator[str]) -> Iterator[str]:
    """The lines again, from the start (a generator, so closing it closes the file)."""
    yield from blank
    yield first
    yield from rest


def load_text(path: Path, on_warning: Warn | None = None) -> str | Rejection:
    """The decoded text of a whole file, or a Rejection (E102 unreadable, E112 empty).

    For formats that need the whole document (Atom XML); the others stream with :func:`load_lines`.
    """
    loaded = load_lines(path, on_warning)
    if isinstance(loaded, Rejection):
        return loaded
    try:
        return "\n".join(loaded[1])
    except DECOMPRESSION_ERRORS as error:
        return _broken(path, error)


def read_with(parse: Parser, path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Read one whole file with ``parse`` (text in): what ``read_atom`` does."""
    loaded = load_text(Path(path), on_warning)
    if isinstance(loaded, Rejection):
        yield loaded
    else:
        yield from parse(loaded, str(path))


def stream_with(parse: LineParser, path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Read one file line by line with ``parse`` (lines in): what every streaming ``read_<fmt>`` does."""
    loaded = load_lines(Path(path), on_warning)
    if isinstance(loaded, Rejection):
        yield loaded
    else:
        yield from parse_lines(parse, loaded[1], str(path))


def parse_lines(parse: LineParser, lines: Iterator[str], name: str) -> Iterator[Paper | Rejection]:
    """``parse(lines, name)``, closing the file at the end; a read error part-way is an E102 Rejection."""
    try:
        yield from parse(lines, name)
    except DECOMPRESSION_ERRORS as error:
        yield _broken(name, error)
    finally:
        lines.close()  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Format:
    """One input format: its name, its parser and the extensions it claims.

    ``parse`` takes a text, or its lines unless ``whole`` says it needs the whole text.
    Formats are named in :data:`kg.registry.READERS`; another package adds one
    through the ``kg.readers`` entry-point group.
    """

    name: str
    parse: Parser
    extensions: tuple[str, ...] = ()
    whole: bool = False

    def read(self, path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
        """Papers and Rejections from one file in this format."""
        if self.whole:
            return read_with(self.parse, path, on_warning)
        return stream_with(self.parse, path, on_warning)  # type: ignore[arg-type]
