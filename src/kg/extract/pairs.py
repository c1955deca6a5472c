"""Learned confidences for relation facts: how likely a careful reader states a (method, relation, object) pair.

The rules of :mod:`kg.extract.relations` and :mod:`kg.extract.hub` say *which*
rule found a fact; how far to trust it is better read from the fact itself
than from its rule alone ("X uses Y" from a uses cue is right when Y is a named
component, wrong when Y is a phrase of the background). This stage describes
every pair a fact could join in one abstract (the main method with every mention
of a fitting type, and any two mentions of one sentence) with sparse features
(the words between them, the words around the object, their common head in the
parse, what the rules found for the pair) and scores it with a logistic model
trained by ``kg train facts`` on annotated abstracts. A relation fact the rules
found takes the model's score as its confidence; its provenance (the rule) is
kept, so ``kg build --min-confidence`` trades recall for precision on a scale
that means the same for every rule.

>>> model = PairModel(weights={"uses|bias": 2.0}, bias=-1.0, version="t")
>>> round(model.score(["uses|bias"]), 3)
0.731
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from spacy.tokens import Doc, Span, Token
from spacy.util import registry

from kg.extract.annotations import rule_extractor
from kg.extract.bounds import crowd_cap
from kg.extract.hub import ranked_methods
from kg.extract.structure import MentionIndex, proposals, sentence_offsets
from kg.model import Acronym, Fact, Mention, Relation, Rule

#: The relations scored, with the type of their object (the subject is a Method).
OBJECT_TYPES: Mapping[str, str] = {
    Relation.ADDRESSES.value: "Task",
    Relation.USES.value: "Method",
    Relation.OUTPERFORMS.value: "Method",
    Relation.EVALUATED_ON.value: "Dataset",
    Relation.MEASURED_BY.value: "Metric",
}
_TYPES = frozenset(OBJECT_TYPES.values())
_WORD = re.compile(r"[^a-z0-9]+")
_BETWEEN_POS = frozenset({"VERB", "ADP", "ADJ", "SCONJ", "ADV", "CCONJ", "AUX", "PUNCT"})
_MAX_BETWEEN = 12


def thing_key(text: str) -> str:
    """Mentions with one key are one thing of the abstract: lower case, letters and digits, no plural "s".

    >>> thing_key("Vision Transformers") == thing_key("vision transformer")
    True
    """
    words = [w for w in _WORD.split(text.lower()) if w]
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words)


@dataclass
class Thing:
    """One named thing of an abstract: its mentions (a long form and its acronym together) and type."""

    key: str
    mentions: list[Mention] = field(default_factory=list)
    label: str = ""

    @property
    def forms(self) -> list[str]:
        return sorted({m.text for m in self.mentions})


def group_things(mentions: Iterable[Mention], acronyms: Sequence[Acronym]) -> list[Thing]:
    """The abstract's mentions grouped into things, each typed by its mentions' vote (a rule mention counts twice)."""
    alias = {thing_key(a.short): thing_key(a.long) for a in acronyms}
    things: dict[str, Thing] = {}
    for mention in mentions:
        key = thing_key(mention.text)
        if mention.label not in _TYPES or not key:
            continue
        key = alias.get(key, key)
        things.setdefault(key, Thing(key)).mentions.append(mention)
    for thing in things.values():
        votes: dict[str, float] = defaultdict(float)
        for m in thing.mentions:
            votes[m.label] += 1.0 if "scierc" in m.extractor else 2.0
        thing.label = max(sorted(votes), key=lambda label: votes[label])
    return list(things.values())


@dataclass(frozen=True)
class Candidate:
    """A pair a fact could join, the mentions it is described from and its features."""

    relation: str
    subject: Thing
    object: Thing
    features: tuple[str, ...]
    #: the highest confidence the rules gave this fact, None when they do not state it
    rule_confidence: float | None = None
    #: the mentions it is described from: the subject's (None when it is in another sentence) and the object's
    mentions: tuple[Mention | None, Mention | None] = (None, None)

    @property
    def ruled(self) -> bool:
        """Whether the rules state this fact."""
        return self.rule_confidence is not None

    @property
    def slot(self) -> tuple[str, str, str]:
        return (self.relation, self.subject.key, self.object.key)


def _bucket(n: int, edges: Sequence[int]) -> str:
    for edge in edges:
        if n <= edge:
            return f"<={edge}"
    return f">{edges[-1]}"


def _lca(a: Token, b: Token) -> Token | None:
    """The lowest token that governs both."""
    above = {t.i for t in (a, *a.ancestors)}
    return next((t for t in (b, *b.ancestors) if t.i in above), None)


def _context(span: Span) -> list[str]:
    """Words around the object: two before, one after, its head, the word it hangs on and the one above."""
    doc = span.doc
    feats = [f"ol{k + 1}={doc[i].lemma_.lower()}" for k, i in enumerate((span.start - 1, span.start - 2)) if i >= span.sent.start]
    if span.end < span.sent.end:
        feats.append(f"or1={doc[span.end].lemma_.lower()}")
    root = span.root
    feats += [f"ohead={root.lemma_.lower()}", f"odep={root.dep_}", f"ogov={root.head.lemma_.lower()}"]
    if root.head.head is not root.head:
        feats.append(f"ogov2={root.head.head.lemma_.lower()}")
    return feats


def _shape(text: str) -> str:
    if any(c.isdigit() for c in text):
        return "digit"
    if any(c.isupper() for c in text[1:]):
        return "inner-upper"
    return "title" if text[:1].isupper() else "lower"


def _between(s_span: Span | None, o_span: Span) -> list[str]:
    """What lies between two mentions of one sentence: order, distance, words, their common head."""
    if s_span is None or s_span.sent.start != o_span.sent.start:
        return ["apart"]
    doc = o_span.doc
    first, second = sorted((s_span, o_span), key=lambda s: s.start)
    gap = max(0, second.start - first.end)
    feats = ["together", f"order={'so' if s_span.start < o_span.start else 'os'}", f"gap{_bucket(gap, (0, 2, 5, 10, 20))}"]
    if gap <= _MAX_BETWEEN:
        feats += [f"btw={t.lemma_.lower()}" for t in doc[first.end : second.start] if t.pos_ in _BETWEEN_POS]
    lca = _lca(s_span.root, o_span.root)
    if lca is not None:
        side = "s" if s_span.start <= lca.i < s_span.end else "o" if o_span.start <= lca.i < o_span.end else "x"
        feats += [f"lca={lca.lemma_.lower()}", f"lca_pos={lca.pos_}", f"lca_is={side}"]
    return feats


class _Abstract:
    """What the features of one abstract share: its mentions as things, the main method, the rules' pairs."""

    def __init__(self, doc: Doc, mentions: Sequence[Mention], facts: Sequence[Fact], acronyms: Sequence[Acronym]) -> None:
        # Every Method x object slot of a sentence is described: only its first mentions take part.
        mentions, _ = crowd_cap([(s.start_char, s.end_char) for s in doc.sents], mentions)
        self.index = MentionIndex(doc, mentions)
        self.alias = {thing_key(a.short): thing_key(a.long) for a in acronyms}
        self.things = group_things(self.index.spans, acronyms)
        self.thing_of = {m: t for t in self.things for m in t.mentions}
        self.sentence_no = {s.start: i for i, s in enumerate(doc.sents)}
        self.last_sentence = len(self.sentence_no) - 1
        own = proposals(facts)
        main = ranked_methods(doc, own, acronyms)
        keys = {t.key: t for t in self.things}
        self.main = keys.get(self.key_of(main[0])) if main else None
        self.proposed = {self.key_of(p) for p in own}
        self.rules: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
        self.object_relations: dict[str, set[str]] = defaultdict(set)
        self.stated: dict[tuple[str, str, str], float] = {}
        for f in facts:
            if f.subject is not None:
                s_key, o_key = self.key_of(f.subject), self.key_of(f.object)
                self.rules[(s_key, o_key)].add((f.relation, f.extractor.split("#")[-1]))
                self.object_relations[o_key].add(f.relation)
                slot = (f.relation, s_key, o_key)
                self.stated[slot] = max(self.stated.get(slot, 0.0), f.confidence)

    def key_of(self, mention: Mention) -> str:
        thing = self.thing_of.get(mention)
        if thing is not None:
            return thing.key
        key = thing_key(mention.text)
        return self.alias.get(key, key)

    def features(self, relation: str, subject: Thing, s_mention: Mention | None, o_mention: Mention) -> tuple[str, ...]:
        o_span = self.index.spans[o_mention]
        s_span = self.index.spans.get(s_mention) if s_mention is not None else None
        sent, obj = o_span.sent, self.thing_of[o_mention]
        n = self.sentence_no.get(sent.start, 0)
        rules = self.rules.get((subject.key, obj.key), set())
        feats = [
            "bias",
            f"main={subject is self.main}",
            f"proposed={subject.key in self.proposed}",
            f"has_main={self.main is not None}",
            f"sent={'first' if n == 0 else 'last' if n == self.last_sentence else 'mid'}",
            f"o_src={o_mention.extractor.split('/')[0]}",
            f"o_label={o_mention.label}",
            f"o_mentions{_bucket(len(obj.mentions), (1, 2, 4))}",
            f"o_shape={_shape(o_mention.text)}",
            f"o_words{_bucket(len(o_span), (1, 2, 3, 5))}",
            f"we={any(t.lower_ in ('we', 'our') for t in sent)}",
            f"number={any(t.like_num or t.text == '%' for t in sent)}",
            f"s_src={s_mention.extractor.split('/')[0] if s_mention is not None else 'none'}",
            *(f"sv={t.lemma_.lower()}" for t in sent if t.pos_ == "VERB"),
            *_context(o_span),
            *_between(s_span, o_span),
            *([f"rule={r}" for r, _ in sorted(rules)] or ["rule=none"]),
            *(f"rule_same={name}" for r, name in sorted(rules) if r == relation),
            *(f"o_in_rule={r}" for r in sorted(self.object_relations.get(obj.key, ()))),
        ]
        return tuple(f"{relation}|{f}" for f in feats)


