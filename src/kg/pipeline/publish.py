"""Publish a generation: write every output into a staging folder, then swap it in.

Nothing under ``DIR`` changes until :func:`kg.pipeline.folder.swap_in`; an
error, Ctrl-C or a kill before it leaves the previous generation as it was,
and the staging folder is removed (or, after a kill, by the next build).
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.buildfolder import BuildFolder, Manifest
from kg.io import atomic_write
from kg.pipeline.cache import json_text
from kg.pipeline.folder import new_staging, recover, swap_in

if TYPE_CHECKING:
    from kg.views import KnowledgeGraph

__all__ = ["publish", "read_rejections", "write_jsonl"]


def write_jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    """One JSON object a line, written atomically."""
    with atomic_write(path, "w") as handle:
        for row in rows:
            handle.write(json_text(row) + "\n")


def read_rejections(folder: BuildFolder) -> list[dict[str, Any]]:
    """The rows of the folder's rejections file (none if it is missing or unreadable)."""
    try:
        lines = folder.rejected.read_text(encoding="utf-8").splitlines()
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


def publish(folder: BuildFolder, graph: KnowledgeGraph, manifest: Manifest, *, formats: Sequence[str] | None,
            rejections: Iterable[Mapping[str, Any]], iri_changes: Sequence[Mapping[str, str]] | None,
            keep: Sequence[str] = ()) -> list[Path]:
    """Write the exports, the rejections, the IRI changes (when given) and the manifest, then swap them in.

    Returns the export files, at their final place in the folder.
    """
    from kg.export import write_all

    staging = new_staging(folder, keep=keep)
    try:
        exports = [path.name for path in write_all(graph, staging.path, formats)]
        write_jsonl(staging.rejected, rejections)
        written = [*exports, staging.rejected.name]
        if iri_changes is not None:
            write_jsonl(staging.iri_changes, iri_changes)
            written.append(staging.iri_changes.name)
        staging.write_manifest(replace(manifest, files=(*written, staging.manifest_path.name)))
        swap_in(folder, staging)
    except BaseException:
        shutil.rmtree(staging.path, ignore_errors=True)
        with contextlib.suppress(OSError):  # the failure that matters is the one being raised
            recover(folder)  # puts the old generation back if the failure came between the fallback swap's renames
        raise
    return [folder.path / name for name in exports]
