"""The paper's main contribution as the hub: facts of the sentences about it.

Most of what an abstract states is about the method it proposes, in sentences
that name it ("LoMa outperforms ..."), refer back to it ("This approach ...",
"our method", "it") or speak for the authors ("we leverage X"). The
dependency rules of :mod:`kg.extract.relations` need a clean parse of one
clause; these rules need only the sentence and its cue words:

- a *sentence about the method* names one of the paper's own methods or refers
  to it, and is not about someone else's ("Unlike X, ...", "existing methods");
- its tasks are what the method ``addresses``; datasets in a sentence with an
  evaluation or result word are what it is ``evaluatedOn``; metrics there are
  what it is ``measuredBy``;
- a method after a comparative ("outperforms", "better than", "surpassing",
  "compared to ... higher") is what it ``outperforms``; a method after a uses
  cue ("based on", "leverages", "via", "with a Y backbone", "consists of") is
  what it ``uses``; each member of a list ("such as A, B and C") on its own;
- every other method the paper proposes is a component the main one ``uses``;
- "A performs worse than B" gives ``B outperforms A``, also between other methods.

Mentions from the trained SciERC spans may end a fact here, because a cue
governs them. Each fact records its :class:`~kg.model.Rule`; confidences come
from the registered table (:mod:`kg.extract.confidences`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from spacy.tokens import Doc, Span, Token

from kg.extract.confidences import Confidences
from kg.extract.cues import HubCues, MentionHeads
from kg.extract.mentions import looks_named
from kg.lexicon import MODEL_FAMILY_ACRONYMS
from kg.extract.structure import MentionIndex, sentence_offsets
from kg.extract.annotations import extractor_name, rule_extractor
from kg.model import Acronym, Fact, Mention, Relation, Rule

METHODS = frozenset({"Method"})


def own_forms(proposals: Sequence[Mention], acronyms: Sequence[Acronym]) -> dict[str, Mention]:
    """Lower-cased surface forms of the paper's own methods, acronyms of their long forms included."""
    forms: dict[str, Mention] = {}
    for mention in proposals:
        if mention.label == "Method":
            forms.setdefault(mention.text.lower(), mention)
    for acronym in acronyms:
        long, short = acronym.long.lower(), acronym.short.lower()
        for a, b in ((long, short), (short, long)):
            if a in forms:
                forms.setdefault(b, forms[a])
    return forms


def ranked_methods(doc: Doc, proposals: Sequence[Mention], acronyms: Sequence[Acronym]) -> list[Mention]:
    """The paper's proposed methods, the main one first: the one the most sentences name
    (a long form and its acronym counting as one), the earlier on a tie. A component
    ("we further propose a loss ...") is named once; the method it serves, again and again.
    """
    methods = [p for p in proposals if p.label == "Method"]
    if len(methods) < 2:
        return methods
    sentences = [s.text.lower() for s in doc.sents]
    return sorted(methods, key=lambda m: (-_named_in(m, acronyms, sentences), m.start))


def _named_in(mention: Mention, acronyms: Sequence[Acronym], sentences: Sequence[str]) -> int:
    """How many of the (lower-cased) sentences name a method, by any of its forms."""
    forms = {f for f, m in own_forms([mention], acronyms).items() if m == mention}
    patterns = [re.compile(r"(?<![a-z0-9])" + re.escape(f) + r"(?![a-z0-9])") for f in forms]
    return sum(any(p.search(s) for p in patterns) for s in sentences)


