"""Training of the relation classifier: features of gold and predicted pairs, a logistic regression.

scikit-learn (the ``train`` extra) is needed here only; prediction
(:mod:`kg.extract.scierc.relations`) runs on numpy alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from spacy.tokens import Doc

from kg.extract.scierc.labels import RELATION_LABELS, Annotations
from kg.extract.scierc.relations import (
    N_FEATURES,
    NONE,
    RelationModel,
    as_annotations,
    candidate_pairs,
    decode,
    doc_mentions,
    hashed_columns,
    pair_features,
    token_table,
)

#: Regularisation strengths tried on dev.
C_GRID = (0.3, 1.0, 3.0)
#: Thresholds tried on dev.
THRESHOLD_GRID = (0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5)


def hash_features(feature_lists: Sequence[Sequence[str]], n_features: int = N_FEATURES) -> Any:
    """A sparse (pairs x n_features) matrix of binary hashed features, for training."""
    from scipy.sparse import csr_matrix

    starts, columns = hashed_columns(feature_lists, n_features)
    indptr = np.append(starts, len(columns))
    return csr_matrix((np.ones(len(columns), dtype=np.float64), columns, indptr), shape=(len(starts), n_features))


def training_pairs(doc: Doc, gold: Annotations) -> tuple[list[list[str]], list[str]]:
    """Features and labels of every candidate pair over gold plus predicted mentions.

    A predicted mention with a gold span takes the gold type; the others keep
    their predicted type, so the model sees spurious mentions as ``NONE``.
    """
    gold_types = {(s, e + 1): lab for s, e, lab in gold.entities}
    spans = {**{m[:2]: m[2] for m in doc_mentions(doc)}, **gold_types}
    mentions = [(s, e, lab) for (s, e), lab in spans.items()]
    rel = {(hs, he + 1, ts, te + 1): lab for hs, he, ts, te, lab in gold.relations}
    table = token_table(doc)
    feats, labels = [], []
    for a, b, group in candidate_pairs(table, mentions):
        feats.append(pair_features(table, a, b, group))
        labels.append(rel.get((a[0], a[1], b[0], b[1]), NONE))
    return feats, labels


def fit(feats: Sequence[Sequence[str]], labels: Sequence[str], *, c: float, seed: int) -> RelationModel:
    """Fit the logistic regression; labels are ``NONE`` then the SciERC relations."""
    from sklearn.linear_model import LogisticRegression

    order = (NONE, *RELATION_LABELS)
    y = np.array([order.index(lab) for lab in labels])
    clf = LogisticRegression(C=c, max_iter=300, random_state=seed)
    clf.fit(hash_features(feats), y)
    weights = np.zeros((N_FEATURES, len(order)), dtype=np.float32)
    bias = np.full(len(order), -1e4, dtype=np.float32)  # a label never seen is never predicted
    weights[:, clf.classes_] = clf.coef_.T
    bias[clf.classes_] = clf.intercept_
    return RelationModel(order, weights, bias)


def train_relation_model(
    train_docs: Sequence[Doc],
    train_gold: Sequence[Annotations],
    dev_docs: Sequence[Doc],
    dev_gold: Sequence[Annotations],
    *,
    seed: int = 0,
) -> tuple[RelationModel, dict[str, float]]:
    """Fit on train (gold + predicted mentions), pick C and the threshold by dev relation F1."""
    from kg.training.score import relation_table

    feats: list[list[str]] = []
    labels: list[str] = []
    for doc, gold in zip(train_docs, train_gold, strict=True):
        f, y = training_pairs(doc, gold)
        feats += f
        labels += y
    dev_mentions = [doc_mentions(d) for d in dev_docs]
    dev_tables = [token_table(d) for d in dev_docs]
    dev_pairs = [candidate_pairs(t, m) for t, m in zip(dev_tables, dev_mentions, strict=True)]
    dev_feats = [[pair_features(t, a, b, g) for a, b, g in p] for t, p in zip(dev_tables, dev_pairs, strict=True)]
    best: tuple[float, RelationModel | None, dict[str, float]] = (-1.0, None, {})
    for c in C_GRID:
        model = fit(feats, labels, c=c, seed=seed)
        dev_probs = [model.probabilities(f) for f in dev_feats]
        for threshold in THRESHOLD_GRID:
            pred = [
                as_annotations(m, decode(p, pr, model.labels, threshold))
                for m, p, pr in zip(dev_mentions, dev_pairs, dev_probs, strict=True)
            ]
            f1 = relation_table(dev_gold, pred)["ALL"].f1
            if f1 > best[0] + 1e-9:
                tuned = RelationModel(model.labels, model.weights, model.bias, threshold)
                best = (f1, tuned, {"C": c, "threshold": threshold, "dev_relation_f1": round(f1, 2)})
    if best[1] is None:
        raise ValueError("no relation model was fitted")
    return best[1], best[2]
