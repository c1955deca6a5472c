"""``build`` and ``remove``: plan -> extract -> resolve -> publish, as one transaction on the folder."""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from kg.engines import ExtractJob, make_executor
from kg.errors import KgError, UserError
from kg.model import Extraction, Paper
from kg.pipeline.cache import CACHE_DIR, FolderCache
from kg.pipeline.extraction import extract_papers, load_existing
from kg.pipeline.folder import OWN_NAMES, build_lock, check_out, foreign_names, recover
from kg.pipeline.manifest import Manifest, read_manifest
from kg.pipeline.plan import extractor_version, read_papers
from kg.pipeline.publish import REJECTED, publish, read_rejections, write_jsonl
from kg.pipeline.report import BuildReport, Progress, Warn, no_progress, no_warning
from kg.pipeline.resolution import iri_changes, resolve_graph

__all__ = ["build", "remove"]


@contextlib.contextmanager
def _transaction(out: Path) -> Iterator[None]:
    """Hold ``out``'s lock, after finishing whatever a killed build left half done.

    Environment failures become one-line errors naming the file: a full disk
    (E321, exit 1), a folder that cannot be written (E320), any other (E322).
    """
    try:
        if not out.exists():
            recover(out)
        with build_lock(out):
            recover(out)
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


def _folder(out: str | Path) -> Path:
    """The build folder itself, absolute (``--out .`` has a parent to stage in); a link to a
    folder is followed, so the swap replaces the folder, not the link."""
    path = Path(out)
    return Path(os.path.realpath(path) if path.is_symlink() else os.path.abspath(path))


def _previous(out: Path) -> Manifest | None:
    """The manifest of ``out``'s current generation, if it has a readable one (a full build needs none)."""
    try:
        return read_manifest(out)
    except UserError:
        return None


def _kept(out: Path) -> list[str]:
    """What a ``--force`` build carries over: the foreign entries of ``out`` that no output replaces."""
    from kg.export import EXPORTERS

    return [name for name in foreign_names(out) if name not in OWN_NAMES and name not in EXPORTERS]


def build(
    inputs: Sequence[str | Path],
    out: str | Path,
    *,
    update: bool = False,
    spacy_model: str | None = None,
    scierc_model: str | None = None,
    input_format: str | None = None,
    workers: int = 1,
    min_confidence: float | None = None,
    strict: bool = False,
    formats: Sequence[str] | None = None,
    progress: Progress | None = None,
    on_warning: Warn | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    partitions: int | None = None,
    force: bool = False,
    on_message: Warn | None = None,
) -> BuildReport:
    """Build the knowledge graph of ``inputs`` into the folder ``out``.

    With ``update=True`` the papers already in ``out`` are kept (from the cache,
    not re-extracted) and the new ones added; the result equals a full build of
    all inputs together. The models default to those the existing build used;
    naming other ones re-extracts its papers with them. ``min_confidence``
    drops facts scored lower (default: the existing build's threshold on
    update, else 0). ``scierc_model`` names the trained SciERC model
    (``default``, ``minilm`` or a folder). ``engine`` (``local`` or ``dask``,
    with ``scheduler`` and ``partitions``) says where extraction runs; the
    engine's progress notes go to ``on_message`` (default: ``on_warning``).
    ``force`` lets ``out`` hold files kg did not write (those an output names
    are replaced, the others kept) or lie inside an input folder.

    Everything is written into a new generation of ``out`` that replaces the
    previous one at once; on any error the previous one is left as it was.
    Returns a :class:`BuildReport`.
    """
    report = BuildReport(out=Path(out))
    out = _folder(out)
    progress = progress or no_progress
    warn = on_warning or no_warning
    if min_confidence is not None and not 0.0 <= min_confidence <= 1.0:
        raise UserError("E311", reason=f"--min-confidence must be between 0 and 1, not {min_confidence}")
    if scierc_model is not None:
        from kg.extract.scierc.components import check_model

        check_model(scierc_model)  # a typo or a missing extra fails here, before the output folder is touched
    executor = make_executor(engine, workers=workers, scheduler=scheduler, partitions=partitions, on_message=on_message or warn)
    check_out(out, inputs, force=force)
    started = time.perf_counter()
    with _transaction(out):
        previous = read_manifest(out) if update else _previous(out)
        cache = FolderCache(out / CACHE_DIR)
        existing: dict[str, tuple[Paper, Extraction]] = {}
        old_rejections: list[dict] = []
        if update and previous is not None:  # start from the folder's papers, rejections and settings
            existing = load_existing(cache, previous.cache_keys, out)
            old_rejections = read_rejections(out)
            min_confidence = previous.min_confidence if min_confidence is None else min_confidence
            spacy_model, scierc_model = spacy_model or previous.spacy_model, scierc_model or previous.scierc_model
        progress("read", 0, None)
        new_papers = read_papers(inputs, out, input_format, report, {i: p.abstract for i, (p, _) in existing.items()}, warn, strict=strict)
        report.seconds["read"] = time.perf_counter() - started
        if strict and report.rejected:
            write_jsonl(out / REJECTED, (r.to_dict() for r in report.rejections))
            raise UserError("E309", count=report.rejected, path=out / REJECTED)
        version = extractor_version(spacy_model, scierc_model)
        if update and previous is not None and previous.extractor_version != version:
            warn(f"{out} was extracted with {previous.extractor_version}; re-extracting its {len(existing)} paper(s) with {version}")
            new_papers = [paper for paper, _ in existing.values()] + new_papers
            existing = {}
        if not update and not new_papers:  # into any folder: an empty graph is never what was meant
            held = len(previous.papers) if previous is not None else 0
            kept = f"the {held} paper(s) already in {out} are kept" if held else f"nothing was written to {out}"
            raise UserError("E325", read=report.read, rejected=report.rejected, duplicates=report.duplicates, kept=kept)
        t0 = time.perf_counter()
        job = ExtractJob(spacy_model=spacy_model, scierc_model=scierc_model)
        extracted = extract_papers(new_papers, cache, executor, job, version, report, progress)
        report.seconds["extract"] = time.perf_counter() - t0
        _finish(out, {**existing, **extracted}, version, spacy_model, scierc_model, min_confidence or 0.0, report, progress,
                previous=previous, update=update, formats=formats,
                rejections=old_rejections + [r.to_dict() for r in report.rejections], keep=_kept(out) if force else (), warn=warn)
    report.seconds["total"] = time.perf_counter() - started
    return report