def candidates(
    doc: Doc,
    mentions: Sequence[Mention],
    facts: Sequence[Fact],
    acronyms: Sequence[Acronym],
    only: set[tuple[str, str, str]] | None = None,
) -> list[Candidate]:
    """Every pair a fact could join: the main method with each object of a fitting type, and any two mentions of one sentence.

    One candidate per (relation, subject, object) thing: described from the two
    mentions nearest each other in a sentence holding both, else from the object's
    first mention. ``only`` limits the features to those slots (as keys of
    :attr:`Candidate.slot`), which is all that scoring the rules' facts needs.
    """
    return _candidates(_Abstract(doc, mentions, facts, acronyms), only)


def _candidates(a: _Abstract, only: set[tuple[str, str, str]] | None) -> list[Candidate]:
    best: dict[tuple[str, str, str], tuple[int, Mention | None, Mention]] = {}
    by_sentence: dict[int, list[Mention]] = defaultdict(list)
    for m, span in a.index.spans.items():
        if m in a.thing_of:
            by_sentence[span.sent.start].append(m)
    for sentence in by_sentence.values():
        for o in sentence:
            obj = a.thing_of[o]
            for relation in (r for r, wanted in OBJECT_TYPES.items() if obj.label == wanted):
                for s in sentence:
                    subject = a.thing_of[s]
                    if subject is obj or subject.label != "Method":
                        continue
                    gap = abs(a.index.spans[s].start - a.index.spans[o].start)
                    slot = (relation, subject.key, obj.key)
                    if slot not in best or gap < best[slot][0]:
                        best[slot] = (gap, s, o)
    if a.main is not None:
        for obj in a.things:
            for relation in (r for r, wanted in OBJECT_TYPES.items() if obj.label == wanted):
                slot = (relation, a.main.key, obj.key)
                if obj is not a.main and slot not in best:
                    best[slot] = (10**9, None, min(obj.mentions, key=lambda m: m.start))
    things = {t.key: t for t in a.things}
    out = []
    for slot, (_, s_mention, o_mention) in sorted(best.items(), key=lambda item: item[0]):
        if only is not None and slot not in only:
            continue
        relation, s_key, o_key = slot
        out.append(Candidate(relation, things[s_key], things[o_key], a.features(relation, things[s_key], s_mention, o_mention), a.stated.get(slot), (s_mention, o_mention)))
    return out