def studied_method(doc: Doc, index: MentionIndex, acronyms: Sequence[Acronym], cues: HubCues, heads: MentionHeads) -> Mention | None:
    """The method an analysis paper is about, when it proposes none: the first one "we analyze /
    study / revisit / benchmark" by name, else the name that most sentences, at least three, name
    ("Global MP ranks weights ...", "Global MP outperforms ..."), when that name is one method
    and not a family of models ("LLMs", "vision-language models")."""
    for sent in doc.sents:
        for verb in sent:
            if verb.lemma_.lower() not in cues.studies or verb.pos_ != "VERB":
                continue
            if not any(c.lower_ in cues.self_pronouns and c.dep_ == "nsubj" for c in verb.children):
                continue
            objects = [t for c in verb.children if c.dep_ == "dobj" for t in c.subtree]
            for mention in index.within(objects, METHODS):
                is_class = mention.text.split()[-1].lower() in cues.class_nouns  # "these SOTA techniques"
                if _specific(mention, heads, cues.vague_heads) and not _generic(mention, heads) and not is_class:
                    return mention
    names = [m for m in index.spans if m.label == "Method" and looks_named(m.text) and not _family(index.spans[m])]
    if not names:
        return None
    sentences = [s.text.lower() for s in doc.sents]
    counts = {m: _named_in(m, acronyms, sentences) for m in names}
    best = min(names, key=lambda m: (-counts[m], m.start))
    return best if counts[best] >= 3 else None


def _family(span: Span) -> bool:
    """A name for many models: a plural ("Vision-language-action models", "VFMs") or a family
    acronym ("LLM")."""
    last = span[-1]
    return last.tag_ in ("NNS", "NNPS") or last.lower_ in MODEL_FAMILY_ACRONYMS or (
        last.text.endswith("s") and last.text[:-1].isupper() and len(last.text) > 2
    )


def _lemmas(tokens: Sequence[Token] | Span) -> set[str]:
    return {t.lemma_.lower() for t in tokens} | {t.lower_ for t in tokens}


class _Sentence:
    """One sentence, its subject method (if it is about one) and the facts found in it."""

    def __init__(self, sent: Span, confidences: Confidences) -> None:
        self.sent = sent
        self.confidences = confidences
        self.facts: list[Fact] = []

    def add(self, relation: Relation, subject: Mention | None, obj: Mention, rule: Rule) -> None:
        if subject is None or subject == obj or subject.text.lower() == obj.text.lower():
            return
        if subject.start <= obj.start and obj.end <= subject.end:
            return  # a word of the method's own name
        self.facts.append(
            Fact(relation.value, subject, obj, sentence_offsets(self.sent), rule_extractor(rule), self.confidences[rule])
        )

    def propose(self, obj: Mention, rule: Rule) -> None:
        """A ``proposes`` fact (subject: the paper) for a component the paper makes."""
        self.facts.append(Fact(Relation.PROPOSES.value, None, obj, sentence_offsets(self.sent), rule_extractor(rule), self.confidences[rule]))


def _self_reference(sent: Span, cues: HubCues, heads: MentionHeads) -> Token | None:
    """The token by which a sentence speaks of the paper's method or its authors."""
    for token in sent:
        lower = token.lower_
        if lower in cues.self_pronouns:
            return token
        if lower in ("it", "its") and token.dep_ in ("nsubj", "nsubjpass", "poss") and token.i - sent.start <= 3:
            return token
        if token.lemma_.lower() in heads.method and token.i > sent.start:
            before = sent.doc[max(sent.start, token.i - 3) : token.i]
            if any(t.lower_ in cues.self_determiners for t in before) and not any(t.lower_ in cues.others for t in before):
                return token
    return None


def _is_background(sent: Span, cues: HubCues) -> bool:
    """Whether a sentence is about other work ("Existing methods ...", "Unlike X, ...")."""
    opening = [t.lower_ for t in sent[:4]]
    return any(w in cues.others for w in opening) or any(w in cues.contrast for w in opening)


def _generic(mention: Mention, heads: MentionHeads) -> bool:
    words = mention.text.lower().replace("-", " ").split()
    return all(w in heads.generic or w.rstrip("s") in heads.generic for w in words[:-1]) and (
        words[-1].rstrip("s") in heads.method or words[-1] in heads.method or words[-1] in ("baselines", "baseline")
    )


def _cue_before(doc: Doc, sent: Span, start: int, words: frozenset[str], stop: frozenset[str], window: int = 12) -> Token | None:
    """The nearest cue word before ``start`` in the sentence, within ``window`` tokens and not past a stop word."""
    for i in range(start - 1, max(sent.start, start - window) - 1, -1):
        token = doc[i]
        if token.lower_ in stop:
            return None
        if token.lemma_.lower() in words or token.lower_ in words:
            return token
    return None


