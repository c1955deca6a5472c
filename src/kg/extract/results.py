"""Numeric results: who reached what value, of which metric, on which dataset, compared to what.

A result is a number that reports an outcome of the paper's experiments
(``GUIDELINES.md``, "Numeric results"): "reaches 71.4 exact match on X, 3.2
points above Y", "2.5x faster than Z with 60% less memory". :func:`find_results`
takes the numbers :func:`kg.extract.numbers.number_candidates` leaves (never
years, sizes, settings, names or bounds) and keeps those a sentence reports as
results: a number with a unit of its own (``%``, ``x``, points) or a decimal,
in a sentence that speaks of results (a metric, or a verb such as "achieves",
"improves", "reduces"). For each it decides:

- the kind: ``relative`` for a factor or a cost or resource saving ("2.5x
  faster", "40% less memory"), ``improvement`` for a change of a quality
  metric ("+3.1 AP", "improves F1 by 13%"), else ``absolute``;
- the method: a method named as the sentence's subject, else the paper's own
  main method (its first proposed Method); "from 70.1% to 75.3%" gives the
  first value to the reference the method is compared to;
- the metric, dataset and task: the Metric, Dataset and Task mentions of the
  sentence nearest the number (a metric word such as "speedup" when no Metric
  mention is there); the reference: the method after "than", "over",
  "compared to", "outperforms", ...

It reads the sentence's words and the mentions and facts of the earlier
components; it never changes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from kg.extract.annotations import extractor_name
from kg.extract.numbers import NumberCandidate, canonical_number, number_candidates
from kg.model import Fact, Mention, Result

__all__ = ["MeasureOf", "SubjectOf", "find_results", "parse_measures", "parse_subjects", "result_kind"]

#: Character offset of a number -> span of the grammatical subject of the clause that reports it.
SubjectOf = Callable[[int], "tuple[int, int] | None"]
#: Character offset of a number -> the noun phrase it measures ("85.8% accuracy", "improves X by 3%").
MeasureOf = Callable[[int], "str | None"]

EXTRACTOR = extractor_name("results")

_RESULT_CUES = re.compile(
    r"\b(?:achiev|obtain|reach|attain|score|accura|improv|outperform|surpass|exceed|beat|reduc|decreas|increas|lower|higher|"
    r"faster|speed|gain|boost|error|precision|recall|F1|BLEU|ROUGE|AUC|mAP|AP\b|top-1|perplexity|state-of-the-art|SOTA|"
    r"relative|absolute|margin|better|fewer|less|saving|cut|rate|success|win|rank|yield|deliver|match|retain|recover|"
    r"compress|throughput|latency|memory|cost|time)",
    re.IGNORECASE,
)
_RESOURCE = re.compile(
    r"\b(?:faster|slower|speed|speed-?up|acceleration|latency|runtime|run-?time|time|times|memory|footprint|storage|"
    r"parameters?|params|FLOPs?|MACs|compute|computation|cost|costs|cheaper|energy|power|bandwidth|communication|"
    r"compression|smaller|fewer|less|reduc\w*|sav\w*|throughput|samples?|labell?ed|labels?|data|queries|dimensions?|size|"
    r"overhead|budget|GPU|hours?|seconds?|steps)\b",
    re.IGNORECASE,
)
_QUALITY = re.compile(
    r"\b(?:accuracy|error|F1|F-?score|BLEU|ROUGE|AUC|AUROC|mAP|AP|mIoU|IoU|precision|recall|perplexity|WER|CER|EM|"
    r"exact match|success rate|reward|return|score|likelihood|loss|regret|PSNR|SSIM|FID|correlation|performance)\b",
    re.IGNORECASE,
)
_IMPROVEMENT_AFTER = re.compile(
    r"^\s*(?:%|\\%|points?|pp|percentage points?)?\s*(?:absolute\s+|relative\s+|average\s+)?(?:improvement|increase|gain|boost|higher|"
    r"better|lower|reduction|decrease|drop|margin|over|above|more|less|relative)",
    re.IGNORECASE,
)
_IMPROVEMENT_BEFORE = re.compile(r"(?:\bby|\bof|\bgains?|\bimprov\w*|\bboost\w*|\bincrease\w*|\breduc\w*|\boutperform\w*|\bsurpass\w*)\s+(?:up\s+to\s+|over\s+|about\s+|around\s+|nearly\s+|almost\s+|at\s+least\s+|more\s+than\s+|~\s*|≈\s*|\$?\\sim\$?\s*)?\$?$", re.IGNORECASE)
_COMPARISON = re.compile(
    r"\b(?:than|over|above|below|ahead\s+of|compared\s+(?:to|with)|relative\s+to|against|versus|vs\.?|outperform\w*|surpass\w*|beat\w*|exceed\w*)\s+",
    re.IGNORECASE,
)
_OWN = re.compile(r"\b(?:we|our|ours|proposed|this (?:method|approach|model|framework|algorithm|system|technique))\b", re.IGNORECASE)
_FROM_TO = re.compile(r"\bfrom\s+\S*$", re.IGNORECASE)
_SPEED = re.compile(r"\b(?:faster|speed-?ups?|accelerat\w*)\b", re.IGNORECASE)
_UNIT_RESULTS = frozenset({"%", "x", "points"})


def result_kind(sentence: str, candidate: NumberCandidate, metric: str | None) -> str:
    """``relative``, ``improvement`` or ``absolute`` for one number of a sentence.

    >>> s = "Our model improves BLEU by 2.1 points and runs 3x faster."
    >>> [result_kind(s, c, None) for c in number_candidates(s)]
    ['improvement', 'relative']
    """
    before = sentence[max(0, candidate.start - 40):candidate.start]
    after = sentence[candidate.end:candidate.end + 40]
    near = after[:14]
    window = before[-20:] + " " + near
    if candidate.unit == "x":
        return "relative"
    quality = bool(metric and _QUALITY.search(metric))
    resource_metric = bool(metric and _RESOURCE.search(metric)) and not quality
    if resource_metric or (not quality and _RESOURCE.search(near) and re.search(r"\b(?:fewer|less|reduc|sav|faster|smaller|lower|cheaper|of the)\b", window, re.IGNORECASE)):
        return "relative"
    if candidate.signed or candidate.unit == "points" or _IMPROVEMENT_BEFORE.search(before) or _IMPROVEMENT_AFTER.match(after):
        return "improvement"
    return "absolute"


def _nearest(mentions: Iterable[Mention], start: int, end: int, *, prefer_after: bool = False) -> Mention | None:
    best, best_distance = None, None
    for mention in mentions:
        if mention.start >= end:
            distance = mention.start - end - (15 if prefer_after else 0)
        elif mention.end <= start:
            distance = start - mention.end
        else:
            continue
        if best_distance is None or distance < best_distance:
            best, best_distance = mention, distance
    return best


def _main_methods(facts: Sequence[Fact]) -> list[Mention]:
    proposed = [f.object for f in facts if f.relation == "proposes" and f.object.label == "Method"]
    return sorted(set(proposed), key=lambda m: (m.start, m.end))


def _compared(sentence: str, offset: int, methods: Sequence[Mention]) -> Mention | None:
    """The method right after a comparison word ("than X", "over X", "outperforms X")."""
    for match in _COMPARISON.finditer(sentence):
        where = offset + match.end()
        following = [m for m in methods if where <= m.start <= where + 40]
        if following:
            return min(following, key=lambda m: m.start)
    return None


def _subject_method(sentence: str, offset: int, candidate_start: int, methods: Sequence[Mention], reference: Mention | None) -> Mention | None:
    """A method named before the number, outside the comparison, as the sentence's actor."""
    before = [m for m in methods if m.end <= candidate_start and m != reference]
    if not before:
        return None
    first = min(before, key=lambda m: m.start)
    # Only a method at the head of its clause acts: "X achieves", "On Y, X reaches", not "than X".
    head = sentence[: first.start - offset]
    if _COMPARISON.search(head[-25:]) or re.search(r"\b(?:with|using|of|by|from)\s+(?:the\s+)?$", head):
        return None
    return first