@dataclass(frozen=True)
class PairModel:
    """A logistic model over named features: a weight per feature and a bias."""

    weights: Mapping[str, float]
    bias: float
    version: str
    #: a pair the rules do not state becomes a fact when the model scores it at least this (None: the model adds none)
    add: float | None = None
    #: a rule's fact the model scores below this is dropped (None: none is)
    drop: float | None = None

    def score(self, features: Iterable[str]) -> float:
        z = self.bias + sum(self.weights.get(f, 0.0) for f in features)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_dict(self) -> dict:
        cuts = {k: v for k, v in (("add", self.add), ("drop", self.drop)) if v is not None}
        return {"version": self.version, "bias": self.bias, **cuts, "weights": dict(sorted(self.weights.items()))}

    @classmethod
    def from_dict(cls, data: Mapping) -> PairModel:
        add, drop = (None if data.get(k) is None else float(data[k]) for k in ("add", "drop"))
        return cls({k: float(v) for k, v in data["weights"].items()}, float(data["bias"]), str(data["version"]), add, drop)


def read_pair_model(path: str | Path) -> PairModel:
    """A model written by ``kg train facts`` (JSON: version, bias, weights)."""
    return PairModel.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


#: Rules too loose to stand alone: their facts are kept only when the model scores them at least :data:`GATE`.
GATED: frozenset[str] = frozenset({Rule.HUB_TASK_TRAINED.value})
GATE = 0.5