def _phrase_cue(doc: Doc, sent: Span, start: int, phrases: Sequence[tuple[str, ...]], window: int = 12) -> bool:
    """Whether one of the multi-word cues ("better than", "compared to") ends before ``start``."""
    words = [t.lower_ for t in doc[max(sent.start, start - window) : start]]
    text = " " + " ".join(words) + " "
    return any(" " + " ".join(p) + " " in text for p in phrases)


def hub_facts(
    doc: Doc,
    index: MentionIndex,
    proposals: Sequence[Mention],
    acronyms: Sequence[Acronym],
    cues: HubCues,
    heads: MentionHeads,
    confidences: Confidences,
    studied: Mention | None = None,
) -> list[Fact]:
    """The facts of the sentences about the paper's main method (see the module docstring);
    ``studied`` stands in for it in a paper that proposes none (:func:`studied_method`)."""
    methods = ranked_methods(doc, proposals, acronyms)
    facts: list[Fact] = []
    if not methods and studied is not None:
        methods = [studied]
    main = methods[0] if methods else None
    forms = own_forms(methods, acronyms)
    proposal_start = min((p.start for p in methods), default=0)
    for sent in doc.sents:
        out = _Sentence(sent, confidences)
        _comparisons(sent, index, out, cues, heads, forms, main)
        if main is not None:
            _about_main(sent, index, out, cues, heads, forms, main, proposal_start)
        facts += out.facts
    if main is not None:
        facts += _extended(main, index, forms, heads, confidences)
        for component in methods[1:]:
            span = index.spans.get(component)
            if span is None or component.text.lower() in forms and forms[component.text.lower()] == main:
                continue
            if component.extractor.startswith("kg.contributions") or not _specific(component, heads, cues.vague_heads):
                continue  # a made-up description names no component one could look up
            if _beside(component, main, index, forms):
                continue  # "a novel learning approach, LegoGCD": the main method described

            out = _Sentence(span.sent, confidences)
            out.add(Relation.USES, main, component, Rule.HUB_COMPONENT)
            facts += out.facts
    return facts


def _extended(main: Mention, index: MentionIndex, forms: dict[str, Mention], heads: MentionHeads, confidences: Confidences) -> list[Fact]:
    """"MV-SAM3D" uses "SAM3D", "Online Platt Scaling" uses "Platt scaling": a method whose
    name is made from the name of another method the abstract mentions extends it."""
    names = [f for f, m in forms.items() if m == main and f.split()[-1] not in heads.method]
    found = []
    for mention, span in index.spans.items():
        text = mention.text.lower()
        if mention.label != "Method" or text in forms or len(text) < 4:
            continue
        pattern = re.compile(r"(?<![a-z0-9])" + re.escape(text) + r"(?![a-z0-9])")
        if any(pattern.search(name) and name != text for name in names):
            out = _Sentence(span.sent, confidences)
            out.add(Relation.USES, main, mention, Rule.HUB_NAME_EXTENDS)
            found += out.facts
    return found


def _beside(component: Mention, main: Mention, index: MentionIndex, forms: dict[str, Mention]) -> bool:
    """Whether a form of ``component`` stands within six words of a form of ``main``
    ("F-Learning (Forgetting before Learning)", "a learning approach, LegoGCD", "X, the first
    video generation framework"): two names of one thing."""
    main_spans = [s for m, s in index.spans.items() if forms.get(m.text.lower()) == main]
    text = component.text.lower()
    for mention, span in index.spans.items():
        if mention.text.lower() != text:
            continue
        if any(abs(span.start - s.end) <= 6 or abs(s.start - span.end) <= 6 for s in main_spans):
            return True
    return False


def _own_in(sent: Span, index: MentionIndex, forms: dict[str, Mention]) -> list[Mention]:
    return [m for m in index.in_sentence(sent, METHODS) if m.text.lower() in forms]


