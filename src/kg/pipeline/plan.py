"""Plan a build: which papers, from which files, extracted by which pipeline version.

Reading the inputs happens here, with the rules that keep a build from eating
its own outputs: files inside a build folder (``--out`` of this or another
build) are never read when they come from a folder walk or a glob, and a
dangling link or a FIFO met in a walk is skipped with a warning instead of
stopping the build.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from kg.buildfolder import is_build_folder
from kg.errors import UserError
from kg.model import Paper, Rejection
from kg.pipeline.report import Warn

__all__ = ["Reading", "extractor_version", "model_fingerprint", "read_papers"]


@dataclass(frozen=True)
class Reading:
    """What reading the inputs gave: the new papers, and the counts ``read == built + duplicates + rejected``."""

    papers: tuple[Paper, ...]
    read: int
    duplicates: int
    rejections: tuple[Rejection, ...]

    @property
    def built(self) -> int:
        return len(self.papers)

    @property
    def rejected(self) -> int:
        return len(self.rejections)


def model_fingerprint(scierc_model: str | None = None) -> str:
    """A short hash of a trained model's files (default: the shipped one), or ``"none"`` without one.

    It is part of every cache key, so retraining with ``kg train scierc`` or
    ``kg train facts`` re-extracts papers instead of reusing what the old model
    found. A MiniLM model builds on the default one, so both folders count, and
    the fact-confidence model (:data:`kg.extract.pairs.MODEL_PATH`) counts always.
    So do the extractors' own code and word tables (:func:`extractor_code_hash`):
    an edited rule or word list re-extracts, whether or not someone bumped
    ``EXTRACTOR_VERSION``.
    """
    from importlib.resources import files

    from kg.extract.pairs import MODEL_PATH

    default = Path(str(files("kg.extract.scierc").joinpath("model")))
    parts = [_folder_hash(default), _file_hash(MODEL_PATH), extractor_code_hash()]
    if scierc_model == "learned":
        from kg.extract.learned_mentions import default_model_dir
        from kg.extract.pairs import LEARNED_MODEL_PATH

        parts += [_folder_hash(default_model_dir()), _file_hash(LEARNED_MODEL_PATH)]
    if scierc_model is not None:
        from kg.extract.scierc.model_files import resolve_model_dir

        parts.append(_folder_hash(resolve_model_dir(scierc_model)))
    return hashlib.sha256("+".join(parts).encode()).hexdigest()[:12]


def extractor_code_hash() -> str:
    """A short hash of what extraction runs: the Python files and word tables of ``kg.extract``.

    Trained model folders are left to :func:`model_fingerprint`'s own parts, and
    compiled caches (``__pycache__``) are not what runs.
    """
    from importlib.resources import files

    root = Path(str(files("kg.extract")))
    paths = sorted(
        p for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and "model" not in p.relative_to(root).parts[:-1]
        and "model_minilm" not in p.relative_to(root).parts[:-1]
        and "model_mentions" not in p.relative_to(root).parts[:-1] and p.suffix in (".py", ".json", ".txt", ".cfg")
    )
    return _hash_files(root, tuple((p, p.stat().st_size, p.stat().st_mtime_ns) for p in paths))


def _file_hash(path: Path) -> str:
    if not path.is_file():
        return "none"
    stat = path.stat()
    return _hash_files(path.parent, ((path, stat.st_size, stat.st_mtime_ns),))


def _folder_hash(folder: Path) -> str:
    paths = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "report.json") if folder.is_dir() else []
    if not paths:
        return "none"
    # Hashing reads megabytes: do it once per process while no file's size or time changes.
    return _hash_files(folder, tuple((p, p.stat().st_size, p.stat().st_mtime_ns) for p in paths))


@lru_cache(maxsize=8)
def _hash_files(folder: Path, files: tuple[tuple[Path, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for path, _, _ in files:
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def extractor_version(spacy_model: str | None, scierc_model: str | None = None) -> str:
    """What made an extraction: kg's extractor version, the spaCy model, the SciERC model and its files."""
    from kg.extract import EXTRACTOR_VERSION

    named = f"+{scierc_model}" if scierc_model else ""
    return f"{EXTRACTOR_VERSION}+{spacy_model or 'default'}{named}+{model_fingerprint(scierc_model)}"


def _input_files(inputs: Sequence[str | os.PathLike[str]], out: Path, on_warning: Warn) -> list[Path]:
    """The files to read: :func:`kg.readers.expand_inputs`, less build outputs, dangling links and FIFOs."""
    from kg.readers import expand_inputs

    paths = expand_inputs(inputs)  # raises E101/E111 before anything is read
    named = {str(Path(argument)) for argument in inputs}
    roots = [Path(os.path.realpath(argument)) for argument in inputs if Path(argument).is_dir()]
    own = Path(os.path.realpath(out))

    @cache
    def inside_build(folder: Path) -> bool:
        if folder == own or is_build_folder(folder):
            return True
        return any(folder != root and folder.is_relative_to(root) for root in roots) and inside_build(folder.parent)

    kept = []
    for path in paths:
        if str(path) in named:
            kept.append(path)  # named by the user: read, or reported if it cannot be
            continue
        real = Path(os.path.realpath(path))
        if inside_build(real.parent):
            continue
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            on_warning(f"skipped {path}: a link to nothing")
            continue
        if not stat.S_ISREG(mode):
            on_warning(f"skipped {path}: not a regular file (a FIFO, socket or device)")
            continue
        kept.append(path)
    if not kept:
        raise UserError("E111", paths=", ".join(map(str, inputs)))
    return kept


def read_papers(inputs: Sequence[str | os.PathLike[str]], out: Path, *, fmt: str | None, known: dict[str, str],
                on_warning: Warn, strict: bool = False) -> Reading:
    """Read every input document, counting duplicates (by id) and rejections.

    ``known`` maps the ids already in the build to their abstracts; a record
    with a known id is a duplicate (the first one read stays), and a warning
    says so when its abstract differs. Two records of the inputs with one id
    and different abstracts are a warning too (E326), and an error under
    ``strict`` (E327).
    """
    from kg.readers import read_inputs

    papers: list[Paper] = []
    rejections: list[Rejection] = []
    read = duplicates = 0
    seen = dict(known)
    first: dict[str, str] = {}  # id -> where the inputs gave it first
    for item in read_inputs(_input_files(inputs, out, on_warning), format=fmt, on_warning=on_warning):
        read += 1
        if isinstance(item, Rejection):
            if item.code == "E102":
                # A file the user named but kg cannot open is a mistake to fix, not a bad record.
                raise UserError("E102", path=item.source, reason=item.reason.rsplit(": ", 1)[-1])
            rejections.append(item)
        elif item.id in seen:
            duplicates += 1
            if item.id in known and seen[item.id] != item.abstract:
                on_warning(f"{item.source}: paper {item.id!r} is already in {out} with another abstract; kept the one there (kg remove it first to replace it)")
            elif seen[item.id] != item.abstract:
                if strict:
                    raise UserError("E327", source=item.source, paper=item.id, first=first[item.id])
                on_warning(str(UserError("E326", source=item.source, paper=item.id, first=first[item.id])))
        else:
            seen[item.id] = item.abstract
            first[item.id] = item.source
            papers.append(item)
    return Reading(tuple(papers), read, duplicates, tuple(rejections))
