"""Publish a generation: write every output into a staging folder, then swap it in.

Nothing under ``DIR`` changes until :func:`kg.pipeline.folder.swap_in`; an
error, Ctrl-C or a kill before it leaves the previous generation as it was,
and the staging folder is removed (or, after a kill, by the next build).

The graph is never held in memory: its triples stream from the resolution
straight into the staged Oxigraph store (its bulk loader), and every other
file is written from that store, opened read-only (``graph.nt`` sorted in
bounded chunks, :mod:`kg.store.ntriples`). A large graph leaves out the exports
of no use at its size (:mod:`kg.export.scale`) unless they were named.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.buildfolder import PAGE, STORE, BuildFolder, Manifest
from kg.io import atomic_write
from kg.pipeline.cache import json_text
from kg.pipeline.folder import new_staging, recover, swap_in
from kg.pipeline.report import Progress, Warn, no_progress, no_warning

if TYPE_CHECKING:
    import pyoxigraph as ox

    from kg.views import KnowledgeGraph

__all__ = ["Published", "publish", "read_rejections", "write_jsonl"]

#: Where a build that does not publish ``store/`` keeps the store its files are written from, removed before the swap.
_SCRATCH_STORE = ".store.build"


@dataclass(frozen=True)
class Published:
    """What :func:`publish` wrote: the export files at their final place, the graph's size and counts, the times."""

    files: list[Path]
    triples: int
    stats: Mapping[str, Mapping[str, int]]
    seconds: Mapping[str, float]


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


def _chosen(graph: KnowledgeGraph, names: list[str], *, asked: bool, triples: int, warn: Warn) -> list[str]:
    """The exports of ``names`` to write: a large graph leaves out those of no use at its size unless
    they were ``asked`` for, and says so; a page that cannot hold the whole graph says what it holds."""
    from kg.export.html import PAGE_LIMIT, page_note
    from kg.export.scale import large_graph, skip_note, skipped
    from kg.views.facts import node_count

    left_out: list[str] = []
    limit = large_graph()
    if not asked and triples > limit:
        left_out = skipped(names, triples=triples, nodes=node_count(graph.store) if PAGE in names else 0,
                           limit=limit, page_limit=PAGE_LIMIT)
        if left_out:
            warn(skip_note(left_out, triples=triples, limit=limit))
    chosen = [name for name in names if name not in left_out]
    if PAGE in chosen and (note := page_note(graph)):
        warn(note)
    return chosen


def _write_exports(staging: Path, triples: Iterable[ox.Triple], names: list[str], *, asked: bool, warn: Warn,
                   progress: Progress, seconds: dict[str, float]) -> tuple[list[str], int, dict[str, dict[str, int]]]:
    """Load the staged store from ``triples`` and write the other exports from it.

    Returns the export names written, in registry order, the number of triples and the graph's counts.
    """
    import pyoxigraph as ox

    from kg.export import write_all
    from kg.export.store import load_store
    from kg.views import KnowledgeGraph

    started = time.perf_counter()
    store = staging / (STORE if STORE in names else _SCRATCH_STORE)
    count = load_store((ox.Quad(t.subject, t.predicate, t.object) for t in triples), store)
    graph = KnowledgeGraph(ox.Store.read_only(str(store))).frozen()  # one computation of each view for every file
    stats = graph.stats()
    seconds["graph"] = time.perf_counter() - started
    progress("export", 0, None)
    started = time.perf_counter()
    chosen = _chosen(graph, [name for name in names if name != STORE], asked=asked, triples=count, warn=warn)
    written = {path.name for path in write_all(graph, staging, chosen)}
    del graph  # closes the store before it is renamed or removed
    if STORE not in names:
        shutil.rmtree(store)
    seconds["export"] = time.perf_counter() - started
    return [name for name in names if name in written or name == STORE], count, stats


def publish(folder: BuildFolder, triples: Iterable[ox.Triple], manifest: Manifest, *, formats: Sequence[str] | None,
            rejections: Iterable[Mapping[str, Any]], iri_changes: Sequence[Mapping[str, str]] | None,
            keep: Sequence[str] = (), progress: Progress = no_progress, warn: Warn = no_warning) -> Published:
    """Write the graph of ``triples``, its exports, the rejections, the IRI changes (when given) and the
    manifest (with the graph's counts as its ``stats``), then swap them in.

    ``formats`` names the exports (:func:`kg.export.export_names`; all of kg's own by default, less those
    a large graph leaves out). Returns what was published, the export files at their final place.
    """
    from kg.export import export_names

    names = export_names(formats)  # a typo fails before anything is written
    staging = new_staging(folder, keep=keep)
    seconds: dict[str, float] = {}
    try:
        exports, count, stats = _write_exports(staging.path, triples, names, asked=formats is not None, warn=warn,
                                               progress=progress, seconds=seconds)
        write_jsonl(staging.rejected, rejections)
        written = [*exports, staging.rejected.name]
        if iri_changes is not None:
            write_jsonl(staging.iri_changes, iri_changes)
            written.append(staging.iri_changes.name)
        staging.write_manifest(replace(manifest, stats=stats, files=(*written, staging.manifest_path.name)))
        swap_in(folder, staging)
    except BaseException:
        shutil.rmtree(staging.path, ignore_errors=True)
        with contextlib.suppress(OSError):  # the failure that matters is the one being raised
            recover(folder)  # puts the old generation back if the failure came between the fallback swap's renames
        raise
    return Published(files=[folder.path / name for name in exports], triples=count, stats=stats, seconds=seconds)