def _about_main(
    sent: Span,
    index: MentionIndex,
    out: _Sentence,
    cues: HubCues,
    heads: MentionHeads,
    forms: dict[str, Mention],
    main: Mention,
    proposal_start: int,
) -> None:
    """addresses / evaluatedOn / measuredBy / uses from a sentence about the main method."""
    doc = sent.doc
    named = _own_in(sent, index, forms)
    reference = None if named else _self_reference(sent, cues, heads)
    if not named and reference is None:
        return
    if _is_background(sent, cues) and not named:
        return
    if reference is not None and sent.end_char <= proposal_start and reference.lower_ not in cues.self_pronouns:
        return  # "it" before the proposal is something else
    lemmas = _lemmas(sent)
    results = bool(lemmas & cues.results)
    anchor = reference.i if reference is not None else index.spans[named[0]].start  # (reference is None when named)
    speaker = _self_reference(doc[sent.start : anchor], cues, heads) if named else None
    if speaker is not None and speaker.lower_ in cues.self_pronouns:
        anchor = speaker.i  # "we formulate X as Y and propose Z": the authors speak from the start
    own_spans = [index.spans[m] for m in named]
    for mention, span in sorted(index.spans.items(), key=lambda item: item[1].start):
        if not (sent.start <= span.start < sent.end) or mention.text.lower() in forms:
            continue
        if any(s.start <= span.start < s.end for s in own_spans):
            continue
        before = doc[max(sent.start, span.start - 3) : span.start]
        if any(t.lower_ in cues.contrast for t in before):
            continue  # "unlike X", "instead of X"
        if mention.label == "Task":
            cue = _cue_before(doc, sent, span.start, cues.task_cues, frozenset({",", ";", ":"}), window=3)
            if cue is None or mention.text.lower() in heads.not_tasks:
                continue  # a task the method is for: "for X", "to address X", "such as X"
            rule = Rule.HUB_TASK_NAMED if named else Rule.HUB_TASK_REFERRED
            if not _task_like(mention, span, heads):
                if not (_trained(mention) and len(span) >= 2 and cue.i == span.start - 1):
                    continue
                rule = Rule.HUB_TASK_TRAINED  # "for answering marginalization queries": a candidate the learned model must confirm
            out.add(Relation.ADDRESSES, main, mention, rule)
        elif mention.label == "Dataset" and results and _specific(mention, heads):
            if _cue_before(doc, sent, span.start, cues.training, frozenset(), window=6):
                continue  # "pre-trained on X", "when fine-tuning Y on X": training data
            out.add(Relation.EVALUATED_ON, main, mention, Rule.HUB_DATASET)
        elif mention.label == "Metric" and (
            _phrase_cue(doc, sent, span.start, cues.metric_phrases, window=4) or _scored(doc, span)
        ):
            out.add(Relation.MEASURED_BY, main, mention, Rule.HUB_METRIC)
        elif mention.label == "Method" and not _generic(mention, heads) and _specific(mention, heads, cues.vague_heads):
            if span.start < anchor and named:
                continue  # what comes before the method's name is not governed by its cue
            if _compared(doc, sent, span.start, cues):
                continue  # handled by _comparisons
            cue = _uses_cued(doc, sent, span, index, cues)
            if cue is not None and results and cue.lemma_.lower() in cues.listing:
                cue = None  # "... on six datasets, including X": results are listed, not parts
            if _modifier(doc, span, heads) or _apposed(span, own_spans):
                continue  # "a novel GNN architecture", "X, a masked autoencoding approach": what X is, not a part
            if cue is not None or _backbone(doc, span, cues):
                out.add(Relation.USES, main, mention, Rule.HUB_USES_CUE)
            novel = cue is not None and any(t.lower_ in cues.novel for t in doc[cue.i : span.start])
            if cue is not None and (cue.lemma_.lower() in cues.made or novel) and looks_named(mention.text):
                # "DFYP introduces three components: (1) a Resolution-aware Channel Attention (RCA) module ..."
                out.propose(mention, Rule.HUB_COMPONENT_PROPOSED)
    _counted_parts(sent, index, out, cues, heads, main)


