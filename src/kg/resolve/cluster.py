"""Clusters of name keys: a union-find over ``(class, key)`` nodes.

A node is one matching key (:func:`kg.resolve.normalise.compact`) in one
entity class, or an *alias anchor* ``(class, "=" + canonical label)`` that
every spelling of a well-known name is joined to. Joining never depends on
the order of the calls: a union-find yields the same partition whatever the
order of its unions, and the fuzzy pass compares a fixed set of pairs.

Fuzzy matching is guarded, because a wrong merge is worse than a missed one
(two papers' results mixed up in one node):

- only keys of at least :data:`FUZZY_MIN_LENGTH` characters take part;
  shorter names need an exact or alias match;
- both names must have the same number of words, the same number tokens
  (``ResNet-50`` vs ``ResNet-101``, ``Llama 2`` vs ``Llama 3``) and the same
  variant words (``base`` vs ``large``);
- word by word, in order, the first three letters must agree. That keeps
  ``unsupervised``/``supervised`` and ``encoder``/``decoder`` apart and keeps
  word order (``text-to-image`` vs ``image-to-text``), while typos and
  inflections (``convolution``/``convolutional``) still match;
- the :func:`rapidfuzz.fuzz.token_sort_ratio` must reach :data:`FUZZY_THRESHOLD`.

Names are bucketed by that guard signature, so only names in one bucket are
compared. A bucket can still be large (one-word names share only their first
three letters), so within it only names whose lengths allow the threshold are
compared: the score is at most ``200 * shorter / (shorter + longer)``, because
the Indel distance it is made from is at least the difference in length.
"""

from __future__ import annotations

from collections import defaultdict

from rapidfuzz import fuzz, process

from kg.resolve.normalise import numbers, variants

FUZZY_THRESHOLD = 92.0
FUZZY_MIN_LENGTH = 8
ANCHOR = "="


class Clusters:
    """Nodes ``(class, key)`` with their normalised forms, joined by a union-find."""

    def __init__(self) -> None:
        self.ids: dict[tuple[str, str], int] = {}
        self.nodes: list[tuple[str, str]] = []
        self.forms: list[set[str]] = []
        self._parent: list[int] = []

    def node(self, cls: str, key: str, form: str | None = None) -> int:
        """The id of node ``(cls, key)``, created on first use; ``form`` is recorded."""
        found = self.ids.get((cls, key))
        if found is None:
            found = self.ids[(cls, key)] = len(self.nodes)
            self.nodes.append((cls, key))
            self.forms.append(set())
            self._parent.append(found)
        if form:
            self.forms[found].add(form)
        return found

    def find(self, node: int) -> int:
        """The root of ``node``'s cluster (with path halving)."""
        parent = self._parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def union(self, a: int, b: int) -> None:
        """Join the clusters of ``a`` and ``b``; the smaller id becomes the root."""
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self._parent[max(ra, rb)] = min(ra, rb)

    def members(self) -> dict[int, list[int]]:
        """Root -> the node ids of its cluster, in id order."""
        groups: dict[int, list[int]] = defaultdict(list)
        for node in range(len(self.nodes)):
            groups[self.find(node)].append(node)
        return groups


def fuzzy_signature(words: tuple[str, ...]) -> tuple[object, ...]:
    """What two names must share before they are compared at all.

    >>> fuzzy_signature(("convolutional", "neural", "network"))
    ((), (), ('con', 'neu', 'net'))
    """
    return numbers(words), variants(words), tuple(w[:3] for w in words)


def within_reach(shorter: int, longer: int) -> bool:
    """Whether texts of these lengths can reach :data:`FUZZY_THRESHOLD` at all.

    ``token_sort_ratio`` is ``100 * (1 - distance / (shorter + longer))`` with an
    Indel distance of at least ``longer - shorter``. The ``+ 1`` keeps every pair
    whose bound is within rounding of the threshold.

    >>> within_reach(12, 14), within_reach(12, 15)
    (True, False)
    """
    return 200 * shorter + 1 > FUZZY_THRESHOLD * (shorter + longer)


def _bucket_pairs(keys: list[str], texts: dict[str, str]) -> list[tuple[str, str]]:
    """The pairs of one bucket that reach the threshold, each as ``(lesser key, greater key)``.

    Keys sorted by text length; each is compared only with the longer ones in
    reach (a window that moves forward with the length).
    """
    ordered = sorted(keys, key=lambda k: (len(texts[k]), k))
    strings = [texts[k] for k in ordered]
    lengths = [len(t) for t in strings]
    pairs = []
    end = 0
    for i, key in enumerate(ordered):
        end = max(end, i + 1)
        while end < len(ordered) and within_reach(lengths[i], lengths[end]):
            end += 1
        if end == i + 1:
            continue
        # The scorer runs in rapidfuzz over the window; its cutoff only prunes (one point below
        # the threshold), and the threshold itself is applied here, to the same scores as before.
        found = process.extract(strings[i], strings[i + 1:end], scorer=fuzz.token_sort_ratio,
                                score_cutoff=FUZZY_THRESHOLD - 1, limit=None)
        for _, score, j in found:
            if score >= FUZZY_THRESHOLD:
                other = ordered[i + 1 + j]
                pairs.append((min(key, other), max(key, other)))
    return sorted(pairs)


def fuzzy_pairs(names: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """The pairs of keys (of one class) that the guarded fuzzy match joins.

    ``names`` maps each matching key to its normalised words. Pairs come bucket
    by bucket (in the order of each bucket's least key), each ``(a, b)`` with
    ``a < b``, sorted within the bucket.

    >>> names = {"convolutionneuralnetwork": ("convolution", "neural", "network"),
    ...          "convolutionalneuralnetwork": ("convolutional", "neural", "network"),
    ...          "unsupervisedlearning": ("unsupervised", "learning"),
    ...          "supervisedlearning": ("supervised", "learning")}
    >>> fuzzy_pairs(names)
    [('convolutionalneuralnetwork', 'convolutionneuralnetwork')]
    """
    buckets: dict[tuple[object, ...], list[str]] = defaultdict(list)
    for key in sorted(names):
        if len(key) >= FUZZY_MIN_LENGTH:
            buckets[fuzzy_signature(names[key])].append(key)
    texts = {key: " ".join(names[key]) for keys in buckets.values() if len(keys) > 1 for key in keys}
    return [pair for keys in buckets.values() if len(keys) > 1 for pair in _bucket_pairs(keys, texts)]
