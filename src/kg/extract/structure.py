"""Dependency-tree helpers shared by the contribution and relation finders.

Facts hold :class:`~kg.model.Mention` objects (character offsets); the rules
reason over tokens. :class:`MentionIndex` maps one to the other, and
:func:`agent_of` finds who does what a verb says, following the tree through
infinitives, coordinations and relative clauses, and turning "we", "it" and
"our method" into the paper's proposed method.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from spacy.tokens import Doc, Span, Token

from kg.extract.cues import MentionHeads
from kg.model import Fact, Mention

_SUBJECTS = ("nsubj", "nsubjpass", "csubj")
_SELF_DETERMINERS = frozenset({"our", "this", "the", "proposed", "new", "novel"})


class MentionIndex:
    """Mentions of one Doc, looked up by token."""

    def __init__(self, doc: Doc, mentions: Iterable[Mention]) -> None:
        self.doc = doc
        self.by_token: dict[int, Mention] = {}
        self.spans: dict[Mention, Span] = {}
        for mention in mentions:
            span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
            if span is None:
                continue
            self.spans[mention] = span
            for i in range(span.start, span.end):
                self.by_token[i] = mention

    def at(self, token: Token, labels: frozenset[str] | set[str] | None = None) -> Mention | None:
        """The mention covering ``token`` (of one of ``labels``, when given)."""
        mention = self.by_token.get(token.i)
        if mention is None or (labels is not None and mention.label not in labels):
            return None
        return mention

    def within(self, tokens: Iterable[Token], labels: frozenset[str] | set[str]) -> list[Mention]:
        """Distinct mentions of ``labels`` touching ``tokens``, in text order."""
        seen: dict[Mention, None] = {}
        for token in tokens:
            mention = self.by_token.get(token.i)
            if mention is not None and mention.label in labels:
                seen.setdefault(mention)
        return sorted(seen, key=lambda m: m.start)

    def in_sentence(self, sent: Span, labels: frozenset[str] | set[str]) -> list[Mention]:
        return [m for m, s in self.spans.items() if m.label in labels and sent.start <= s.start < sent.end]

    def root(self, mention: Mention) -> Token:
        return self.spans[mention].root


def conjuncts(token: Token) -> list[Token]:
    """The token and everything coordinated with it ("X, Y and Z")."""
    return [token, *token.conjuncts]


def attachment(span: Span) -> Token:
    """Where a mention hangs in the sentence: above its coordination, apposition and head noun.

    "on [MNIST], CIFAR-10 and the [ADULT] dataset": both hang from "on";
    "we study the problem of [X]": X hangs from "study".
    """
    token = span.root
    for _ in range(5):
        head = token.head
        if token.dep_ in ("conj", "appos") and head is not token:
            token = head
        elif token.dep_ in ("compound", "amod", "nmod") and head.i > token.i and not span.start <= head.i < span.end:
            token = head
        elif token.dep_ == "pobj" and head.lower_ == "of" and head.head.lemma_.lower() in ("problem", "task", "challenge"):
            token = head.head  # "the problem of X" stands where X would
        else:
            break
    return token


def sentence_offsets(sent: Span) -> tuple[int, int]:
    return (sent.start_char, sent.end_char)


def proposals(facts: Sequence[Fact]) -> list[Mention]:
    """The paper's own methods, most confidently proposed first (the first stands for "we", "it")."""
    proposed = [f for f in facts if f.relation == "proposes" and f.object.label == "Method"]
    return [f.object for f in sorted(proposed, key=lambda f: -f.confidence)]


def is_self_reference(token: Token, heads: MentionHeads) -> bool:
    """"we", "it", "our method", "the proposed approach", "this framework": the paper's method."""
    lower = token.lower_
    if lower in ("we", "it", "ours"):
        return True
    if token.lemma_.lower() in heads.method:
        return any(c.lower_ in _SELF_DETERMINERS for c in token.children if c.dep_ in ("det", "poss", "amod"))
    return False


def mention_of(
    token: Token,
    index: MentionIndex,
    labels: frozenset[str],
    proposed: Mention | None,
    heads: MentionHeads,
    appositions: bool = True,
) -> Mention | None:
    """What a subject or object token names: its mention (or, with ``appositions``, the
    mention it is in apposition with), else the proposed method for a self-reference."""
    mention = index.at(token, labels)
    if mention is not None:
        return mention
    # "our method, X," / "X, our method": the apposition carries the name.
    others = [c for c in token.children if c.dep_ == "appos"] + ([token.head] if token.dep_ == "appos" else [])
    for other in others if appositions else ():
        if (found := index.at(other, labels)) is not None:
            return found
    if proposed is not None and proposed.label in labels and is_self_reference(token, heads):
        return proposed
    return None


def subjects(verb: Token) -> Iterator[Token]:
    for child in verb.children:
        if child.dep_ in _SUBJECTS:
            yield from conjuncts(child)


def agent_of(verb: Token, index: MentionIndex, labels: frozenset[str], proposed: Mention | None, heads: MentionHeads) -> Mention | None:
    """Who does what ``verb`` says: its subject, or the subject it inherits.

    "Z aims to solve Y" (xcomp), "Z ... and outperforms X" (conj), "Z, which
    beats X" (relative clause) and "To address Y, we propose Z" (purpose clause
    of a proposal) are followed; at most three steps up.
    """
    current = verb
    for _ in range(3):
        for subject in subjects(current):
            found = mention_of(subject, index, labels, proposed, heads)
            if found is not None:
                return found
        if any(True for _ in subjects(current)):
            return None
        if current.dep_ in ("relcl", "acl") and current.head.pos_ in ("NOUN", "PROPN"):
            # "Z, which beats X" / "Z using X": only the noun itself, not what it is listed with.
            return mention_of(current.head, index, labels, proposed, heads, appositions=False)
        if current.dep_ == "advcl":
            # "To address Y, we propose Z": Z is what does the addressing.
            for child in current.head.children:
                if child.dep_ == "dobj" and (found := mention_of(child, index, labels, proposed, heads)):
                    return found
        if current.dep_ not in ("xcomp", "conj", "advcl", "ccomp") or current.head is current:
            return None
        current = current.head
    return None


def governing_verb(token: Token, max_steps: int = 5) -> Token | None:
    """The nearest verb above ``token`` (the token itself excluded)."""
    current = token
    for _ in range(max_steps):
        if current.head is current:
            return None
        current = current.head
        if current.pos_ in ("VERB", "AUX"):
            return current
    return None