def _counted_parts(sent: Span, index: MentionIndex, out: _Sentence, cues: HubCues, heads: MentionHeads, main: Mention) -> None:
    """"consists of two components: A and B", "we design two types of techniques termed as A
    and B", "propose two weighting strategies -- A and B --": each member of a counted list of
    parts is a part the main method ``uses``; one the authors design, introduce or propose is
    also proposed. A member that is no mention yet becomes one (its head noun and the words
    before it)."""
    doc = sent.doc
    for counted in sent:
        if counted.tag_ != "NNS" or not any(c.dep_ == "nummod" for c in counted.children):
            continue
        kind = counted
        if counted.lemma_.lower() == "type":  # "two types of techniques"
            kind = next((g for c in counted.children if c.lower_ == "of" for g in c.children if g.dep_ == "pobj"), counted)
        if kind.lemma_.lower() not in heads.method | cues.part_nouns or _compared(doc, sent, counted.i, cues):
            continue  # "outperforms two VQA-tailored models, A and B" names rivals, not parts
        firsts = [c for c in kind.children if c.dep_ == "appos"]
        firsts += [g for c in kind.children if c.dep_ == "acl" for p in c.children if p.lower_ == "as" for g in p.children if g.dep_ == "pobj"]
        governor = counted.head if counted.dep_ in ("dobj", "pobj") else None
        if governor is not None and governor.dep_ == "prep":
            governor = governor.head  # "consists of", "composed of"
        made = governor is not None and governor.lemma_.lower() in cues.made
        members = [m for first in firsts[:1] for head in (first, *first.conjuncts) if (m := _member(doc, head, index)) is not None]
        if not members:
            continue
        kinds = {index.at(counted), index.at(kind)} - {None}
        out.facts = [f for f in out.facts if f.object not in kinds]  # the members are the parts, not "two components"
        for member in members:
            out.add(Relation.USES, main, member, Rule.HUB_USES_CUE)
            if made:
                out.propose(member, Rule.HUB_COMPONENT_PROPOSED)


_ENUMERATORS = frozenset({"(", ")", "i", "ii", "iii", "iv", "v", "a", "b", "c"})


def _member(doc: Doc, head: Token, index: MentionIndex) -> Mention | None:
    """The mention a list member's head noun ends: a method mention there, else the head with
    the words that modify it from the left ("self-adaptive outlier selection")."""
    if head.pos_ not in ("NOUN", "PROPN"):
        return None
    found = index.at(head, METHODS)
    if found is not None:
        return found
    start = head.left_edge.i
    while start < head.i and (doc[start].pos_ in ("DET", "PUNCT", "NUM", "X") or doc[start].tag_ == "LS" or doc[start].like_num or doc[start].lower_ in _ENUMERATORS):
        start += 1  # "(1) a", "(ii)"
    span = doc[start : head.i + 1]
    if len(span) < 2:
        return None
    return Mention(span.start_char, span.end_char, "Method", span.text, 0.5, extractor_name("relations"))


def _uses_cued(doc: Doc, sent: Span, span: Span, index: MentionIndex, cues: HubCues) -> Token | None:
    """Whether a uses cue governs a method mention: within eight words before it ("leverages X",
    "is built on X", "via X"), or before the list it is in ("combines A, B and C",
    "consists of (1) A ...; (2) B"), with no negation or comparison in between."""
    start = _list_start(doc, sent, span, index, cues)
    for i in range(start - 1, max(sent.start, start - 8) - 1, -1):
        token = doc[i]
        lemma = token.lemma_.lower()
        if token.lower_ in ("on", "upon") and i > sent.start and doc[i - 1].lemma_.lower() in cues.uses:
            return doc[i - 1]  # "built on X", "relies on X"
        if token.lower_ in cues.uses_stop:
            return None
        if lemma in cues.uses or token.lower_ in cues.uses:
            return token
    return doc[start - 1] if _phrase_cue(doc, sent, start, cues.uses_phrases, window=8) else None


