"""The arXiv metadata snapshot (Kaggle's ``arxiv-metadata-oai-snapshot.json``).

JSON Lines, one paper a line, with ``id``, ``title``, ``abstract``,
``authors`` (one string, LaTeX accents included), ``authors_parsed``
(``[[last, first, suffix], ...]``), ``doi``, ``update_date`` and ``versions``
(``[{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}, ...]``).

Choices:

- ids are prefixed and version-free, ``arXiv:2101.00001`` or
  ``arXiv:hep-th/9901001``, the same as :mod:`kg.readers.atom` gives, so a
  paper read from both sources is one paper and no arXiv id can collide
  with an id from another source; an id that does not look like arXiv's is
  kept as given;
- ``url`` is the abstract page, ``https://arxiv.org/abs/<id>``;
- ``year`` is that of the first version (submission), else ``update_date``'s;
- authors come from ``authors_parsed`` when present (already split), else
  from ``authors``.

The snapshot is several gigabytes; it is streamed a line at a time, in
constant memory. Malformed lines and missing abstracts are rejected as in
:mod:`kg.readers.jsonl`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from kg.model import Paper, Rejection

from ._decode import Format, Warn, stream_with
from ._records import make_paper
from .jsonl import papers_from_json

__all__ = ["ARXIV", "arxiv_id", "parse_arxiv", "read_arxiv"]

_ID = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:)?"
    r"(?P<id>\d{4}\.\d{4,5}|[a-z][a-z.-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?/?$",
    re.IGNORECASE,
)


def arxiv_id(raw: str) -> str | None:
    """The ``arXiv:`` id in a bare id, an ``arXiv:`` id or an abs/pdf URL.

    >>> arxiv_id("http://arxiv.org/abs/2101.00001v2"), arxiv_id("hep-th/9901001")
    ('arXiv:2101.00001', 'arXiv:hep-th/9901001')
    >>> arxiv_id("doi:10.1/x") is None
    True
    """
    match = _ID.search(raw.strip())
    return f"arXiv:{match['id']}" if match else None


def _first_version_date(versions: object) -> object:
    if isinstance(versions, list) and versions and isinstance(versions[0], Mapping):
        return versions[0].get("created")
    return None


def arxiv_paper(record: Mapping[str, Any], source: str) -> Paper | Rejection:
    """A Paper from one snapshot record."""
    fields = {key.lower(): value for key, value in record.items() if isinstance(key, str)}
    raw_id = fields.get("id")
    paper_id = arxiv_id(raw_id) if isinstance(raw_id, str) else None
    return make_paper(
        source,
        fields.get("abstract"),
        id=paper_id or raw_id,
        title=fields.get("title"),
        url=f"https://arxiv.org/abs/{paper_id.removeprefix('arXiv:')}" if paper_id else None,
        doi=fields.get("doi"),
        year=_first_version_date(fields.get("versions")) or fields.get("update_date"),
        authors=fields.get("authors_parsed") or fields.get("authors"),
    )


def parse_arxiv(text: str | Iterable[str], name: str) -> Iterator[Paper | Rejection]:
    """Papers from snapshot text or its lines (see the module docstring).

    >>> line = '{"id": "0704.0001", "abstract": "A study.", "versions": [{"created": "Mon, 2 Apr 2007"}]}'
    >>> paper = next(parse_arxiv(line, "s.json"))
    >>> paper.id, paper.year, paper.url
    ('arXiv:0704.0001', '2007', 'https://arxiv.org/abs/0704.0001')
    """
    return papers_from_json(text, name, arxiv_paper)


def read_arxiv(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from a snapshot file (see the module docstring)."""
    return stream_with(parse_arxiv, path, on_warning)


#: The format, as :data:`kg.registry.READERS` names it: no extension of its own (sniffed in JSON files).
ARXIV = Format("arxiv", parse_arxiv)
