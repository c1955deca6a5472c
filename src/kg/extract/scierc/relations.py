"""The relation classifier: a logistic regression over mention pairs.

Every ordered pair of mentions in one sentence is a candidate; the model
gives it a probability for each of the seven SciERC relations and ``NONE``.
For each unordered pair the single best (direction, label) is kept when its
probability reaches the threshold tuned on dev, because SciERC annotates at
most one relation per pair.

Pairs grow with the square of a sentence's mentions, so two caps bound the
work per sentence (:func:`candidate_pairs`): only the first
:data:`MAX_MENTIONS_PER_SENTENCE` mentions of a sentence are paired, and two
mentions more than :data:`MAX_PAIR_SPAN` tokens apart are not. Both are
several times what SciERC's test set and the seed abstracts reach (at most 16
mentions in a sentence, pairs spanning at most 95 tokens), so they cut only
lists of names and run-on "sentences" that no relation is annotated in.

The features (:func:`pair_features`) are the ones relation extraction has
used since the feature-based systems of the 2000s: both argument types and
head words, the words between them (bag, first, last, short phrase), the
distance and the number of mentions between, the words just outside, and
the dependency path between the argument heads. Features are hashed
(:data:`N_FEATURES` buckets), so the model is one weight matrix stored with
numpy, no pickle.

The classifier is trained on gold mentions *and* the entity component's
predictions on train, so that at test time it has seen spurious and
mistyped mentions.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from spacy.tokens import Doc, Token

from kg.extract.scierc.labels import SPANS_KEY, Annotations

NONE = "NONE"
#: Hash buckets of the feature space.
N_FEATURES = 2**18

#: At most this many mentions of one sentence, the first in text order, are paired.
MAX_MENTIONS_PER_SENTENCE = 64
#: Two mentions whose tokens (first to last) span more than this are not paired.
MAX_PAIR_SPAN = 256

#: ``(start, end, label)`` with spaCy's exclusive end.
Mention = tuple[int, int, str]
#: ``(head_start, head_end, tail_start, tail_end, label, score)``, ends exclusive.
RelationOut = tuple[int, int, int, int, str, float]


def _bucket(n: int) -> str:
    for limit in (0, 1, 2, 3, 4, 6, 9, 13):
        if n <= limit:
            return str(limit)
    return "14+"


@dataclass(frozen=True)
class TokenTable:
    """What the features need from a Doc, read once into plain lists (fast to index).

    ``head[i] == i`` marks a root (or an unparsed token); ``sent[i]`` is the
    index of the first token of token ``i``'s sentence, ``sent_end[i]`` the
    end of it.
    """

    lower: list[str]
    lemma: list[str]
    dep: list[str]
    head: list[int]
    sent: list[int]
    sent_end: list[int]
    parsed: bool


def token_table(doc: Doc) -> TokenTable:
    """Read ``doc`` into a :class:`TokenTable`; without sentence boundaries the Doc is one sentence."""
    n = len(doc)
    if doc.has_annotation("SENT_START") or doc.has_annotation("DEP"):
        bounds = [(s.start, s.end) for s in doc.sents]
    else:
        bounds = [(0, n)]
    sent, sent_end = [0] * n, [n] * n
    for start, end in bounds:
        for i in range(start, end):
            sent[i], sent_end[i] = start, end
    return TokenTable(
        lower=[t.lower_ for t in doc],
        # Without a lemmatizer (a blank pipeline) the lemma is empty: use the word.
        lemma=[(t.lemma_ or t.text).lower() for t in doc],
        dep=[t.dep_ for t in doc],
        head=[t.head.i for t in doc],
        sent=sent,
        sent_end=sent_end,
        parsed=doc.has_annotation("DEP"),
    )


def _root(table: TokenTable, start: int, end: int) -> int:
    # The token whose head lies outside the span (the syntactic head); the last
    # token when the Doc is not parsed (English noun phrases are head-final).
    if table.parsed:
        for i in range(start, end):
            h = table.head[i]
            if h == i or not start <= h < end:
                return i
    return end - 1


def _ancestors(table: TokenTable, i: int) -> list[int]:
    chain = [i]
    while table.head[chain[-1]] != chain[-1] and len(chain) <= len(table.head):
        chain.append(table.head[chain[-1]])
    return chain


def path_between(table: TokenTable, a: int, b: int) -> tuple[list[str], list[str]]:
    """The dependency path from token ``a`` to token ``b``: labels, and the lemmas on it.

    Labels go up from ``a`` to the lowest common ancestor (``dep>``) and down
    to ``b`` (``<dep``); the lemmas are those of the tokens strictly between
    ``a`` and ``b`` on the path. ``(["NOPATH"], [])`` when they are in
    different trees.
    """
    up = _ancestors(table, a)
    index = {t: k for k, t in enumerate(up)}
    down: list[int] = []
    node = b
    while node not in index:
        if table.head[node] == node:
            return ["NOPATH"], []
        down.append(node)
        node = table.head[node]
    lca = index[node]
    labels = [table.dep[t] + ">" for t in up[:lca]] + ["<" + table.dep[t] for t in reversed(down)]
    inner = [t for t in up[1 : lca + 1] if t != b] + list(reversed(down[1:]))
    return labels, [table.lemma[t] for t in inner]


def dependency_path(a: Token, b: Token) -> list[str]:
    """Dependency labels from ``a`` up to the lowest common ancestor and down to ``b``.

    >>> import spacy
    >>> from spacy.tokens import Doc
    >>> doc = Doc(spacy.blank("en").vocab, words=["We", "use", "CRFs"], heads=[1, 1, 1], deps=["nsubj", "ROOT", "dobj"])
    >>> dependency_path(doc[0], doc[2])
    ['nsubj>', '<dobj']
    """
    return path_between(token_table(a.doc), a.i, b.i)[0]


def pair_features(table: TokenTable, head: Mention, tail: Mention, mentions: Sequence[Mention]) -> list[str]:
    """Feature strings of the ordered pair ``head -> tail`` (a :func:`token_table` of the Doc).

    ``mentions`` are all mentions of the sentence (to count those between).
    Every feature also appears conjoined with the direction, so the model can
    tell "X for Y" (head first) from "Y for X".
    """
    hs, he, hl = head
    ts, te, tl = tail
    forward = hs < ts or (hs == ts and he <= te)
    left, right = (head, tail) if forward else (tail, head)
    lemma, lower = table.lemma, table.lower
    lemmas = lemma[left[1] : right[0]] if left[1] <= right[0] else []
    hroot, troot = _root(table, hs, he), _root(table, ts, te)
    types = f"{hl}|{tl}"
    dist = _bucket(len(lemmas))
    feats = [
        "ht=" + hl,
        "tt=" + tl,
        "tp=" + types,
        "hw=" + lower[hroot],
        "tw=" + lower[troot],
        "hx=" + " ".join(lower[hs:he]),
        "tx=" + " ".join(lower[ts:te]),
        "hwtw=" + lemma[hroot] + "|" + lemma[troot],
        "dist=" + dist,
        "tpdist=" + types + "|" + dist,
        "nest=" + str(left[1] > right[0]),
        "nm=" + _bucket(sum(1 for s, e, _ in mentions if s >= left[1] and e <= right[0])),
    ]
    feats.extend("bw=" + w for w in lemmas)
    feats.extend("bb=" + x + "_" + y for x, y in zip(lemmas, lemmas[1:], strict=False))
    if lemmas:
        feats += ["bf=" + lemmas[0], "bl=" + lemmas[-1], "tpbf=" + types + "|" + lemmas[0]]
        if len(lemmas) <= 4:
            phrase = " ".join(lemmas)
            feats += ["bp=" + phrase, "tpbp=" + types + "|" + phrase]
    else:
        feats.append("bw=NONE")
    start, end = table.sent[left[0]], table.sent_end[left[0]]
    for k in (1, 2):
        i, j = left[0] - k, right[1] + k - 1
        feats.append(f"b{k}=" + (lower[i] if i >= start else "<S>"))
        feats.append(f"a{k}=" + (lower[j] if j < end else "</S>"))
    path, inner = path_between(table, hroot, troot)
    labels = " ".join(path)
    feats += ["path=" + labels, "tppath=" + types + "|" + labels, "plen=" + _bucket(len(path))]
    if len(path) <= 5:
        # The words on the path: the verb or preposition linking the arguments.
        words = " ".join(inner)
        feats += ["pathw=" + labels + "|" + words, "pw=" + words]
        feats.extend("pwi=" + w for w in inner)
    feats += ["hwb=" + lemma[hroot] + "|" + w for w in lemmas[:3]]
    feats += ["twb=" + lemma[troot] + "|" + w for w in lemmas[-3:]]
    feats += ["hlt=" + hl + "|" + lemma[he - 1], "tlt=" + tl + "|" + lemma[te - 1]]
    direction = "F:" if forward else "R:"
    return feats + [direction + f for f in feats] + [direction]


@dataclass(frozen=True)
class RelationModel:
    """Weights of the multinomial logistic regression over hashed pair features."""

    labels: tuple[str, ...]
    weights: np.ndarray  # (N_FEATURES, labels), C order: a pair's rows are gathered and summed
    bias: np.ndarray  # (labels,)
    threshold: float = 0.5

    def probabilities(self, feature_lists: Sequence[Sequence[str]]) -> np.ndarray:
        """Softmax probabilities, one row per pair, columns in ``labels`` order."""
        if not feature_lists:
            return np.zeros((0, len(self.labels)), dtype=np.float32)
        starts, columns = hashed_columns(feature_lists, self.weights.shape[0])
        # Binary features: a pair's logits are the sum of its buckets' weight rows.
        logits = np.add.reduceat(self.weights[columns].astype(np.float32), starts, axis=0) + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            labels=np.array(self.labels),
            weights=self.weights.astype(np.float16),
            bias=self.bias.astype(np.float32),
            threshold=np.array(self.threshold),
        )

    @classmethod
    def load(cls, path: Path) -> RelationModel:
        with np.load(path, allow_pickle=False) as data:
            return cls(
                labels=tuple(str(x) for x in data["labels"]),
                weights=np.ascontiguousarray(data["weights"], dtype=np.float32),
                bias=data["bias"],
                threshold=float(data["threshold"]),
            )


def hashed_columns(feature_lists: Sequence[Sequence[str]], n_features: int = N_FEATURES) -> tuple[np.ndarray, np.ndarray]:
    """Each pair's distinct feature buckets (CRC-32 of the feature, modulo ``n_features``).

    Returns ``(starts, columns)``: the buckets of pair ``i`` are
    ``columns[starts[i]:starts[i + 1]]``. Plain ``zlib`` hashing keeps
    prediction free of scikit-learn, whose import alone costs about a second.
    A feature seen twice (two equal words between) counts once.

    >>> starts, columns = hashed_columns([["a", "b", "a"], ["b"]], 16)
    >>> starts.tolist(), len(columns), bool(columns[2] in columns[:2])
    ([0, 2], 3, True)
    """
    starts: list[int] = []
    columns: list[int] = []
    for feats in feature_lists:
        starts.append(len(columns))
        columns.extend(sorted({zlib.crc32(f.encode("utf-8")) % n_features for f in feats}))
    return np.array(starts, dtype=np.int64), np.array(columns, dtype=np.int64)


Pair = tuple[Mention, Mention, list[Mention]]


def _sentence_groups(table: TokenTable, mentions: Sequence[Mention]) -> list[list[Mention]]:
    groups: dict[int, list[Mention]] = {}
    for m in sorted(set(mentions)):
        groups.setdefault(table.sent[m[0]], []).append(m)
    return list(groups.values())


def _near(a: Mention, b: Mention) -> bool:
    return max(a[1], b[1]) - min(a[0], b[0]) <= MAX_PAIR_SPAN


def candidate_pairs(table: TokenTable, mentions: Sequence[Mention]) -> list[Pair]:
    """Every ordered pair of distinct mentions in one sentence, with that sentence's (paired) mentions.

    Within the caps: the first :data:`MAX_MENTIONS_PER_SENTENCE` mentions of a
    sentence, no two more than :data:`MAX_PAIR_SPAN` tokens apart.
    """
    pairs = []
    for group in _sentence_groups(table, mentions):
        kept = group[:MAX_MENTIONS_PER_SENTENCE]
        pairs += [(a, b, kept) for a in kept for b in kept if a[:2] != b[:2] and _near(a, b)]
    return pairs


def capped(table: TokenTable, mentions: Sequence[Mention]) -> str | None:
    """What :func:`candidate_pairs` leaves out of ``mentions``, in words, or ``None`` if nothing.

    >>> table = TokenTable(*([[]] * 3), head=[], sent=[0] * 400, sent_end=[400] * 400, parsed=False)
    >>> capped(table, [(i, i + 1, "Method") for i in range(0, 400, 4)])
    'a sentence with 100 mentions: only its first 64 are paired'
    >>> capped(table, [(0, 1, "Method"), (300, 301, "Task")])
    '1 pair of mentions more than 256 tokens apart not paired'
    >>> capped(table, [(0, 1, "Method"), (3, 4, "Task")]) is None
    True
    """
    notes, far = [], 0
    for group in _sentence_groups(table, mentions):
        if len(group) > MAX_MENTIONS_PER_SENTENCE:
            notes.append(f"a sentence with {len(group)} mentions: only its first {MAX_MENTIONS_PER_SENTENCE} are paired")
        kept = group[:MAX_MENTIONS_PER_SENTENCE]
        far += sum(1 for i, a in enumerate(kept) for b in kept[i + 1 :] if a[:2] != b[:2] and not _near(a, b))
    if far:
        notes.append(f"{far} pair{'s' * (far > 1)} of mentions more than {MAX_PAIR_SPAN} tokens apart not paired")
    return "; ".join(notes) or None


def decode(
    pairs: Sequence[tuple[Mention | tuple[int, int], Mention | tuple[int, int], Any]], probs: np.ndarray, labels: Sequence[str], threshold: float
) -> tuple[RelationOut, ...]:
    """Keep, for each unordered pair, its best (direction, label) when the probability reaches ``threshold``.

    A pair's ends are mentions or bare ``(start, end)`` spans: only their spans are read.
    """
    none = labels.index(NONE)
    best: dict[tuple[tuple[int, int], ...], RelationOut] = {}
    for (a, b, _), row in zip(pairs, probs, strict=True):
        row = row.copy()
        row[none] = -1.0
        k = int(row.argmax())
        score = float(row[k])
        if score < threshold:
            continue
        key = tuple(sorted((a[:2], b[:2])))
        if key not in best or score > best[key][5]:
            best[key] = (a[0], a[1], b[0], b[1], labels[k], round(score, 4))
    return tuple(sorted(best.values()))


#: What a second model says of a Doc's pairs: its weight in the blend, and a
#: probability row (in the relation model's label order) per ordered pair
#: ``(head_start, head_end, tail_start, tail_end)``, ends exclusive.
PairOpinion = tuple[float, dict[tuple[int, int, int, int], np.ndarray]]


def blend(found: Sequence[Pair], probs: np.ndarray, opinion: PairOpinion | None) -> np.ndarray:
    """``probs`` mixed with a second model's rows for the same pairs (pairs it did not score keep ``probs``).

    >>> pairs = [((0, 1, "Method"), (2, 3, "Task"), [])]
    >>> blend(pairs, np.array([[0.8, 0.2]]), (0.5, {(0, 1, 2, 3): np.array([0.2, 0.8])})).tolist()
    [[0.5, 0.5]]
    """
    if opinion is None or not opinion[0]:
        return probs
    weight, rows = opinion
    out = probs.copy()
    for i, (a, b, _) in enumerate(found):
        row = rows.get((a[0], a[1], b[0], b[1]))
        if row is not None:
            out[i] = (1.0 - weight) * probs[i] + weight * row
    return out


def score_pairs(
    docs: Sequence[Doc], mentions: Sequence[Sequence[Mention]], model: RelationModel
) -> list[tuple[list[Pair], np.ndarray]]:
    """Each Doc's candidate pairs and their probabilities (columns in ``model.labels`` order).

    The pairs of the whole batch are scored in one matrix product: hashing and
    scoring per Doc would cost more than the features.
    """
    pairs: list[list[Pair]] = []
    feats: list[list[str]] = []
    for doc, ments in zip(docs, mentions, strict=True):
        table = token_table(doc)
        found = candidate_pairs(table, ments)
        pairs.append(found)
        feats.extend(pair_features(table, a, b, g) for a, b, g in found)
    probs = model.probabilities(feats)
    out, offset = [], 0
    for found in pairs:
        out.append((found, probs[offset : offset + len(found)]))
        offset += len(found)
    return out


def predict_batch(
    docs: Sequence[Doc],
    mentions: Sequence[Sequence[Mention]],
    model: RelationModel,
    opinions: Sequence[PairOpinion | None] | None = None,
) -> list[tuple[RelationOut, ...]]:
    """The relations of each Doc among its mentions (exclusive ends), with their probabilities.

    ``opinions`` (one per Doc, or ``None``) are a second model's
    probabilities, blended in before decoding (:func:`blend`).
    """
    return [
        decode(found, blend(found, probs, opinions[k] if opinions else None), model.labels, model.threshold)
        for k, (found, probs) in enumerate(score_pairs(docs, mentions, model))
    ]


def predict_relations(doc: Doc, mentions: Sequence[Mention], model: RelationModel) -> tuple[RelationOut, ...]:
    """The relations of one Doc among ``mentions`` (exclusive ends), with their probabilities."""
    return predict_batch([doc], [mentions], model)[0]


def as_annotations(mentions: Sequence[Mention], rels: Sequence[RelationOut]) -> Annotations:
    """Mentions and relations with exclusive ends, as DyGIE-convention annotations."""
    return Annotations(
        frozenset((s, e - 1, lab) for s, e, lab in mentions),
        frozenset((hs, he - 1, ts, te - 1, lab) for hs, he, ts, te, lab, _ in rels),
    )


def doc_mentions(doc: Doc) -> list[Mention]:
    """The entity component's mentions on ``doc`` (exclusive ends)."""
    return [(s.start, s.end, s.label_) for s in doc.spans.get(SPANS_KEY, ())]


def predict_annotations(doc: Doc, model: RelationModel) -> Annotations:
    """Entities on ``doc`` and the relations ``model`` finds among them, DyGIE conventions."""
    mentions = doc_mentions(doc)
    return as_annotations(mentions, predict_relations(doc, mentions, model))
