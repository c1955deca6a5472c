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
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from kg.model import Paper, Rejection

from ._decode import Warn, read_with, split_lines
from ._records import make_paper

__all__ = ["parse_text", "read_text"]

_HEADER_LENGTH = 80


def _paragraphs(text: str) -> Iterator[tuple[int, list[str]]]:
    """``(first line number, lines)`` of each blank-line-separated paragraph."""
    start, lines = 0, []
    for number, line in enumerate(split_lines(text), 1):
        if line.strip():
            start = start or number
            lines.append(line)
        elif lines:
            yield start, lines
            start, lines = 0, []
    if lines:
        yield start, lines


def _is_header(lines: list[str]) -> bool:
    line = lines[0].strip()
    return len(lines) == 1 and len(line) <= _HEADER_LENGTH and not line.endswith((".", "!", "?"))


def parse_text(text: str, name: str) -> Iterator[Paper | Rejection]:
    """Papers from the paragraphs of ``text``; ``name`` prefixes each source.

    >>> [p.source for p in parse_text("Daily Papers\\n\\nOne abstract.\\n\\nAnother\\none.\\n", "d.txt")]
    ['d.txt:3', 'd.txt:5']
    """
    for index, (line, lines) in enumerate(_paragraphs(text)):
        if index == 0 and _is_header(lines):
            continue
        yield make_paper(f"{name}:{line}", " ".join(lines))


def read_text(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a plain-text file (see the module docstring)."""
    return read_with(parse_text, path, on_warning)
