"""JSON Lines, and JSON files holding an array of records (or one record).

One JSON object per line (``.jsonl``, ``.ndjson``), or a ``.json`` file with a
top-level array of objects, or a single object. Field names follow
:data:`kg.readers._records.FIELDS`, case-insensitively:

=========  ==================================================================
field      also accepted
=========  ==================================================================
id         paper_id, paperid, doc_id, docid, identifier, arxiv_id, uid
title      paper_title, article_title
abstract   summary, abstract_text, paper_abstract, description, text
url        link, href, paper_url, abs_url, landing_page, pdf_url
doi        (a ``https://doi.org/`` or ``doi:`` prefix is removed)
year       publication_year, pub_year, date, publication_date, pub_date,
           published, issued, created, update_date (the first 4-digit year)
authors    author, author_names, creators, creator: a list of names (or of
           ``{"name"}``/``{"given", "family"}`` objects), or a string
           ``"A, B and C"`` / ``"A; B"``
=========  ==================================================================

Sources are ``path:LINE``. A line that is not valid JSON is rejected (E104)
and reading goes on with the next line; a value that is not an object is
E108. In an array, a broken element is rejected and reading resumes at the
next line that starts with ``{``. Blank lines are skipped; a stray BOM at the
start of a line (files concatenated with ``cat``) is ignored.

Files are read a line at a time, arrays an element at a time, so memory does
not grow with the file: a line or element longer than ``MAX_RECORD_CHARS`` is
rejected (E116) and reading goes on after it. A file is a single object or
an array when it opens with ``{`` or ``[`` over several lines and is nothing
else; as soon as it cannot be, it is read as JSON Lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from pathlib import Path

from kg.model import Paper, Rejection

from ._decode import MAX_RECORD_CHARS, Format, Warn, split_lines, stream_with
from ._records import paper_from_record, reject

__all__ = ["JSONL", "iter_json", "papers_from_json", "parse_jsonl", "read_jsonl"]

ToPaper = Callable[[dict, str], Paper | Rejection]
Numbered = Iterator[tuple[int, str]]
Item = tuple[str, object] | Rejection

_DECODER = json.JSONDecoder(strict=False)  # control characters in strings are cleaned later
_WHITESPACE = re.compile(r"[ \t\n\r\ufeff]*")
_JSON_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NEXT_OBJECT = re.compile(r"\n[ \t]*\{")


def _why(error: ValueError | RecursionError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at column {error.colno}"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _too_long(source: str) -> Rejection:
    return reject("E116", source, limit=MAX_RECORD_CHARS)


def _lines(lines: Iterable[tuple[int, str]], name: str) -> Iterator[Item]:
    for number, line in lines:
        line = line.strip().lstrip("\ufeff")
        if not line:
            continue
        if len(line) > MAX_RECORD_CHARS:
            yield _too_long(f"{name}:{number}")
            continue
        try:
            yield f"{name}:{number}", _DECODER.decode(line)
        except (ValueError, RecursionError) as error:
            yield reject("E104", f"{name}:{number}", reason=_why(error))


class _Window:
    """Consecutive lines of a file as one text, read on demand and forgotten once used.

    ``text`` holds whole lines joined by ``\\n``; ``first`` is the number of its first line.
    """

    def __init__(self, number: int, line: str, lines: Numbered) -> None:
        self.text, self.first, self.lines = line, number, lines

    def grow(self) -> bool:
        """Read at least as much again as is held (so re-parsing stays linear); False at the end."""
        added: list[str] = []
        size = 0
        for _, line in self.lines:
            added.append(line)
            size += len(line) + 1
            if size >= len(self.text):
                break
        if added:
            self.text = "\n".join([self.text, *added])
        return bool(added)

    def skip(self, position: int, space: re.Pattern[str] = _WHITESPACE) -> int:
        """The first position from ``position`` that is not ``space``, reading on as needed."""
        while (position := space.match(self.text, position).end()) >= len(self.text) and self.grow():  # type: ignore[union-attr]
            pass
        return position

    def drop(self, position: int) -> None:
        """Forget the text before ``position``."""
        self.first += self.text.count("\n", 0, position)
        self.text = self.text[position:]

    def value(self, position: int) -> tuple[object, int] | ValueError | RecursionError:
        """The JSON value at ``position`` and where it ends, reading on while it is cut off."""
        while True:
            try:
                return _DECODER.raw_decode(self.text, position)
            except (ValueError, RecursionError) as error:
                if not (_cut_off(error, self.text) and len(self.text) - position <= MAX_RECORD_CHARS and self.grow()):
                    return error

    def numbered(self) -> Numbered:
        """The lines held, numbered, then the rest of the file's."""
        return chain(enumerate(self.text.split("\n"), self.first), self.lines)


