"""The spaCy component of the relation classifier, and how both components are added.

The entity component is spaCy's own ``spancat_singlelabel`` (configured by
:mod:`kg.extract.scierc.entities`, weights from the model folder); the relation
component ``kg_scierc_relations`` is ours and thin: it reads the mentions in
``doc.spans["scierc"]`` and hands a batch of Docs to
:func:`kg.extract.scierc.relations.predict_batch`.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.scierc.entities import ENTITY_PIPE
from kg.extract.scierc.labels import SPANS_KEY
from kg.extract.scierc.model_files import DEFAULT_MODEL_DIR, read_meta, resolve_model_dir
from kg.extract.scierc.pipes import PAIR_OPINION_KEY, BatchedPipe
from kg.extract.scierc.relations import (
    MAX_MENTIONS_PER_SENTENCE,
    MAX_PAIR_SPAN,
    RelationModel,
    capped,
    doc_mentions,
    predict_batch,
    token_table,
)

#: Name (and factory) of the relation component in a pipeline.
RELATION_PIPE = "kg_scierc_relations"

logger = logging.getLogger("kg.extract")


def _ensure_extension() -> None:
    if not Doc.has_extension("scierc_relations"):
        Doc.set_extension("scierc_relations", default=())


class SciercRelations(BatchedPipe):
    """Writes ``doc._.scierc_relations``: ``(head_start, head_end, tail_start, tail_end, label, score)``.

    Offsets are token offsets with exclusive ends. It also turns the entity
    scores in ``doc.spans["scierc"].attrs["scores"]`` into a plain list of
    floats, so the Doc holds plain data only. ``pipe`` scores a whole batch
    at once; a batch that fails goes to the pipeline's error handler.
    """

    def __init__(self, model: RelationModel, name: str = RELATION_PIPE) -> None:
        self.model = model
        self.name = name

    def _annotate(self, docs: list[Doc]) -> list[Doc]:
        mentions = [doc_mentions(doc) for doc in docs]
        for doc, found in zip(docs, mentions, strict=True):
            _warn_if_capped(doc, found)
        # The MiniLM entity component leaves its pair head's opinion here; it
        # is used once and removed, so that it never reaches a saved Doc.
        opinions = [doc.user_data.pop(PAIR_OPINION_KEY, None) for doc in docs]
        for doc, relations in zip(docs, predict_batch(docs, mentions, self.model, opinions), strict=True):
            _plain_scores(doc)
            doc._.scierc_relations = relations
        return docs


def _warn_if_capped(doc: Doc, mentions: list) -> None:
    """Say when the caps on pairs per sentence cut (see :mod:`kg.extract.scierc.relations`), naming the paper.

    The component sees the text, not the paper's id: the paper is named by its opening words.
    """
    if len(mentions) <= MAX_MENTIONS_PER_SENTENCE and (
        not mentions or max(m[1] for m in mentions) - min(m[0] for m in mentions) <= MAX_PAIR_SPAN
    ):
        return  # nothing to cut: skip reading the Doc again
    note = capped(token_table(doc), mentions)
    if note:
        opening = doc.text[:60] + ("..." if len(doc.text) > 60 else "")
        logger.warning("paper whose abstract starts %r: %s (kg_scierc_relations caps)", opening, note)


def _plain_scores(doc: Doc) -> None:
    group = doc.spans.get(SPANS_KEY)
    if group is not None:
        raw = group.attrs.get("scores")
        scores = np.ones(len(group)) if raw is None else np.asarray(raw, dtype=float).reshape(-1)
        group.attrs["scores"] = [float(s) for s in scores]


@Language.factory(
    RELATION_PIPE,
    assigns=["doc._.scierc_relations"],
    default_config={"model_dir": None, "threshold": None},
)
def make_relation_component(nlp: Language, name: str, model_dir: str | None, threshold: float | None) -> SciercRelations:
    """The ``kg_scierc_relations`` factory; ``model_dir`` defaults to the shipped model.

    ``threshold`` replaces the one saved with the weights (the MiniLM model
    tunes its own on dev, since its mentions differ).
    """
    _ensure_extension()
    path = Path(model_dir) if model_dir else DEFAULT_MODEL_DIR
    read_meta(path)  # raises E203 when the model is missing
    model = RelationModel.load(path / "relations.npz")
    if threshold is not None:
        model = replace(model, threshold=float(threshold))
    return SciercRelations(model, name)


def check_model(model_dir: str | Path | None) -> dict[str, Any]:
    """Check that a model (name or folder) exists and can run here; return its meta.

    Raises ``UserError("E206")`` for an unknown name, ``KgError("E203")`` for
    an incomplete folder and ``UserError("E205")`` for a MiniLM model without
    the ``transformer`` extra; loads nothing heavy.
    """
    meta = read_meta(resolve_model_dir(model_dir))
    if meta.get("kind") == "minilm":
        from kg.extract.scierc.ensemble import require_extra

        require_extra()
    return meta


def add_trained_components(
    nlp: Language, model_dir: str | Path | None = None, *, before: str | None = None
) -> Language:
    """Add the trained SciERC components to ``nlp`` and return it.

    ``nlp`` is an en_core_web_sm-based pipeline (the relation features use
    its parse and lemmas; a blank pipeline works with weaker relations). The
    components are added at the end, or before the component named
    ``before``. Nothing is downloaded. Raises ``KgError("E203")`` when the
    model folder is missing or incomplete, and ``KgError("E205")`` when a
    MiniLM model is asked for without the ``transformer`` extra installed.
    ``model_dir`` is a folder or a name (``default``, ``minilm``).
    """
    path = resolve_model_dir(model_dir)
    meta = read_meta(path)
    where = before or None  # no name: at the end
    if meta.get("kind") == "minilm":
        from kg.extract.scierc.ensemble import ENSEMBLE_PIPE

        base = str(DEFAULT_MODEL_DIR)
        nlp.add_pipe(ENSEMBLE_PIPE, config={"model_dir": str(path), "base_dir": base}, before=where)
        relation_config = {"model_dir": base, "threshold": meta["relation_threshold"]}
        nlp.add_pipe(RELATION_PIPE, config=relation_config, before=where)
        return nlp
    pipe: Any = nlp.add_pipe(meta["entity_factory"], name=ENTITY_PIPE, config=meta["entity_config"], before=where)  # a spancat (TrainablePipe), which spaCy's stubs type only as a callable
    pipe.from_disk(path / ENTITY_PIPE, exclude=["vocab"])
    pipe.cfg["threshold"] = meta.get("entity_threshold")
    nlp.add_pipe(RELATION_PIPE, config={"model_dir": str(path)}, before=where)
    return nlp
