"""Writing a trained SciERC model folder (the layout is described in :mod:`kg.extract.scierc.model_files`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import spacy

from kg.errors import UserError
from kg.extract.scierc.entities import ENTITY_FACTORY, ENTITY_PIPE, entity_config
from kg.extract.scierc.model_files import FORMAT_VERSION


def model_size(path: Path) -> int:
    """Bytes of every file under ``path``."""
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def check_writable(out: Path) -> None:
    """Refuse to overwrite a folder that is neither empty nor a SciERC model (``UserError("E311")``)."""
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / "meta.json").is_file())):
        raise UserError("E311", reason=f"{out} exists and is not a SciERC model folder; choose another --out")


def _write_folder(out: Path, write: Any, meta: dict[str, Any], report: dict[str, Any] | None) -> int:
    """Write a model folder through ``write(tmp)`` plus its meta (and report); return its size in bytes.

    Everything is written to a sibling temporary folder first, which then
    replaces ``out``: a failed run never leaves half a model, and no file of an
    older model survives next to the new ones. The size excludes report.json.
    """
    check_writable(out)
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    write(tmp)
    (tmp / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    size = model_size(tmp)
    if report is not None:
        (tmp / "report.json").write_text(json.dumps({**report, "model_bytes": size}, indent=2) + "\n", encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return size


def save_model(out: Path, entity_pipe: Any, relation_model: Any, report: dict[str, Any] | None = None) -> int:
    """Write both SciERC components (and the training report) to ``out``; return the model's size in bytes."""

    def write(tmp: Path) -> None:
        # The vocab is left out: the host pipeline has its own, and a saved one
        # would hold every training word (a copy of the data, and a megabyte).
        entity_pipe.to_disk(tmp / ENTITY_PIPE, exclude=["vocab"])
        relation_model.save(tmp / "relations.npz")

    meta = {
        "format": FORMAT_VERSION,
        "spacy": spacy.__version__,
        "entity_factory": ENTITY_FACTORY,
        "entity_config": entity_config(allow_overlap=bool(entity_pipe.cfg["allow_overlap"])),
        "entity_threshold": entity_pipe.cfg["threshold"],
        "entity_labels": list(entity_pipe.labels),
    }
    return _write_folder(out, write, meta, report)


def save_mention_model(out: Path, pipe: Any, report: dict[str, Any] | None = None) -> int:
    """Write the learned mention component (:mod:`kg.training.mentions`) to ``out``; return its size in bytes."""
    from kg.training.mentions import mention_config

    meta = {
        "format": FORMAT_VERSION,
        "spacy": spacy.__version__,
        "entity_factory": ENTITY_FACTORY,
        "pipe": pipe.name,
        "entity_config": {**mention_config(), "allow_overlap": bool(pipe.cfg["allow_overlap"])},
        "entity_threshold": pipe.cfg["threshold"],
        "entity_labels": list(pipe.labels),
    }
    return _write_folder(out, lambda tmp: pipe.to_disk(tmp / pipe.name, exclude=["vocab"]), meta, report)
