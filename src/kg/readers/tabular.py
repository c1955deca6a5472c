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
quote cannot hide the rest of the file. A record still inside a quoted field
when the file ends is rejected the same way (E105), never taken as a paper
(the csv module would hand out what it read). Rows with every field blank are
skipped like blank lines. The csv module's field size limit is raised (it is
process-wide) so that very long abstracts read.
"""

from __future__ import annotations

import csv
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path

from kg.model import Paper, Rejection

from ._decode import MAX_RECORD_CHARS, Format, Warn, split_lines, stream_with
from ._records import canonical_name, paper_from_record, reject

__all__ = ["CSV", "TSV", "parse_csv", "parse_tsv", "read_csv", "read_tsv"]

# Large enough for any abstract, small enough for a C long on every platform.
_FIELD_LIMIT = 2**31 - 1


class _TooLong(Exception):
    """A record grew past ``MAX_RECORD_CHARS``."""


class _Feed:
    """Lines for :func:`csv.reader`, counting them and keeping those of the record being read.

    ``position`` is the 0-based index of the next line. :meth:`replay` puts the
    lines of the last record after its first back, to be read again.
    """

    def __init__(self, lines: Iterator[str]) -> None:
        self.lines, self.position = lines, 0
        self.pending: deque[str] = deque()
        self.record: list[str] = []
        self.size = 0
        self.ended = False

    def __iter__(self) -> _Feed:
        return self

    def __next__(self) -> str:
        if self.pending:
            line = self.pending.popleft()
        else:
            try:
                line = next(self.lines)
            except StopIteration:
                self.ended = True  # a record read now ran into the end of the file: its quote never closed
                raise
        self.position += 1
        self.record.append(line)
        self.size += len(line)
        if self.size > MAX_RECORD_CHARS:
            raise _TooLong
        return line + "\n"

    def start(self) -> int:
        """Begin a record; return the index of its first line."""
        self.record, self.size = [], 0
        return self.position

    def replay(self) -> None:
        """Read again the lines of the last record after its first."""
        self.pending.extendleft(reversed(self.record[1:]))
        self.position -= len(self.record) - 1
        self.record = self.record[:1]
        self.ended = False


def _rows(feed: _Feed, delimiter: str, width: int | None) -> Iterator[tuple[int, list[str] | csv.Error | _TooLong]]:
    """``(first line index, row or rejection)`` of each record from the feed.

    With ``width`` set, a multi-line record of another width restarts the
    reader on the line after its first (see the module docstring), as does a
    record too long to hold (E116).
    """
    while True:
        reader = csv.reader(feed, delimiter=delimiter)
        while True:
            first = feed.start()
            try:
                row = next(reader)
            except StopIteration:
                return
            except (csv.Error, _TooLong) as error:
                # The error's source is filled in by the caller, which knows the file's name.
                yield first, error
                feed.replay()
                break
            if feed.ended:  # the csv module hands out what it read; the record is not whole
                yield first, csv.Error("a quote opened in this record never closes (the file ends inside it)")
                feed.replay()
                break
            yield first, row
            if width is not None and len(row) != width and feed.position - first > 1:
                feed.replay()
                break


def _delimiter(header: str) -> str:
    if "," not in header:
        for candidate in ("\t", ";"):
            if candidate in header:
                return candidate
    return ","


def parse_csv(text: str | Iterable[str], name: str, delimiter: str | None = None) -> Iterator[Paper | Rejection]:
    """Papers from CSV text (or its lines) with a header row (see the module docstring).

    >>> rows = 'ID,Abstract,Authors\\n1,"Deep, deeper.",A and B\\n2,"broken,x\\n3,,C\\n'
    >>> [(r.source, getattr(r, "code", "paper")) for r in parse_csv(rows, "f.csv")]
    [('f.csv:2', 'paper'), ('f.csv:3', 'E105'), ('f.csv:4', 'E106')]
    >>> [(r.source, getattr(r, "code", "paper")) for r in parse_csv('ID,Abstract\\n1,Fine.\\n2,"never closed\\n', "f.csv")]
    [('f.csv:2', 'paper'), ('f.csv:3', 'E105')]
    """
    csv.field_size_limit(max(csv.field_size_limit(), _FIELD_LIMIT))
    lines = iter(split_lines(text) if isinstance(text, str) else text)
    feed = _Feed(lines)
    for line in lines:
        if line.strip():
            feed.pending.append(line)
            break
        feed.position += 1
    else:
        yield reject("E112", name)
        return
    delimiter = delimiter or _delimiter(feed.pending[0])
    _, header = next(_rows(feed, delimiter, None))
    if not isinstance(header, list) or not any(canonical_name(column) == "abstract" for column in header):
        yield reject("E109", name)
        return
    for index, row in _rows(feed, delimiter, len(header)):
        source = f"{name}:{index + 1}"
        if isinstance(row, _TooLong):
            yield reject("E116", source, limit=MAX_RECORD_CHARS)
        elif isinstance(row, csv.Error):
            yield reject("E105", source, reason=str(row).splitlines()[0])
        elif not any(field.strip() for field in row):
            continue
        elif len(row) != len(header):
            yield reject("E105", source, reason=f"{len(row)} fields where the header has {len(header)}")
        else:
            yield paper_from_record(dict(zip(header, row, strict=True)), source)


def parse_tsv(text: str | Iterable[str], name: str) -> Iterator[Paper | Rejection]:
    """Papers from tab-separated text with a header row."""
    return parse_csv(text, name, delimiter="\t")


def read_csv(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a ``.csv`` file (see the module docstring)."""
    return stream_with(parse_csv, path, on_warning)


def read_tsv(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a ``.tsv`` file."""
    return stream_with(parse_tsv, path, on_warning)


#: The formats, as :data:`kg.registry.READERS` names them.
CSV = Format("csv", parse_csv, (".csv",))
TSV = Format("tsv", parse_tsv, (".tsv", ".tab"))
