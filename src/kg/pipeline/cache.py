"""The per-paper extraction cache: a small protocol and the folder that implements it.

Each extracted paper is saved as soon as it is done, under a key made of the
extractor version, the paper's id and its abstract, so an interrupted build
resumes where it stopped and an update re-extracts nothing it has seen. Keys
are content addresses: adding an entry never changes what an existing
generation of the build folder means, which is why new entries are written
straight into the live ``DIR/cache/`` while the rest of a build is staged.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Protocol

from kg.export.atomic import atomic_write
from kg.model import Extraction, Paper

__all__ = ["CACHE_DIR", "CacheCorrupt", "ExtractionCache", "FolderCache", "cache_key", "json_text"]

CACHE_DIR = "cache"


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
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            reason = "truncated or not JSON" if isinstance(error, json.JSONDecodeError) else "not a kg cache entry"
            raise CacheCorrupt(path, reason) from None


def _parse(record: object) -> tuple[Paper, Extraction]:
    """A cache record's paper and extraction; raises on any other shape."""
    if not isinstance(record, dict) or not isinstance(record.get("paper"), dict) or not isinstance(record.get("extraction"), dict):
        raise ValueError("not a cache record")
    data = record["paper"]
    paper = Paper(**{**data, "authors": tuple(data.get("authors") or ())})
    if not isinstance(paper.id, str) or not isinstance(paper.abstract, str):
        raise ValueError("paper without id or abstract")
    return paper, Extraction.from_dict(record["extraction"])
