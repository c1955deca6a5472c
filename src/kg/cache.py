"""The build folder's memory: a per-paper extraction cache, the manifest and the lock.

Each extracted paper is saved as soon as it is done, under a key made of the
extractor version, the paper's id and its abstract, so an interrupted build
resumes where it stopped and an update re-extracts nothing it has seen. The
manifest (``manifest.json``) lists the papers in the build and the entities'
surface forms, which is what ``--update`` and ``kg remove`` start from.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kg.errors import UserError
from kg.export.atomic import atomic_write
from kg.model import Extraction, Paper

CACHE_DIR = "cache"
MANIFEST = "manifest.json"
LOCK = ".kg.lock"


def cache_key(paper: Paper, extractor_version: str) -> str:
    """The cache key of one paper's extraction.

    >>> cache_key(Paper(id="p", abstract="x"), "1") == cache_key(Paper(id="p", abstract="x", title="t"), "1")
    True
    """
    text = "\x1f".join((extractor_version, paper.id, paper.abstract))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _cache_path(out: Path, key: str) -> Path:
    return out / CACHE_DIR / key[:2] / f"{key}.json"


def save_extraction(out: Path, key: str, paper: Paper, extraction: Extraction) -> None:
    """Save one paper and its extraction (atomically, so a kill never leaves half a file)."""
    path = _cache_path(out, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {"key": key, "paper": paper.to_dict(), "extraction": extraction.to_dict()}
    # Not fsynced: a cache entry lost to a power cut is only re-extracted, and fsync per paper is slow.
    with atomic_write(path, "w", durable=False) as handle:
        json.dump(record, handle, ensure_ascii=False, sort_keys=True)


def load_extraction(out: Path, key: str) -> tuple[Paper, Extraction] | None:
    """The cached paper and extraction under ``key``, or ``None`` if absent or unreadable."""
    path = _cache_path(out, key)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    data = record["paper"]
    paper = Paper(**{**data, "authors": tuple(data.get("authors") or ())})
    return paper, Extraction.from_dict(record["extraction"])


def read_manifest(out: Path) -> dict[str, Any]:
    """The manifest of a build folder; :class:`UserError` E307 if there is none."""
    try:
        return json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError("E307", path=out) from None
    except ValueError as error:
        raise UserError("E302", path=out / MANIFEST, reason=str(error)) from None


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest last, atomically: it marks the build as complete."""
    with atomic_write(out / MANIFEST, "w") as handle:
        json.dump(manifest, handle, ensure_ascii=False, indent=1, sort_keys=True)
        handle.write("\n")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def build_lock(out: Path) -> Iterator[None]:
    """Hold the build folder's lock; a second build at the same time gets E306.

    A lock left by a process that no longer runs (a killed build) is taken over.
    """
    out.mkdir(parents=True, exist_ok=True)
    lock = out / LOCK
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                pid = int(lock.read_text().strip() or 0)
            except (OSError, ValueError):
                pid = 0
            if pid and _pid_alive(pid) and pid != os.getpid():
                raise UserError("E306", path=out, pid=pid, lock=lock) from None
            lock.unlink(missing_ok=True)
            continue
        with os.fdopen(fd, "w") as handle:
            handle.write(str(os.getpid()))
        break
    else:  # pragma: no cover - a race lost twice in a row
        raise UserError("E306", path=out, pid="?", lock=lock)
    try:
        yield
    finally:
        lock.unlink(missing_ok=True)