def _by_subject(
    span: tuple[int, int] | None, text: str, methods: Sequence[Mention], own: Mention | None, reference: Mention | None
) -> tuple[Mention, str | None] | None:
    """The method the clause's subject names, and the subject's words when they refer to the
    paper's own method ("our estimator"): a Method mention inside the subject, else the own
    method for "we", "our method", "the proposed ..."; ``None`` when the subject says nothing."""
    if span is None:
        return None
    inside = [m for m in methods if span[0] <= m.start and m.end <= span[1] and m != reference]
    if inside:
        return min(inside, key=lambda m: m.start), None
    words = text[span[0]:span[1]]
    if own is not None and _OWN.search(words):
        return own, words if len(words) <= 60 and words.lower() not in ("we", "ours") else None
    return None


def find_results(
    text: str,
    sentences: Sequence[tuple[int, int]],
    mentions: Sequence[Mention],
    facts: Sequence[Fact],
    subject_of: SubjectOf | None = None,
    measure_of: MeasureOf | None = None,
) -> list[Result]:
    """The numeric results of one abstract, in text order.

    ``sentences`` are the sentence spans (character offsets) of ``text``;
    ``mentions`` and ``facts`` are what the earlier components found;
    ``subject_of`` gives the subject of the clause around a number (from the
    dependency parse, :func:`kg.extract.results.parse_subjects`), which names the
    method when it can; ``measure_of`` the noun phrase a number measures, the
    metric as written when no Metric mention is near
    (:func:`kg.extract.results.parse_measures`). A sentence that names no
    dataset takes the paper's one evaluation dataset, if it has exactly one.

    >>> text = "We propose LynxRank for retrieval. LynxRank reaches 71.4 exact match on Kestrel-QA, 3.2 points above DenseRet."
    >>> m = [Mention(11, 19, "Method", "LynxRank"), Mention(35, 43, "Method", "LynxRank"), Mention(57, 68, "Metric", "exact match"),
    ...      Mention(72, 82, "Dataset", "Kestrel-QA"), Mention(102, 110, "Method", "DenseRet")]
    >>> f = [Fact("proposes", None, m[0], (0, 34), "x", 0.9)]
    >>> [(r.value, r.kind, r.method.text, r.metric_text, r.dataset.text, r.compared_to and r.compared_to.text)
    ...  for r in find_results(text, [(0, 34), (35, len(text))], m, f)]
    [('71.4', 'absolute', 'LynxRank', 'exact match', 'Kestrel-QA', None), ('3.2', 'improvement', 'LynxRank', 'exact match', 'Kestrel-QA', 'DenseRet')]
    """
    main = _main_methods(facts)
    evaluated = {f.object for f in facts if f.relation == "evaluatedOn" and f.object.label == "Dataset"}
    only_dataset = next(iter(evaluated)) if len({m.text.lower() for m in evaluated}) == 1 else None
    results: list[Result] = []
    for start, end in sentences:
        sentence = text[start:end]
        candidates = number_candidates(sentence)
        if not candidates or not _RESULT_CUES.search(sentence):
            continue
        inside = [m for m in mentions if start <= m.start and m.end <= end]
        methods = [m for m in inside if m.label == "Method"]
        metrics = [m for m in inside if m.label == "Metric"]
        datasets = [m for m in inside if m.label == "Dataset"]
        tasks = [m for m in inside if m.label == "Task"]
        reference = _compared(sentence, start, methods)
        for candidate in candidates:
            at, until = start + candidate.start, start + candidate.end
            metric = _nearest(metrics, at, until, prefer_after=True)
            metric_text = metric.text if metric is not None else None
            if metric is not None and abs(metric.start - until) > 40 and abs(at - metric.end) > 40 and measure_of is not None:
                metric, metric_text = None, None  # a metric far away in a long sentence is another number's
            decimal = "." in candidate.value
            if candidate.unit not in _UNIT_RESULTS and not decimal and metric is None:
                continue
            if candidate.unit not in _UNIT_RESULTS and not metrics and not re.search(r"\d\.\d", candidate.value):
                continue
            kind = result_kind(sentence, candidate, metric_text or (measure_of(at) if measure_of else None))
            right_after = sentence[candidate.end:candidate.end + 20]
            if kind == "relative" and _SPEED.search(right_after) and (metric_text is None or not _RESOURCE.search(metric_text)):
                metric, metric_text = None, "speedup"  # "2.5x faster": the speed is measured, not a metric named nearby
            if metric_text is None and measure_of is not None:
                metric_text = measure_of(at)
            if metric_text is None and kind == "relative" and _SPEED.search(sentence[candidate.end:candidate.end + 30] + sentence[max(0, candidate.start - 20):candidate.start]):
                metric_text = "speedup"
            own = main[0] if main else None
            named = _by_subject(subject_of(at) if subject_of else None, text, methods, own, reference)
            method_text = None
            if named is not None:
                method, method_text = named
            else:
                actor = _subject_method(sentence, start, at, methods, reference)
                method = actor if actor is not None and (own is None or not _OWN.search(sentence[: actor.start - start])) else own
            if _FROM_TO.search(sentence[max(0, candidate.start - 12):candidate.start]):
                method = reference  # "from 70.1% to 75.3%": the first value is the reference's
            if method is None:
                continue
            number = canonical_number(candidate.value)
            if number is None:
                continue
            results.append(
                Result(
                    value=candidate.value,
                    number=number,
                    unit=candidate.unit,
                    kind=kind,
                    start=at,
                    end=until,
                    sentence=(start, end),
                    method=method,
                    metric=metric,
                    metric_text=metric_text,
                    dataset=_nearest(datasets, at, until) or only_dataset,
                    task=_nearest(tasks, at, until),
                    compared_to=reference if kind != "absolute" and reference != method else None,
                    extractor=EXTRACTOR,
                    confidence=0.8 if candidate.unit in _UNIT_RESULTS else 0.6,
                    method_text=method_text,
                )
            )
    return results


