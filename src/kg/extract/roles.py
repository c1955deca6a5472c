"""Types decided by role: what a sentence does with a mention says what kind of thing it is.

The rules that find mentions type them by their own words (a head noun, a gazetteer
entry, a name's defining noun), and those words often mislead: "fine-tuning" ends in
a method noun, yet in "a new paradigm for fine-tuning" it is the task the paradigm is
for. The role of the mention in its sentence decides instead:

====================================  ======  ==========================================
role                                  type    example
====================================  ======  ==========================================
purpose of a method noun              Task    "a new paradigm **for** fine-tuning"
"of" after a problem noun             Task    "in the context **of** collaborative filtering"
object of an addressing verb          Task    "to **tackle** label noise"
"in" after a change noun              Metric  "**improvements in** reconstruction fidelity"
object of an applying verb            Method  "by repeatedly **applying** local pruning"
====================================  ======  ==========================================

The cue words are :class:`kg.extract.cues.RoleCues` (``kg.RoleCues.v1``). A role
retypes every occurrence of the same phrase in the abstract, so that the resolver's
type vote sees the abstract's reading, not only that one sentence's.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Doc, Span, Token

from kg.extract.cues import MentionHeads, RoleCues
from kg.model import EntityType

METHOD, TASK, DATASET, METRIC = (t.value for t in EntityType)

#: The word kinds a metric phrase is made of ("layout plausibility", "top-1 accuracy").
_METRIC_POS = frozenset({"ADJ", "NOUN", "PROPN", "NUM"})


def _top(root: Token) -> Token:
    """The first conjunct of a coordination: "X and Y" takes its role from X's attachment."""
    while root.dep_ == "conj" and root.head.i != root.i:
        root = root.head
    return root


def _metric_role(root: Token, roles: RoleCues) -> bool:
    top = _top(root)
    if top.dep_ != "pobj":
        return False
    prep = top.head
    governor = prep.head
    return prep.lower_ == "in" and governor.pos_ == "NOUN" and governor.lemma_.lower() in roles.metric_governors


def role_of(span: Span, heads: MentionHeads, roles: RoleCues) -> str | None:
    """The type the sentence gives the mention ``span``, or None when its role says nothing."""
    top = _top(span.root)
    last = span[-1].lemma_.lower()
    if _metric_role(span.root, roles):
        return METRIC
    if top.dep_ == "pobj":
        prep, governor = top.head, top.head.head
        noun = governor.lemma_.lower()
        if prep.lower_ in roles.purpose_preps and governor.pos_ == "NOUN" and (noun in heads.method or noun in roles.artifact_heads):
            return None if last in roles.artifact_heads else TASK
        if prep.lower_ == "of" and noun in roles.task_governors:
            return None if last in roles.artifact_heads else TASK
    if top.dep_ == "dobj" and top.head.pos_ == "VERB":
        verb = top.head.lemma_.lower()
        if verb in roles.task_verbs and last not in roles.artifact_heads:
            return TASK
        if verb in roles.method_verbs:
            return METHOD
    return None


def metric_phrases(doc: Doc, roles: RoleCues, heads: MentionHeads) -> list[tuple[int, int]]:
    """Noun phrases a metric role governs, one per conjunct: "improvements in reconstruction
    fidelity and layout plausibility" gives both measures. Vague measures ("performance") are left out."""
    spans = []
    for token in doc:
        if token.tag_ not in ("NN", "NNS") or roles.not_metric_heads & {token.lemma_.lower(), token.lower_} or not _metric_role(token, roles):
            continue  # "improvement in Claude Sonnet": a name is never a measure by its role alone
        if token.i + 1 < len(doc) and doc[token.i + 1].tag_ in ("NN", "NNS"):
            continue  # not the last word of the compound
        start = token.i
        while start - 1 > token.sent.start and doc[start - 1].pos_ in _METRIC_POS and doc[start - 1].dep_ in ("amod", "compound", "nummod", "nmod"):
            start -= 1
        while start < token.i and doc[start].lower_ in heads.generic:
            start += 1
        if start == token.i and token.lemma_.lower() in roles.vague_metrics:
            continue
        spans.append((start, token.i + 1))
    return spans


def retyped(doc: Doc, spans: Sequence[tuple[int, int, str]], heads: MentionHeads, roles: RoleCues, names: Sequence[bool]) -> list[str]:
    """The label of each mention ``(start, end, label)`` once roles are read.

    A Dataset keeps its type, and so does a name (``names``): names are typed where
    they are defined. A role found on one occurrence of a phrase retypes its other
    occurrences; two conflicting roles for one phrase cancel out.
    """
    found: dict[str, set[str]] = {}
    for (start, end, label), name in zip(spans, names):
        role = role_of(doc[start:end], heads, roles)
        if role is None or role == label or label == DATASET or name:
            continue
        found.setdefault(doc[start:end].text.lower(), set()).add(role)
    decided = {text: next(iter(roles_)) for text, roles_ in found.items() if len(roles_) == 1}
    out = []
    for (start, end, label), name in zip(spans, names):
        role = decided.get(doc[start:end].text.lower())
        out.append(label if role is None or label == DATASET or name else role)
    return out
