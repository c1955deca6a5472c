"""Ceilings on the work and the output of one abstract: mentions per sentence, facts per paper, evidence per fact.

The rule stages (``kg_relations``, the hub rules) and the fact scorer
(``kg_fact_scores``) pair mentions with one another, and several of their steps
are quadratic in the mentions of a sentence (a list's members each walk back
over the list; a fact on one member is copied to every other). One sentence
naming 5,000 methods took 3.3 GB and 91 s before these caps. Each cap is several
times what real abstracts reach, so none binds on ordinary text (on the 215
seed abstracts: at most 11 mentions in a sentence, 18 facts in a paper, a
sentence of 646 characters), and each says when it cuts:

- :data:`MAX_RULE_MENTIONS`: the rule stages and the fact scorer see the first
  64 mentions of a sentence, in text order (:func:`crowd_cap`); the others stay
  mentions and entities, without facts of their own.
- :data:`MAX_FACTS_PER_PAPER`: a paper keeps its first 200 facts
  (:func:`cap_facts`), the paper's own ``proposes`` facts first.
- :data:`MAX_EVIDENCE_CHARS`: a fact's evidence is its sentence, verbatim; a
  sentence longer than 2,000 characters is narrowed to the 2,000 around the fact's
  two mentions (:func:`evidence_window`), still verbatim, so one abstract's
  evidence is at most 200 x 2,000 characters however it is written.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from kg.model import Fact, Mention

__all__ = ["MAX_EVIDENCE_CHARS", "MAX_FACTS_PER_PAPER", "MAX_RULE_MENTIONS", "cap_facts", "crowd_cap", "evidence_window"]

#: Mentions of one sentence the rule stages and the fact scorer pair, the first in text order.
MAX_RULE_MENTIONS = 64
#: Facts one paper keeps, the first in the order the extractors found them.
MAX_FACTS_PER_PAPER = 200
#: Characters of one fact's evidence.
MAX_EVIDENCE_CHARS = 2_000


def crowd_cap(sentences: Sequence[tuple[int, int]], mentions: Sequence[Mention]) -> tuple[tuple[Mention, ...], str | None]:
    """``mentions`` less those past the first :data:`MAX_RULE_MENTIONS` of their sentence, and a note when any went.

    ``sentences`` are the character offsets of the sentences, in order.

    >>> ms = [Mention(i, i + 1, "Method", "x") for i in range(70)]
    >>> kept, note = crowd_cap([(0, 100)], ms)
    >>> len(kept), note
    (64, 'a sentence with 70 mentions: the rules pair only its first 64')
    >>> crowd_cap([(0, 50), (50, 100)], ms)[1] is None
    True
    """
    starts = [start for start, _ in sentences]
    sentence_of = [bisect.bisect_right(starts, m.start) for m in mentions]
    counts = Counter(sentence_of)
    if not counts or max(counts.values()) <= MAX_RULE_MENTIONS:
        return tuple(mentions), None
    # The first mentions of each crowded sentence in text order, whatever order they come in.
    kept: set[int] = set()
    for sentence in (s for s, n in counts.items() if n > MAX_RULE_MENTIONS):
        members = sorted((i for i, s in enumerate(sentence_of) if s == sentence), key=lambda i: (mentions[i].start, mentions[i].end))
        kept.update(members[:MAX_RULE_MENTIONS])
    out = tuple(m for i, m in enumerate(mentions) if counts[sentence_of[i]] <= MAX_RULE_MENTIONS or i in kept)
    return out, f"a sentence with {max(counts.values())} mentions: the rules pair only its first {MAX_RULE_MENTIONS}"


def cap_facts(facts: Sequence[Fact]) -> tuple[tuple[Fact, ...], str | None]:
    """The first :data:`MAX_FACTS_PER_PAPER` of ``facts``, and a note when some were left out.

    >>> m = Mention(0, 1, "Method", "x")
    >>> kept, note = cap_facts([Fact("uses", m, m, (0, 1), "t", 1.0)] * 201)
    >>> len(kept), note
    (200, '201 facts: only the first 200 are kept')
    """
    if len(facts) <= MAX_FACTS_PER_PAPER:
        return tuple(facts), None
    return tuple(facts[:MAX_FACTS_PER_PAPER]), f"{len(facts)} facts: only the first {MAX_FACTS_PER_PAPER} are kept"


def evidence_window(fact: Fact) -> Fact:
    """``fact`` with its evidence sentence narrowed to :data:`MAX_EVIDENCE_CHARS` around its mentions, when longer.

    The window covers both mentions and is widened evenly on both sides up to
    the limit, within the sentence; when the two mentions alone lie farther
    apart, it is centred on the object.

    >>> obj = Mention(5000, 5010, "Task", "x")
    >>> evidence_window(Fact("addresses", None, obj, (0, 9000), "t", 1.0)).sentence
    (4005, 6005)
    >>> evidence_window(Fact("addresses", None, obj, (4990, 5100), "t", 1.0)).sentence
    (4990, 5100)
    """
    start, end = fact.sentence
    if end - start <= MAX_EVIDENCE_CHARS:
        return fact
    ends = [fact.object] + ([fact.subject] if fact.subject is not None else [])
    low, high = min(m.start for m in ends), max(m.end for m in ends)
    if high - low > MAX_EVIDENCE_CHARS:
        low, high = fact.object.start, fact.object.end
    room = MAX_EVIDENCE_CHARS - (high - low)
    low = max(start, low - room // 2)
    high = min(end, low + MAX_EVIDENCE_CHARS)
    low = max(start, high - MAX_EVIDENCE_CHARS)
    return replace(fact, sentence=(low, high))