def parse_subjects(doc: object) -> SubjectOf:
    """``subject_of`` for a parsed spaCy Doc: walk up from the number's token to the nearest
    clause with a nominal subject and return that subject's character span.

    "When fine-tuning X on Y, Z achieved 49.4" gives Z; "... delivering 7.7%" in a clause
    hanging on "LegoGCD addresses ..." gives LegoGCD.
    """
    tokens = list(doc)  # type: ignore[call-overload]

    def subject_of(offset: int) -> tuple[int, int] | None:
        token = next((t for t in tokens if t.idx <= offset < t.idx + len(t.text)), None)
        steps = 0
        while token is not None and steps < 12:
            subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
            if subjects:
                subtree = list(subjects[0].subtree)
                return subtree[0].idx, subtree[-1].idx + len(subtree[-1].text)
            if token.head is token:
                return None
            token, steps = token.head, steps + 1
        return None

    return subject_of


_MEASURE_WORDS = re.compile(r"^(?:the|a|an|our|its|their|this|these|average|overall|relative|absolute|up|to)$", re.IGNORECASE)


def parse_measures(doc: object) -> MeasureOf:
    """``measure_of`` for a parsed spaCy Doc: the noun a number modifies ("85.8% accuracy",
    "a 370x speedup"), else the object of the verb whose "by" it hangs on ("improves the
    composability by 22%"), as written without determiners; ``None`` otherwise."""
    tokens = list(doc)  # type: ignore[call-overload]

    def phrase(noun: Any) -> str | None:
        words = [t for t in noun.subtree if t.i <= noun.i and t.dep_ in ("compound", "amod", "nmod") or t is noun]
        words = [t for t in words if not t.like_num and not _MEASURE_WORDS.match(t.text) and t.text not in ("%", "x", "×")]
        text = " ".join(t.text for t in words).strip()
        return text if 0 < len(text) <= 40 else None

    def measure_of(offset: int) -> str | None:
        token = next((t for t in tokens if t.idx <= offset < t.idx + len(t.text)), None)
        if token is None:
            return None
        head = token
        for _ in range(3):  # the number, its unit ("%"), then the noun they modify
            if head.dep_ in ("nummod", "compound", "amod", "quantmod", "npadvmod") and head.head.pos_ in ("NOUN", "PROPN") and head.head.i > head.i:
                return phrase(head.head)
            if head.head is head:
                break
            head = head.head
        preposition = token.head if token.head.dep_ == "prep" else token.head.head if token.head.head.dep_ == "prep" else None
        if preposition is not None and preposition.lower_ == "by" and preposition.head.pos_ in ("VERB", "AUX"):
            objects = [c for c in preposition.head.children if c.dep_ in ("dobj", "nsubjpass")]
            if objects and objects[0].pos_ in ("NOUN", "PROPN"):
                return phrase(objects[0])
        return None

    return measure_of
