"""Plain text: one abstract per paragraph.

The layout of the seed files: an optional header line ("Daily Papers"), then
abstracts separated by blank lines (lines holding only whitespace count as
blank). A paragraph's lines are joined with spaces. Each Paper's source is
``path:LINE``, the 1-based number of the paragraph's first line.

The first paragraph is taken for a header, and skipped, when it is a single
line of at most 80 characters that does not end like a sentence (``.``,
``!``, ``?``). A one-line abstract that short is indistinguishable from a
title; put a header line above it to keep it.

There are no titles, ids or authors in this format: ids are content hashes.
The file is read line by line; a paragraph longer than ``MAX_RECORD_CHARS``
is rejected (E116) and reading goes on after its next blank line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.model import Paper, Rejection

from ._decode import MAX_RECORD_CHARS, Format, Warn, split_lines, stream_with
from ._records import make_paper, reject

__all__ = ["TEXT", "parse_text", "read_text"]

_HEADER_LENGTH = 80


def _paragraphs(lines: Iterable[str]) -> Iterator[tuple[int, list[str] | None]]:
    """``(first line number, lines)`` of each blank-line-separated paragraph (``None``: too long)."""
    start, held, size = 0, [], 0
    for number, line in enumerate(lines, 1):
        if line.strip():
            start = start or number
            size += len(line) + 1
            if size <= MAX_RECORD_CHARS:
                held.append(line)
            elif held:
                held = []  # too long: forget it, and note it once
        elif start:
            yield start, held or None
            start, held, size = 0, [], 0
    if start:
        yield start, held or None


def _is_header(lines: list[str]) -> bool:
    line = lines[0].strip()
    return len(lines) == 1 and len(line) <= _HEADER_LENGTH and not line.endswith((".", "!", "?"))


def parse_text(text: str | Iterable[str], name: str) -> Iterator[Paper | Rejection]:
    """Papers from the paragraphs of a text (or its lines); ``name`` prefixes each source.

    >>> [p.source for p in parse_text("Daily Papers\\n\\nOne abstract.\\n\\nAnother\\none.\\n", "d.txt")]
    ['d.txt:3', 'd.txt:5']
    """
    paragraphs = _paragraphs(split_lines(text) if isinstance(text, str) else text)
    for index, (line, lines) in enumerate(paragraphs):
        if lines is None:
            yield reject("E116", f"{name}:{line}", limit=MAX_RECORD_CHARS)
        elif not (index == 0 and _is_header(lines)):
            yield make_paper(f"{name}:{line}", " ".join(lines))


def read_text(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a plain-text file (see the module docstring)."""
    return stream_with(parse_text, path, on_warning)


#: The format, as :data:`kg.registry.READERS` names it.
TEXT = Format("text", parse_text, (".txt",))
