"""The extraction cache's entries: their key and their JSON, shared by every way of storing them.

Each extracted paper is saved under a key made of the extractor version, the
paper's id and its abstract, so an interrupted build resumes where it stopped
and an update re-extracts nothing it has seen. Keys are content addresses:
adding an entry never changes what an existing generation of the build folder
means, which is why new entries are written straight into the live folder's
cache (:attr:`kg.buildfolder.BuildFolder.cache`) while the rest of a build is
staged. Where entries live is :mod:`kg.pipeline.partitions`: one file per
partition of papers, written by the worker that extracted it; an entry is the
same JSON text there as in the one-file-per-paper cache of earlier versions,
which is still read.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import types
import typing
from pathlib import Path
from typing import Any

from kg.model import Extraction, Paper

__all__ = ["CacheCorrupt", "cache_key", "entry_text", "json_text", "parse_entry"]


class CacheCorrupt(ValueError):
    """A cache entry exists but cannot be used (truncated, not JSON, wrong shape)."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


def cache_key(paper: Paper, extractor_version: str) -> str:
    """The cache key of one paper's extraction.

    >>> cache_key(Paper(id="p", abstract="x"), "1") == cache_key(Paper(id="p", abstract="x", title="t"), "1")
    True
    """
    text = "\x1f".join((extractor_version, paper.id, paper.abstract))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def json_text(value: object) -> str:
    r"""``value`` as JSON with sorted keys, UTF-8 as is; with ``\uXXXX`` escapes if it holds
    undecodable file-name bytes (lone surrogates), which UTF-8 cannot carry.

    >>> print(json_text({"b": "é"}), json_text({"b": "é", "a": "caf\udce9"}))
    {"b": "é"} {"a": "caf\udce9", "b": "\u00e9"}
    """
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, sort_keys=True)
    return text


def entry_text(key: str, paper: Paper, extraction: Extraction) -> str:
    """One cache entry as JSON text (one line): the key, the paper and its extraction.

    >>> entry_text("ab12", Paper(id="p", abstract="x"), Extraction(paper_id="p"))[:40]
    '{"extraction": {"acronyms": [], "facts":'
    """
    return json_text({"key": key, "paper": paper.to_dict(), "extraction": extraction.to_dict()})


def parse_entry(text: str | bytes, where: Path, key: str | None = None, *, check: bool = True) -> tuple[Paper, Extraction]:
    """The paper and extraction of one entry's JSON text; :class:`CacheCorrupt` naming ``where`` when it is
    not an entry (truncated, not JSON, a field of the wrong type) or, with ``key``, is another key's.
    ``check=False`` skips the check of every field's type (four fifths of the time), for entries this
    process has just written.

    >>> paper, extraction = parse_entry(entry_text("ab12", Paper(id="p", abstract="x"), Extraction(paper_id="p")), Path("e"))
    >>> paper.id, extraction.paper_id
    ('p', 'p')
    """
    try:
        record = json.loads(text)
        parsed = _parse(record, check)
    except _Mistyped as error:
        raise CacheCorrupt(where, f"not a kg cache entry ({error})") from None
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        reason = "truncated or not JSON" if isinstance(error, json.JSONDecodeError) else "not a kg cache entry"
        raise CacheCorrupt(where, reason) from None
    if key is not None and record.get("key") != key:
        raise CacheCorrupt(where, f"not the entry of key {key}")
    return parsed


def _parse(record: object, check: bool = True) -> tuple[Paper, Extraction]:
    """A cache record's paper and extraction; raises on any other shape, or (``check``) on a field of the wrong type."""
    if not isinstance(record, dict) or not isinstance(record.get("paper"), dict) or not isinstance(record.get("extraction"), dict):
        raise ValueError("not a cache record")
    data = record["paper"]
    paper = Paper(**{**data, "authors": tuple(data.get("authors") or ())})
    extraction = Extraction.from_dict(record["extraction"])
    for name, value in (("paper", paper), ("extraction", extraction)) if check else ():
        wrong = mistyped(value, name)
        if wrong:
            raise _Mistyped(wrong)
    return paper, extraction


class _Mistyped(ValueError):
    """A cache record whose field has the wrong type: its path and the type wanted."""


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """A dataclass's fields and their resolved annotations (``get_type_hints`` costs more than the check itself)."""
    hints = typing.get_type_hints(cls)
    return tuple((field.name, hints[field.name]) for field in dataclasses.fields(cls))


def mistyped(value: Any, where: str, hint: Any = None) -> str | None:
    """The first field of ``value`` (a dataclass of :mod:`kg.model`) whose type is not its annotation, as ``where.path is not TYPE``.

    >>> from kg.model import Mention
    >>> mistyped(Mention(0, 1, "Task", "t", score="x"), "mention")
    "mention.score is not a number: 'x'"
    >>> mistyped(Mention(0, 1, "Task", "t"), "mention") is None
    True
    """
    hint = type(value) if hint is None else hint
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        found = [mistyped(value, where, arg) for arg in args]
        return None if None in found else found[0]
    if hint is type(None):
        return None if value is None else f"{where} is not empty: {value!r:.40}"
    if origin is tuple:
        if not isinstance(value, tuple):
            return f"{where} is not a list: {value!r:.40}"
        items = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
        if len(items) != len(value):
            return f"{where} has {len(value)} items, not {len(items)}"
        return next((w for i, (v, a) in enumerate(zip(value, items)) if (w := mistyped(v, f"{where}[{i}]", a))), None)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            return f"{where} is not an object: {value!r:.40}"
        return next((w for name, annotation in _fields(hint) if (w := mistyped(getattr(value, name), f"{where}.{name}", annotation))), None)
    wanted = {int: "a whole number", float: "a number", str: "a string"}.get(hint)
    if wanted is None:
        return None  # Any, mappings: not checked
    fits = isinstance(value, (int, float) if hint is float else hint) and not isinstance(value, bool)
    return None if fits else f"{where} is not {wanted}: {value!r:.40}"
