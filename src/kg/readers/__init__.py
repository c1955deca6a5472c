"""Readers: input files to :class:`~kg.model.Paper` records (or :class:`~kg.model.Rejection`).

The one entry point a build needs is :func:`read_inputs`; :func:`expand_inputs`
turns command-line arguments into files. Formats live in :data:`FORMATS`
(:data:`kg.registry.READERS`), a registry keyed by name whose modules are imported
when a name is looked up; each has its own module with ``read_<fmt>(path)``,
``parse_<fmt>(text, name)`` and its :class:`Format`:

=======  ==========================  ========================================
name     extensions                  module
=======  ==========================  ========================================
text     .txt                        :mod:`kg.readers.text`
jsonl    .jsonl .ndjson .json        :mod:`kg.readers.jsonl`
arxiv    (sniffed in .json/.jsonl)   :mod:`kg.readers.arxiv` (Kaggle snapshot)
csv      .csv                        :mod:`kg.readers.tabular`
tsv      .tsv .tab                   :mod:`kg.readers.tabular`
atom     .xml .atom                  :mod:`kg.readers.atom` (arXiv API)
=======  ==========================  ========================================

A file's format comes from ``format=`` if given, else from its extension
(case-insensitive); a ``.json``/``.jsonl`` file whose first record has arXiv
snapshot fields (``authors_parsed``, ``versions``, ``update_date``) is read as
``arxiv``, and a ``.txt`` file whose first line is a JSON object as ``jsonl``.
Another package adds a format through the ``kg.readers`` entry-point group (a
:class:`Format` with the extensions it claims); a built-in keeps its extensions.

Reading streams: JSON Lines, the arXiv snapshot, CSV/TSV and plain text are
read a line at a time, so memory does not grow with a file's size; Atom feeds
are read whole. A record longer than :data:`MAX_RECORD_CHARS` is rejected
(E116) without being held, and :func:`read_inputs` rejects a paper whose
cleaned abstract is longer than :data:`MAX_ABSTRACT_CHARS` (E115).

Errors: a missing path or a glob matching nothing raises ``UserError`` E101,
and so does nothing found at all (E111); a file named explicitly with an
unknown extension raises E103 (unless ``format=`` is given), an unknown
``format=`` E113. These are raised when :func:`read_inputs` is called, before
anything is read. Everything that goes wrong inside a file (unreadable,
empty, a bad record) is a Rejection in the stream, and reading goes on.
"""

from __future__ import annotations

import glob
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from kg.errors import UserError
from kg.model import Paper, Rejection
from kg.registry import READERS

from ._compressed import format_suffix
from ._decode import MAX_RECORD_CHARS, Format, Warn, load_lines, parse_lines
from ._records import reject
from .arxiv import parse_arxiv, read_arxiv
from .atom import parse_atom, read_atom
from .clean import clean_text
from .jsonl import parse_jsonl, read_jsonl
from .tabular import parse_csv, parse_tsv, read_csv, read_tsv
from .text import parse_text, read_text

__all__ = [
    "EXTENSIONS", "FORMATS", "MAX_ABSTRACT_CHARS", "MAX_RECORD_CHARS", "Format", "clean_text", "expand_inputs", "extensions", "format_of", "sniff",
    "parse_arxiv", "parse_atom", "parse_csv", "parse_jsonl", "parse_text", "parse_tsv",
    "read_arxiv", "read_atom", "read_csv", "read_inputs", "read_jsonl", "read_text", "read_tsv",
]


#: Registry of input formats, keyed by the name ``format=`` takes (:data:`kg.registry.READERS`).
FORMATS = READERS
#: The longest abstract (after cleaning) :func:`read_inputs` accepts, in characters: 50 times
#: the longest arXiv abstract, and about 1 GB of spaCy's working memory (see docs/INPUTS.md).
MAX_ABSTRACT_CHARS = 100_000
#: The built-in formats' file extensions -> format name (before sniffing).
EXTENSIONS: dict[str, str] = {ext: name for name in READERS.specs for ext in READERS[name].extensions}

_ARXIV_FIELDS = frozenset({"authors_parsed", "versions", "update_date"})
_GLOB_CHARACTERS = frozenset("*?[")


def _first_json_object(text: str) -> dict | None:
    line = next((line for line in text.split("\n") if line.strip()), "").strip().lstrip("[").strip()
    try:
        value = json.loads(line.rstrip(","))
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def extensions() -> dict[str, str]:
    """Every known file extension -> format name: the built-ins' (:data:`EXTENSIONS`), then other packages'.

    A format added through the ``kg.readers`` entry points is imported here to
    learn the extensions it claims (only when there is one); an extension a
    built-in claims stays the built-in's.

    >>> extensions()[".jsonl"]
    'jsonl'
    """
    claimed = dict(EXTENSIONS)
    for name in READERS.entry_points():
        for extension in READERS[name].extensions:
            claimed.setdefault(extension.lower(), name)
    return claimed


