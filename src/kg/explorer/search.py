"""The explorer's search rules in Python, for a server that answers searches over a large graph.

graph.html searches in the browser (``assets/explorer.js``); ``kg serve``'s
explorer asks the server instead, and must rank the same way. :func:`normalise`
is the script's ``normalise`` (case, accents, hyphens, punctuation and plurals
ignored), and :func:`find` ranks as the script's ``search``: exact label >
exact other name > prefix > a later word's prefix ("lora" in "QA-LoRA tuning") >
substring ("deep exploration"), then by support, then by label, where
every comparison is made with the spaces taken out (so "GPT-4" is found by
"gpt4" and "gpt 4"). ``tests/test_explorer_served.py`` checks that both give
the same suggestions on the seeds graph.

:func:`name_index` puts every node's names, run together, into one text in
ranking order, so a search is a few C-speed ``str.find`` scans rather than a
Python loop over all names: about a millisecond on 100,000 nodes for a typical
query (``benchmarks/page.py --served``).

Limits
------
- Counting stops at :data:`COUNT_CAP` matching nodes (``complete`` is then
  false): a one-letter query matches most of a large graph, and the count is
  only shown as a number.
- The script's ``toLowerCase`` and Python's ``str.lower`` agree except for a
  few locale-sensitive letters; ``\\p{N}`` is read as Python's numeric characters.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["COUNT_CAP", "Hit", "NameIndex", "find", "name_index", "normalise"]

#: Matching nodes counted at most; past it a search says "more than".
COUNT_CAP = 2_000
# Word characters are letters, digits, "+" and "#" ("C++", "C#"); "_" is not one (\w would say it is).
_SEPARATORS = re.compile(r"(?:[^\w+#]|_)+")
_COMBINING = re.compile("[\u0300-\u036f]")
_ES_PLURAL = re.compile(r"(ss|x|ch|sh)es$")
_KEEP_S = re.compile(r"(ss|us|is)$")


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if _ES_PLURAL.search(word):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not _KEEP_S.search(word):
        return word[:-1]
    return word


def normalise(text: str) -> str:
    """Lower case, accents, hyphens and punctuation dropped, each word made singular (as explorer.js).

    >>> normalise("Low-Rank ADAPTATIONS"), normalise("Cafés, C++ models"), normalise("GPT-4")
    ('low rank adaptation', 'cafe c++ model', 'gpt 4')
    """
    plain = _COMBINING.sub("", unicodedata.normalize("NFKD", text)).lower()
    return " ".join(_singular(word) for word in _SEPARATORS.split(plain) if word)


@dataclass(frozen=True)
class NameIndex:
    """Every node's searchable names, run together, in ranking order.

    ``text`` is ``"\\n" + key + "\\n" + key + ... + "\\n"``; key ``i`` starts at
    ``starts[i]`` and belongs to name ``names[i]`` (node, position: 0 the
    label, k the k-th other name) of a node ranked ``order[node]``.
    """

    text: str
    starts: list[int]
    names: list[tuple[int, int]]
    exact: dict[str, list[tuple[int, int]]]
    order: dict[int, int]
    #: The same for every name's tails from its second word on ("qa lora tuning": "loratuning", "tuning").
    tails: tuple[str, list[int], list[tuple[int, int]]] = ("\n", [], [])


@dataclass(frozen=True)
class Hit:
    """A node that matches: ``rank`` 0 exact label, 1 exact other name, 2 prefix, 3 a later word's prefix, 4 substring; ``via`` the name."""

    node: int
    rank: int
    via: int