def _finish(out: Path, everything: dict[str, tuple[Paper, Extraction]], version: str, spacy_model: str | None,
            scierc_model: str | None, min_confidence: float, report: BuildReport, progress: Progress, *,
            previous: Manifest | None, update: bool, formats: Sequence[str] | None, rejections: list[dict],
            keep: Sequence[str] = (), warn: Warn = no_warning) -> None:
    """Resolve ``everything`` and publish it as ``out``'s next generation."""
    from kg.export.html import page_note
    from kg.pipeline.cache import cache_key

    papers, resolution, graph = resolve_graph(everything, min_confidence, report, progress)
    graph = graph.frozen()  # the note and the exports share one NetworkX view; nothing edits the graph from here
    note = page_note(graph) if formats is None or "graph.html" in formats else None
    if note:
        warn(note)
    progress("export", 0, None)
    started = time.perf_counter()
    changes = iri_changes(previous.entities, resolution) if update and previous is not None else None
    report.iri_changes = changes or []
    manifest = Manifest(
        papers=tuple(p.id for p in papers),
        cache_keys=tuple(cache_key(p, version) for p in papers),
        extractor_version=version,
        spacy_model=spacy_model,
        scierc_model=scierc_model,
        min_confidence=min_confidence,
        entities={e.key: tuple(sorted({e.label, *e.alt_labels})) for e in resolution.entities},
        resolution=resolution.report,
        stats=report.stats,
        generation=previous.generation + 1 if previous is not None else 1,
    )
    report.files = publish(out, graph, manifest, formats=formats, rejections=rejections, iri_changes=changes, keep=keep)
    report.seconds["export"] = time.perf_counter() - started


def remove(out: str | Path, paper_ids: Sequence[str], *, progress: Progress | None = None) -> BuildReport:
    """Take papers out of a build folder, with the facts and entities only they supported."""
    report = BuildReport(out=Path(out))
    out = _folder(out)
    if not out.is_dir():
        raise UserError("E307", path=out)  # never create a folder to remove from
    with _transaction(out):
        manifest = read_manifest(out)
        existing = load_existing(FolderCache(out / CACHE_DIR), manifest.cache_keys, out)
        unknown = sorted(set(paper_ids) - set(existing))
        if unknown:
            raise UserError("E310", ids=", ".join(unknown))
        for paper_id in paper_ids:
            existing.pop(paper_id, None)
        report.removed = len(set(paper_ids))
        _finish(out, existing, manifest.extractor_version, manifest.spacy_model, manifest.scierc_model, manifest.min_confidence,
                report, progress or no_progress, previous=manifest, update=True, formats=None, rejections=read_rejections(out))
    return report