def sniff(path: Path, text: str, known: Mapping[str, str] | None = None) -> str:
    """The format of a file with a known extension, refined by its content (its first non-blank line is enough).

    ``known`` is :func:`extensions` (by default the built-ins' :data:`EXTENSIONS`).

    >>> sniff(Path("s.json"), '{"id": "0704.0001", "abstract": "x", "versions": []}')
    'arxiv'
    >>> sniff(Path("notes.txt"), 'Daily Papers\\n\\nAn abstract.')
    'text'
    """
    name = (EXTENSIONS if known is None else known)[format_suffix(path)]
    if name == "jsonl":
        record = _first_json_object(text)
        return "arxiv" if record and _ARXIV_FIELDS & {str(key).lower() for key in record} else name
    if name == "text" and text.lstrip().startswith("{") and _first_json_object(text) is not None:
        return "jsonl"
    return name


def format_of(path: Path, known: Mapping[str, str] | None = None) -> str:
    """The format name for a file's extension (in ``known``, by default :data:`EXTENSIONS`); ``UserError`` E103 if unknown."""
    known = EXTENSIONS if known is None else known
    if format_suffix(path) not in known:
        raise UserError("E103", path=str(path))
    return known[format_suffix(path)]


def _walk(root: Path, known: Mapping[str, str]) -> list[Path]:
    """Files under ``root`` with known extensions, hidden files and folders skipped."""
    found = []
    for folder, folders, files in os.walk(root):  # does not follow links: no cycles
        folders[:] = [name for name in folders if not name.startswith(".")]
        found += [
            Path(folder, name)
            for name in files
            if not name.startswith(".") and format_suffix(Path(name)) in known
        ]
    return sorted(found)


def _expand_one(argument: str | os.PathLike[str], known: Mapping[str, str]) -> list[Path]:
    path = Path(argument)
    if path.is_dir():
        return _walk(path, known)
    if path.exists() or path.is_symlink():  # a broken link is reported when read
        return [path]
    if _GLOB_CHARACTERS & set(str(argument)):
        matches = sorted(glob.glob(str(argument), recursive=True))
        if matches:
            return [file for match in matches for file in _expand_one(match, known)]
    raise UserError("E101", path=str(argument))


def expand_inputs(paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str]) -> list[Path]:
    """Files named by ``paths``: files, folders (recursively) and globs.

    Files named directly are kept whatever their extension, as are those a
    glob matches (as the shell would pass them); in a folder only known
    extensions count, sorted, skipping hidden names. The result is in
    argument order with repeats removed. Raises ``UserError`` E101 for a
    missing path or a glob that matches nothing, E111 if nothing is found.
    """
    return _expand(paths, extensions())


def _expand(paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str], known: Mapping[str, str]) -> list[Path]:
    arguments = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    seen: set[str] = set()
    files = []
    for argument in arguments:
        for path in _expand_one(argument, known):
            key = os.path.realpath(path)
            if key not in seen:
                seen.add(key)
                files.append(path)
    if not files:
        raise UserError("E111", paths=", ".join(map(str, arguments)) or "(no paths)")
    return files


def read_inputs(
    paths: Iterable[str | os.PathLike[str]] | str | os.PathLike[str],
    format: str | None = None,  # noqa: A002 - the CLI option's name
    on_warning: Callable[[str], object] | None = None,
    max_abstract_chars: int | None = MAX_ABSTRACT_CHARS,
) -> Iterator[Paper | Rejection]:
    """Every Paper and Rejection in ``paths``, file by file, in input order.

    Argument errors (E101, E103, E111, E113) are raised here, at the call;
    the returned iterator never raises for bad content. ``on_warning``
    receives one line per non-fatal note (an encoding guessed). A paper whose
    abstract is longer than ``max_abstract_chars`` (``None``: no limit) is
    rejected (E115): it costs the extractors time and memory in proportion
    and is most likely not an abstract.
    """
    if format is not None and format not in FORMATS:
        raise UserError("E113", name=format, choices=", ".join(FORMATS))
    known = extensions()
    plan = [(path, format or format_of(path, known)) for path in _expand(paths, known)]
    items = _read_all(plan, forced=format is not None, on_warning=on_warning, known=known)
    return items if max_abstract_chars is None else _limit(items, max_abstract_chars)


def _limit(items: Iterator[Paper | Rejection], limit: int) -> Iterator[Paper | Rejection]:
    for item in items:
        if isinstance(item, Paper) and len(item.abstract) > limit:
            yield reject("E115", item.source, paper=item.id, length=len(item.abstract), limit=limit)
        else:
            yield item


def _read_all(
    plan: list[tuple[Path, str]], *, forced: bool, on_warning: Warn | None, known: Mapping[str, str]
) -> Iterator[Paper | Rejection]:
    formats: dict[str, Format] = {}  # each format looked up once (another package's means a scan of the entry points)
    for path, name in plan:
        loaded = load_lines(path, on_warning)
        if isinstance(loaded, Rejection):
            yield loaded
            continue
        first, lines = loaded
        chosen = name if forced else sniff(path, first, known)
        if chosen not in formats:
            formats[chosen] = FORMATS[chosen]
        fmt = formats[chosen]
        if fmt.whole:
            lines.close()  # type: ignore[attr-defined]
            yield from fmt.read(path, on_warning=None)  # any warning was given above
        else:
            yield from parse_lines(fmt.parse, lines, str(path))  # type: ignore[arg-type]
