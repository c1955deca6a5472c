"""From the fields of one record to a :class:`~kg.model.Paper`, the same way for every format.

Field names are matched after lower-casing and turning spaces and hyphens into
underscores; the first synonym (in the order of :data:`FIELDS`) with a
non-empty value wins, so a record with an empty ``abstract`` and a filled
``summary`` still reads.

Values: strings as they are; numbers become strings (an id of ``7``); a list
of strings is joined with spaces (an abstract split into sentences). An
optional field of any other type (an object, a boolean) is ignored; an
abstract of such a type rejects the record (E114).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from kg.errors import MESSAGES
from kg.model import Paper, Rejection, content_id, normalise_whitespace

from .clean import clean_text, remove_controls

__all__ = ["FIELDS", "canonical_name", "make_paper", "paper_from_record", "reject", "split_authors"]

#: Canonical field -> accepted column or key names, most specific first.
FIELDS: dict[str, tuple[str, ...]] = {
    "id": ("id", "paper_id", "paperid", "doc_id", "docid", "identifier", "arxiv_id", "uid"),
    "title": ("title", "paper_title", "articletitle", "article_title"),
    "abstract": (
        "abstract", "summary", "abstract_text", "abstracttext", "paper_abstract",
        "description", "text",
    ),
    "url": ("url", "link", "href", "paper_url", "abs_url", "landing_page", "pdf_url"),
    "doi": ("doi",),
    "year": (
        "year", "publication_year", "pub_year", "date", "publication_date", "pub_date",
        "published", "issued", "created", "update_date",
    ),
    "authors": ("authors", "author", "author_names", "creators", "creator"),
}
_CANONICAL = {alias: field for field, aliases in FIELDS.items() for alias in aliases}
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|2[01]\d\d)(?!\d)")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)
_AUTHOR_SEPARATOR = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*")


def reject(code: str, source: str, **values: Any) -> Rejection:
    """A :class:`Rejection` whose reason is the catalogue message, on one line.

    >>> reject("E104", "a.jsonl:3", reason="Expecting value").reason
    'a.jsonl:3: malformed JSON (Expecting value)'
    """
    reason = MESSAGES[code].format(source=source, path=source, **values)
    return Rejection(source=source, reason=normalise_whitespace(remove_controls(reason)), code=code)


def _alias(key: str) -> str:
    return re.sub(r"[\s\-]+", "_", key.strip().strip("\ufeff").lower())


def canonical_name(key: object) -> str | None:
    """The canonical field a column or key stands for, or ``None``.

    >>> canonical_name(" Paper-ID "), canonical_name("Summary"), canonical_name("pages")
    ('id', 'abstract', None)
    """
    return _CANONICAL.get(_alias(key)) if isinstance(key, str) else None


def _text(value: object) -> str | None:
    """A field value as text, or ``None`` when it is not text-like."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        return " ".join(value)
    return None


def _present(value: object) -> bool:
    return value is not None and not (isinstance(value, str | list | tuple) and not value)


def paper_from_record(record: Mapping[Any, Any], source: str) -> Paper | Rejection:
    """A Paper from a record with loosely named fields (see :data:`FIELDS`).

    >>> paper_from_record({"Paper_ID": " p1 ", "Summary": "We <i>study</i> X."}, "f:1").abstract
    'We study X.'
    """
    given: dict[str, Any] = {}
    for key, value in record.items():
        if isinstance(key, str) and _present(value):
            given.setdefault(_alias(key), value)
    fields = {}
    for field, aliases in FIELDS.items():
        alias = next((alias for alias in aliases if alias in given), None)
        if alias is not None:
            fields[field] = given[alias]
    return make_paper(source, **fields)


def make_paper(
    source: str,
    abstract: object = None,
    *,
    id: object = None,  # noqa: A002 - the field's name in every input format
    title: object = None,
    url: object = None,
    doi: object = None,
    year: object = None,
    authors: object = None,
) -> Paper | Rejection:
    """Clean the fields of one record and build its Paper, or say why not.

    An absent or blank abstract is E106, one of another type E114, one that
    cleaning leaves without a letter or digit E110. Optional fields that are
    not text are dropped.

    >>> make_paper("f:1", "  <p></p> ").code
    'E110'
    >>> make_paper("f:2", "Deep nets.", id=7, year="2021-03-04", doi="https://doi.org/10.1/x")
    Paper(id='7', abstract='Deep nets.', title=None, url=None, doi='10.1/x', year='2021', \
authors=(), source='f:2')
    """
    raw = _text(abstract)
    if raw is None and _present(abstract):
        return reject("E114", source, field="abstract", kind=type(abstract).__name__)
    if raw is None or not raw.strip():
        return reject("E106", source)
    text = clean_text(raw)
    if not any(char.isalnum() for char in text):
        return reject("E110", source)
    given_id = normalise_whitespace(remove_controls(_text(id) or ""))
    return Paper(
        id=given_id or content_id(text),
        abstract=text,
        title=_cleaned(title),
        url=_plain(url),
        doi=_doi(doi),
        year=_year(year),
        authors=split_authors(authors),
        source=source,
    )


def _cleaned(value: object) -> str | None:
    text = _text(value)
    return (clean_text(text) or None) if text is not None else None


def _plain(value: object) -> str | None:
    text = _text(value)
    return (normalise_whitespace(remove_controls(text)) or None) if text is not None else None


def _doi(value: object) -> str | None:
    text = _plain(value)
    return (_DOI_PREFIX.sub("", text).strip() or None) if text else None


def _year(value: object) -> str | None:
    """A four-digit year found in a number or date string.

    >>> _year(2019), _year("Mon, 2 Apr 2007 19:18:42 GMT"), _year("n.d.")
    ('2019', '2007', None)
    """
    text = _text(value)
    match = _YEAR.search(text) if text else None
    return match[1] if match else None


def _author_name(value: object) -> str:
    """One author from a string, a ``{"name"}``/``{"given","family"}`` object or ``[last, first, suffix]``."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        name = _text(value.get("name"))
        if name:
            return name
        parts = (value.get(key) for key in ("given", "first", "family", "last"))
        return " ".join(part for part in parts if isinstance(part, str))
    if isinstance(value, list | tuple) and all(isinstance(part, str) for part in value):
        last, *rest = value or [""]
        return " ".join([*rest[:1], last, *rest[1:]])
    return ""


def split_authors(value: object) -> tuple[str, ...]:
    """Authors from a list, or from ``"A, B and C"`` / ``"A; B"``.

    A string with a semicolon is split on semicolons only, so ``"Doe, J.; Roe, R."``
    keeps its ``last, first`` names; without one, commas, "and" and "&" separate.

    >>> split_authors("Ada Lovelace, Alan Turing and Grace Hopper")
    ('Ada Lovelace', 'Alan Turing', 'Grace Hopper')
    >>> split_authors("Doe, J.; Roe, R.")
    ('Doe, J.', 'Roe, R.')
    >>> split_authors([["Bal\\\\'azs", "C.", ""], {"name": "E. Berger"}])
    ('C. Balázs', 'E. Berger')
    """
    names: Iterable[str]
    if isinstance(value, str):
        names = value.split(";") if ";" in value else _AUTHOR_SEPARATOR.split(value)
    elif isinstance(value, list | tuple):
        names = (_author_name(item) for item in value)
    else:
        names = ()
    cleaned = (clean_text(name) for name in names)
    return tuple(name for name in cleaned if name)