def _list_start(doc: Doc, sent: Span, span: Span, index: MentionIndex, cues: HubCues) -> int:
    """Where the list a mention ends starts: back over earlier members, commas, "and",
    articles and enumerators ("(2) an X"); an enumerated member goes back to its list's "(1)"."""
    start = span.start
    i = start - 1
    while i >= sent.start:
        token = doc[i]
        member = index.by_token.get(i)
        if member is not None and member.label == "Method":
            start = index.spans[member].start
            i = start - 1
        elif token.lower_ in cues.list_words:
            i -= 1
        else:
            break
    enumerated = start - 3 >= sent.start and doc[start - 1].pos_ == "DET" and doc[start - 2].text == ")"
    if enumerated or (start - 2 >= sent.start and doc[start - 1].text == ")"):
        for j in range(start - 1, sent.start - 1, -1):
            if doc[j].text == "1" and j > sent.start and doc[j - 1].text == "(":
                return j - 1  # "(1) a Resolution-aware Channel Attention ...; (2) an AOL-Net": back to "(1)"
    return start


def _apposed(span: Span, own_spans: Sequence[Span]) -> bool:
    """Whether a phrase stands in apposition to the paper's method ("NeuroPaint, a masked
    autoencoding approach"): it starts at most four words after the name, past a comma."""
    doc = span.doc
    for own in own_spans:
        between = doc[own.end : span.start]
        if 0 < len(between) <= 4 and between[0].text in (",", "(", "-", "--", ":"):
            # "FocusNet, which employs learnable filters": a clause, not another name of the method
            return not any(t.pos_ in ("VERB", "AUX") or t.lower_ in ("which", "that", "who") for t in between)
    return False


def _modifier(doc: Doc, span: Span, heads: MentionHeads) -> bool:
    """Whether a name modifies a method noun right after it ("GNN architecture", "BERT model")."""
    following = doc[span.end] if span.end < len(doc) else None
    return following is not None and following.lemma_.lower() in heads.method


def _scored(doc: Doc, span: Span) -> bool:
    """A metric with a value: "+18.6 mAA", "by 3.1 AP", "92.4% accuracy"."""
    i = span.start - 1
    if i >= 0 and doc[i].text == "%":
        i -= 1
    return i >= 0 and doc[i].like_num


def _trained(mention: Mention) -> bool:
    """Whether a mention is a span of the trained SciERC model."""
    return mention.extractor.startswith(extractor_name("scierc"))


def _task_like(mention: Mention, span: Span, heads: MentionHeads) -> bool:
    """A task worth a fact: a listed one, or a phrase of two or more words ending in a task noun."""
    if mention.score >= 0.9:
        return True
    last = span[-1]
    return len(span) >= 2 and (last.lemma_.lower() in heads.task or last.lower_ in heads.task)


def vague_plurals(vague: frozenset[str]) -> frozenset[str]:
    """The plural heads among ``vague`` ("post-training quantization methods" is a class of methods)."""
    return frozenset(w for w in vague if w.endswith("s"))


def _specific(mention: Mention, heads: MentionHeads, vague: frozenset[str] = frozenset()) -> bool:
    """A name ("MODIS", "ResNet-50"), a listed entry, or a phrase that ends in no vague head
    ("multi-year datasets", "pre-trained models" and "feature representations" name nothing one could look up)."""
    if looks_named(mention.text) or mention.score >= 0.8:
        return True
    words = mention.text.lower().split()
    if mention.label == "Dataset" or words[-1] in vague_plurals(vague):
        return False
    return len(words) >= 2 and not (len(words) == 2 and words[-1] in vague) and words[0] not in heads.generic


def _backbone(doc: Doc, span: Span, cues: HubCues) -> bool:
    """"with a ViT-B backbone", "X-based encoder": a method named as a part."""
    after = doc[span.end : min(len(doc), span.end + 2)]
    return any(t.lemma_.lower() in cues.part_nouns for t in after)


