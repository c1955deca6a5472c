"""CSV and TSV files with a header row.

The header names the columns; names are matched as in JSON Lines (see
:mod:`kg.readers.jsonl` for the table of accepted names), so ``Abstract``,
``summary`` or ``Paper ID`` all work. A header without an abstract column
rejects the whole file (E109). For ``.csv`` the delimiter is ``,`` unless
the header line has none and has tabs or semicolons (Excel in many locales
writes ``;``).

Each Paper's source is ``path:LINE``, the line where its record starts (a
quoted field may span lines). A record whose number of fields differs from
the header's is rejected (E105) rather than guessed at, since its columns
have probably shifted. When such a record spans several lines, the likely
cause is a quote that never closed and swallowed the lines after it: only
its first line is rejected and reading resumes on the next line, so one bad
quote cannot hide the rest of the file. Rows with every field blank are
skipped like blank lines. The csv module's field size limit is raised (it is
process-wide) so that very long abstracts read.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from kg.model import Paper, Rejection

from ._decode import Warn, read_with, split_lines
from ._records import canonical_name, paper_from_record, reject

__all__ = ["parse_csv", "parse_tsv", "read_csv", "read_tsv"]

# Large enough for any abstract, small enough for a C long on every platform.
_FIELD_LIMIT = 2**31 - 1


class _Feed:
    """Lines for :func:`csv.reader`, counting how many it has taken."""

    def __init__(self, lines: list[str], start: int) -> None:
        self.lines, self.position = lines, start

    def __iter__(self) -> _Feed:
        return self

    def __next__(self) -> str:
        if self.position >= len(self.lines):
            raise StopIteration
        self.position += 1
        return self.lines[self.position - 1] + "\n"


def _rows(
    lines: list[str], start: int, delimiter: str, width: int | None
) -> Iterator[tuple[int, int, list[str] | csv.Error]]:
    """``(first line index, end index, row or error)`` of each record from ``lines[start:]``.

    With ``width`` set, a multi-line record of another width restarts the
    reader on the line after its first (see the module docstring).
    """
    while start < len(lines):
        feed = _Feed(lines, start)
        reader = csv.reader(feed, delimiter=delimiter)
        while True:
            first = feed.position
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                yield first, first + 1, error
                start = first + 1
                break
            yield first, feed.position, row
            if width is not None and len(row) != width and feed.position - first > 1:
                start = first + 1
                break


def _delimiter(header: str) -> str:
    if "," not in header:
        for candidate in ("\t", ";"):
            if candidate in header:
                return candidate
    return ","


def parse_csv(text: str, name: str, delimiter: str | None = None) -> Iterator[Paper | Rejection]:
    """Papers from CSV text with a header row (see the module docstring).

    >>> rows = 'ID,Abstract,Authors\\n1,"Deep, deeper.",A and B\\n2,"broken,x\\n3,,C\\n'
    >>> [(r.source, getattr(r, "code", "paper")) for r in parse_csv(rows, "f.csv")]
    [('f.csv:2', 'paper'), ('f.csv:3', 'E105'), ('f.csv:4', 'E106')]
    """
    csv.field_size_limit(max(csv.field_size_limit(), _FIELD_LIMIT))
    lines = split_lines(text)
    start = next((index for index, line in enumerate(lines) if line.strip()), None)
    if start is None:
        yield reject("E112", name)
        return
    delimiter = delimiter or _delimiter(lines[start])
    _, end, header = next(_rows(lines, start, delimiter, None))
    if isinstance(header, csv.Error) or not any(canonical_name(column) == "abstract" for column in header):
        yield reject("E109", name)
        return
    for index, _, row in _rows(lines, end, delimiter, len(header)):
        source = f"{name}:{index + 1}"
        if isinstance(row, csv.Error):
            yield reject("E105", source, reason=str(row).splitlines()[0])
        elif not any(field.strip() for field in row):
            continue
        elif len(row) != len(header):
            yield reject("E105", source, reason=f"{len(row)} fields where the header has {len(header)}")
        else:
            yield paper_from_record(dict(zip(header, row, strict=True)), source)


def parse_tsv(text: str, name: str) -> Iterator[Paper | Rejection]:
    """Papers from tab-separated text with a header row."""
    return parse_csv(text, name, delimiter="\t")


def read_csv(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a ``.csv`` file (see the module docstring)."""
    return read_with(parse_csv, path, on_warning)


def read_tsv(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a ``.tsv`` file."""
    return read_with(parse_tsv, path, on_warning)
