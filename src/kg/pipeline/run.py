"""``build`` and ``remove``: plan -> extract -> resolve -> publish, as one transaction on the folder.

Both share the folder's :class:`~kg.buildfolder.BuildSettings` (kept in its
manifest) and end in :func:`_finish` (resolve and publish); each returns a
:class:`~kg.pipeline.report.BuildReport` made from what its steps returned.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from kg.buildfolder import OWN_NAMES, BuildFolder, BuildSettings, Manifest
from kg.engines import Executor, ExtractJob, make_executor
from kg.export.scale import large_graph
from kg.errors import KgError, UserError
from kg.model import Extraction, Paper
from kg.pipeline.extraction import extract_papers, load_existing
from kg.pipeline.folder import build_lock, check_out, foreign_names, recover
from kg.pipeline.partitions import PartitionCache
from kg.pipeline.plan import extractor_version, read_papers
from kg.pipeline.publish import publish, read_rejections, write_jsonl
from kg.pipeline.report import BuildReport, Progress, Warn, no_progress, no_warning
from kg.pipeline.resolution import iri_changes, resolve_papers

__all__ = ["build", "remove"]


@contextlib.contextmanager
def _transaction(folder: BuildFolder) -> Iterator[None]:
    """Hold the folder's lock, after finishing whatever a killed build left half done.

    Environment failures become one-line errors naming the file: a full disk
    (E321, exit 1), a folder that cannot be written (E320), any other (E322).
    """
    out = folder.path
    try:
        if not out.exists():
            recover(folder)
        with build_lock(folder):
            recover(folder)
            yield
    except OSError as error:
        if error.errno is None:
            raise
        path = error.filename or out
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            raise KgError("E321", path=path) from None
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise UserError("E320", path=path, reason=error.strerror) from None
        raise KgError("E322", path=path, reason=error.strerror) from None


def _folder(out: str | Path) -> BuildFolder:
    """The build folder itself, absolute (``--out .`` has a parent to stage in); a link to a
    folder is followed, so the swap replaces the folder, not the link."""
    path = Path(out)
    return BuildFolder(Path(os.path.realpath(path) if path.is_symlink() else os.path.abspath(path)))


def _kept(folder: BuildFolder, manifest: Manifest | None) -> list[str]:
    """What a ``--force`` build carries over: the foreign entries of the folder that no output replaces."""
    from kg.export import EXPORTERS

    return [name for name in foreign_names(folder, manifest) if name not in OWN_NAMES and name not in EXPORTERS]


def build(
    inputs: Sequence[str | Path],
    out: str | Path,
    settings: BuildSettings | None = None,
    *,
    update: bool = False,
    engine: str | Executor = "local",
    input_format: str | None = None,
    strict: bool = False,
    formats: Sequence[str] | None = None,
    force: bool = False,
    progress: Progress | None = None,
    on_warning: Warn | None = None,
) -> BuildReport:
    """Build the knowledge graph of ``inputs`` into the folder ``out``.

    ``settings`` (:class:`~kg.buildfolder.BuildSettings`) names the models and
    the confidence below which facts are dropped; a setting not given is the
    default, or on ``update=True`` the folder's. With ``update=True`` the
    papers already in ``out`` are kept (from the cache, not re-extracted) and
    the new ones added; the result equals a full build of all inputs together,
    and naming other models re-extracts its papers with them. ``engine`` says
    where extraction runs: an engine's name (``local``, ``dask``) or an
    executor made by :func:`kg.engines.make_executor` (with workers, a
    scheduler, partitions). ``force`` lets ``out`` hold files kg did not write
    (those an output names are replaced, the others kept) or lie inside an
    input folder.

    Everything is written into a new generation of ``out`` that replaces the
    previous one at once; on any error the previous one is left as it was.
    Returns a :class:`BuildReport`.
    """
    given = settings or BuildSettings()
    folder = _folder(out)
    progress = progress or no_progress
    warn = on_warning or no_warning
    if given.scierc_model is not None:
        from kg.extract.scierc.components import check_model

        check_model(given.scierc_model)  # a typo or a missing extra fails here, before the output folder is touched
    large_graph()  # so does a bad KG_LARGE_GRAPH, which publishing reads
    executor = make_executor(engine, on_message=warn) if isinstance(engine, str) else engine
    check_out(folder, inputs, force=force)  # before the lock, which would leave a lock file in a refused folder
    started = time.perf_counter()
    seconds: dict[str, float] = {}
    with _transaction(folder):
        # Under the lock: the generation this build follows (an update needs one: E307, E317, E318).
        previous = folder.read_manifest() if update else folder.manifest_or_none()
        cache = PartitionCache(folder)
        existing: dict[str, tuple[Paper, Extraction]] = {}
        old_rejections: list[dict[str, Any]] = []
        if update and previous is not None:  # start from the folder's papers, rejections and settings
            existing = load_existing(cache, previous.cache_keys, folder.path)
            old_rejections = read_rejections(folder)
        chosen = given.over(previous.settings if update and previous is not None else None)
        progress("read", 0, None)
        reading = read_papers(inputs, folder.path, fmt=input_format, known={i: p.abstract for i, (p, _) in existing.items()},
                              on_warning=warn, strict=strict)
        seconds["read"] = time.perf_counter() - started
        if strict and reading.rejected:
            write_jsonl(folder.rejected, (r.to_dict() for r in reading.rejections))
            raise UserError("E309", count=reading.rejected, path=folder.rejected)
        new_papers = list(reading.papers)
        version = extractor_version(chosen.spacy_model, chosen.scierc_model)
        if update and previous is not None and previous.extractor_version != version:
            warn(f"{folder.path} was extracted with {previous.extractor_version}; re-extracting its {len(existing)} paper(s) with {version}")
            new_papers = [paper for paper, _ in existing.values()] + new_papers
            existing = {}
        if not update and not new_papers:  # into any folder: an empty graph is never what was meant
            held = len(previous.papers) if previous is not None else 0
            kept = f"the {held} paper(s) already in {folder.path} are kept" if held else f"nothing was written to {folder.path}"
            raise UserError("E325", read=reading.read, rejected=reading.rejected, duplicates=reading.duplicates, kept=kept)
        t0 = time.perf_counter()
        job = ExtractJob(spacy_model=chosen.spacy_model, scierc_model=chosen.scierc_model)
        extracted = extract_papers(new_papers, cache, executor, job, version, progress)
        seconds["extract"] = time.perf_counter() - t0
        report = _finish(folder, {**existing, **extracted.papers}, chosen, version, progress, warn, previous=previous,
                         update=update, formats=formats, keep=_kept(folder, previous) if force else (),
                         rejections=old_rejections + [r.to_dict() for r in reading.rejections])
    total = time.perf_counter() - started
    return replace(report, out=Path(out), read=reading.read, built=reading.built, duplicates=reading.duplicates,
                   rejected=reading.rejected, rejections=reading.rejections, extracted=extracted.extracted,
                   from_cache=extracted.from_cache, seconds={**seconds, **report.seconds, "total": total})


def _finish(folder: BuildFolder, everything: Mapping[str, tuple[Paper, Extraction]], settings: BuildSettings,
            version: str, progress: Progress, warn: Warn, *, previous: Manifest | None, update: bool,
            formats: Sequence[str] | None, rejections: list[dict[str, Any]], keep: Sequence[str] = ()) -> BuildReport:
    """Resolve ``everything`` with ``settings`` and publish it as the folder's next generation.

    Returns what resolving and publishing did (the papers, entities, triples,
    files and their times); the caller adds what it read and extracted.
    """
    from kg.pipeline.cache import cache_key
    from kg.store.rdf import graph_triples

    started = time.perf_counter()
    papers, resolution = resolve_papers(everything, min_confidence=settings.min_confidence or 0.0)
    resolved = time.perf_counter() - started
    progress("graph", 0, None)
    changes = iri_changes(previous.entities, resolution) if update and previous is not None else None
    manifest = Manifest(
        papers=tuple(p.id for p in papers),
        cache_keys=tuple(cache_key(p, version) for p in papers),
        extractor_version=version,
        settings=settings,
        entities={e.key: tuple(sorted({e.label, *e.alt_labels})) for e in resolution.entities},
        resolution=resolution.report,
        generation=previous.generation + 1 if previous is not None else 1,
    )
    published = publish(folder, graph_triples(papers, resolution), manifest, formats=formats, rejections=rejections,
                        iri_changes=changes, keep=keep, progress=progress, warn=warn)
    return BuildReport(out=folder.path, papers=len(papers), entities=len(resolution.entities), triples=published.triples,
                       stats=published.stats, resolution=resolution.report, iri_changes=tuple(changes or ()),
                       files=tuple(published.files), seconds={"resolve": resolved, **published.seconds})


def remove(out: str | Path, paper_ids: Sequence[str], *, progress: Progress | None = None) -> BuildReport:
    """Take papers out of a build folder, with the facts and entities only they supported.

    The rest is resolved again with the folder's own settings and extractor version.
    """
    folder = _folder(out)
    if not folder.path.is_dir():
        raise UserError("E307", path=folder.path)  # never create a folder to remove from
    with _transaction(folder):
        manifest = folder.read_manifest()
        existing = load_existing(PartitionCache(folder), manifest.cache_keys, folder.path)
        unknown = sorted(set(paper_ids) - set(existing))
        if unknown:
            raise UserError("E310", ids=", ".join(unknown))
        for paper_id in paper_ids:
            existing.pop(paper_id, None)
        report = _finish(folder, existing, manifest.settings, manifest.extractor_version, progress or no_progress, no_warning,
                         previous=manifest, update=True, formats=None, rejections=read_rejections(folder))
    return replace(report, out=Path(out), removed=len(set(paper_ids)))