def rescored(doc: Doc, mentions: Sequence[Mention], facts: Sequence[Fact], acronyms: Sequence[Acronym], model: PairModel) -> list[Fact]:
    """``facts`` with each relation fact the model can describe taking the model's score as its confidence.

    ``proposes`` and ``hasCode`` facts, and a fact whose ends are not a method and
    a mention of the relation's object type, keep the confidence of their rule.
    A fact of a :data:`GATED` rule that the model scores below :data:`GATE` (or
    cannot score) is dropped, and so is any rule's fact it scores below the
    model's ``drop``. With an ``add`` cut, every pair the rules leave unstated that
    the model scores at least ``add`` becomes a fact (rule ``pairs.learned``).
    """
    scored = [f for f in facts if f.relation in OBJECT_TYPES and f.subject is not None]
    if not scored and model.add is None:
        return list(facts)
    a = _Abstract(doc, mentions, facts, acronyms)
    # (every scored fact has a subject: the check below says so to the type checker)
    wanted = {(f.relation, a.key_of(f.subject), a.key_of(f.object)) for f in scored if f.subject is not None}
    found = _candidates(a, None if model.add is not None else wanted)
    scores = {c.slot: round(model.score(c.features), 3) for c in found}
    out = []
    for f in facts:
        slot = (f.relation, a.key_of(f.subject), a.key_of(f.object)) if f.subject is not None and f in scored else None
        if f.extractor.partition("#")[2] in GATED and (scores.get(slot, 0.0) if slot is not None else 0.0) < GATE:
            continue
        if model.drop is not None and slot in scores and scores[slot] < model.drop:
            continue
        out.append(replace(f, confidence=scores[slot]) if slot in scores else f)
    if model.add is not None:
        out += [learned_fact(a, c, scores[c.slot]) for c in found if not c.ruled and scores[c.slot] >= model.add]
    return out


def learned_fact(a: _Abstract, candidate: Candidate, confidence: float) -> Fact:
    """The fact a candidate the rules do not state stands for, stated in its object's sentence.

    Its subject is the subject's mention in that sentence, else (the main method,
    named elsewhere) the main method's first mention.
    """
    s_mention, o_mention = candidate.mentions
    assert o_mention is not None
    subject = s_mention if s_mention is not None else min(candidate.subject.mentions, key=lambda m: m.start)
    return Fact(candidate.relation, subject, o_mention, sentence_offsets(a.index.spans[o_mention].sent), LEARNED, confidence)


#: The provenance of a fact the model adds (a pair no rule states).
LEARNED = rule_extractor(Rule.PAIRS_LEARNED)


#: The shipped model, made by ``kg train facts`` (docs/EVALUATION.md says how).
MODEL_PATH = Path(__file__).parent / "data" / "fact_scores.v1.json"


@registry.misc("kg.FactScores.v1")
def fact_scores_v1() -> PairModel:
    return read_pair_model(MODEL_PATH)


#: The fact model of ``--model learned``, made by ``kg train facts --model learned``: trained on the
#: candidates over the learned mentions, it also adds pairs no rule states and drops rule facts.
LEARNED_MODEL_PATH = Path(__file__).parent / "data" / "fact_scores_learned.v1.json"


@registry.misc("kg.LearnedFactScores.v1")
def learned_fact_scores_v1() -> PairModel:
    return read_pair_model(LEARNED_MODEL_PATH)
