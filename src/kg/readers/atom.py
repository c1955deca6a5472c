"""Atom XML feeds, as the arXiv API returns them (and other Atom feeds).

Each ``<entry>`` is a paper: ``<id>`` (an arXiv abs URL becomes
``arXiv:2101.00001``, version dropped, as in :mod:`kg.readers.arxiv`; any
other id is kept), ``<title>``, ``<summary>`` (else ``<content>``),
``<published>`` (else ``<updated>``) for the year, ``<author><name>``,
``<arxiv:doi>`` and the ``rel="alternate"`` link (else an ``http`` id) for
the URL. Elements are matched by local name, whatever their namespace.

Sources are ``path:entry N`` (1-based, in document order). If the feed is not
well-formed XML, each entry is parsed on its own, so one broken entry is
rejected (E107) and the others still read; an entry whose closing tag is
missing is rejected too. A well-formed XML file that is not a feed and holds
no entries is rejected as a whole.

Safety: parsing uses :mod:`xml.etree.ElementTree` (expat), which never fetches
external entities; documents declaring entities (``<!ENTITY``, the
"billion laughs" attack) are refused outright, and characters XML forbids
(control characters) are removed before parsing. No network is used.

Unlike the other formats, a feed is read whole into memory: an arXiv API
page holds at most a few thousand entries.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from kg.model import Paper, Rejection

from ._decode import Format, Warn, read_with
from ._records import make_paper, reject
from .arxiv import arxiv_id

__all__ = ["ATOM", "parse_atom", "read_atom"]

_ENTITY_DECLARATION = re.compile(r"<!ENTITY", re.IGNORECASE)
_NOT_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ENTRY_START = re.compile(r"<(?:[\w.-]+:)?entry[\s>/]")
_ENTRY_END = re.compile(r"</(?:[\w.-]+:)?entry\s*>")
_FEED_START = re.compile(r"<(?:[\w.-]+:)?feed\b[^>]*>")
_NAMESPACE = re.compile(r"\sxmlns(?::[\w.-]+)?\s*=\s*(?:\"[^\"]*\"|'[^']*')")


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: ET.Element, name: str) -> list[ET.Element]:
    return [child for child in element if _local(child.tag) == name]


def _text(element: ET.Element, *names: str) -> str | None:
    for name in names:
        for child in _children(element, name):
            text = "".join(child.itertext())
            if text.strip():
                return text
    return None


def _url(entry: ET.Element, raw_id: str | None) -> str | None:
    for link in _children(entry, "link"):
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return link.get("href")
    return raw_id.strip() if raw_id and raw_id.strip().startswith("http") else None


def _paper(entry: ET.Element, source: str) -> Paper | Rejection:
    raw_id = _text(entry, "id")
    return make_paper(
        source,
        _text(entry, "summary", "content"),
        id=(arxiv_id(raw_id) or raw_id) if raw_id else None,
        title=_text(entry, "title"),
        url=_url(entry, raw_id),
        doi=_text(entry, "doi"),
        year=_text(entry, "published", "updated"),
        authors=[name for author in _children(entry, "author") if (name := _text(author, "name"))],
    )


def _one_by_one(text: str, name: str, error: ET.ParseError) -> Iterator[Paper | Rejection]:
    """Parse each entry alone, inside the feed's namespace declarations."""
    feed = _FEED_START.search(text)
    namespaces = "".join(_NAMESPACE.findall(feed[0])) if feed else ""
    starts = [match.start() for match in _ENTRY_START.finditer(text)]
    if not starts:
        yield reject("E107", name, reason=str(error))
        return
    for index, start in enumerate(starts, 1):
        source = f"{name}:entry {index}"
        chunk = text[start : starts[index] if index < len(starts) else len(text)]
        ends = list(_ENTRY_END.finditer(chunk))
        if not ends:
            yield reject("E107", source, reason="no closing </entry>")
            continue
        try:
            wrapper = ET.fromstring(f"<wrapper{namespaces}>{chunk[: ends[-1].end()]}</wrapper>")
        except ET.ParseError as entry_error:
            yield reject("E107", source, reason=str(entry_error))
            continue
        yield _paper(wrapper[0], source)


def parse_atom(text: str, name: str) -> Iterator[Paper | Rejection]:
    """Papers from the entries of an Atom feed (see the module docstring).

    >>> feed = '''<feed xmlns="http://www.w3.org/2005/Atom"><entry>
    ...   <id>http://arxiv.org/abs/2101.00001v1</id><title>T</title>
    ...   <summary>We study X.</summary><published>2021-01-01T00:00:00Z</published>
    ...   <author><name>A. Author</name></author></entry></feed>'''
    >>> paper = next(parse_atom(feed, "q.xml"))
    >>> paper.id, paper.year, paper.authors, paper.source
    ('arXiv:2101.00001', '2021', ('A. Author',), 'q.xml:entry 1')
    """
    if _ENTITY_DECLARATION.search(text):
        yield reject("E107", name, reason="entity declarations are not accepted")
        return
    text = _NOT_XML.sub("", text)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        yield from _one_by_one(text, name, error)
        return
    entries = [element for element in root.iter() if _local(element.tag) == "entry"]
    if not entries and _local(root.tag) != "feed":
        yield reject("E107", name, reason=f"no <entry> elements in a <{_local(root.tag)}> document")
    for index, entry in enumerate(entries, 1):
        yield _paper(entry, f"{name}:entry {index}")


def read_atom(path: str | Path, on_warning: Warn | None = None) -> Iterator[Paper | Rejection]:
    """Papers from an Atom feed file (see the module docstring)."""
    return read_with(parse_atom, path, on_warning)


#: The format, as :data:`kg.registry.READERS` names it (read whole: a feed is one XML document).
ATOM = Format("atom", parse_atom, (".xml", ".atom"), whole=True)
