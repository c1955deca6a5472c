"""Mentions of methods, tasks, datasets and metrics in one abstract.

Candidates come from several sources, each with a priority that says how much
it is trusted when two candidates overlap:

====================  ========  ==================================================
source                priority  example
====================  ========  ==================================================
learned span          7         ``doc.spans["kg_learned"]``: the mention model trained on kg's corpus
named dataset         6         "the AWARE-US benchmark", "MMLU and GSM8K datasets"
name typed by a noun  6         "X, a benchmark of ...", "the X framework", "a method called X"
acronym long form     6         "Local Support Learning (LSL)"
gazetteer             5         "ImageNet", "BLEU", "ResNet-50", "question answering"
introduced name       5         "a framework called controllable feature whitening"
problem phrase        5         "the problem of learning a single neuron"
typed noun phrase     5         "a contrastive decoding framework", "the repair problem"
acronym short form    4         "LSL" once "Local Support Learning (LSL)" is defined
trained SciERC span   1         ``doc.spans["scierc"]`` mapped by ``kg.extract.scierc.mapping``
name                  2         "LLaMA", "GPT-4", "AWARE-US" (camel case, capitals, digits)
====================  ========  ==================================================

Learned spans (:mod:`kg.extract.learned_mentions`, trained on annotations of this
schema) win over the rules' candidates they overlap. Trained SciERC spans (score at
least :data:`TRAINED_MIN_SCORE`, clean boundaries) only fill the gaps the rules leave: on the seed abstracts the rules' boundaries and
types were the more reliable. Overlaps are settled greedily by priority, then length: a phrase wins over a
gazetteer entry inside it, and takes the entry's label when it ends with it
("personalised federated learning" is a Task like "federated learning"). A
name's type comes from the noun that defines it, or from its acronym's long
form, or from a dataset it is listed with ("MNIST, FEMNIST and Sent140"), else
it is a method. Phrases made only of generic words ("a novel framework",
"existing methods") name nothing and are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy

from spacy.attrs import ORTH
from spacy.tokens import Doc, Span, Token

from kg.extract.annotations import extractor_name
from kg.extract.cues import MentionHeads, RoleCues
from kg.extract.roles import metric_phrases, retyped
from kg.model import ROLE_TYPED, Acronym, EntityType, Mention

METHOD, TASK, DATASET, METRIC = (t.value for t in EntityType)

#: Trained SciERC spans scoring lower are ignored.
TRAINED_MIN_SCORE = 0.5

_CAPS = re.compile(r"[A-Z]")
_NAME_CHARS = re.compile(r"[A-Za-z][A-Za-z0-9.+_-]*")
_DIGIT = re.compile(r"[0-9]")
_PROBLEM_NOUNS = frozenset({"problem", "task", "challenge"})
_TASK_NOUNS = frozenset({"problem", "task"})
_NAMING = frozenset({"call", "name", "dub", "term", "coin"})


@dataclass(frozen=True)
class Candidate:
    """A token span that may name something, before overlaps are settled."""

    start: int
    end: int
    label: str
    score: float
    priority: int
    extractor: str


@lru_cache(maxsize=65536)
def is_name(text: str) -> bool:
    """Whether a token looks like the name of a model or resource.

    Names have two capitals ("LLaMA", "ResNet", "BERT") or a capital and a digit
    ("T5", "Qwen2.5"); ordinary capitalised words ("The", "Transformer") do not.

    >>> [is_name(w) for w in ("LLaMA", "GPT-4", "T5", "The", "x2", "R")]
    [True, True, True, False, False, False]
    """
    if len(text) < 2 or not _NAME_CHARS.fullmatch(text):
        return False
    capitals = len(_CAPS.findall(text))
    return capitals >= 2 or (capitals >= 1 and text[0].isupper() and bool(_DIGIT.search(text)))


def name_spans(doc: Doc, not_names: frozenset[str]) -> list[tuple[int, int]]:
    """Token spans of names, joined across attached hyphens ("AWARE-US", "SAES-SVD")."""
    spans = []
    i, n = 0, len(doc)
    while i < n:
        token = doc[i]
        if not is_name(token.text) or token.lower_ in not_names:
            i += 1
            continue
        end = i + 1
        # "AWARE" "-" "US": a hyphen with no space on either side continues the name.
        while (
            end + 1 < n
            and doc[end].text in ("-", "/")
            and not doc[end - 1].whitespace_
            and not doc[end].whitespace_
            and (doc[end + 1].is_alpha or doc[end + 1].like_num or doc[end + 1].text.isalnum())
            and doc[end + 1].lower_ not in ("based", "like", "style", "free", "aware", "specific")
        ):
            end += 2
        # "PA-100" "K": a glued capital or number part ends the name ("PA-100K").
        while end < n and not doc[end - 1].whitespace_ and doc[end].text.isalnum() and (doc[end].text.isupper() or doc[end].text.isdigit()):
            end += 1
        spans.append((i, end))
        i = end
    return spans


def looks_named(text: str) -> bool:
    """Whether a mention's text is a proper name rather than a description.

    >>> looks_named("Local Support Learning"), looks_named("GPT-4"), looks_named("graph clustering algorithm")
    (True, True, False)
    """
    return is_name(text.replace(" ", "").replace("-", ""))


def _is_name_part(token: Token) -> bool:
    return is_name(token.text) or (token.pos_ == "PROPN" and token.is_title) or token.like_num


def dataset_names(doc: Doc, heads: MentionHeads) -> list[tuple[int, int]]:
    """Names written right before a dataset noun: "the X benchmark", "on X, Y and Z datasets"."""
    spans = []
    for head in (t for t in doc if t.lower_ in heads.dataset):
        j = end = head.i
        if j > 1 and doc[j - 1].text == "-" and not doc[j - 1].whitespace_ and not doc[j - 2].whitespace_:
            j, end = j - 1, head.i + 1  # "Meta-Dataset": the head word is part of the name
        while True:
            j -= 1
            if j >= 0 and (
                _is_name_part(doc[j])
                or (doc[j].text == "-" and not doc[j].whitespace_ and j > 0 and not doc[j - 1].whitespace_)
            ):
                continue
            start = j + 1
            while start < end and doc[start].like_num:
                start += 1  # "five benchmark datasets": a count, not a name
            if start < end:
                spans.append((start, end))
            # Coordinated names share the head: "the MMLU, GSM8K and MATH benchmarks".
            k = j
            while k >= 0 and doc[k].lower_ in (",", "and", "or"):
                k -= 1
            if k < j and k >= 0 and _is_name_part(doc[k]) and not doc[k].like_num:
                end = j = k + 1
                continue
            break
    return spans


def _defining_noun(root: Token, naming: frozenset[str]) -> Token | None:
    """The common noun that says what a name is: apposition, "called X", "X is a ...", "the X model"."""
    if root.dep_ == "appos" and root.head.pos_ == "NOUN":
        return root.head
    for child in root.children:
        if child.dep_ == "appos" and child.pos_ == "NOUN":
            return child
    if root.dep_ in ("oprd", "dobj", "attr") and root.head.lemma_ in naming:
        noun = root.head.head
        return noun if noun.pos_ == "NOUN" else None
    if root.dep_ == "nsubj" and root.head.lemma_ == "be":
        for child in root.head.children:
            if child.dep_ == "attr" and child.pos_ == "NOUN":
                return child
    if root.dep_ in ("compound", "amod", "nmod") and root.head.pos_ == "NOUN" and root.head.i > root.i:
        return root.head
    return None


def _label_of_noun(noun: Token | None, heads: MentionHeads) -> str | None:
    if noun is None:
        return None
    word = noun.lemma_.lower()
    for label, words in ((DATASET, heads.dataset), (METHOD, heads.method), (TASK, heads.task)):
        if word in words or noun.lower_ in words:
            return label
    return None


_PHRASE_POS = frozenset({"ADJ", "NOUN", "PROPN", "VERB", "NUM", "X"})
_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_FUNCTION_WORDS = frozenset({"with", "of", "for", "via", "and", "the", "on", "in", "to", "a", "an", "by", "from"})
_PREPOSITIONAL_GERUNDS = frozenset({"including", "using", "following", "regarding", "concerning", "involving", "given"})


def _phrase_word(token: Token) -> bool:
    """Whether a word can sit inside a name-like noun phrase ("graph clustering", "BERT-based")."""
    doc = token.doc
    if token.text == "-":
        return not token.whitespace_ and token.i > 0 and not doc[token.i - 1].whitespace_
    if token.i > 0 and doc[token.i - 1].text == "-" and not doc[token.i - 1].whitespace_:
        return True  # "out-of-distribution": inside a hyphenated word
    if not token.whitespace_ and token.i + 1 < len(doc) and doc[token.i + 1].text == "-":
        return True
    if token.pos_ not in _PHRASE_POS or token.lower_ in ("and", "or", "of"):
        return False
    if token.pos_ == "VERB":
        # "graph clustering algorithm" (VBG) yes; "a framework called X" (VBN clause) and
        # "domains including X" (a gerund used as a preposition) no.
        if token.lower_ in _PREPOSITIONAL_GERUNDS:
            return False
        return token.tag_ == "VBG" or (token.tag_ == "VBN" and token.dep_ in ("amod", "compound"))
    return True


def _skip_generic_compounds(doc: Doc, start: int, end: int, generic: frozenset[str]) -> int:
    """Skip leading hyphenated words that say nothing ("state-of-the-art", "well-known")."""
    while start < end:
        stop = start + 1
        while stop + 1 < end and doc[stop].text == "-" and not doc[stop - 1].whitespace_ and not doc[stop].whitespace_:
            stop += 2
        if stop == start + 1 or doc[start:stop].text.lower() not in generic:
            return start
        start = stop
    return start


def head_lemma(token: Token) -> str:
    """A noun's lemma, in lower case; a plural proper noun, which the lemmatizer leaves alone, loses its "s".

    "Graph Attention Networks" ends with the method head "network", as "graph attention networks" does.
    """
    if token.tag_ == "NNPS" and token.lower_.endswith("s") and not token.lower_.endswith("ss"):
        return token.lower_[:-1]
    return token.lemma_.lower()


def _phrase_candidate(head: Token, heads: MentionHeads, extractor: str) -> Candidate | None:
    """The typed noun phrase ending at ``head``, without determiners and generic modifiers.

    Built from word order and tags, not from noun chunks: the small parser often
    splits "a simple local graph clustering algorithm" in two.
    """
    lemma = head_lemma(head)
    if head.tag_ not in _NOUN_TAGS:
        return None
    if lemma in heads.method or head.lower_ in heads.method:
        label, drop_head = METHOD, False
    elif lemma in heads.task or head.lower_ in heads.task:
        label, drop_head = TASK, False
    elif lemma in _TASK_NOUNS:
        label, drop_head = TASK, True  # "the label sparsity problem" -> "label sparsity"
    else:
        return None
    doc = head.doc
    following = doc[head.i + 1] if head.i + 1 < len(doc) else None
    if following is not None and (
        following.tag_ in _NOUN_TAGS or following.lemma_.lower() in heads.method or following.lower_ in heads.task
    ):
        return None  # not the last word of the compound
    sent_start = head.sent.start if doc.has_annotation("SENT_START") else 0
    start = head.i
    while start - 1 >= sent_start and head.i - start < 7 and _phrase_word(doc[start - 1]):
        start -= 1
    end = head.i + (0 if drop_head else 1)
    start = _skip_generic_compounds(doc, start, end, heads.generic)
    while start < end and (
        doc[start].lower_ in heads.generic
        or doc[start].text == "-"
        or (doc[start].pos_ == "VERB" and doc[start].dep_ not in ("amod", "compound", "nmod"))
        or (doc[start].like_num and not (start + 1 < end and doc[start + 1].text == "-"))
    ):
        start += 1
    content = [t for t in doc[start:end] if t.i != head.i and t.lower_ not in heads.generic]
    if not content or (drop_head and not _names_a_task(content, heads)):
        return None  # "the efficiency problem", "vision tasks": too vague to be a task
    if label == METHOD and end - start == 2 and is_name(doc[start].text):
        return None  # "the LSA framework": the name is the mention
    return Candidate(start, end, label, 0.55 if label == METHOD else 0.6, 5, extractor)


def problem_phrases(doc: Doc) -> list[tuple[int, int]]:
    """What "the problem / task of X" names: "the problem of learning a single neuron"."""
    spans = []
    for word in doc:
        if word.lower_ != "of" or word.i == 0 or doc[word.i - 1].lemma_.lower() not in _PROBLEM_NOUNS:
            continue
        start = end = word.i + 1
        while end < len(doc) and end - start < 6 and (_phrase_word(doc[end]) or doc[end].pos_ == "DET"):
            end += 1
        while end > start and doc[end - 1].tag_ not in _NOUN_TAGS:
            end -= 1
        if end > start and any(t.tag_ in _NOUN_TAGS for t in doc[start:end]) and doc[start].pos_ != "DET":
            spans.append((start, end))
    return spans


def _names_a_task(content: list[Token], heads: MentionHeads) -> bool:
    """What "... task(s) / problem" keeps: two content words ending in a noun ("label sparsity
    problem"), or one task word ("reasoning tasks", "classification problems")."""
    last = content[-1]
    if len(content) == 1:
        return last.lemma_.lower() in heads.task or last.lower_ in heads.task
    return last.tag_ in _NOUN_TAGS


def called_names(doc: Doc, naming: frozenset[str]) -> list[tuple[int, int, Token]]:
    """Names introduced by "called / named / dubbed / termed" or "which we call / term":
    "a framework called controllable feature whitening"."""
    spans = []
    for word in doc:
        if word.lemma_.lower() not in naming:
            continue
        # "a framework called X", and "... which we call / term X"
        if word.tag_ != "VBN" and not (word.tag_ in ("VBP", "VB") and any(c.lower_ == "we" for c in word.children)):
            continue
        start = word.i + 1
        while start < len(doc) and doc[start].lower_ in ("the", "as", "it", "a", "an"):
            start += 1
        end = start
        while end < len(doc) and end - start < 6 and (_phrase_word(doc[end]) or is_name(doc[end].text)):
            end += 1
        if end > start:
            spans.append((start, end, word.head))  # the noun "called" describes
    return spans


def _trained_candidates(doc: Doc, map_entity: Callable | None) -> list[Candidate]:
    if map_entity is None or "scierc" not in doc.spans or not len(doc.spans["scierc"]):
        return []
    group = doc.spans["scierc"]
    raw = group.attrs.get("scores")
    # One score per span, whatever shape the model stored ((n,) or (n, 1) arrays, lists).
    scores = [1.0] * len(group) if raw is None else numpy.asarray(raw, dtype=float).reshape(len(group), -1).max(axis=1)
    found = []
    for span, score in zip(group, scores):
        mapped = map_entity(span.label_, span.text)
        if mapped is not None and score >= TRAINED_MIN_SCORE and _clean_span(span):
            label = getattr(mapped, "value", mapped)
            if label == DATASET and _unnamed_collection(span):
                continue
            found.append(Candidate(span.start, span.end, label, float(score) * 0.9, 1, extractor_name("scierc")))
    return found


#: Priority of a learned mention (:mod:`kg.extract.learned_mentions`) when candidates overlap: above
#: every rule. Chosen on the corpus dev split (lenient F1 of the facts: 33.6 at 1, a gap filler like
#: the SciERC spans; 34.6 at 5, a peer of the typed phrases; 35.0 at 7).
LEARNED_PRIORITY = 7
#: Learned spans scoring lower are ignored.
LEARNED_MIN_SCORE = 0.5


def _learned_candidates(doc: Doc) -> list[Candidate]:
    """Spans of the learned mention model, typed as it types them."""
    group = doc.spans.get("kg_learned")
    if group is None or not len(group):
        return []
    raw = group.attrs.get("scores")
    scores = [1.0] * len(group) if raw is None else numpy.asarray(raw, dtype=float).reshape(len(group), -1).max(axis=1)
    extractor = extractor_name("learned")
    return [
        Candidate(span.start, span.end, span.label_, float(score), LEARNED_PRIORITY, extractor)
        for span, score in zip(group, scores)
        if score >= LEARNED_MIN_SCORE and span.label_ in (METHOD, TASK, DATASET, METRIC) and _clean_span(span)
    ]


def _unnamed_collection(span: Span) -> bool:
    """Data described, not named: a plural ("synthetic and real-world datasets", "text
    datasets") or a noun with adjectives only ("a synthetic dataset", "one real-world
    dataset"). The gold guidelines: "a real-world dataset gives nothing"."""
    if any(is_name(t.text) for t in span):
        return False
    if span[-1].tag_ in ("NNS", "NNPS"):
        return True
    return len(span) > 1 and all(t.pos_ in ("ADJ", "PUNCT") or t.tag_ == "HYPH" for t in span[:-1])


def _clean_span(span: Span) -> bool:
    """A trained span worth a mention: whole words at both ends, ending on a noun ("VPR)" and
    "-art methods" are not)."""
    return span.text[:1].isalnum() and span.text[-1:].isalnum() and span[-1].pos_ in ("NOUN", "PROPN", "")


def _after_hyphen(token: Token) -> bool:
    """"aware" in "Discrepancy-aware": the rest of a hyphenated word."""
    return token.i > 0 and token.doc[token.i - 1].text == "-" and not token.doc[token.i - 1].whitespace_


def _long_form_label(span: Span, acronym: Acronym, candidates: Sequence[Candidate], heads: MentionHeads) -> str | None:
    """The type of a defined acronym, in this order of trust:

    1. the gazetteer's label for the short or the long form ("Low-Rank Adaptation (LoRA)":
       a method; "federated learning (FL) algorithms": a task), else the method or
       dataset noun the long form is in apposition to ("our method Explained Variance
       Adaptation (EVA)"), else a method when it is coined ("..., coined X (Y)");
    2. a method or dataset noun after the parenthesis ("a risk classification (MRC) approach");
    3. a capitalised coinage is a method ("Local Support Learning (LSL)", "DEnoised Task
       Adaptation (DETA)"), unless it reads as a task ("Visual Place Recognition (VPR)");
    4. the typed candidate covering the long form's last word ("... paradigm (LSA)");
    5. the type of that last word.
    """
    doc = span.doc
    last = span.end - 1
    bracketed = span.end + 1 < len(doc) and doc[span.end].text == "("
    listed = [c for c in candidates if bracketed and c.score >= 0.9 and c.start == span.end + 1]
    listed += [c for c in candidates if c.score >= 0.9 and (c.start, c.end) == (span.start, span.end)]
    if listed:
        return listed[0].label  # the gazetteer knows the short or the long form
    if doc.has_annotation("DEP"):
        defined = _label_of_noun(_defining_noun(span.root, _NAMING), heads)
        if defined in (METHOD, DATASET):
            return defined  # "our new method Explained Variance Adaptation (EVA)"
        before = doc[span.start - 1] if span.start > 0 else None
        if before is not None and before.lemma_.lower() in _NAMING and before.tag_ == "VBN":
            # "a novel importance score ..., coined layer-adaptive magnitude-based pruning (LAMP)":
            # a coined name is a method (or a dataset, when the noun it names is one)
            return DATASET if _label_of_noun(before.head, heads) == DATASET else METHOD
    if bracketed and span.end + 3 < len(doc):
        after = _label_of_noun(doc[span.end + 3], heads)
        if after is not None and after != TASK:  # "large language model (LLM) reasoning" names no task
            return after
    covering = [c for c in candidates if c.start <= last < c.end and c.priority >= 3]
    task_like = (
        doc[last].lemma_.lower() in heads.task
        and not any(is_name(t.text) for t in span)
        and len(acronym.long.split()) <= 3
    ) or any(c.label == TASK and c.score >= 0.9 and (c.start <= span.start or len(span) <= 3) for c in covering)
    if all(t.is_title or not t.is_alpha or is_name(t.text) or t.lower_ in _FUNCTION_WORDS or _after_hyphen(t) for t in span) and not task_like:
        return METHOD  # "Federated Learning with Discrepancy-aware Collaboration (FedDisco)" too
    if covering:
        return max(covering, key=lambda c: c.priority).label
    return _label_of_noun(doc[last], heads)


def _acronym_labels(
    doc: Doc, acronyms: Sequence[Acronym], candidates: Sequence[Candidate], heads: MentionHeads
) -> tuple[dict[str, str], list[Candidate]]:
    """Each defined short form's label, taken from its long form, and long-form candidates."""
    labels: dict[str, str] = {}
    long_forms = []
    extractor = extractor_name("acronyms")
    for acronym in acronyms:
        span = doc.char_span(acronym.start, acronym.end, alignment_mode="expand")
        label = None if span is None else _long_form_label(span, acronym, candidates, heads)
        if span is not None and label is not None:
            labels[acronym.short] = label
            start = span.start
            while start < span.end - 1 and doc[start].lower_ in ("and", "or", ","):
                start += 1  # "... and Global-Local Fairness Optimality Problem (GLFOP)": the long form starts after "and"
            long_forms.append(Candidate(start, span.end, label, 0.8, 6, extractor))
    return labels, long_forms


def _appositive_names(doc: Doc, heads: MentionHeads, extractor: str) -> list[Candidate]:
    """Capitalised words a method or dataset noun stands in apposition to: "Hydra, a contrastive
    learning framework", "a new benchmark, Pile" (single capitals that :func:`is_name` misses)."""
    found = []
    for token in doc:
        if token.pos_ != "PROPN" or not token.is_title or is_name(token.text) or token.i == token.sent.start:
            continue
        if any(0 <= j < len(doc) and doc[j].pos_ == "PROPN" and doc[j].is_title for j in (token.i - 1, token.i + 1)):
            continue  # part of a longer proper name ("Federated Learning with ...")
        noun = token.head if token.dep_ == "appos" else next((c for c in token.children if c.dep_ == "appos"), None)
        label = _label_of_noun(noun, heads)
        if label in (METHOD, DATASET) and noun is not None and noun.pos_ == "NOUN":
            found.append(Candidate(letter_prefix(doc, token.i), token.i + 1, label, 0.7, 6, extractor))
    return found


def _repeated_names(doc: Doc, typed: Sequence[Candidate], extractor: str) -> list[Candidate]:
    """Later uses of a one-word name typed where it is introduced ("Bone, a new method ...
    Bone achieves"): :func:`is_name` misses such names, so only their first use would be found."""
    if not typed:
        return []
    orths = doc.to_array([ORTH])
    found = []
    for cand in typed:
        for i in numpy.flatnonzero(orths == orths[cand.start]):
            if i != cand.start and doc[int(i)].pos_ == "PROPN":
                found.append(Candidate(int(i), int(i) + 1, cand.label, 0.6, 4, extractor))
    return found


#: Verbs (and nouns) of results: an untyped name they reach through "on" is a data set.
_RESULT_WORDS = frozenset(
    "achieve attain obtain outperform surpass evaluate test validate experiment result report accuracy "
    "performance score".split()
)


def _evaluated_name(root: Token) -> bool:
    """"achieves 67% mIoU on PASLCD and CCS3D", "experiments on XYZ": a name after "on /
    across" that hangs from a result word."""
    top = root
    while top.dep_ == "conj" and top.head.i != top.i:
        top = top.head
    prep = top.head
    if top.dep_ != "pobj" or prep.lower_ not in ("on", "across"):
        return False
    return prep.head.lemma_.lower() in _RESULT_WORDS


def _scored_before(doc: Doc, start: int, label_at: dict[int, str]) -> bool:
    """Whether a score comes just before a name's "on / in / across": "+18.6 mAA on X",
    "a 7.74% accuracy boost ... in X" (a number, then at most a metric and two words)."""
    i = start - 1
    if i < 0 or doc[i].lower_ not in ("on", "in", "across"):
        return False
    window = doc[max(doc[start].sent.start, i - 5) : i]
    return any(t.like_num or t.text == "%" for t in window)


def _coordinated_datasets(doc: Doc, chosen: list[Candidate]) -> list[Candidate]:
    """Types decided by role for untyped names: coordinated with a dataset, a dataset
    ("MNIST, FEMNIST and Sent140"); what results are reported on, a dataset ("achieves
    state-of-the-art accuracy on PASLCD", "+29.5 mAA on WxBS"); a name right after a
    score, a metric ("+18.6 mAA", "2.66 perplexity")."""
    label_at = {i: c.label for c in chosen for i in range(c.start, c.end)}
    out = []
    for cand in chosen:
        if cand.priority == 2:
            root = doc[cand.start : cand.end].root
            previous = doc[cand.start - 1] if cand.start > 0 else None
            if any(label_at.get(t.i) == DATASET for t in root.conjuncts) or _evaluated_name(root) or _scored_before(doc, cand.start, label_at):
                cand = Candidate(cand.start, cand.end, DATASET, 0.7, cand.priority, cand.extractor)
            elif previous is not None and cand.end - cand.start == 1 and _signed_score(previous):
                cand = Candidate(cand.start, cand.end, METRIC, 0.7, cand.priority, cand.extractor)
        out.append(cand)
    # A name once written after a score is a metric wherever the abstract writes it untyped.
    metrics = {doc[c.start : c.end].text for c in out if c.label == METRIC and c.priority == 2}
    return [
        Candidate(c.start, c.end, METRIC, c.score, c.priority, c.extractor)
        if c.priority == 2 and c.label != METRIC and doc[c.start : c.end].text in metrics
        else c
        for c in out
    ]


def _signed_score(token: Token) -> bool:
    """A score that gives a gain: "+ 18.6", "by 3.1", "of 2.5", "+29.5" (one token)."""
    if token.text[:1] == "+" and token.text[1:].replace(".", "", 1).isdigit():
        return True
    return token.like_num and token.i > 0 and token.doc[token.i - 1].text in ("+", "by", "of")


_SYMBOL_NAME = re.compile(r"[A-Z][A-Za-z]?(?:\+\+|--|#)|\.[A-Z][A-Za-z]+")


def letter_prefix(doc: Doc, start: int) -> int:
    """Where a name starting at token ``start`` starts once a glued one-letter prefix is counted.

    "α-Net", "β-VAE", "A-Net", "a-Net", "t-SNE": the letter and the hyphen are
    part of the name (without them the four nets are all "Net"); a longer
    prefix ("forward-KL") is another word, and ``start`` is returned as it is.
    """
    if start < 2 or doc[start - 1].text != "-" or doc[start - 1].whitespace_ or doc[start - 2].whitespace_:
        return start
    letter = doc[start - 2]
    glued_before = start > 2 and not doc[start - 3].whitespace_ and doc[start - 3].text not in "([\"'"
    return start - 2 if len(letter.text) == 1 and letter.text.isalpha() and not glued_before else start


def symbol_names(doc: Doc, extractor: str) -> list[Candidate]:
    """Names made by a symbol, which :func:`is_name` cannot see: "C#", "F#", "C++", "C--", ".NET".

    A lone "C" stays unnamed (a section, a constant, a grade): only the symbol makes it a name.
    """
    found = []
    for token in doc:
        if _SYMBOL_NAME.fullmatch(token.text):
            found.append(Candidate(token.i, token.i + 1, METHOD, 0.45, 2, extractor))
        elif (
            len(token.text) == 1 and token.text.isupper() and not token.whitespace_
            and token.i + 1 < len(doc) and doc[token.i + 1].text in ("#", "++")
        ):
            found.append(Candidate(token.i, token.i + 2, METHOD, 0.45, 2, extractor))
    return found


_VERSION = re.compile(r"\d+(?:\.\d+)?")


def with_version_numbers(doc: Doc, chosen: list[Candidate], heads: MentionHeads) -> list[Candidate]:
    """Names followed by a spaced version number take it: "ResNet 50", "VGG 16", "GPT 3.5".

    Not when a noun other than a method or dataset word follows the number
    ("ImageNet 10 times", "BERT 3 layers"), nor when the number is part of another mention.
    """
    used = {i for c in chosen for i in range(c.start, c.end)}
    kinds = heads.method | heads.dataset
    out = []
    for cand in chosen:
        last, end = doc[cand.end - 1], cand.end
        if (
            cand.label in (METHOD, DATASET) and is_name(last.text) and last.whitespace_
            and end < len(doc) and end not in used and _VERSION.fullmatch(doc[end].text)
            and not (end + 1 < len(doc) and doc[end + 1].tag_ in _NOUN_TAGS and doc[end + 1].lemma_.lower() not in kinds)
        ):
            cand = Candidate(cand.start, end + 1, cand.label, cand.score, cand.priority, cand.extractor)
        out.append(cand)
    return out


def select(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Non-overlapping candidates, preferring priority, then length, then the earlier one."""
    taken: list[Candidate] = []
    used: set[int] = set()
    for cand in sorted(candidates, key=lambda c: (-c.priority, c.start - c.end, c.start)):
        tokens = range(cand.start, cand.end)
        if cand.end > cand.start and not used.intersection(tokens):
            taken.append(cand)
            used.update(tokens)
    return sorted(taken, key=lambda c: c.start)


def _gazetteer_candidates(doc: Doc, gazetteer: Callable[[Doc], list[tuple[int, int, str]]] | None, extractor: str) -> list[Candidate]:
    found = []
    for start, end, label in gazetteer(doc) if gazetteer is not None else ():
        # "full-precision": a word glued to a hyphen is part of another word.
        if not (start > 0 and doc[start - 1].text == "-" and not doc[start - 1].whitespace_):
            found.append(Candidate(start, end, label, 0.9, 5, extractor))
    return found


def _phrase_candidates(doc: Doc, heads: MentionHeads, naming: frozenset[str], listed: Sequence[Candidate], extractor: str) -> list[Candidate]:
    """Typed phrases (taking the label of a gazetteer entry they end with), problem phrases, introduced names."""
    label_at_end = {c.end: c.label for c in listed}
    head_words = heads.method | heads.task | _TASK_NOUNS
    # First, so that on a tie they win: "the problem of sparse linear regression" is a task
    # even though "linear regression" is listed as a method.
    found = [Candidate(start, end, TASK, 0.6, 5, extractor) for start, end in problem_phrases(doc)]
    for token in doc:
        if token.lower_ in head_words or head_lemma(token) in head_words:
            cand = _phrase_candidate(token, heads, extractor)
            if cand is not None:
                # "the sparse linear regression problem": the problem noun types the phrase, not
                # the gazetteer entry it ends with ("linear regression").
                label = cand.label if cand.end == token.i else label_at_end.get(cand.end, cand.label)
                found.append(Candidate(cand.start, cand.end, label, cand.score, cand.priority, extractor))
    for start, end, described in called_names(doc, naming):
        found.append(Candidate(start, end, _label_of_noun(described, heads) or METHOD, 0.8, 5, extractor))
    return found


def _name_candidates(
    doc: Doc,
    heads: MentionHeads,
    naming: frozenset[str],
    short_labels: dict[str, str],
    parsed: bool,
    extractor: str,
    listed_data: frozenset[tuple[int, int]] = frozenset(),
) -> list[Candidate]:
    """Names, typed by their acronym definition, else by the noun that defines them, else methods.
    A listed dataset stays one before a method noun: "CIFAR-10 models" are models of the data."""
    found = []
    for start, end in name_spans(doc, heads.not_names):
        start = letter_prefix(doc, start)
        if start > 0 and (doc[start - 1].text == "[" or (doc[start - 1].text == "-" and not doc[start - 1].whitespace_)):
            continue  # "[KH+09]": a citation key; "forward-KL": part of a longer word
        label = short_labels.get(doc[start:end].text)
        score, priority = (0.8, 4) if label else (0.45, 2)
        if label is None and parsed:
            label = _label_of_noun(_defining_noun(doc[start:end].root, naming), heads)
            if label == TASK:
                label = None  # "ImageNet classification": a name before a task noun is not that task
            elif label == METHOD and (start, end) in listed_data:
                label = DATASET
            if label is not None:
                score, priority = 0.8, 6
        found.append(Candidate(start, end, label or METHOD, score, priority, extractor))
    return found


def _retyped_by_role(doc: Doc, chosen: list[Candidate], heads: MentionHeads, roles: RoleCues) -> list[Candidate]:
    """The chosen candidates with the types their roles give (:func:`kg.extract.roles.retyped`);
    a retyped one's extractor ends with :data:`~kg.model.ROLE_TYPED`."""
    names = [c.priority == 2 or any(is_name(t.text) for t in doc[c.start : c.end]) for c in chosen]
    labels = retyped(doc, [(c.start, c.end, c.label) for c in chosen], heads, roles, names)
    return [
        c if label == c.label else Candidate(c.start, c.end, label, c.score, c.priority, c.extractor + ROLE_TYPED)
        for c, label in zip(chosen, labels)
    ]


def find_mentions(
    doc: Doc,
    gazetteer: Callable[[Doc], list[tuple[int, int, str]]] | None,
    heads: MentionHeads,
    acronyms: Sequence[Acronym] = (),
    naming: frozenset[str] = _NAMING,
    map_entity: Callable | None = None,
    roles: RoleCues | None = None,
) -> tuple[Mention, ...]:
    """Every mention of a method, task, dataset or metric in ``doc``, in text order.

    Needs POS tags and a dependency parse for phrases and name typing; on a Doc
    without them only gazetteer entries, names and acronyms are found. With
    ``roles``, a mention's role in its sentence corrects its type (:mod:`kg.extract.roles`).
    """
    rules = extractor_name("mentions")
    parsed = doc.has_annotation("DEP")
    cands = _gazetteer_candidates(doc, gazetteer, rules)
    if parsed:
        cands += _phrase_candidates(doc, heads, naming, cands, rules)
    cands += _trained_candidates(doc, map_entity)
    cands += _learned_candidates(doc)
    short_labels, long_forms = _acronym_labels(doc, acronyms, cands, heads)
    cands += long_forms
    for start, end in dataset_names(doc, heads):
        if short_labels.get(doc[start:end].text) != TASK:  # "VPR benchmarks" are benchmarks of a task
            cands.append(Candidate(start, end, DATASET, 0.85, 6, rules))
    listed_data = frozenset((c.start, c.end) for c in cands if c.label == DATASET and c.score >= 0.9)
    cands += _name_candidates(doc, heads, naming, short_labels, parsed, rules, listed_data)
    cands += symbol_names(doc, rules)
    if parsed:
        cands += _appositive_names(doc, heads, rules)
        if roles is not None:
            cands += [Candidate(start, end, METRIC, 0.6, 5, rules) for start, end in metric_phrases(doc, roles, heads)]
    chosen = [c for c in select(cands) if not (c.label == TASK and doc[c.start : c.end].text.lower() in heads.not_tasks)]
    if parsed:
        typed = [
            c for c in chosen
            if c.end - c.start == 1 and c.priority >= 5 and c.label in (METHOD, DATASET) and doc[c.start].is_title
        ]
        if repeated := _repeated_names(doc, typed, rules):
            chosen = select([*chosen, *repeated])
        chosen = _coordinated_datasets(doc, chosen)
        chosen = with_version_numbers(doc, chosen, heads)
        if roles is not None:
            chosen = _retyped_by_role(doc, chosen, heads, roles)
    return tuple(
        Mention(doc[c.start].idx, doc[c.end - 1].idx + len(doc[c.end - 1]), c.label, doc[c.start : c.end].text, round(c.score, 3), c.extractor)
        for c in chosen
    )
