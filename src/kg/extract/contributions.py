"""The paper's own contributions: ``proposes`` facts (subject ``None`` = the paper).

Recognised statements, each with its confidence:

- "we propose / introduce / present / develop / design X", "this paper presents X",
  "In this paper, we present X" (object of a contribution verb whose subject is
  the authors or the paper): 0.9 when X is a name, 0.7 for a typed phrase
  ("a local graph clustering algorithm"), 0.5 for a description made up from the
  object ("method that employs core subset selection");
- the same by word order when the parse misses it ("We present(ADJ) PRESTO"): 0.8 / 0.6;
- "X is proposed / introduced in this paper": 0.7;
- "X, a novel framework for ...", "our method, X, ...": 0.65;
- "our proposed X", "the proposed X": 0.6;
- when nothing else was found: "a new model, named X", "we ..., leading to an error
  named X" (0.65), a coined acronym ("Local Support Learning (LSL)") defined in a
  sentence where "we" propose or introduce (0.5).

What others made is left out: "we propose to exploit priors from pre-trained models
(PTM)", "our work builds upon X", "the previously proposed X", "the recently observed
phenomenon, called X", "the proposed regularization with [triplet loss]".
A description is kept short: the head noun and its content modifiers ("minimalistic
model robustness 'patching' framework"), or, for a bare head, the clause after it
("method that employs core subset selection"); things made that are no method head
count too ("an importance score", "transformations of these classifiers").

The object is the name the contribution gets ("a framework called X", "X, a
benchmark of ...", "a method (X)"; a long form gives way to its acronym), else
the typed phrase that describes it. Benchmark, dataset and corpus names are
Datasets; everything else is a Method.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span, Token

from kg.extract.annotations import extractor_name, rule_extractor
from kg.extract.confidences import Confidences, fact_confidences_v1
from kg.extract.cues import ContributionPatterns, MentionHeads
from kg.extract.mentions import is_name, looks_named
from kg.extract.structure import MentionIndex, conjuncts, sentence_offsets
from kg.model import Fact, Mention, Relation, Rule

PROPOSABLE = frozenset({"Method", "Dataset"})
_NOVEL = frozenset({"novel", "new", "our"})
_CONTRIBUTING = frozenset({"propose", "introduce", "present", "develop", "design", "formalize", "generalize"})


def _by_authors(verb: Token, patterns: ContributionPatterns) -> bool:
    """Whether the subject of ``verb`` is the authors or the paper ("we", "this paper")."""
    current = verb
    for _ in range(3):
        for child in current.children:
            if child.dep_ != "nsubj":
                continue
            if child.lower_ in patterns.self_subjects:
                return True
            return child.lemma_.lower() in patterns.self_nouns and any(
                c.lower_ in ("this", "our", "the") for c in child.children
            )
        if current.dep_ == "pcomp" and current.head.dep_ == "prep" and current.head.head is not current.head:
            current = current.head  # "we bridge this gap by proposing X": through the preposition
        elif current.dep_ == "dobj" and current.tag_ == "VBG" and current.head is not current:
            pass  # "we use causal machine learning(VBG) to develop X": the parser hangs "to develop" on the gerund
        elif current.dep_ not in ("conj", "xcomp", "pcomp", "advcl", "dep") or current.head is current:
            return False
        if current.dep_ == "conj" and current.i > 0 and current.doc[current.i - 1].lower_ == "and":
            # "We define ... when Y has changed, and derive Z": the parser hangs the second
            # verb on the nearest clause; a subjectless verb after "and" shares the sentence's subject.
            root = current.sent.root
            if any(c.dep_ == "nsubj" and c.lower_ in patterns.self_subjects for c in root.children):
                return True
        current = current.head
    return False


def _in_this_paper(sent: Span, patterns: ContributionPatterns) -> bool:
    """"In this paper, X is proposed", "X is introduced here"."""
    tokens = list(sent)
    return any(
        t.lower_ in ("this", "our") and i + 1 < len(tokens) and tokens[i + 1].lemma_.lower() in patterns.self_nouns
        for i, t in enumerate(tokens)
    ) or any(t.lower_ in ("here", "herein") for t in tokens)


def _short_form(mention: Mention, index: MentionIndex) -> Mention:
    """The acronym written right after a long form ("Long Form (LF)" -> LF), else the mention."""
    span = index.spans[mention]
    doc = span.doc
    if span.end + 1 < len(doc) and doc[span.end].text == "(":
        short = index.at(doc[span.end + 1])
        if short is not None and short.label == mention.label and looks_named(short.text):
            return short
    return mention


def proposed_object(obj: Token, index: MentionIndex, patterns: ContributionPatterns) -> tuple[Mention, bool] | None:
    """The mention a contribution verb's object stands for, and whether it is a name.

    In this order: the name it is given ("a framework called X", "which we call
    X", also deeper in the phrase: "a method based on Y, called X"), a name in
    parentheses after it ("a method (X)"), a name in apposition ("iHOMER (...),
    an online learning framework"; "X, a novel method"), the object itself when
    it is a name, else the typed phrase the object heads ("a local graph
    clustering algorithm"). A long form gives way to its acronym. Mentions
    deeper in the object ("an analysis of X") are not proposed.
    """
    doc = obj.doc
    named_by_verb = [
        g
        for t in obj.subtree
        if t.dep_ in ("acl", "relcl")
        and t.lemma_.lower() in patterns.naming
        and _steps_up(t, obj) <= 4
        and not any(w.lower_ in _PRIOR for w in doc[obj.i : t.i])  # "... the recently observed X, called Y"
        for g in t.children
        if g.dep_ in ("oprd", "attr", "dobj", "xcomp", "npadvmod")
    ]
    # ", coined / called X" right after the object phrase, however the parser hung it
    edge = obj.right_edge.i
    if edge + 3 < len(doc) and doc[edge + 1].text == "," and doc[edge + 2].lemma_.lower() in patterns.naming and doc[edge + 2].tag_ == "VBN":
        named_by_verb = [*named_by_verb, doc[edge + 3]]
    # "a gradient-based online algorithm, Receding Horizon Inexact Gradient (RHIG)": the name after a comma
    renamed = [doc[edge + 2]] if edge + 2 < len(doc) and doc[edge + 1].text == "," else []
    bracketed = [doc[obj.i + 2]] if obj.i + 2 < len(doc) and doc[obj.i + 1].text == "(" else []
    following = [doc[obj.i + 1]] if obj.i + 1 < len(doc) and is_name(doc[obj.i + 1].text) else []  # "algorithm FastONL"
    appositions = [c for c in obj.children if c.dep_ == "appos"]
    groups = (named_by_verb, bracketed, following, [obj], appositions)
    for tokens in groups:
        named = [m for m in index.within(tokens, PROPOSABLE) if looks_named(m.text)]
        if named:
            return _short_form(named[0], index), True
    named = [m for m in index.within(renamed, PROPOSABLE) if looks_named(m.text) and index.spans[m].start == edge + 2]
    if named and obj.is_lower and not looks_named(obj.text):
        return _short_form(named[0], index), True
    for tokens in groups:
        if found := index.within(tokens, PROPOSABLE):
            return found[0], False
    return None


#: A capitalised word that is not an acronym: "Turtle", "Sparrow", "D2CSG-Net" (acronyms are the rules' names).
_BARE_NAME = re.compile(r"[A-Z](?=[A-Za-z0-9-]*[a-z])[A-Za-z0-9-]+")


def _bare_name(obj: Token, index: MentionIndex, heads: MentionHeads) -> Mention | None:
    """A proper noun no rule took for a name ("we propose Turtle to ...", "we present Sparrow, a sampler"):
    the object itself, with the proper nouns compounded before it, is the name it is given; a dataset
    when its apposition says so ("Breaking Bad, a large-scale dataset")."""
    doc = obj.doc
    after = doc[obj.i + 1].text if obj.i + 1 < len(doc) else "."
    if (
        obj.dep_ not in ("dobj", "nsubjpass")  # not a member of a list ("(1) Meta-Scientific Integration, ...")
        or obj.pos_ != "PROPN"
        or not _BARE_NAME.fullmatch(obj.text)
        or obj.i == obj.sent.start
        or index.at(obj) is not None
        or after not in (",", "(", ".", "to", "for", "that", "which")  # the whole name, then what it is or does
    ):
        return None
    start = obj.i
    while start - 1 > obj.sent.start and doc[start - 1].dep_ == "compound" and _BARE_NAME.fullmatch(doc[start - 1].text):
        start -= 1
    if start > 0 and doc[start - 1].text == "-" and not doc[start - 1].whitespace_:
        return None  # the end of a longer word
    span = doc[start : obj.i + 1]
    appos = [c.lemma_.lower() for c in obj.children if c.dep_ == "appos"]
    label = "Dataset" if appos and appos[0] in heads.dataset else "Method"
    # a name, not a made-up description: it is found as the name mentions are (not paper-scoped)
    return Mention(span.start_char, span.end_char, label, span.text, 0.6, extractor_name("mentions"))


def _steps_up(token: Token, ancestor: Token) -> int:
    """How many arcs lead up from ``token`` to ``ancestor`` (a large number when it is not above it).

    "a method based on Y, called X" names the method; "an explanation based on the
    recently observed phenomenon that features show a property, called X" does not
    name the explanation, and its naming verb hangs far below it.
    """
    steps = 0
    while token.i != ancestor.i and token.head.i != token.i and steps < 10:
        token, steps = token.head, steps + 1
    return steps if token.i == ancestor.i else 10


_DESCRIPTION_END = frozenset({",", ".", ";", ":", "(", "that", "which", "where", "while", "and", "whose", "who", "by"})


_CONTAINERS = frozenset({"suite", "set", "collection", "series", "family", "class", "range", "variety", "number"})
#: Nouns for things made, which "we propose / introduce" makes a contribution even
#: though they are no method heads ("simple transformations of these classifiers").
_ARTIFACTS = frozenset(
    "transformation modification variant extension generalization generalisation relaxation "
    "reformulation score index metric intervention correction estimator".split()
)


def describe(obj: Token, heads: MentionHeads) -> Mention | None:
    """A descriptive mention for an unnamed contribution: "framework to iteratively train dense retrievers".

    The head noun with its content modifiers ("minimalistic model robustness
    'patching' framework"); when the head has none, what follows it too, up to
    eight words or the end of the phrase ("method that employs core subset
    selection"). Only for method and dataset head nouns, or for an object proposed
    "as a measure / method ..." (then without what follows). A container noun
    ("a suite of comparisons") is typed by what it holds.
    """
    lemma = obj.lemma_.lower()
    doc = obj.doc
    modifiers = {t.lemma_.lower() for left in obj.lefts for t in left.subtree}
    # "(we propose) the local effective dimension as a capacity measure": what it is proposed as
    preps = [*obj.children, *(obj.head.children if obj.dep_ == "dobj" else ())]
    role = {g.lemma_.lower() for c in preps if c.lower_ == "as" for g in c.children if g.dep_ == "pobj"}
    kind = lemma
    if lemma in _CONTAINERS and obj.i + 2 < len(doc) and doc[obj.i + 1].lower_ == "of":
        held = [g for c in obj.children if c.lower_ == "of" for g in c.children if g.dep_ == "pobj"]
        kind = held[0].lemma_.lower() if held else ""
    if kind in heads.dataset:
        label = "Dataset"
    elif kind in heads.method or kind in _ARTIFACTS or (kind == lemma and modifiers & heads.method):
        label = "Method"  # "a framework", "a novel algorithm - expertise trees", "an importance score"
    elif kind == lemma and role & heads.method:
        label = "Method"
    else:
        return None
    start = obj.left_edge.i
    while start < obj.i and (doc[start].lower_ in heads.generic or doc[start].pos_ in ("DET", "PRON", "PUNCT", "NUM", "CCONJ", "ADV")):
        start += 1
    end = obj.i + 1
    content = [t for t in doc[start : obj.i] if t.pos_ in ("ADJ", "NOUN", "PROPN", "VERB") and t.lower_ not in heads.generic]
    # A named role ends the phrase at its noun: "local effective dimension" (as a measure);
    # so do content modifiers: the phrase then says what it is without the clause after it.
    bare = lemma in heads.method | heads.dataset | _ARTIFACTS or modifiers & heads.method or kind != lemma
    limit = end if not bare or (content and kind == lemma) else min(len(doc), obj.i + 9, obj.sent.end)
    if end < limit and doc[end].lower_ in ("that", "which"):
        end += 1  # "a method that employs core subset selection"
    while end < limit and doc[end].lower_ not in _DESCRIPTION_END and not (
        doc[end].dep_ == "acl" and doc[end].tag_ in ("VBG", "VBN") and end > obj.i + 1
    ):
        end += 1  # up to a participle clause: "transformations of these classifiers [resulting in ...]"
    while end - start > 1 and doc[end - 1].tag_ not in ("NN", "NNS", "NNP", "NNPS") and not (
        doc[end - 1].tag_ == "VBG" and doc[end - 2].lower_ == "of"
    ):
        end -= 1  # end on a noun: "tools for ensuring" -> "tools"; "framework of weighting" stays
    if end - start < 2:
        return None
    span = doc[start:end]
    return Mention(span.start_char, span.end_char, label, span.text, 0.4, extractor_name("contributions"))


def _described_by_apposition(obj: Token, heads: MentionHeads) -> Mention | None:
    """"weight selection, a method for ...": the object is a method its apposition describes."""
    appos = [c for c in obj.children if c.dep_ == "appos"]
    if not appos or appos[0].lemma_.lower() not in heads.method | heads.dataset:
        return None
    doc = obj.doc
    start = obj.left_edge.i
    while start < obj.i and (doc[start].pos_ in ("DET", "PRON") or doc[start].lower_ in heads.generic):
        start += 1
    span = doc[start : obj.i + 1]
    label = "Dataset" if appos[0].lemma_.lower() in heads.dataset else "Method"
    return Mention(span.start_char, span.end_char, label, span.text, 0.5, extractor_name("contributions"))


def _named_after(verb: Token, sent: Span, index: MentionIndex) -> Mention | None:
    """A name defined later in the sentence ("propose our solution -- long form (LF)", "(rm StatsQ)")."""
    doc = sent.doc
    for token in sent[verb.i - sent.start + 1 :]:
        if token.lower_ in _DEEPER and doc[token.i - 1].lower_ not in ("referred", "known", "to"):
            return None  # "propose to exploit priors from pre-trained models (PTM)": not what is proposed
        if token.text != "(":
            continue
        for inside in doc[token.i + 1 : min(token.i + 3, sent.end)]:
            found = index.at(inside, PROPOSABLE)
            if found is not None and looks_named(found.text):
                return found
    return None


_STOP = frozenset(
    "for to that which where based using by with ; : . in on of across from into over between under via "
    "through against among than as upon".split()
)
#: Words after which a parenthesised name belongs to something deeper than the object.
_DEEPER = _STOP - {":", "for", "that", "which"}
#: Modifiers of a noun that someone else introduced ("the previously proposed X").
_PRIOR = frozenset(
    "recent recently existing previous previously prior popular known well-known observed standard "
    "classic classical famous widely original conventional traditional".split()
)
_SELF_WORDS = frozenset({"we", "paper", "work", "study", "article", "here"})


def _surface_objects(sent: Span, index: MentionIndex, patterns: ContributionPatterns) -> tuple[Token, list[Mention]] | None:
    """The word-order fallback when the parse is wrong ("We present(ADJ) PRESTO(ROOT)").

    "we / this paper" then, within three words, a contribution verb; the object
    is a name given later ("called X", "(X)") or the first proposable mention
    before the phrase ends ("for", "that", "to", a colon ...).
    """
    tokens = list(sent)
    for i, token in enumerate(tokens):
        if token.lower_ not in _SELF_WORDS:
            continue
        for verb in tokens[i + 1 : i + 4]:
            if verb.lemma_.lower() in patterns.verbs or verb.lower_.rstrip("s") in patterns.verbs:
                break
        else:
            continue
        after = tokens[verb.i - sent.start + 1 :]
        if after and after[0].pos_ == "ADP":
            return None  # "our work builds upon X", "we build on X": what the paper uses
        if after and after[0].tag_ == "VBG":
            return None  # "we propose leveraging X": X is what the method uses, not what it is
        for j, word in enumerate(after[:-1]):
            if word.lower_ in _PRIOR:
                break  # "an explanation based on the recently observed X, called Y": Y is not theirs
            if word.lemma_.lower() in patterns.naming and word.tag_ == "VBN":
                following = [t for t in after[j + 1 : j + 4] if t.lower_ not in ("the", "as", "it")]
                if following and (found := index.at(following[0], PROPOSABLE)):
                    return verb, [found]
        window: list[Token] = []
        for word in after[:15]:
            if word.lower_ in _STOP or (word.text == "," and window):
                break
            window.append(word)
        inside = index.within(window, PROPOSABLE)
        named = [_short_form(m, index) for m in inside if looks_named(m.text)]
        return verb, (named or inside)[:1]
    return None


Claims = list[tuple[Mention, Rule]]


def _proposed_modifier(token: Token, index: MentionIndex) -> Claims:
    """"our proposed weighting method", "the proposed LSA", "the proposed AugLocal method".

    Only the noun phrase itself counts: not "the proposed regularization with [triplet
    loss]", nor "the previously proposed [JdCov]".
    """
    if not any(c.lower_ in ("our", "the") for c in token.head.children if c.dep_ in ("det", "poss")):
        return []
    if any(c.lower_ in _PRIOR for c in token.children) or (token.i > 0 and token.nbor(-1).lower_ in _PRIOR):
        return []
    around = index.within(
        (t for c in conjuncts(token.head) for t in (*c.lefts, c, *(a for a in c.children if a.dep_ == "appos"))),
        PROPOSABLE,
    )
    named = [m for m in around if looks_named(m.text)]
    found = named[0] if named else index.at(token.head, PROPOSABLE) or (around[0] if around else None)
    return [(found, Rule.PROPOSAL_MODIFIER)] if found else []


def _statement(verb: Token, sent: Span, index: MentionIndex, patterns: ContributionPatterns, heads: MentionHeads) -> Claims:
    """What a contribution verb of the authors introduces: "we propose X", "X is proposed in this paper"."""
    passive = [c for c in verb.children if c.dep_ == "nsubjpass"]
    if passive and _in_this_paper(sent, patterns):
        objects, named_rule, typed_rule = passive, Rule.PROPOSAL_PASSIVE, Rule.PROPOSAL_PASSIVE
    elif verb.tag_ in ("VBN", "VBD") and not any(c.dep_ in ("aux", "auxpass", "nsubj") for c in verb.children):
        return []  # a participle, or one the tagger took for a past tense: "ImageNet and derived benchmarks"
    elif _by_authors(verb, patterns):
        objects, named_rule, typed_rule = [c for c in verb.children if c.dep_ == "dobj"], Rule.PROPOSAL_NAMED, Rule.PROPOSAL_TYPED
    else:
        return []
    claims = []
    for obj in (t for o in objects for t in conjuncts(o)):
        if (found := proposed_object(obj, index, patterns)) is not None:
            mention, is_name = found
            claims.append((mention, named_rule if is_name else typed_rule))
        elif (bare := _bare_name(obj, index, heads)) is not None:
            claims.append((bare, named_rule))
    if not claims and objects and (named := _named_after(verb, sent, index)):
        claims.append((named, Rule.PROPOSAL_NAMED_LATER))
    if not claims:  # "we propose a novel framework that ...", "a ... approach is proposed in this paper"
        for obj in objects:
            if (described := describe(obj, heads) or _described_by_apposition(obj, heads)) is not None:
                claims.append((described, Rule.PROPOSAL_DESCRIBED))
    return claims


def _apposition(token: Token, index: MentionIndex, heads: MentionHeads) -> Claims:
    """"X, a novel framework for ..." / "our method, X, ..."."""
    head = token.head
    if token.lemma_.lower() in heads.method | heads.dataset and any(c.lower_ in _NOVEL for c in token.children):
        found = index.at(head, PROPOSABLE)
    elif head.lemma_.lower() in heads.method and any(c.lower_ == "our" for c in head.children):
        found = index.at(token, PROPOSABLE)
    else:
        found = None
    return [(found, Rule.PROPOSAL_APPOSITION)] if found else []


def _called_by_us(verb: Token, index: MentionIndex) -> Claims:
    """"In our approach, which we call LoMa, ...": the name the authors give."""
    doc = verb.doc
    following = [t for t in doc[verb.i + 1 : min(len(doc), verb.i + 4)] if t.lower_ not in ("it", "the", "as", "this")][:1]
    found = index.at(following[0], PROPOSABLE) if following else None
    return [(found, Rule.PROPOSAL_CALLED)] if found is not None and looks_named(found.text) else []


def _sentence_claims(sent: Span, index: MentionIndex, patterns: ContributionPatterns, heads: MentionHeads) -> Claims:
    """Every contribution one sentence states; word order stands in when the parse finds none."""
    claims: Claims = []
    for token in sent:
        lemma = token.lemma_.lower()
        if lemma == "propose" and token.dep_ == "amod":
            claims += _proposed_modifier(token, index)
        elif lemma in patterns.verbs and token.pos_ == "VERB":
            claims += _statement(token, sent, index, patterns, heads)
        elif token.dep_ == "appos":
            claims += _apposition(token, index, heads)
        elif lemma in patterns.naming and any(c.lower_ in patterns.self_subjects for c in token.children if c.dep_ == "nsubj"):
            claims += _called_by_us(token, index)
    if not claims and (surface := _surface_objects(sent, index, patterns)):
        verb, mentions = surface
        claims += [(m, Rule.PROPOSAL_WORD_ORDER if looks_named(m.text) else Rule.PROPOSAL_WORD_ORDER_TYPED) for m in mentions]
        if not mentions and (named := _named_after(verb, sent, index)):
            claims.append((named, Rule.PROPOSAL_NAMED_LATER))
    return claims


def find_contributions(
    doc: Doc, index: MentionIndex, patterns: ContributionPatterns, heads: MentionHeads, confidences: Confidences | None = None
) -> list[Fact]:
    """``proposes`` facts for every contribution statement in ``doc`` (needs a parse), one per mention.

    Each records the :class:`~kg.model.Rule` that found it; its confidence is that
    rule's entry in ``confidences`` (default: ``kg.FactConfidences.v1``).
    """
    table = confidences or fact_confidences_v1()
    facts: dict[Mention, Fact] = {}
    claims = [(sent, m, rule) for sent in doc.sents for m, rule in _sentence_claims(sent, index, patterns, heads)]
    if not claims:
        claims = _fallbacks(doc, index)
    for sent, mention, rule in claims:
        if mention not in facts:
            facts[mention] = Fact(
                Relation.PROPOSES.value, None, mention, sentence_offsets(sent), rule_extractor(rule), table[rule]
            )
    return list(facts.values())


#: What "we study a phenomenon called X" names: something observed, not something made.
_OBSERVED = frozenset("phenomenon effect behavior behaviour property problem issue regime challenge task".split())


def _ours(naming: Token, sent: Span) -> bool:
    """Whether what ``naming`` ("named", "called") names is the authors' own: "we" are the
    subject of the sentence and nothing before marks it as someone else's ("a recently
    observed phenomenon, called X")."""
    if naming.head.lemma_.lower() in _OBSERVED or not any(t.lower_ == "we" and t.dep_ == "nsubj" for t in sent):
        return False
    return not any(t.lower_ in _PRIOR for t in sent.doc[sent.start : naming.i])


def _fallbacks(doc: Doc, index: MentionIndex) -> list[tuple[Span, Mention, Rule]]:
    """When no statement was recognised: "a new model, named X", or a coined acronym in a "we" sentence."""
    for sent in doc.sents:
        for token in sent:
            if (
                token.tag_ == "VBN"
                and token.lemma_.lower() in ("name", "call", "dub", "term", "coin")
                and (any(c.lower_ in _NOVEL for c in token.head.children) or _ours(token, sent))
            ):
                following = [t for t in sent[token.i - sent.start + 1 :] if t.lower_ not in ("the", "as", "it")][:1]
                if following and (found := index.at(following[0], PROPOSABLE)):
                    return [(sent, found, Rule.PROPOSAL_CALLED)]
    for sent in doc.sents:
        words = {t.lower_ for t in sent}
        if not words & {"we", "our"} or not (words & {"novel", "new"} or any(t.lemma_.lower() in _CONTRIBUTING for t in sent)):
            continue  # "our model ... benchmarks for Knee OsteoArthritis (KOA)" coins nothing
        for token in sent:
            found = index.at(token, PROPOSABLE)
            # 0.8: a short form typed by its own long form, not a gazetteer entry (0.9).
            long_form = index.at(doc[token.i - 2]) if token.i > 1 else None
            if (
                found is not None
                and found.score == 0.8
                and token.i > 1
                and doc[token.i - 1].text == "("
                and long_form is not None
                and looks_named(long_form.text)  # a coinage: "Local Support Learning (LSL)", not "pre-trained models (PTM)"
                and looks_named(found.text)
                and index.spans[found].end < len(doc)
                and doc[index.spans[found].end].text == ")"
            ):
                return [(sent, found, Rule.PROPOSAL_COINED)]
    return _self_referred(doc)


#: How the authors name a method of theirs that they never name otherwise: "our (proposed) method".
_OWN_METHOD = re.compile(
    r"\b(?:our|the proposed)(?:\s+(?:proposed|novel|new))?\s+(?:method|approach|framework|algorithm|technique|scheme|pipeline)\b",
    re.IGNORECASE,
)


def self_referred(mention: Mention) -> bool:
    """Whether a proposed method is only the abstract's reference to it ("our approach")."""
    return mention.extractor.startswith(extractor_name("contributions")) and bool(_OWN_METHOD.fullmatch(mention.text))


def _self_referred(doc: Doc) -> list[tuple[Span, Mention, Rule]]:
    """An unnamed contribution the abstract only refers to ("we show that our proposed method
    outperforms ..."): the first such reference, as a description of the paper's own method, so
    the facts of the sentences about it have a subject."""
    match = _OWN_METHOD.search(doc.text)
    span = doc.char_span(match.start(), match.end(), alignment_mode="expand") if match else None
    if span is None:
        return []
    mention = Mention(span.start_char, span.end_char, "Method", span.text, 0.4, extractor_name("contributions"))
    return [(span.sent, mention, Rule.PROPOSAL_DESCRIBED)]
