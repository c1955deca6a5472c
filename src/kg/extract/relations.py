"""Relations between a method and other mentions, from cue words and the parse.

Each rule starts from the object mention and walks up the dependency tree to
the word that links it to a method; the method is the subject of that verb
(:func:`~kg.extract.structure.agent_of`), or the paper's proposed method when
the subject is "we", "it" or "our model". When the small parser gets a sentence
wrong, word-order rules about the paper's own method stand in. Confidences:

===========  ================================================================  ====
relation     cue                                                               conf
===========  ================================================================  ====
outperforms  "Z outperforms / surpasses / beats X and Y" (X, Y named)          0.8
uses         "Z builds on / uses / leverages / is based on X" (X named)        0.65
addresses    "X for Y", "we propose X for Y", "X, a framework for Y"          0.75
             "Z tackles / solves / addresses Y", "to address Y, we propose Z"  0.75
             "Z achieves ... on / in Y" (a task)                               0.65
             "Z, an LLM compression framework" (task inside the description)   0.65
             the sentence proposing Z, Y after it with "for" / "to solve" ...  0.7
             "we study / focus on Y" (Z the paper's method)                    0.6
             the tasks the abstract is about (:func:`topic_tasks`)             0.6
             "our method ... on / for Y tasks" in a result sentence            0.5
evaluatedOn  "Z achieves ... on X", "we evaluate Z on X", "experiments on X    0.75
             show that Z ..."
             a result sentence about the paper's method, X after "on /         0.65
             across / including / :" ("... datasets: A, B")
measuredBy   "Z improves BLEU", "in terms of accuracy", "Z achieves 90%        0.7
             accuracy"
hasCode      a URL in the text (code hosts 0.95, other pages 0.7)
===========  ================================================================  ====

Facts whose subject is only implied (the paper's method standing in for
"we"/"it", or named in another sentence) take 0.1 less. Trained SciERC
relations, when present, are mapped with ``kg.extract.scierc.mapping.map_relation``
and keep the model's score (times 0.8); only :data:`TRAINED_RELATIONS` scoring
at least :data:`TRAINED_MIN_SCORE` between two mentions of the index (the
components index only the mentions the rules found) are kept. One fact per (relation, subject text,
object text) is kept, the most confident.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from kg.extract.annotations import extractor_name
from kg.extract.contributions import self_referred
from kg.lexicon import DETERMINERS, GENERIC_MODIFIERS
from kg.extract.confidences import Confidences, fact_confidences_v1
from kg.extract.cues import ContributionPatterns, HubCues, MentionHeads, RelationCues
from kg.extract.hub import hub_facts, ranked_methods, studied_method
from kg.extract.mentions import is_name, looks_named
from kg.extract.structure import (
    MentionIndex,
    agent_of,
    attachment,
    conjuncts,
    governing_verb,
    mention_of,
    sentence_offsets,
    subjects,
)
from kg.model import URL_LABEL, Acronym, Fact, Mention, Relation, Rule

METHODS = frozenset({"Method"})
_NAMED = frozenset({"Method", "Task", "Dataset"})
_METRICS = frozenset({"Metric"})
_APPLY = frozenset({"use", "apply", "employ", "leverage", "adopt", "utilize", "design", "tailor"})


class _Facts:
    """Collects facts of one sentence, skipping self-loops and lowering implied subjects.

    A fact's confidence is its rule's entry in the confidence table, less the
    table's penalty when the subject is only implied (the paper's method standing
    in for "we" / "it", or named in another sentence); a trained relation's is its
    score times the table's entry for the model.
    """

    def __init__(self, sent: Span, proposals: Sequence[Mention], confidences: Confidences, stage: str = "relations") -> None:
        self.sent = sent
        self.proposed = proposals[0] if proposals else None
        self.own = {m.text.lower() for m in proposals}
        self.confidences = confidences
        self.stage = stage
        self.facts: list[Fact] = []

    def add(self, relation: Relation, subject: Mention | None, obj: Mention, rule: Rule, score: float = 1.0) -> None:
        if subject is None or subject == obj or obj.text.lower() == subject.text.lower():
            return  # no self-loops
        confidence = self.confidences[rule] * score
        if subject is self.proposed and not (self.sent.start_char <= subject.start < self.sent.end_char):
            confidence -= self.confidences.implied_subject_penalty
        extractor = extractor_name(self.stage, rule)
        self.facts.append(Fact(relation.value, subject, obj, sentence_offsets(self.sent), extractor, round(confidence, 3)))


def _method_objects(verb: Token, index: MentionIndex, heads: MentionHeads, preps: frozenset[str] = frozenset(), direct: bool = True) -> list[Mention]:
    """Named methods (names, gazetteer entries) that are the object of ``verb`` (or of its
    ``preps``), coordinations included; descriptions ("existing methods") are left out."""
    objects = [c for c in verb.children if c.dep_ in ("dobj", "attr", "oprd")] if direct else []
    objects += [g for c in verb.children if c.dep_ == "prep" and c.lower_ in preps for g in c.children if g.dep_ == "pobj"]
    found: dict[Mention, None] = {}
    for obj in objects:
        for token in conjuncts(obj):
            mention = index.at(token, METHODS)
            if mention is not None and names_a_method(mention, heads):
                found.setdefault(mention)
    return list(found)


def names_a_method(mention: Mention, heads: MentionHeads) -> bool:
    """A gazetteer method or a name ("BERT", "NNCLR"), not a class of methods ("two-stage VPR methods").

    >>> from kg.extract.cues import mention_heads_v1
    >>> heads = mention_heads_v1()
    >>> names_a_method(Mention(0, 5, "Method", "NNCLR", 0.45), heads)
    True
    >>> names_a_method(Mention(0, 17, "Method", "stage VPR methods", 0.55), heads)
    False
    """
    last = mention.text.split()[-1].lower()
    described = last in heads.method or last.rstrip("s") in heads.method or last.removesuffix("es") in heads.method
    return mention.score >= 0.9 or (looks_named(mention.text) and not described)


def _said_of_authors(verb: Token) -> bool:
    """Whether "we" do what ``verb`` says: "we use X", "we propose to use X", "we ... and use X"."""
    current = verb
    for _ in range(3):
        if any(s.lower_ == "we" for s in subjects(current)):
            return True
        if current.dep_ not in ("xcomp", "conj") or current.head is current:
            return False
        current = current.head
    return False


def _verb_rules(sent: Span, index: MentionIndex, out: _Facts, cues: RelationCues, heads: MentionHeads) -> None:
    """outperforms and uses: the subject of a cue verb, and the methods it governs."""
    for verb in sent:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        lemma = verb.lemma_.lower()
        if lemma in cues.outperforms:
            subject = agent_of(verb, index, METHODS, out.proposed, heads)
            for obj in _method_objects(verb, index, heads):
                out.add(Relation.OUTPERFORMS, subject, obj, Rule.OUTPERFORMS_VERB)
        elif lemma in cues.uses:
            if _said_of_authors(verb) or verb.head.lemma_.lower() in cues.evaluation:
                continue  # "we use ViT as a test bed", "validated using IN1K": how the paper worked, not what its method uses
            # "builds on X" / "is based on X": the method is behind the preposition.
            if lemma in ("build", "base"):
                objects = _method_objects(verb, index, heads, cues.uses_preps, direct=False)
            else:
                objects = _method_objects(verb, index, heads)
            subject = agent_of(verb, index, METHODS, out.proposed, heads)
            for obj in objects:
                out.add(Relation.USES, subject, obj, Rule.USES_VERB)


def _method_for(link: Token, index: MentionIndex, out: _Facts, heads: MentionHeads, patterns: ContributionPatterns) -> tuple[Mention | None, Rule | None]:
    """The method a "for Y" phrase attaches to: "X for Y", "we propose X for Y", "X is used for Y"."""
    direct = mention_of(link, index, METHODS, out.proposed, heads)
    if direct is not None and (direct.text.lower() in out.own or looks_named(direct.text) or direct.score >= 0.9):
        return direct, Rule.FOR_NAMED  # a named method; "pre-trained models for VPR" is too vague
    lemma = link.lemma_.lower()
    if link.pos_ == "VERB":
        if link.dep_ in ("acl", "relcl") and (found := mention_of(link.head, index, METHODS, out.proposed, heads)):
            return found, Rule.FOR_DESCRIBED  # "a framework designed for Y"
        if lemma in patterns.verbs or lemma in _APPLY:
            for child in link.children:
                if child.dep_ in ("dobj", "nsubjpass"):
                    found = mention_of(child, index, METHODS, out.proposed, heads)
                    if found is not None:
                        return found, Rule.FOR_PROPOSED if lemma in patterns.verbs else Rule.FOR_APPLIED
    if link.pos_ == "NOUN" and lemma in heads.method:
        # "We propose Z, a framework for Y": the framework is Z.
        if link.dep_ == "appos" and (found := index.at(link.head, METHODS)):
            return found, Rule.FOR_APPOSITION
        if link.dep_ == "dobj" and link.head.lemma_.lower() in patterns.verbs and out.proposed is not None:
            return out.proposed, Rule.FOR_OBJECT
    return None, None


def topic_tasks(
    doc: Doc, index: MentionIndex, acronyms: Sequence[Acronym], every: MentionIndex | None = None, heads: MentionHeads | None = None
) -> list[Mention]:
    """The tasks an abstract is about: those of its opening sentence ("Pedestrian
    attribute recognition has attracted ..."), the subject of the second, and the
    task named most often (at least twice, an acronym counting as its long form,
    or the only task named at all). ``every`` (the index with the trained spans too)
    gives the opening sentence's tasks when the rules found none there, phrases ending
    in a task noun of ``heads`` only: a task that opens an abstract is seldom a listed
    name ("Few-shot classification aims to ...")."""
    tasks = [m for m in index.spans if m.label == "Task"]
    sentences = list(doc.sents)[:2]
    if not sentences:
        return []
    found: dict[Mention, None] = {}
    opening = index.in_sentence(sentences[0], frozenset({"Task"}))
    scene = _scene_tasks(sentences[0], index)
    if not opening and every is not None and heads is not None:
        scene = [t for t in _scene_tasks(sentences[0], every) if _task_phrase(every.spans[t], heads)]
        opening = scene
    if not tasks:
        return scene
    aside = set(opening) - set(scene)  # examples, or another method's tasks
    for task in scene:
        found.setdefault(task)  # the opening sentence sets the scene
    for sent in sentences[1:]:
        for subject in (t for t in sent if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"):
            for task in index.within(subject.subtree, frozenset({"Task"})):
                found.setdefault(task)
    long_of = {a.short.lower(): a.long.lower() for a in acronyms}
    tasks = [m for m in tasks if m not in aside]
    if not tasks:
        return list(found)
    counts = Counter(long_of.get(m.text.lower(), m.text.lower()) for m in tasks)
    key, count = counts.most_common(1)[0]
    if count >= 2 or len(counts) == 1:
        first = min((m for m in tasks if long_of.get(m.text.lower(), m.text.lower()) == key), key=lambda m: m.start)
        found.setdefault(first)
    return list(found)


def _task_phrase(span: Span, heads: MentionHeads) -> bool:
    """Two or more words ending in a task noun ("semantic segmentation"; not "labeling", "vision tasks")."""
    return len(span) >= 2 and (span[-1].lemma_.lower() in heads.task or span[-1].lower_ in heads.task)


_EXAMPLES = frozenset({"application", "applications", "as", "e.g.", "including", "like", "example", "domains"})


def _scene_tasks(sent: Span, index: MentionIndex) -> list[Mention]:
    """The first two tasks of an opening sentence, leaving out those it only gives as
    examples ("due to its wide applications in scene understanding", "such as ...") and,
    when the sentence is about another method, what it is said to be good "in" ("LLMs
    have shown remarkable capabilities in text understanding"): that is about the method."""
    root = sent.root
    about_method = any(
        index.within(s.subtree, METHODS) for s in root.children if s.dep_ in ("nsubj", "nsubjpass")
    )
    doc = sent.doc
    kept = []
    for task in index.in_sentence(sent, frozenset({"Task"}))[:2]:
        start = index.spans[task].start
        if about_method and start > root.i and _introduced(index.spans[task], index, frozenset({"in"}), frozenset()):
            continue  # "LLMs have shown capabilities in X" (not "... designed to achieve X", "... for the task of X")
        if any(t.lower_ in _EXAMPLES for t in doc[max(sent.start, start - 3) : start]):
            continue
        kept.append(task)
    return kept


def _task_rules(sent: Span, index: MentionIndex, out: _Facts, cues: RelationCues, heads: MentionHeads, patterns: ContributionPatterns) -> None:
    """addresses: a Task reached by "for" from a method, the object of "solve/tackle/address",
    what "we study", or where a method "achieves ... on/in" it."""
    for task in index.in_sentence(sent, frozenset({"Task"})):
        root = attachment(index.spans[task])
        head = root.head
        head_lemma = head.lemma_.lower()
        if root.dep_ == "pobj" and head.lower_ == "for":
            method, rule = _method_for(head.head, index, out, heads, patterns)
            if method is not None and rule is not None:
                out.add(Relation.ADDRESSES, method, task, rule)
        elif root.dep_ == "pobj" and head.lower_ in ("on", "in", "across") and head.head.lemma_.lower() in cues.results | cues.evaluation:
            out.add(Relation.ADDRESSES, agent_of(head.head, index, METHODS, out.proposed, heads), task, Rule.TASK_RESULT)
        elif root.dep_ in ("dobj", "nsubjpass") and head_lemma in cues.addresses:
            out.add(Relation.ADDRESSES, agent_of(head, index, METHODS, out.proposed, heads), task, Rule.TASK_VERB)
        elif (root.dep_ == "dobj" and head_lemma in cues.studies) or (
            root.dep_ == "pobj" and head.lower_ == "on" and head.head.lemma_.lower() in cues.studies
        ):
            verb = head if root.dep_ == "dobj" else head.head
            if any(c.lower_ == "we" for c in subjects(verb)):
                out.add(Relation.ADDRESSES, out.proposed, task, Rule.TASK_STUDY)


#: Trained relations scoring lower are ignored.
TRAINED_MIN_SCORE = 0.6
#: The trained relations kept. Read on the seed abstracts, the model's "uses" were right
#: about a third of the time (often reversed), well under the rules; these were right
#: about two times in three and add what the rules do not find.
TRAINED_RELATIONS = frozenset({Relation.ADDRESSES, Relation.SUBTYPE_OF, Relation.COMPARED_WITH})

_PURPOSE = frozenset(
    {"for", "solve", "tackle", "address", "handle", "enable", "improve", "facilitate", "perform", "extend", "support", "advance"}
)


def _proposal_rules(sent: Span, index: MentionIndex, out: _Facts, proposals: Sequence[Mention], heads: MentionHeads) -> None:
    """addresses, from a sentence that names the paper's method.

    "We propose Z, a framework for Y" / "Z ... to tackle Y": a task after the
    paper's method, with "for" or a purpose verb between them and no other
    named method; and "Z, an LLM compression framework": the task a proposed
    method's describing phrase names.
    """
    own = {m.text.lower() for m in proposals if m.label == "Method"}
    for proposed in index.in_sentence(sent, METHODS):
        if proposed.text.lower() not in own:
            continue
        span = index.spans[proposed]
        for task in index.in_sentence(sent, frozenset({"Task"})):
            task_span = index.spans[task]
            if task_span.start < span.end or task_span.start - span.end > 20:
                continue  # (checked before reading the words between: pairs grow as the square of names)
            between = sent.doc[span.end : task_span.start]
            words = {t.lemma_.lower() for t in between}
            others = [m for m in index.within(between, METHODS) if looks_named(m.text)]
            if others:
                continue
            purpose = [t.i for t in between if t.lemma_.lower() in _PURPOSE]
            if purpose:
                after = sent.doc[purpose[-1] + 1 : task_span.start]
                if len(after) > 4 or any(t.text in (",", ";", ":", "(") for t in after) or index.within(after, _NAMED):
                    continue  # the purpose phrase is about something else ("for X, coined Y (Z)")
                near = "for" in {t.lower_ for t in between[-3:]}
                out.add(Relation.ADDRESSES, proposed, task, Rule.PURPOSE_NEAR if near else Rule.PURPOSE)
            elif "in" in words or "on" in words:
                out.add(Relation.ADDRESSES, proposed, task, Rule.PURPOSE_IN)  # "Z ... diversity in LLM reasoning"
        for described in _descriptions(span, index):
            embedded = embedded_task(index.spans[described], heads)
            if embedded is not None:
                out.add(Relation.ADDRESSES, proposed, embedded, Rule.DESCRIBED_TASK)


def _descriptions(span: Span, index: MentionIndex) -> list[Mention]:
    """Method mentions in apposition to a name ("Z, a graph clustering algorithm"), the name's own
    included, and the phrase a name is given to ("a graph clustering algorithm, called Z")."""
    root = span.root
    linked = [root, *(c for c in root.children if c.dep_ == "appos")]
    if root.dep_ == "appos":
        linked.append(root.head)
    for token in (root, root.head):
        naming = token.head
        if token.dep_ in ("oprd", "attr", "dobj", "xcomp") and naming.dep_ == "acl" and naming.lemma_.lower() in _NAMING:
            linked.append(naming.head)
            break
    return index.within(linked, METHODS)


#: Verbs that give a name: "a method, called Z", "an approach termed Z".
_NAMING = frozenset({"call", "name", "term", "dub", "coin"})


def embedded_task(span: Span, heads: MentionHeads) -> Mention | None:
    """The task a method phrase names before its head: "graph clustering algorithm" -> "graph clustering"."""
    if len(span) < 2 or span[-1].lemma_.lower() not in heads.method:
        return None
    modifier = span[-2]
    if modifier.lemma_.lower() not in heads.task and modifier.lower_ not in heads.task:
        return None
    task = span[:-1]
    while len(task) > 1 and (is_name(task[0].text) or task[0].is_title or task[0].text == "-" or task[1].text == "-"):
        task = task[1:]  # "Local Kernel-based matrix completion" -> "matrix completion"
    if looks_named(task.text) or task[0].lower_ in heads.generic:
        return None  # "Module-Aware Pruning method": a coined name; "[consensus-]based pruning": a word part
    if len(task) < 2 or (task.start > 0 and task.doc[task.start - 1].text == "-" and not task.doc[task.start - 1].whitespace_):
        return None  # "OOD detection framework" -> "detection" says too little; "cross-[device ...]" is cut
    return Mention(task.start_char, task.end_char, "Task", task.text, 0.6, extractor_name("relations"))


def _evaluation_subject(verb: Token, index: MentionIndex, out: _Facts, heads: MentionHeads, cues: RelationCues) -> Mention | None:
    """The method a result verb is about: "we evaluate Z", "Z achieves", "experiments show that Z ..."."""
    if verb.lemma_.lower() in cues.evaluation:
        for child in verb.children:
            if child.dep_ in ("dobj", "nsubjpass") and (found := mention_of(child, index, METHODS, out.proposed, heads)):
                return found
    subject = agent_of(verb, index, METHODS, out.proposed, heads)
    if subject is not None:
        return subject
    # "Experiments on X show that Z ...": the finding's subject is the method.
    for child in verb.children:
        if child.dep_ == "ccomp":
            found = agent_of(child, index, METHODS, out.proposed, heads)
            if found is not None:
                return found
    if any(c.lemma_.lower() in cues.evaluation for c in subjects(verb)):
        return out.proposed
    return None


def _result_rules(sent: Span, index: MentionIndex, out: _Facts, cues: RelationCues, heads: MentionHeads) -> None:
    """evaluatedOn ("... on X") and measuredBy ("improves BLEU", "in terms of accuracy")."""
    for dataset in index.in_sentence(sent, frozenset({"Dataset"})):
        root = attachment(index.spans[dataset])
        if root.dep_ != "pobj" or root.head.lower_ not in cues.locative:
            continue
        link = root.head.head
        verb = link if link.pos_ in ("VERB", "AUX") else governing_verb(link)
        if verb is None or verb.lemma_.lower() in cues.training or _after_training(root.head, cues):
            continue
        out.add(Relation.EVALUATED_ON, _evaluation_subject(verb, index, out, heads, cues), dataset, Rule.EVALUATED_ON_VERB)
    for metric in index.in_sentence(sent, frozenset({"Metric"})):
        verb = governing_verb(attachment(index.spans[metric]))
        if verb is not None and (verb.lemma_.lower() in cues.results or verb.lemma_.lower() in cues.outperforms):
            out.add(Relation.MEASURED_BY, _evaluation_subject(verb, index, out, heads, cues), metric, Rule.MEASURED_BY_VERB)


def _after_training(prep: Token, cues: RelationCues) -> bool:
    """Whether a preposition follows training words the parser may have missed as a verb:
    "when fine-tuning LLaMA2-7B on the MetaMathQA dataset" names training data."""
    doc = prep.doc
    return any(
        t.lemma_.lower() in cues.training or t.lower_ in _TRAINING_WORDS for t in doc[max(prep.sent.start, prep.i - 4) : prep.i]
    )


#: Training words the tagger often takes for nouns or adjectives ("fine - tuning").
_TRAINING_WORDS = frozenset({"tuning", "training", "trained", "pretraining", "pre-training"})


_SELF_WORDS = frozenset({"we", "our", "proposed", "ours"})
#: Words between an introducer and what it introduces that say nothing of it.
_VAGUE = DETERMINERS | GENERIC_MODIFIERS | frozenset({"challenging", "diverse", "downstream", "real-world", "public", "a", "an"})
_CONTAINER_WORDS = frozenset({"set", "range", "variety", "suite", "number", "collection", "series"})
_INTRODUCERS = frozenset({"on", "across", "over", "including", "include", ":", "like", "as", "(", "using"})


def _introduced(span: Span, index: MentionIndex, words: frozenset[str], training: frozenset[str]) -> str | None:
    """The word that introduces a mention, skipping coordinated names, commas and articles
    ("on A, B and the C dataset" -> "on"); None after a training verb ("trained on A")."""
    doc, sent = span.doc, span.sent
    i = span.start - 1
    while i >= sent.start and (
        doc[i].lower_ in (",", "and", "or", "the", "both", "/")
        or doc[i].lower_ in _VAGUE  # "on various classification tasks", "across two benchmarks"
        or (doc[i].lower_ == "of" and i > sent.start and doc[i - 1].lower_ in _CONTAINER_WORDS)  # "a set of"
        or doc[i].i in index.by_token
        or doc[i].like_num
        or (doc[i].text[:1].isupper() and i + 1 in index.by_token)  # "Corrupted CIFAR-10"
        or any(c.isdigit() for c in doc[i].text)  # "CIFAR10/100"
        or (i > sent.start and doc[i - 1].text in ("-", "/") and not doc[i - 1].whitespace_)
        or (not doc[i].whitespace_ and doc[i].text in ("-", "/"))  # the rest of "CIFAR-10/100-LT"
    ):
        i -= 1
    if i < sent.start or doc[i].lower_ not in words:
        return None
    if any(t.lemma_.lower() in training or t.lower_ in _TRAINING_WORDS for t in doc[max(sent.start, i - 4) : i]):
        return None  # "trained on A", "when fine-tuning LLaMA2-7B on A"
    return doc[i].lower_


def _result_fallback(
    sent: Span,
    index: MentionIndex,
    out: _Facts,
    proposals: Sequence[Mention],
    cues: RelationCues,
    heads: MentionHeads,
    acronyms: Sequence[Acronym] = (),
) -> None:
    """evaluatedOn and addresses by word order when the parse fails: a result sentence about the paper's method.

    "Experimental results on A, B and C datasets demonstrate that Z ...", "our
    method outperforms ... on four benchmark datasets: A, B": the datasets of a
    sentence with an evaluation or result word, introduced by "on / across /
    including / :", go to the paper's method named in the sentence, else to the
    paper's method when the sentence speaks of "we / our / the proposed"; so do
    the tasks introduced by "on / for / across" ("results on ID and OOD tasks"),
    and in any sentence about the paper's method, those introduced by "for".
    """
    lemmas = {t.lemma_.lower() for t in sent}
    own = {m.text.lower() for m in proposals}
    own |= {a.short.lower() for a in acronyms if a.long.lower() in own}  # "Local Learning Rule (LLS)": LLS too
    named = [m for m in index.in_sentence(sent, METHODS) if m.text.lower() in own]
    if named:
        method = named[0]
    elif out.proposed is not None and (
        (lemmas | {t.lower_ for t in sent}) & _SELF_WORDS
        or any(t.lower_ == "this" and t.head.lemma_.lower() in heads.method for t in sent)  # "this approach"
    ):
        method = out.proposed
    else:
        return
    done = {f.object for f in out.facts}
    results = bool(lemmas & (cues.evaluation | cues.results | cues.outperforms))
    doc = sent.doc
    for dataset in index.in_sentence(sent, frozenset({"Dataset"})) if results else ():
        span = index.spans[dataset]
        if dataset in done:
            continue
        if _introduced(span, index, _INTRODUCERS | cues.locative, cues.training):
            out.add(Relation.EVALUATED_ON, method, dataset, Rule.RESULT_DATASET)
        elif _introduced(span, index, frozenset({"benchmark", "benchmarks", "datasets", "dataset"}), cues.training) or (
            span.end < sent.end
            and (doc[span.end].lemma_.lower() in cues.evaluation or index.at(doc[span.end], _METRICS) is not None)
        ):
            out.add(Relation.EVALUATED_ON, method, dataset, Rule.RESULT_DATASET_NOUN)  # "datasets: A, B", "ImageNet experiments / accuracy"
    # Tasks: "results on ID and OOD tasks" in a result sentence; "our method ... for Y" in any.
    introducers = frozenset({"on", "for", "across"}) if results else frozenset({"for"})
    for task in index.in_sentence(sent, frozenset({"Task"})):
        if task not in done and _introduced(index.spans[task], index, introducers, cues.training):
            out.add(Relation.ADDRESSES, method, task, Rule.RESULT_TASK)


def _trained_rules(sent: Span, index: MentionIndex, out: _Facts, map_relation: Callable) -> None:
    """Relations predicted by the SciERC model, mapped to the graph's vocabulary."""
    doc = sent.doc
    for head_start, head_end, _tail_start, tail_end, label, score in doc._.scierc_relations:
        if not (sent.start <= head_start < sent.end):
            continue
        head = index.at(doc[head_end - 1])
        tail = index.at(doc[tail_end - 1])
        if head is None or tail is None or float(score) < TRAINED_MIN_SCORE:
            continue
        mapped = map_relation(label, head.label, tail.label, head.text, tail.text)
        if mapped is None:
            continue
        relation, swap = mapped
        if Relation(relation) not in TRAINED_RELATIONS:
            continue
        subject, obj = (tail, head) if swap else (head, tail)
        out.add(Relation(relation), subject, obj, Rule.SCIERC_RELATION, float(score))


def find_relations(
    doc: Doc,
    index: MentionIndex,
    proposals: Sequence[Mention],
    cues: RelationCues,
    heads: MentionHeads,
    patterns: ContributionPatterns,
    map_relation: Callable | None = None,
    acronyms: Sequence[Acronym] = (),
    hub: tuple[MentionIndex, HubCues] | None = None,
    confidences: Confidences | None = None,
    releases_data: bool = False,
) -> list[Fact]:
    """Every relation fact of ``doc``: rule-based, trained (when present) and ``hasCode``.

    ``hub`` (an index of every mention, trained spans included, and the hub cues)
    adds the facts of the sentences about the paper's main method
    (:func:`kg.extract.hub.hub_facts`). ``confidences`` is the confidence table
    (default: ``kg.FactConfidences.v1``). ``releases_data``: the paper proposes a dataset, which is
    its contribution, so no studied method stands in for a main method.
    """
    confidences = confidences or fact_confidences_v1()
    # An analysis paper proposes nothing: the method it says it studies takes the main
    # method's place in the sentences about it (not for the abstract's topic: a tool it names
    # often), also over a bare "our approach". A paper that releases a dataset has its
    # contribution; the models it evaluates are not its method (on NeurIPS 2025 they made most
    # of the stand-in's wrong facts).
    studied = stand_in(doc, proposals, acronyms, hub, heads, releases_data)
    proposals = [] if studied is not None else proposals
    # The main method first: it stands for "we", "it" and "our method" in every rule.
    proposals = [*ranked_methods(doc, proposals, acronyms), *(p for p in proposals if p.label != "Method")]
    facts: list[Fact] = []
    trained = map_relation is not None and doc.has_extension("scierc_relations") and bool(doc._.scierc_relations)
    for sent in doc.sents:
        out = _Facts(sent, proposals, confidences)
        _verb_rules(sent, index, out, cues, heads)
        _task_rules(sent, index, out, cues, heads, patterns)
        _result_rules(sent, index, out, cues, heads)
        _proposal_rules(sent, index, out, proposals, heads)
        _result_fallback(sent, index, out, proposals, cues, heads, acronyms)
        facts += out.facts
        if trained and map_relation is not None:  # (trained says so; this tells the type checker)
            out = _Facts(sent, proposals, confidences, "scierc")
            _trained_rules(sent, index, out, map_relation)
            facts += out.facts
    if proposals:
        every = hub[0] if hub is not None else None
        for task in topic_tasks(doc, index, acronyms, every, heads):
            if any(p.start <= task.start and task.end <= p.end for p in proposals):
                continue  # a word of the method's own description: "a data-driven and local-verification approach"
            span = index.spans.get(task) or (every if every is not None else index).spans[task]  # (without every, tasks come from index)
            if _spelled_out(span, proposals[0]):
                continue  # "Global Magnitude Pruning (Global MP)": the method's own long form
            out = _Facts(span.sent, proposals, confidences)
            out.add(Relation.ADDRESSES, proposals[0], task, Rule.TOPIC_TASK)
            facts += out.facts
    if hub is not None:
        facts = _to_main(doc, facts, proposals, acronyms)
        if studied is not None:  # "we study X ... our approach": X is what "our approach" means
            facts = [replace(f, subject=studied) if f.subject is not None and self_referred(f.subject) else f for f in facts]
        facts += hub_facts(doc, hub[0], proposals, acronyms, hub[1], heads, confidences, studied)
    facts += list_members(facts, hub[0] if hub is not None else index, heads)
    facts += code_links(index, confidences)
    return dedupe(facts)


_LISTED = frozenset({Relation.USES.value, Relation.ADDRESSES.value, Relation.EVALUATED_ON.value, Relation.MEASURED_BY.value, Relation.OUTPERFORMS.value})


def list_members(facts: Sequence[Fact], index: MentionIndex, heads: MentionHeads) -> list[Fact]:
    """A fact whose object is one member of a coordination holds for the other members of its
    type too, with the same evidence ("built on A, B and C", "on X and Y"): the rules often
    reach only the first or the last member of a list."""
    added = []
    for fact in facts:
        span = index.spans.get(fact.object)
        if fact.subject is None or fact.relation not in _LISTED or span is None:
            continue
        for token in span.root.conjuncts:
            member = index.at(token, frozenset({fact.object.label}))
            if member is None or member in (fact.object, fact.subject) or index.spans[member].sent != span.sent:
                continue
            if member.label == "Method" and not names_a_method(member, heads):
                continue  # "A and other baselines"
            added.append(replace(fact, object=member))
    return added


def stand_in(
    doc: Doc,
    proposals: Sequence[Mention],
    acronyms: Sequence[Acronym],
    hub: tuple[MentionIndex, HubCues] | None,
    heads: MentionHeads,
    releases_data: bool = False,
) -> Mention | None:
    """The method an analysis paper studies (:func:`~kg.extract.hub.studied_method`), when the
    paper proposes nothing but a bare "our approach" and releases no dataset."""
    if hub is None or releases_data or any(not self_referred(p) for p in proposals):
        return None
    return studied_method(doc, hub[0], acronyms, hub[1], heads)


def _spelled_out(span: Span, method: Mention) -> bool:
    """Whether a phrase is followed by the method's name in brackets: its long form."""
    doc = span.doc
    if span.end >= len(doc) or doc[span.end].text != "(":
        return False
    inside = doc[span.end + 1 : min(len(doc), span.end + 5)]
    return method.text.lower() in inside.text.lower()


def _to_main(doc: Doc, facts: list[Fact], proposals: Sequence[Mention], acronyms: Sequence[Acronym]) -> list[Fact]:
    """A task a component of the paper's method is said to address is the main method's task:
    "LER optimizes ... to address Y" is how the proposed method addresses Y."""
    methods = ranked_methods(doc, proposals, acronyms)
    if len(methods) < 2:
        return facts
    main, components = methods[0], set(methods[1:])
    return [
        replace(f, subject=main) if f.relation == Relation.ADDRESSES.value and f.subject in components else f
        for f in facts
    ]


def code_links(index: MentionIndex, confidences: Confidences | None = None) -> list[Fact]:
    """``hasCode`` facts for the URL mentions (subject: the paper)."""
    factor = (confidences or fact_confidences_v1())[Rule.CODE_URL]
    facts = []
    for url, span in index.spans.items():
        if url.label != URL_LABEL:
            continue
        sent = span.sent if index.doc.has_annotation("SENT_START") else index.doc[:]
        # The URL mention's score says how surely it is code (a code host, or another page).
        extractor = f"{url.extractor}#{Rule.CODE_URL.value}"
        facts.append(Fact(Relation.HAS_CODE.value, None, url, sentence_offsets(sent), extractor, round(url.score * factor, 3)))
    return facts


def dedupe(facts: Sequence[Fact]) -> list[Fact]:
    """One fact per (relation, subject text, object text), the most confident kept, in first order."""
    best: dict[tuple[str, str, str], Fact] = {}
    for fact in facts:
        key = (fact.relation, (fact.subject.text.lower() if fact.subject else ""), fact.object.text.lower())
        if key not in best or fact.confidence > best[key].confidence:
            best[key] = fact
    return list(best.values())