def _compared(doc: Doc, sent: Span, start: int, cues: HubCues) -> bool:
    return bool(_cue_before(doc, sent, start, cues.outperforms, cues.compare_stop)) or _phrase_cue(
        doc, sent, start, cues.comparative_phrases
    )


def _hedged(sent: Span, cues: HubCues) -> bool:
    return bool({t.lower_ for t in sent} & cues.hedges)


def _comparisons(
    sent: Span,
    index: MentionIndex,
    out: _Sentence,
    cues: HubCues,
    heads: MentionHeads,
    forms: dict[str, Mention],
    main: Mention | None,
) -> None:
    """outperforms: the winner (a named method before the cue, else the paper's method when
    the sentence speaks of it) over every named method after the cue; "A performs worse than B"
    turned round."""
    doc = sent.doc
    if _hedged(sent, cues):
        return
    for cue in sent:
        lemma = cue.lemma_.lower()
        worse = cue.lower_ in cues.worse and cue.i + 1 < sent.end and doc[cue.i + 1].lower_ == "than"
        if not (lemma in cues.outperforms or worse or _comparative_at(doc, cue, sent, cues)):
            continue
        if any(t.lower_ in cues.negations for t in doc[max(sent.start, cue.i - 3) : cue.i]):
            continue  # "may not outperform", "fails to surpass"
        before = [m for m in index.within(doc[sent.start : cue.i], METHODS) if not _generic(m, heads)]
        winner = before[-1] if before else None
        if winner is not None and winner.text.lower() in forms and main is not None:
            winner = forms[winner.text.lower()] if forms[winner.text.lower()] == main else winner
        after_winner = index.spans[winner].end if winner is not None and winner in index.spans else sent.start
        if main is not None and _self_reference(doc[after_winner : cue.i + 1], cues, heads) is not None:
            winner = main  # "without resorting to X, our approach outperforms ...": the paper's method wins
        if winner is None:
            continue
        first = cue.i + 1
        while first < sent.end and doc[first].lower_ in ("than", "to", "with", "all", "both"):
            first += 1  # "better than", "superior to", "compared with"
        end = sent.end
        for token in doc[first : sent.end]:
            if token.lower_ in cues.compare_stop or token.lemma_.lower() in cues.outperforms:
                end = token.i
                break
        losers = [
            m for m in index.within(doc[first:end], METHODS)
            if not _generic(m, heads) and (looks_named(m.text) or m.score >= 0.5) and not _class_of(m, index, cues)
            and m.text.lower().split()[-1] not in cues.class_nouns
        ]
        for loser in losers:
            if worse:
                out.add(Relation.OUTPERFORMS, loser, winner, Rule.HUB_WORSE_THAN)
            else:
                out.add(Relation.OUTPERFORMS, winner, loser, Rule.HUB_COMPARATIVE)


def _class_of(mention: Mention, index: MentionIndex, cues: HubCues) -> bool:
    """"semi-supervised FL baselines", "LLaMA-based methods": a name inside a class of methods."""
    span = index.spans[mention]
    following = span.doc[span.end] if span.end < len(span.doc) else None
    return following is not None and following.lower_ in cues.class_nouns


def _comparative_at(doc: Doc, token: Token, sent: Span, cues: HubCues) -> bool:
    """"better / more effective / superior than / to", "compared to" with a direction word in the sentence."""
    nxt = doc[token.i + 1] if token.i + 1 < sent.end else None
    if nxt is None:
        return False
    if nxt.lower_ in ("than", "to") and (token.lower_ in cues.better or token.tag_ == "JJR" and token.lower_ not in cues.worse):
        return nxt.lower_ == "than" or token.lower_ in cues.better
    if nxt.lower_ == "than" and token.i > sent.start and doc[token.i - 1].lower_ == "more":
        return True  # "more accurate / effective than"
    if token.lower_ in ("compared", "comparison", "relative") and nxt.lower_ in ("to", "with"):
        return bool({t.lower_ for t in sent} & cues.directions)
    return token.lower_ == "over" and doc[token.i - 1].lemma_.lower() in cues.gain_nouns
