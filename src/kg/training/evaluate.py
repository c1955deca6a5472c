"""Score the trained components on a SciERC file: ``evaluate_scierc(path)``.

The host pipeline (en_core_web_sm without NER, as the kg extractor runs it)
plus the trained components run over Docs built from the file's own tokens;
the predictions are scored with :mod:`kg.training.score` and, on request,
written in DyGIE format (``predicted_ner``, ``predicted_relations``) so that
any SciERC scorer can read them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spacy.language import Language

from kg.extract.scierc.components import add_trained_components
from kg.extract.scierc.labels import Annotations
from kg.extract.scierc.model_files import load_host_pipeline
from kg.training.data import (
    gold_annotations,
    parse_records,
    predicted_annotations,
    prediction_record,
    read_dygie,
    write_predictions,
)
from kg.training.score import Table, score


@dataclass
class EvalReport:
    """Scores of one evaluation run, and how fast the pipeline went."""

    path: str
    docs: int
    tokens: int
    seconds: float
    tables: dict[str, Table] = field(default_factory=dict)

    @property
    def docs_per_second(self) -> float:
        return self.docs / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "docs": self.docs,
            "tokens": self.tokens,
            "seconds": round(self.seconds, 2),
            "docs_per_second": round(self.docs_per_second, 2),
            "scores": {name: {lab: c.as_dict() for lab, c in t.items()} for name, t in self.tables.items()},
        }


def trained_pipeline(model_dir: str | Path | None = None, spacy_model: str | None = None) -> Language:
    """The host pipeline with the trained components added (what ``evaluate_scierc`` runs)."""
    return add_trained_components(load_host_pipeline(spacy_model), model_dir)


def evaluate_scierc(
    path: str | Path,
    *,
    model_dir: str | Path | None = None,
    predictions: str | Path | None = None,
    spacy_model: str | None = None,
    nlp: Language | None = None,
) -> EvalReport:
    """Run the trained pipeline on a DyGIE file and score it against the file's gold.

    ``seconds`` times the pipeline alone (not reading, loading or scoring).
    Raises ``UserError("E204")`` for a missing file and ``KgError("E203")``
    for a missing model.
    """
    records = read_dygie(path)
    nlp = nlp if nlp is not None else trained_pipeline(model_dir, spacy_model)
    started = time.perf_counter()
    docs = list(parse_records(records, nlp))
    seconds = time.perf_counter() - started
    pred: list[Annotations] = [predicted_annotations(d) for d in docs]
    if predictions is not None:
        write_predictions(predictions, (prediction_record(r, p) for r, p in zip(records, pred, strict=True)))
    return EvalReport(
        path=str(path),
        docs=len(docs),
        tokens=sum(len(d) for d in docs),
        seconds=seconds,
        tables=score([gold_annotations(r) for r in records], pred),
    )