def _cut_off(error: ValueError | RecursionError, text: str) -> bool:
    """Whether a JSON error could be the end of the text held rather than a real mistake."""
    if not isinstance(error, json.JSONDecodeError):
        return False
    return error.msg.startswith("Unterminated string") or error.pos >= len(text.rstrip())


def _array(window: _Window, position: int, name: str) -> Iterator[Item]:
    """Elements of the array whose ``[`` is just before ``position``, each with its first line."""
    while True:
        position = window.skip(position)
        if position >= len(window.text) or window.text[position] == "]":
            return
        start = window.text.rfind("\n", 0, position) + 1
        window.drop(start)  # keep the element's line whole: errors give its column
        position -= start
        source = f"{name}:{window.first}"
        found = window.value(position)
        if isinstance(found, tuple):
            yield source, found[0]
            position = window.skip(found[1])
            if window.text.startswith(",", position):
                position += 1
            continue
        too_long = len(window.text) - position > MAX_RECORD_CHARS
        yield _too_long(source) if too_long else reject("E104", source, reason=_why(found))
        resume = _NEXT_OBJECT.search(window.text, position + 1)
        while resume is None:
            window.drop(max(window.text.rfind("\n"), 0))  # keep the last newline: a match starts with one
            if not window.grow():
                return
            resume = _NEXT_OBJECT.search(window.text)
        position = resume.start() + 1


def _only_space_left(window: _Window, position: int) -> bool:
    return window.skip(position, _JSON_WHITESPACE) >= len(window.text)


def iter_json(text: str | Iterable[str], name: str) -> Iterator[Item]:
    """``(source, value)`` for each JSON record of a text (or its lines), or a Rejection.

    JSON Lines, an array or a single object, as the module docstring says,
    read in constant memory: a record longer than ``MAX_RECORD_CHARS`` is
    rejected (E116) without being held.

    >>> [item if isinstance(item, tuple) else item.code for item in iter_json('{"a": 1}\\n{oops\\n', "f")]
    [('f:1', {'a': 1}), 'E104']
    """
    lines: Numbered = enumerate(split_lines(text) if isinstance(text, str) else text, 1)
    for number, line in lines:  # noqa: B007 (number and line are used after the break)
        head = line.lstrip(" \t\r\ufeff")
        if head:
            break
    else:
        return
    if head[0] not in "[{":
        yield from _lines(chain([(number, line)], lines), name)
        return
    window = _Window(number, line, lines)
    start = len(line) - len(head)
    if head[0] == "[" and not _decodes(line):
        yield from _array(window, start + 1, name)
        return
    found = window.value(start)
    if isinstance(found, tuple) and _only_space_left(window, found[1]):
        if isinstance(found[0], list):
            yield from _array(_Window(number, line, iter(())), start + 1, name)
        else:
            yield f"{name}:{number}", found[0]
        return
    yield from _lines(window.numbered(), name)


def _decodes(line: str) -> bool:
    """Whether a line is one whole JSON value."""
    try:
        _DECODER.decode(line)
    except (ValueError, RecursionError):
        return False
    return True


def parse_jsonl(text: str | Iterable[str], name: str) -> Iterator[Paper | Rejection]:
    """Papers from JSON Lines or a JSON array (see the module docstring).

    >>> [p.id for p in parse_jsonl('[{"id": "a", "abstract": "x"}, {"summary": "y"}]', "f.json")]
    ['a', 'sha256-a1fce4363854ff888cff4b8e']
    """
    return papers_from_json(text, name, paper_from_record)


def papers_from_json(text: str | Iterable[str], name: str, to_paper: ToPaper) -> Iterator[Paper | Rejection]:
    """``to_paper(record, source)`` for each JSON object of a text or its lines (E108 for other values)."""
    for item in iter_json(text, name):
        if isinstance(item, Rejection):
            yield item
        elif isinstance(item[1], dict):
            yield to_paper(item[1], item[0])
        else:
            yield reject("E108", item[0])


def read_jsonl(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a ``.jsonl`` or ``.json`` file (see the module docstring)."""
    return stream_with(parse_jsonl, path, on_warning)


#: The format, as :data:`kg.registry.READERS` names it.
JSONL = Format("jsonl", parse_jsonl, (".jsonl", ".ndjson", ".json"))
