"""The standard SciERC scores: entities, relations (boundaries) and relations (strict).

Pure functions over :class:`~kg.training.data.Annotations`, one per document,
gold and predicted in the same order. The conventions are those of the scorer
used by PURE (Zhong and Chen, 2021) and PL-Marker (Ye et al., 2022):

* **entity**: correct when the span (start and end) and the type are exact;
* **relation, boundaries**: correct when both argument spans are exact, in
  the gold direction, and the relation label is right;
* **relation, strict**: as boundaries, and the predicted types of both
  arguments equal their gold types.

Every relation is directed, COMPARE and CONJUNCTION included: a prediction
``B CONJUNCTION A`` does not match gold ``A CONJUNCTION B``. This is what the
PURE scorer does, so our numbers compare with the published ones.

Scores are percentages (0-100), micro-averaged over documents; ``"ALL"`` is
the micro average over labels.

>>> from kg.extract.scierc.labels import Annotations
>>> gold = [Annotations(frozenset({(0, 1, "Task"), (3, 3, "Method")}), frozenset({(3, 3, 0, 1, "USED-FOR")}))]
>>> score(gold, gold)["entities"]["ALL"].f1
100.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from kg.extract.scierc.labels import Annotations

ALL = "ALL"


@dataclass(frozen=True)
class Counts:
    """True positives, predictions and gold items of one label; P/R/F1 in percent."""

    tp: int = 0
    pred: int = 0
    gold: int = 0

    @property
    def precision(self) -> float:
        return 100.0 * self.tp / self.pred if self.pred else 0.0

    @property
    def recall(self) -> float:
        return 100.0 * self.tp / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float]:
        return {
            "tp": self.tp,
            "pred": self.pred,
            "gold": self.gold,
            "precision": round(self.precision, 2),
            "recall": round(self.recall, 2),
            "f1": round(self.f1, 2),
        }


#: label -> counts, with the micro average under :data:`ALL`.
Table = dict[str, Counts]


def _table(pairs: Iterable[tuple[set[tuple[Hashable, str]], set[tuple[Hashable, str]]]]) -> Table:
    # Each item is keyed (identity, label); counts are per label, then summed.
    tp: Counter[str] = Counter()
    pred: Counter[str] = Counter()
    gold: Counter[str] = Counter()
    for gold_items, pred_items in pairs:
        gold.update(label for _, label in gold_items)
        pred.update(label for _, label in pred_items)
        tp.update(label for _, label in gold_items & pred_items)
    labels = sorted(set(gold) | set(pred))
    table = {label: Counts(tp[label], pred[label], gold[label]) for label in labels}
    table[ALL] = Counts(sum(tp.values()), sum(pred.values()), sum(gold.values()))
    return table


def entity_table(gold: Sequence[Annotations], pred: Sequence[Annotations]) -> Table:
    """Per-label entity counts: exact span and type.

    >>> g = [Annotations(frozenset({(0, 0, "Task"), (2, 3, "Method")}))]
    >>> p = [Annotations(frozenset({(0, 0, "Task"), (2, 3, "Metric")}))]
    >>> t = entity_table(g, p)
    >>> (t["Task"].tp, t["Method"].tp, t["Metric"].pred, t["ALL"].f1)
    (1, 0, 1, 50.0)
    """
    _check_lengths(gold, pred)
    return _table(
        ({((s, e), lab) for s, e, lab in g.entities}, {((s, e), lab) for s, e, lab in p.entities})
        for g, p in zip(gold, pred, strict=True)
    )


def _relation_items(ann: Annotations, strict: bool) -> set[tuple[Hashable, str]]:
    if not strict:
        return {((hs, he, ts, te), lab) for hs, he, ts, te, lab in ann.relations}
    # One type per span; a span annotated twice (very rare) keeps its first label
    # in sorted order so that each relation is counted once.
    types: dict[tuple[int, int], str] = {}
    for s, e, lab in sorted(ann.entities):
        types.setdefault((s, e), lab)
    return {
        ((hs, he, types.get((hs, he)), ts, te, types.get((ts, te))), lab) for hs, he, ts, te, lab in ann.relations
    }


def relation_table(gold: Sequence[Annotations], pred: Sequence[Annotations], *, strict: bool = False) -> Table:
    """Per-label relation counts, "boundaries" (default) or "strict" (argument types too).

    >>> ents = frozenset({(0, 0, "Method"), (2, 2, "Task")})
    >>> g = [Annotations(ents, frozenset({(0, 0, 2, 2, "USED-FOR")}))]
    >>> p = [Annotations(frozenset({(0, 0, "Generic"), (2, 2, "Task")}), g[0].relations)]
    >>> relation_table(g, p)["ALL"].f1, relation_table(g, p, strict=True)["ALL"].f1
    (100.0, 0.0)
    """
    _check_lengths(gold, pred)
    pairs = ((_relation_items(g, strict), _relation_items(p, strict)) for g, p in zip(gold, pred, strict=True))
    return _table(pairs)


def score(gold: Sequence[Annotations], pred: Sequence[Annotations]) -> dict[str, Table]:
    """All three tables: ``entities``, ``relations`` (boundaries) and ``relations_strict``."""
    return {
        "entities": entity_table(gold, pred),
        "relations": relation_table(gold, pred),
        "relations_strict": relation_table(gold, pred, strict=True),
    }


def summary(tables: dict[str, Table]) -> dict[str, float]:
    """The headline F1 of each table, e.g. ``{"entities": 61.2, ...}``."""
    return {name: round(table[ALL].f1, 2) for name, table in tables.items()}


def _check_lengths(gold: Sequence[Annotations], pred: Sequence[Annotations]) -> None:
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold documents but {len(pred)} predicted ones")