def name_index(names: Sequence[Sequence[str]], ranking: Sequence[tuple[object, ...]]) -> NameIndex:
    """The index of nodes ``0..n-1``: ``names[i]`` is node i's label then other names.

    ``ranking[i]`` orders the nodes within a rank (say ``(-support, label, iri)``).

    >>> index = name_index([["Low-Rank Adaptation", "LoRA"], ["LoRAMoE"]], [(-5, "a"), (-1, "b")])
    >>> find(index, "lora")
    ([Hit(node=0, rank=1, via=1), Hit(node=1, rank=2, via=0)], 2, True)
    """
    ranked = sorted(range(len(names)), key=lambda i: ranking[i])
    parts, starts, owners = [], [], []
    tails, tail_starts, tail_owners = [], [], []
    exact: dict[str, list[tuple[int, int]]] = {}
    at = tail_at = 1
    for node in ranked:
        for k, name in enumerate(names[node]):
            words = normalise(name).split(" ")
            key = "".join(words)
            if not key:
                continue
            parts.append(key)
            starts.append(at)
            owners.append((node, k))
            exact.setdefault(key, []).append((node, k))
            at += len(key) + 1
            for w in range(1, len(words)):
                tail = "".join(words[w:])
                tails.append(tail)
                tail_starts.append(tail_at)
                tail_owners.append((node, k))
                tail_at += len(tail) + 1
    order = {node: r for r, node in enumerate(ranked)}
    return NameIndex("\n" + "\n".join(parts) + "\n", starts, owners, exact, order, ("\n" + "\n".join(tails) + "\n", tail_starts, tail_owners))


def _scan(index: NameIndex, needle: str, offset: int, seen: dict[int, Hit], rank: int, want: int, tails: bool = False) -> tuple[list[Hit], bool]:
    """Nodes with a key (or, with ``tails``, a tail) holding ``needle`` (at ``offset`` from its start), past ``seen``.

    Keys come in ranking order, tails in the order of their names. Stops after
    ``want`` new nodes; returns them and whether the scan reached the end.
    """
    text, starts, names = index.tails if tails else (index.text, index.starts, index.names)
    found: list[Hit] = []
    at = text.find(needle)
    while at >= 0:
        key = bisect.bisect_right(starts, at + offset) - 1
        node, k = names[key]
        if node not in seen:
            hit = Hit(node, rank, k)
            seen[node] = hit
            found.append(hit)
            if len(found) >= want:
                return found, False
        # One hit per key is enough: go on from the next key.
        following = starts[key + 1] - 1 if key + 1 < len(starts) else len(text)
        at = text.find(needle, following)
    return found, True


def find(index: NameIndex, query: str, limit: int = 12) -> tuple[list[Hit], int, bool]:
    """The first ``limit`` nodes matching ``query`` as the page ranks them, how many match, and whether that count is exact.

    >>> index = name_index([["BERT"], ["RoBERTa"], ["BERT large", "bert"]], [(-1,), (-9,), (-2,)])
    >>> [(h.node, h.rank) for h in find(index, "Bert")[0]]
    [(0, 0), (2, 1), (1, 4)]
    >>> index = name_index([["deep exploration"], ["QA-LoRA tuning"]], [(-9,), (-1,)])
    >>> [(h.node, h.rank) for h in find(index, "lora")[0]]
    [(1, 3), (0, 4)]
    """
    wanted = normalise(query)
    if not wanted:
        return [], 0, True
    compact = wanted.replace(" ", "")
    seen: dict[int, Hit] = {}
    exact = sorted(index.exact.get(compact, ()), key=lambda name: (0 if name[1] == 0 else 1, index.order[name[0]], name[1]))
    hits = []
    for node, k in exact:
        if node not in seen:
            seen[node] = Hit(node, 0 if k == 0 else 1, k)
            hits.append(seen[node])
    hits.sort(key=lambda hit: (hit.rank, index.order[hit.node]))
    # Keys run in ranking order, so the first prefix and substring hits are the best supported.
    prefixed, _ = _scan(index, "\n" + compact, 1, seen, 2, max(0, limit - len(hits)) or 1)
    hits += prefixed
    # A later word's prefix: every such node (tails are not in ranking order), then ranked.
    worded, _ = _scan(index, "\n" + compact, 1, seen, 3, max(1, COUNT_CAP - len(seen)), tails=True)
    hits += sorted(worded, key=lambda hit: index.order[hit.node])
    inside, complete = _scan(index, compact, 0, seen, 4, max(1, COUNT_CAP - len(seen)))
    hits += inside
    # The prefix scan may have stopped early: the full scan counts every match once.
    return hits[:limit], len(seen), complete
