"""Publish a generation: write every output into a staging folder, then swap it in.

Nothing under ``DIR`` changes until :func:`kg.pipeline.folder.swap_in`; an
error, Ctrl-C or a kill before it leaves the previous generation as it was,
and the staging folder is removed (or, after a kill, by the next build).
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.io import atomic_write
from kg.pipeline.cache import json_text
from kg.pipeline.folder import IRI_CHANGES, REJECTED, new_staging, recover, swap_in
from kg.pipeline.manifest import MANIFEST, Manifest, write_manifest

if TYPE_CHECKING:
    from kg.store import KnowledgeGraph

__all__ = ["IRI_CHANGES", "REJECTED", "publish", "read_rejections", "write_jsonl"]



def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """One JSON object a line, written atomically."""
    with atomic_write(path, "w") as handle:
        for row in rows:
            handle.write(json_text(row) + "\n")


def read_rejections(folder: Path) -> list[dict[str, Any]]:
    """The rows of ``folder/rejected.jsonl`` (none if it is missing or unreadable)."""
    try:
        lines = (folder / REJECTED).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    rows = []
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def publish(out: Path, graph: KnowledgeGraph, manifest: Manifest, *, formats: Sequence[str] | None,
            rejections: Iterable[dict[str, Any]], iri_changes: list[dict[str, str]] | None,
            keep: Sequence[str] = ()) -> list[Path]:
    """Write the exports, ``rejected.jsonl``, ``iri-changes.jsonl`` (when given) and the manifest, then swap them in.

    Returns the export files, at their final place in ``out``.
    """
    from kg.export import write_all

    staging = new_staging(out, keep=keep)
    try:
        exports = [path.name for path in write_all(graph, staging, formats)]
        write_jsonl(staging / REJECTED, rejections)
        names = [*exports, REJECTED]
        if iri_changes is not None:
            write_jsonl(staging / IRI_CHANGES, iri_changes)
            names.append(IRI_CHANGES)
        write_manifest(staging, replace(manifest, files=(*names, MANIFEST)))
        swap_in(out, staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        with contextlib.suppress(OSError):  # the failure that matters is the one being raised
            recover(out)  # puts the old generation back if the failure came between the fallback swap's renames
        raise
    return [out / name for name in exports]
