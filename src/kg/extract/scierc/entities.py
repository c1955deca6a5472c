"""The entity component: spaCy's ``spancat_singlelabel`` with its own tok2vec.

Why this choice (measured on dev, see docs/EVALUATION.md): SciERC entities
nest (a Task inside a Method name), so a transition-based ``ner`` cannot
represent them; a span categoriser scores candidate n-grams of 1-10 tokens
(99.9 % of the training entities are that short) with a softmax over the six
labels and a negative label, the same formulation as PURE's span classifier.
The candidates (:func:`candidate_spans`) stay inside a sentence and skip
n-grams that start or end with a function word or punctuation, which keeps
99.5 % of the gold entities and cuts the run time by about two thirds.

The tok2vec is a private copy of en_core_web_sm's (same architecture, its
weights as the starting point), fine-tuned on SciERC. Starting from the
pretrained weights matters with only 350 training abstracts; keeping a copy
(rather than listening to the pipeline's tok2vec) leaves the tagger and parser
of the host pipeline untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

import numpy as np
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import Ops, get_current_ops
from thinc.types import Ragged

from kg.extract.scierc.labels import SPANS_KEY

#: Name of the entity component in a pipeline.
ENTITY_PIPE = "scierc_spans"
#: spaCy factory the entity component is built from.
ENTITY_FACTORY = "spancat_singlelabel"
#: Longest entity (in tokens) the suggester proposes.
MAX_SPAN = 10


#: Coarse POS a SciERC entity may start with / end with. On train these keep
#: 99.5 % of the gold entities and drop about two thirds of the n-grams
#: (those starting or ending with a determiner, preposition, conjunction,
#: auxiliary or punctuation), which is most of the component's run time.
START_POS = frozenset({"NOUN", "ADJ", "PROPN", "VERB", "PRON", "ADV", "NUM", "X", "SYM", "INTJ"})
END_POS = frozenset({"NOUN", "PROPN", "PRON", "VERB", "ADJ", "NUM", "X", "SYM", "INTJ"})
#: Closing brackets end spans like "conditional random fields ( CRF )".
CLOSERS = frozenset({")", "]", "-RRB-", "-RSB-"})


def sentence_bounds(doc: Doc) -> list[tuple[int, int]]:
    """Token offsets ``(start, end)`` of each sentence; the whole Doc when it has no boundaries.

    >>> import spacy
    >>> sentence_bounds(spacy.blank("en")("a b"))
    [(0, 2)]
    """
    if doc.has_annotation("SENT_START") or doc.has_annotation("DEP"):
        return [(s.start, s.end) for s in doc.sents]
    return [(0, len(doc))]


def candidate_spans(doc: Doc, max_size: int = MAX_SPAN) -> list[tuple[int, int]]:
    """The spans the entity component scores: n-grams of 1..max_size tokens
    inside one sentence whose first and last tokens can bound an entity.

    Without POS tags (a blank pipeline) every n-gram inside a sentence is a
    candidate; without sentence boundaries the whole Doc is one sentence.

    >>> import spacy
    >>> doc = spacy.blank("en")("a b")
    >>> candidate_spans(doc, 2)
    [(0, 1), (0, 2), (1, 2)]
    """
    tagged = doc.has_annotation("POS")
    bounds = sentence_bounds(doc)
    ok_start = [not tagged or t.pos_ in START_POS for t in doc]
    ok_end = [not tagged or t.pos_ in END_POS or t.text in CLOSERS for t in doc]
    spans: list[tuple[int, int]] = []
    for first, stop in bounds:
        for i in range(first, stop):
            if not ok_start[i]:
                continue
            spans.extend((i, j) for j in range(i + 1, min(i + max_size, stop) + 1) if ok_end[j - 1])
    return spans


def suggest_spans(docs: Iterable[Doc], *, max_size: int = MAX_SPAN, ops: Ops | None = None) -> Ragged:
    """spaCy suggester over :func:`candidate_spans`: a Ragged of (start, end) rows per Doc."""
    ops = ops or get_current_ops()
    rows: list[tuple[int, int]] = []
    lengths = []
    for doc in docs:
        found = candidate_spans(doc, max_size)
        rows.extend(found)
        lengths.append(len(found))
    data = np.asarray(rows, dtype="i").reshape((-1, 2)) if rows else np.zeros((0, 0), dtype="i")
    return Ragged(ops.asarray2i(data), ops.asarray1i(lengths))  # type: ignore[arg-type]  # thinc's Ints2d is its own ndarray type


@registry.misc("kg.scierc_span_suggester.v1")
def make_span_suggester(max_size: int = MAX_SPAN) -> Any:
    """Registered factory of :func:`suggest_spans` (referenced from the model's config)."""
    return partial(suggest_spans, max_size=max_size)


def tok2vec_config(width: int = 96, depth: int = 4, rows: tuple[int, ...] = (5000, 1000, 2500, 2500, 50, 50)) -> dict[str, Any]:
    """A tok2vec with en_core_web_sm's architecture (so its weights can be copied in)."""
    return {
        "@architectures": "spacy.Tok2Vec.v2",
        "embed": {
            "@architectures": "spacy.MultiHashEmbed.v2",
            "width": width,
            "attrs": ["NORM", "PREFIX", "SUFFIX", "SHAPE", "SPACY", "IS_SPACE"],
            "rows": list(rows),
            "include_static_vectors": False,
        },
        "encode": {
            "@architectures": "spacy.MaxoutWindowEncoder.v2",
            "width": width,
            "depth": depth,
            "window_size": 1,
            "maxout_pieces": 3,
        },
    }


def entity_config(
    *, hidden: int = 128, max_span: int = MAX_SPAN, allow_overlap: bool = True
) -> dict[str, Any]:
    """The ``spancat_singlelabel`` component config used for training and loading.

    The decision threshold is not a factory argument; it is set on
    ``pipe.cfg["threshold"]`` after creation (see :mod:`kg.extract.scierc.model_files`).
    """
    return {
        "spans_key": SPANS_KEY,
        "negative_weight": 1.0,
        "allow_overlap": allow_overlap,
        "suggester": {"@misc": "kg.scierc_span_suggester.v1", "max_size": max_span},
        "model": {
            "@architectures": "spacy.SpanCategorizer.v1",
            "scorer": {"@layers": "Softmax.v2"},
            "reducer": {"@layers": "spacy.mean_max_reducer.v1", "hidden_size": hidden},
            "tok2vec": tok2vec_config(),
        },
    }
