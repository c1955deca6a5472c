"""The per-paper extraction cache: a small protocol and the folder that implements it.

Each extracted paper is saved as soon as it is done, under a key made of the
extractor version, the paper's id and its abstract, so an interrupted build
resumes where it stopped and an update re-extracts nothing it has seen. Keys
are content addresses: adding an entry never changes what an existing
generation of the build folder means, which is why new entries are written
straight into the live folder's cache (:attr:`kg.buildfolder.BuildFolder.cache`)
while the rest of a build is staged.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from pathlib import Path
from typing import Any, Protocol

from kg.io import atomic_write
from kg.model import Extraction, Paper

__all__ = ["CacheCorrupt", "ExtractionCache", "FolderCache", "cache_key", "json_text"]


class CacheCorrupt(ValueError):
    """A cache entry exists but cannot be used (truncated, not JSON, wrong shape)."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}")


class ExtractionCache(Protocol):
    """Where a build keeps each paper's extraction between runs."""

    def get(self, key: str) -> tuple[Paper, Extraction] | None:
        """The paper and extraction saved under ``key``; ``None`` if absent, :class:`CacheCorrupt` if unusable."""
        ...

    def put(self, key: str, paper: Paper, extraction: Extraction) -> None:
        """Save one paper's extraction, so that a reader sees the whole entry or none."""
        ...

    def where(self, key: str) -> str:
        """Where the entry for ``key`` lives, for messages."""
        ...


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


class FolderCache:
    """One JSON file per paper under ``root/<key[:2]>/<key>.json``.

    >>> import tempfile
    >>> cache = FolderCache(Path(tempfile.mkdtemp()))
    >>> paper = Paper(id="p", abstract="We propose FooNet.")
    >>> cache.put("ab12", paper, Extraction(paper_id="p"))
    >>> cache.get("ab12")[0] == paper, cache.get("cd34")
    (True, None)
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def where(self, key: str) -> str:
        return str(self.path(key))

    def put(self, key: str, paper: Paper, extraction: Extraction) -> None:
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        record = {"key": key, "paper": paper.to_dict(), "extraction": extraction.to_dict()}
        # Not fsynced: an entry lost to a power cut is only re-extracted, and fsync per paper is slow.
        with atomic_write(path, "w", durable=False) as handle:
            handle.write(json_text(record))

    def get(self, key: str) -> tuple[Paper, Extraction] | None:
        path = self.path(key)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise CacheCorrupt(path, f"unreadable ({error.__class__.__name__})") from None
        try:
            return _parse(json.loads(text))
        except _Mistyped as error:
            raise CacheCorrupt(path, f"not a kg cache entry ({error})") from None
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            reason = "truncated or not JSON" if isinstance(error, json.JSONDecodeError) else "not a kg cache entry"
            raise CacheCorrupt(path, reason) from None


def _parse(record: object) -> tuple[Paper, Extraction]:
    """A cache record's paper and extraction; raises on any other shape, or on a field of the wrong type."""
    if not isinstance(record, dict) or not isinstance(record.get("paper"), dict) or not isinstance(record.get("extraction"), dict):
        raise ValueError("not a cache record")
    data = record["paper"]
    paper = Paper(**{**data, "authors": tuple(data.get("authors") or ())})
    extraction = Extraction.from_dict(record["extraction"])
    for name, value in (("paper", paper), ("extraction", extraction)):
        wrong = mistyped(value, name)
        if wrong:
            raise _Mistyped(wrong)
    return paper, extraction


class _Mistyped(ValueError):
    """A cache record whose field has the wrong type: its path and the type wanted."""


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
        hints = typing.get_type_hints(hint)
        return next((w for f in dataclasses.fields(hint) if (w := mistyped(getattr(value, f.name), f"{where}.{f.name}", hints[f.name]))), None)
    wanted = {int: "a whole number", float: "a number", str: "a string"}.get(hint)
    if wanted is None:
        return None  # Any, mappings: not checked
    fits = isinstance(value, (int, float) if hint is float else hint) and not isinstance(value, bool)
    return None if fits else f"{where} is not {wanted}: {value!r:.40}"
