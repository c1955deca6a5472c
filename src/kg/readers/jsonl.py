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
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from kg.model import Paper, Rejection

from ._decode import Warn, read_with, split_lines
from ._records import paper_from_record, reject

__all__ = ["iter_json", "papers_from_json", "parse_jsonl", "read_jsonl"]

ToPaper = Callable[[dict, str], Paper | Rejection]

_DECODER = json.JSONDecoder(strict=False)  # control characters in strings are cleaned later
_WHITESPACE = re.compile(r"[ \t\n\r\ufeff]*")
_NEXT_OBJECT = re.compile(r"\n[ \t]*\{")


def _why(error: ValueError | RecursionError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at column {error.colno}"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _lines(text: str, name: str) -> Iterator[tuple[str, object] | Rejection]:
    for number, line in enumerate(split_lines(text), 1):
        line = line.strip().lstrip("\ufeff")
        if not line:
            continue
        try:
            yield f"{name}:{number}", _DECODER.decode(line)
        except (ValueError, RecursionError) as error:
            yield reject("E104", f"{name}:{number}", reason=_why(error))


def _array(text: str, name: str, start: int) -> Iterator[tuple[str, object] | Rejection]:
    """Elements of the array opening at ``start``, each with its first line."""
    position, line, counted = start + 1, 1, 0
    while True:
        position = _WHITESPACE.match(text, position).end()  # type: ignore[union-attr]
        if position >= len(text) or text[position] == "]":
            return
        line += text.count("\n", counted, position)
        counted = position
        try:
            value, position = _DECODER.raw_decode(text, position)
        except (ValueError, RecursionError) as error:
            yield reject("E104", f"{name}:{line}", reason=_why(error))
            resume = _NEXT_OBJECT.search(text, position + 1)
            if resume is None:
                return
            position = resume.start() + 1
            continue
        yield f"{name}:{line}", value
        position = _WHITESPACE.match(text, position).end()  # type: ignore[union-attr]
        if text.startswith(",", position):
            position += 1


def iter_json(text: str, name: str) -> Iterator[tuple[str, object] | Rejection]:
    """``(source, value)`` for each JSON record of ``text``, or a Rejection.

    >>> [item if isinstance(item, tuple) else item.code for item in iter_json('{"a": 1}\\n{oops\\n', "f")]
    [('f:1', {'a': 1}), 'E104']
    """
    start = _WHITESPACE.match(text).end()  # type: ignore[union-attr]
    if text.startswith(("[", "{"), start):
        try:
            whole = _DECODER.decode(text)
        except (ValueError, RecursionError):
            whole = None  # JSON Lines, or a broken array: read piece by piece
        if isinstance(whole, dict):
            yield f"{name}:{text.count(chr(10), 0, start) + 1}", whole
            return
        if isinstance(whole, list) or (text[start] == "[" and _looks_like_array(text, start)):
            yield from _array(text, name, start)
            return
    yield from _lines(text, name)


def _looks_like_array(text: str, start: int) -> bool:
    """Whether a ``[`` opens an array over several lines rather than a JSON Lines row."""
    first_line = text[start:].split("\n", 1)[0]
    try:
        _DECODER.decode(first_line)
    except (ValueError, RecursionError):
        return True
    return False


def parse_jsonl(text: str, name: str) -> Iterator[Paper | Rejection]:
    """Papers from JSON Lines or a JSON array (see the module docstring).

    >>> [p.id for p in parse_jsonl('[{"id": "a", "abstract": "x"}, {"summary": "y"}]', "f.json")]
    ['a', 'sha256-a1fce4363854ff888cff4b8e']
    """
    return papers_from_json(text, name, paper_from_record)


def papers_from_json(text: str, name: str, to_paper: ToPaper) -> Iterator[Paper | Rejection]:
    """``to_paper(record, source)`` for each JSON object of ``text`` (E108 for other values)."""
    for item in iter_json(text, name):
        if isinstance(item, Rejection):
            yield item
        elif isinstance(item[1], dict):
            yield to_paper(item[1], item[0])
        else:
            yield reject("E108", item[0])


def read_jsonl(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a ``.jsonl`` or ``.json`` file (see the module docstring)."""
    return read_with(parse_jsonl, path, on_warning)
