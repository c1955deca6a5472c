"""``facts.csv`` and ``results.csv``: one row per fact and supporting paper, one per numeric result.

Columns, in order: ``paper_id, subject, subject_label, subject_type, relation,
object, object_label, object_type, evidence, confidence, extractor,
subject_evidence`` (:data:`FIELDS`). ``evidence`` is the sentence that states
the fact; ``subject_evidence`` is the sentence that names its subject when that
is another one ("We propose X." for a fact stated in a sentence about the
task), else empty. ``subject`` and ``object`` are IRIs (for ``hasCode`` the
object is the code's URL); ``confidence`` is a float written with Python's
shortest exact ``repr``.

Limits and dangers
------------------
- **Exact strings.** UTF-8 without a byte-order mark, comma-separated, rows
  ended by ``\\r\\n`` (RFC 4180); fields holding a comma, quote, line break or
  carriage return are quoted and inner quotes doubled (``QUOTE_MINIMAL``), so
  every string, line breaks included, reads back exactly with :mod:`csv`
  (``newline=""``) and with pandas (see below). Lone surrogates cannot be
  encoded and raise :class:`UnicodeEncodeError`; the store never holds them.
- **pandas guesses.** ``pandas.read_csv(path)`` loads the file, but by
  default turns text such as ``NA``, ``null`` or an empty field into NaN and
  ``007`` into 7. For exact text, read with
  ``pandas.read_csv(path, dtype=str, keep_default_na=False)`` and convert
  ``confidence`` with ``float`` (or :func:`read_facts_frame`).
- **Spreadsheets.** A field starting with ``=``, ``+``, ``-`` or ``@`` may be
  run as a formula by Excel or LibreOffice (CSV injection). The file keeps the
  text exact rather than mangling it; open untrusted files as text, not by
  double-click. Excel also needs *Data > From Text* to read UTF-8.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from kg.io import atomic_write

if TYPE_CHECKING:
    import pandas as pd

    from kg.views.graph import KnowledgeGraph

__all__ = ["FIELDS", "read_facts", "read_facts_frame", "write_facts_csv", "write_results_csv", "write_rows"]

#: The columns of ``facts.csv``, in order (the fields of ``kg.views.FactRow``).
FIELDS: tuple[str, ...] = (
    "paper_id",
    "subject",
    "subject_label",
    "subject_type",
    "relation",
    "object",
    "object_label",
    "object_type",
    "evidence",
    "confidence",
    "extractor",
    "subject_evidence",
)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_rows(rows: Iterable[Sequence[Any]], handle: IO[str], fields: Sequence[str] = FIELDS) -> int:
    """Write a header and ``rows`` (in :data:`FIELDS` order) to a text handle; return the row count.

    ``handle`` must be opened with ``newline=""`` so that line breaks inside
    fields are written as they are.

    >>> import io
    >>> out = io.StringIO(newline="")
    >>> write_rows([("p1", "s", 'a "b" c', "Method", "uses", "o", "a,b", "Method", "l1\\nl2", 0.5, "t", "")], out)
    1
    >>> out.getvalue().splitlines()[1]
    'p1,s,"a ""b"" c",Method,uses,o,"a,b",Method,"l1'
    """
    writer = csv.writer(handle, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    writer.writerow(fields)
    count = 0
    for row in rows:
        if len(row) != len(fields):
            raise ValueError(f"a row needs {len(fields)} fields, got {len(row)}: {row!r}")
        writer.writerow([_cell(v) for v in row])
        count += 1
    return count


def write_facts_csv(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``facts.csv`` for ``kg`` to ``path`` atomically, one row per fact and paper."""
    with atomic_write(path, "w", encoding="utf-8", newline="") as handle:
        write_rows(kg.facts(), handle)


def write_results_csv(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``results.csv`` atomically: one row per numeric result (:data:`kg.views.numbers.RESULT_FIELDS`).

    Same dialect as ``facts.csv``; ``value`` is the number as a plain decimal,
    ``value_text`` as the abstract writes it; an absent end is an empty field.
    """
    from dataclasses import astuple

    from kg.views.numbers import RESULT_FIELDS

    with atomic_write(path, "w", encoding="utf-8", newline="") as handle:
        write_rows((astuple(r) for r in kg.results()), handle, RESULT_FIELDS)


def read_facts(path: str | Path) -> list[dict[str, Any]]:
    """Read ``facts.csv`` back: one dict per row, ``confidence`` as float, the rest exact text."""
    with open(path, encoding="utf-8", newline="") as handle:
        return [{**row, "confidence": float(row["confidence"])} for row in csv.DictReader(handle)]


def read_facts_frame(path: str | Path) -> pd.DataFrame:
    """Read ``facts.csv`` into a pandas DataFrame with exact text (needs pandas)."""
    import pandas as pd

    frame = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8")
    frame["confidence"] = frame["confidence"].astype(float)
    return frame
