"""Build, update and shrink a knowledge graph folder: the whole path in one place.

``build`` reads the inputs, extracts what the cache does not already hold,
resolves entities over the whole corpus, builds the RDF graph and writes every
export. Because the resolver sees the set of papers and never their order, an
update (``update=True``) or a removal gives exactly the graph a full build of
the same papers gives.

>>> import kg
>>> report = kg.build(["abstracts/"], "out/")  # doctest: +SKIP
>>> report.read == report.built + report.duplicates + report.rejected  # doctest: +SKIP
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg import cache
from kg.engines import Executor, ExtractJob, make_executor
from kg.errors import UserError
from kg.model import Extraction, Paper, Rejection, Resolution

#: Called as ``progress(stage, done, total)`` while a build works; ``total`` may be None.
Progress = Callable[[str, int, "int | None"], None]

REJECTED = "rejected.jsonl"
IRI_CHANGES = "iri-changes.jsonl"


@dataclass
class BuildReport:
    """What a build did: the counts add up as ``read == built + duplicates + rejected``."""

    out: Path
    read: int = 0
    built: int = 0
    duplicates: int = 0
    rejected: int = 0
    papers: int = 0
    extracted: int = 0
    from_cache: int = 0
    removed: int = 0
    entities: int = 0
    triples: int = 0
    stats: dict[str, dict[str, int]] = field(default_factory=dict)
    resolution: dict[str, Any] = field(default_factory=dict)
    iri_changes: list[dict[str, str]] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def _noop(stage: str, done: int, total: int | None) -> None:
    return None


def model_fingerprint(scierc_model: str | None = None) -> str:
    """A short hash of a trained model's files (default: the shipped one), or ``"none"`` without one.

    It is part of every cache key, so retraining with ``kg train scierc``
    re-extracts papers instead of reusing what the old model found. A MiniLM
    model builds on the default one, so both folders count.
    """
    import hashlib
    from importlib.resources import files

    default = Path(str(files("kg.scierc").joinpath("model")))
    if scierc_model is None:
        return _folder_hash(default)
    from kg.scierc.model_files import resolve_model_dir

    return hashlib.sha256((_folder_hash(default) + _folder_hash(resolve_model_dir(scierc_model))).encode()).hexdigest()[:12]


def _folder_hash(folder: Path) -> str:
    import hashlib

    paths = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "report.json") if folder.is_dir() else []
    if not paths:
        return "none"
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _extractor_version(spacy_model: str | None, scierc_model: str | None = None) -> str:
    from kg.extract import EXTRACTOR_VERSION

    named = f"+{scierc_model}" if scierc_model else ""
    return f"{EXTRACTOR_VERSION}+{spacy_model or 'default'}{named}+{model_fingerprint(scierc_model)}"


def _read(inputs: Sequence[str | Path], fmt: str | None, report: BuildReport, known: set[str], on_warning: Callable[[str], None] | None) -> list[Paper]:
    """Read every input document; count duplicates (by id) and rejections."""
    from kg.readers import expand_inputs, read_inputs

    paths = expand_inputs(inputs)  # raises E101/E111 before anything is read
    papers: list[Paper] = []
    for item in read_inputs(paths, format=fmt, on_warning=on_warning):
        report.read += 1
        if isinstance(item, Rejection):
            if item.code == "E102":
                # A file the user named but kg cannot open is a mistake to fix, not a bad record.
                raise UserError("E102", path=item.source, reason=item.reason.rsplit(": ", 1)[-1])
            report.rejected += 1
            report.rejections.append(item)
        elif item.id in known:
            report.duplicates += 1
        else:
            known.add(item.id)
            papers.append(item)
    report.built = len(papers)
    return papers


def _extract(out: Path, papers: Sequence[Paper], version: str, job: ExtractJob, executor: Executor, report: BuildReport, progress: Progress) -> dict[str, tuple[Paper, Extraction]]:
    """Extractions for ``papers``: from the cache where present, else from ``executor``.

    Each new extraction is saved the moment it is made, so a killed build resumes.
    """
    done: dict[str, tuple[Paper, Extraction]] = {}
    todo: list[Paper] = []
    for paper in papers:
        cached = cache.load_extraction(out, cache.cache_key(paper, version))
        if cached is None:
            todo.append(paper)
        else:
            done[paper.id] = (paper, cached[1])
    report.from_cache = len(done)
    total = len(papers)
    progress("extract", len(done), total)
    if todo:
        by_id = {p.id: p for p in todo}
        results = executor.map(todo, job)
        try:
            for extraction in results:
                paper = by_id[extraction.paper_id]
                cache.save_extraction(out, cache.cache_key(paper, version), paper, extraction)
                done[paper.id] = (paper, extraction)
                report.extracted += 1
                progress("extract", len(done), total)
        finally:
            close = getattr(results, "close", None)
            if close is not None:  # stops what the executor started, even when saving failed
                close()
    return done


def _iri_changes(old: dict[str, list[str]], resolution: Resolution) -> list[dict[str, str]]:
    """Old entity keys that no longer exist, each mapped to the entity that took most of its forms."""
    from kg.store.namespace import entity_iri

    new_keys = {e.key for e in resolution.entities}
    owner: dict[tuple[str, str], str] = {}
    for entity in resolution.entities:
        for form in (entity.label, *entity.alt_labels):
            owner[(entity.type, form)] = entity.key
    changes = []
    for key in sorted(set(old) - new_keys):
        kind = key.split("/", 1)[0]
        votes: dict[str, int] = {}
        for form in old[key]:
            for entity_type in ("Method", "Task", "Dataset", "Metric"):
                if entity_type.lower() == kind and (entity_type, form) in owner:
                    target = owner[(entity_type, form)]
                    votes[target] = votes.get(target, 0) + 1
        new = max(sorted(votes), key=votes.__getitem__) if votes else None
        changes.append({"old": entity_iri(key), "new": entity_iri(new) if new else ""})
    return changes


def _write_outputs(out: Path, papers: Sequence[Paper], extractions: Sequence[Extraction], *, min_confidence: float, formats: Sequence[str] | None, report: BuildReport, old_entities: dict[str, list[str]] | None, progress: Progress) -> dict[str, Any]:
    """Resolve, build the graph, write exports and return the new manifest."""
    from kg.export import write_all
    from kg.resolve import resolve
    from kg.store import KnowledgeGraph

    started = time.perf_counter()
    resolution = resolve(papers, extractions, min_confidence=min_confidence)
    report.seconds["resolve"] = time.perf_counter() - started
    progress("graph", 0, None)
    started = time.perf_counter()
    graph = KnowledgeGraph.from_resolution(papers, resolution)
    report.entities = len(resolution.entities)
    report.triples = len(graph)
    report.stats = graph.stats()
    report.resolution = resolution.report
    report.seconds["graph"] = time.perf_counter() - started
    progress("export", 0, None)
    started = time.perf_counter()
    report.files = write_all(graph, out, formats)
    _write_rejections(out, report.rejections)
    if old_entities is not None:
        report.iri_changes = _iri_changes(old_entities, resolution)
        _write_jsonl(out / IRI_CHANGES, report.iri_changes)
    report.seconds["export"] = time.perf_counter() - started
    return {
        "papers": sorted(p.id for p in papers),
        "entities": {e.key: sorted({e.label, *e.alt_labels}) for e in resolution.entities},
        "resolution": resolution.report,
        "stats": report.stats,
        "min_confidence": min_confidence,
    }


def _load_cached(out: Path, manifest: dict[str, Any]) -> dict[str, tuple[Paper, Extraction]]:
    """The papers of an existing build, from its cache (keys are in the manifest)."""
    loaded = {}
    for key in manifest["cache_keys"]:
        item = cache.load_extraction(out, key)
        if item is None:
            raise UserError("E307", path=out)
        loaded[item[0].id] = item
    return loaded


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
    on_warning: Callable[[str], None] | None = None,
    engine: str = "local",
    scheduler: str | None = None,
    partitions: int | None = None,
    on_message: Callable[[str], None] | None = None,
) -> BuildReport:
    """Build the knowledge graph of ``inputs`` into the folder ``out``.

    With ``update=True`` the papers already in ``out`` are kept (from the cache,
    not re-extracted) and the new ones added; the result equals a full build of
    all inputs together. ``min_confidence`` drops facts scored lower (default:
    the existing build's threshold on update, else 0). ``scierc_model``
    names the trained SciERC model (``default``, ``minilm`` or a folder; on
    update, the existing build's). ``engine`` names the extraction engine
    (:data:`kg.engines.ENGINES`; ``scheduler`` and ``partitions`` are the Dask
    engine's), ``on_message`` receives its progress notes. Returns a :class:`BuildReport`.
    """
    out = Path(out)
    progress = progress or _noop
    report = BuildReport(out=out)
    if min_confidence is not None and not 0.0 <= min_confidence <= 1.0:
        raise UserError("E311", reason=f"--min-confidence must be between 0 and 1, not {min_confidence}")
    if scierc_model is not None:
        from kg.scierc.components import check_model

        check_model(scierc_model)  # a typo or a missing extra fails here, before the output folder is touched
    executor = make_executor(engine, workers=workers, scheduler=scheduler, partitions=partitions, on_message=on_message)
    started = time.perf_counter()
    with cache.build_lock(out):
        existing: dict[str, tuple[Paper, Extraction]] = {}
        old_entities = None
        if update:
            manifest = cache.read_manifest(out)
            existing = _load_cached(out, manifest)
            old_entities = manifest.get("entities", {})
            if min_confidence is None:
                min_confidence = manifest.get("min_confidence", 0.0)
            if scierc_model is None:
                scierc_model = manifest.get("scierc_model")
        progress("read", 0, None)
        new_papers = _read(inputs, input_format, report, set(existing), on_warning)
        report.seconds["read"] = time.perf_counter() - started
        if strict and report.rejected:
            _write_rejections(out, report.rejections)
            raise UserError("E309", count=report.rejected, path=out / REJECTED)
        version = _extractor_version(spacy_model, scierc_model)
        t0 = time.perf_counter()
        extracted = _extract(out, new_papers, version, ExtractJob(spacy_model, scierc_model), executor, report, progress)
        report.seconds["extract"] = time.perf_counter() - t0
        everything = {**existing, **extracted}
        manifest = _finish(out, everything, version, min_confidence or 0.0, formats, report, old_entities, progress)
        manifest["spacy_model"] = spacy_model
        if scierc_model is not None:
            manifest["scierc_model"] = scierc_model
        cache.write_manifest(out, manifest)
    report.seconds["total"] = time.perf_counter() - started
    return report


def _write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    from kg.export.atomic import atomic_write

    with atomic_write(path, "w") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def _write_rejections(out: Path, rejections: Iterable[Rejection]) -> None:
    _write_jsonl(out / REJECTED, (r.to_dict() for r in rejections))


def _finish(out: Path, everything: dict[str, tuple[Paper, Extraction]], version: str, min_confidence: float, formats: Sequence[str] | None, report: BuildReport, old_entities: dict[str, list[str]] | None, progress: Progress) -> dict[str, Any]:
    ids = sorted(everything)
    papers = [everything[i][0] for i in ids]
    extractions = [everything[i][1] for i in ids]
    report.papers = len(papers)
    manifest = _write_outputs(out, papers, extractions, min_confidence=min_confidence, formats=formats, report=report, old_entities=old_entities, progress=progress)
    manifest["cache_keys"] = [cache.cache_key(p, version) for p in papers]
    manifest["extractor_version"] = version
    return manifest


def remove(out: str | Path, paper_ids: Sequence[str], *, progress: Progress | None = None) -> BuildReport:
    """Take papers out of a build folder, with the facts and entities only they supported."""
    out = Path(out)
    report = BuildReport(out=out)
    with cache.build_lock(out):
        manifest = cache.read_manifest(out)
        existing = _load_cached(out, manifest)
        unknown = sorted(set(paper_ids) - set(existing))
        if unknown:
            raise UserError("E310", ids=", ".join(unknown))
        for paper_id in paper_ids:
            existing.pop(paper_id, None)
        report.removed = len(set(paper_ids))
        version = manifest["extractor_version"]
        new_manifest = _finish(out, existing, version, manifest.get("min_confidence", 0.0), None, report, manifest.get("entities", {}), progress or _noop)
        new_manifest["spacy_model"] = manifest.get("spacy_model")
        if manifest.get("scierc_model") is not None:
            new_manifest["scierc_model"] = manifest["scierc_model"]
        cache.write_manifest(out, new_manifest)
    return report
