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
from dataclasses import replace
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
    r"compress|throughput|latency|memory|cost|time|efficien)",
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
_IMPROVEMENT_BEFORE = re.compile(
    r"(?:\bby|\b(?:gains?|improv\w*|boost\w*|increase\w*|reduc\w*|decreas\w*|outperform\w*|surpass\w*)(?:\s+(?:of|by))?)\s+"
    r"(?:up\s+to\s+|over\s+|about\s+|around\s+|nearly\s+|almost\s+|at\s+least\s+|more\s+than\s+|~\s*|≈\s*|\$?\\sim\$?\s*)?\$?$",
    re.IGNORECASE,
)
# The words after a comparison cue that name the reference as written ("state-of-the-art baselines").
_REFERENCE_WORDS = re.compile(r"^(?:the\s+|a\s+|an\s+|its\s+|their\s+)?((?:[\w$\\{}^./+-]+\s+){0,5}?[\w$\\{}^./+-]+?)(?=\s*(?:[,;:()]|\.\s|\.$|$|\s(?:by|on|in|with|at|for|while|and|across|under|using|when|to|from|of)\b))", re.IGNORECASE)
_COMPARISON = re.compile(
    r"\b(?:than|over|above|below|ahead\s+of|compared\s+(?:to|with)|relative\s+to|against|versus|vs\.?|outperform\w*|surpass\w*|beat\w*|exceed\w*)\s+",
    re.IGNORECASE,
)
_OWN = re.compile(r"\b(?:we|our|ours|proposed|this (?:method|approach|model|framework|algorithm|system|technique))\b", re.IGNORECASE)
_FROM_TO = re.compile(r"\bfrom\s+\S*$", re.IGNORECASE)
_SPEED = re.compile(r"\b(?:faster|speed-?ups?|accelerat\w*)\b", re.IGNORECASE)
_UNIT_RESULTS = frozenset({"%", "x", "points"})
# What may stand between two numbers of one list: the first one's unit, then a comma or a conjunction.
_LIST_GAP = re.compile(r"^\s*(?:%|\\%|x|×|points?|pp)?\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/\s*)(?:\$)?$", re.IGNORECASE)
_COORDINATION = re.compile(r"\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/\s*)(?:the\s+)?", re.IGNORECASE)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.IGNORECASE)


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


# Metrics named by a common word, for a number no Metric mention is near ("an F-score of 0.8").
_METRIC_WORD = re.compile(
    r"\b(?:(?:top-\d\s+|mean\s+|average\s+|classification\s+|detection\s+|test\s+|word\s+|phone\s+|character\s+)?"
    r"(?:accuracy|error(?:\s+rate)?|F1(?:[\s-]score)?|F-?(?:score|measure|value)|BLEU|ROUGE(?:-\w+)?|AUC|AUROC|mAP|mIoU|IoU|precision|recall|"
    r"perplexity|WER|CER|exact match|success rate|PSNR|SSIM|FID|correlation))\b",
    re.IGNORECASE,
)


def _metric_word(sentence: str, start: int, end: int) -> str | None:
    """The metric word nearest a number within its clause (no ``;`` or ``:`` between), as written."""
    best, distance = None, None
    for match in _METRIC_WORD.finditer(sentence):
        between = sentence[match.end():start] if match.end() <= start else sentence[end:match.start()] if match.start() >= end else None
        if between is None or re.search(r"[;:]|\d", between) or len(between) > 40:
            continue
        gap = len(between)
        if distance is None or gap < distance:
            best, distance = match.group(0), gap
    return best


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


def _compared_words(sentence: str, start: int) -> str | None:
    """The reference after the first comparison cue before or around a number, as written."""
    for match in _COMPARISON.finditer(sentence):
        words = _REFERENCE_WORDS.match(sentence[match.end():])
        if words and not re.fullmatch(r"[\d.,%x×\s]+|(?:the\s+)?(?:other|others|it|them|that|those)", words.group(1), re.IGNORECASE):
            return words.group(1)
    return None


def _compared(sentence: str, offset: int, methods: Sequence[Mention]) -> Mention | None:
    """The method right after a comparison word ("than X", "over X", "outperforms X")."""
    for match in _COMPARISON.finditer(sentence):
        where = offset + match.end()
        following = [m for m in methods if where <= m.start <= where + 40]
        if following:
            return min(following, key=lambda m: m.start)
    return None


# Words after which a mention is a setting, a base model, a dataset or an example, not the actor:
# "Experiments on X", "with X backbone", "models such as X", "including X".
_MODIFIER_BEFORE = re.compile(
    r"\b(?:with|using|of|by|from|on|in|at|for|across|over|under|via|through|into|including|like|such\s+as|e\.g\.,?)\s+"
    r"(?:(?:the|a|an|its|their|this|these|both)\s+)?$",
    re.IGNORECASE,
)
_PREPOSITION = re.compile(r"\b(?:with|using|of|on|in|at|for|across|over|under|via|through|including|such\s+as|than)\b", re.IGNORECASE)
# "the 34.2% error achieved by X": the number names its own actor after it.
_ACHIEVED_BY = re.compile(
    r"^(?:\s*(?:%|\\%|points?))?[^,;:()]{0,40}?\b(?:achieved|obtained|reached|attained|reported|scored|produced|given|yielded)\s+by\s+"
    r"(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,3}$",
    re.IGNORECASE,
)


def _subject_method(
    sentence: str, offset: int, candidate_start: int, methods: Sequence[Mention], reference: Mention | None,
    clause: tuple[int, int] | None = None,
) -> Mention | None:
    """A method named before the number, outside the comparison, as the sentence's actor.

    With the clause's subject known (``clause``, from the parse), a method before
    that subject belongs to another clause ("X shows that Y reaches 90%") and is
    passed over.
    """
    before = [m for m in methods if m.end <= candidate_start and m != reference and (clause is None or m.start >= clause[0])]
    if not before:
        return None
    first = min(before, key=lambda m: m.start)
    # Only a method at the head of its clause acts: "X achieves", "On Y, X reaches", not "than X".
    head = sentence[: first.start - offset]
    if _COMPARISON.search(head[-25:]) or _MODIFIER_BEFORE.search(head):
        return None
    return first


def _achieved_by(sentence: str, offset: int, candidate_end: int, methods: Sequence[Mention]) -> Mention | None:
    """The method a passive "achieved by X" right after the number names ("the 34.2% error achieved by X")."""
    for mention in sorted(methods, key=lambda m: m.start):
        if candidate_end <= mention.start - offset <= candidate_end + 80 and _ACHIEVED_BY.match(sentence[candidate_end:mention.start - offset]):
            return mention
    return None


# A comparison word right before a number: "40%, compared to 10% for X", "71.4 vs. 68.2 of X" (not "than": "more than 8%").
_REFERENCE_VALUE = re.compile(r"\b(?:compared\s+(?:to|with)|versus|vs\.?|relative\s+to|against)\s+(?:only\s+|just\s+|about\s+|around\s+)?$", re.IGNORECASE)
# Between a relative clause's antecedent and its pronoun: "X (XA), which ...".
_ANTECEDENT_GAP = re.compile(r"\)?\s*(?:\([^()]{1,40}\)\s*)?,?\s*")
_RELATIVE_PRONOUNS = frozenset({"which", "who", "that"})
# An acronym right before a number: "NFE 500", "IEEE 802.16" (a setting, a standard), unless it names a metric ("BLEU 28.4").
_ACRONYM_BEFORE = re.compile(r"\b([A-Z][A-Z0-9]*[A-Z][A-Z0-9-]*)\s+$")


def _reference_value(sentence: str, offset: int, candidate_end: int, methods: Sequence[Mention]) -> Mention | None:
    """The method named in the same clause after a number that a comparison word introduces:
    "reaches 40%, compared to 10% for samples of X" gives the 10% to X."""
    for mention in sorted(methods, key=lambda m: m.start):
        gap = sentence[candidate_end:mention.start - offset]
        if mention.start - offset >= candidate_end and len(gap) <= 50 and not re.search(r"[,;:()]|\d", gap):
            return mention
    return None


def _by_subject(
    span: tuple[int, int] | None, text: str, methods: Sequence[Mention], own: Mention | None, reference: Mention | None
) -> tuple[Mention, str | None] | None:
    """The method the clause's subject names, and the subject's words when they refer to the
    paper's own method ("our estimator"): a Method mention inside the subject, else the
    antecedent of a relative pronoun ("X, which achieves"), else the own method for "we",
    "our method", "the proposed ..."; ``None`` when the subject says nothing."""
    if span is None:
        return None
    if text[span[0]:span[1]].lower() in _RELATIVE_PRONOUNS:
        antecedents = [m for m in methods if m.end <= span[0] and _ANTECEDENT_GAP.fullmatch(text[m.end:span[0]])]
        return (max(antecedents, key=lambda m: m.end), None) if antecedents else None
    # "Experiments on X", "The combination of X and Y": a method after a preposition in the subject does not act.
    inside = [
        m for m in methods
        if span[0] <= m.start and m.end <= span[1] and m != reference and not _PREPOSITION.search(text[span[0]:m.start])
    ]
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
    released = {f.object for f in facts if f.relation == "proposes" and f.object.label == "Dataset"}
    only_dataset = next(iter(evaluated)) if len({m.text.lower() for m in evaluated}) == 1 else None
    if only_dataset is None and len({m.text.lower() for m in released}) == 1:
        only_dataset = next(iter(released))  # "... on this benchmark": the one the paper releases
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
        first_here = len(results)
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
            following = re.match(r"\s*([A-Z][A-Z0-9-]+)\b", sentence[candidate.end:])
            if candidate.unit is None and following and not any(m.start <= start + candidate.end + following.start(1) < m.end for m in metrics):
                continue  # "at 5 NFE", "with 8 GPU": a setting named by an acronym that is no metric
            if candidate.unit is None and not decimal and re.search(r"\b(?:at|with|using|under|for)\s+$", sentence[:candidate.start]):
                continue  # "at 5 steps": an integer setting
            acronym = _ACRONYM_BEFORE.search(sentence[:candidate.start])
            if (
                candidate.unit is None and acronym and not _QUALITY.fullmatch(acronym.group(1)) and not _METRIC_WORD.fullmatch(acronym.group(1))
                and not any(m.start <= start + acronym.start(1) < m.end for m in metrics)
            ):
                continue  # "in NFE 500", "IEEE 802.16": a setting or a standard's number after its acronym
            kind = result_kind(sentence, candidate, metric_text or (measure_of(at) if measure_of else None))
            right_after = sentence[candidate.end:candidate.end + 20]
            if kind == "relative" and _SPEED.search(right_after) and (metric_text is None or not _RESOURCE.search(metric_text)):
                metric, metric_text = None, "speedup"  # "2.5x faster": the speed is measured, not a metric named nearby
            if metric_text is None and measure_of is not None:
                metric_text = measure_of(at)
            if metric_text is None and kind == "relative" and _SPEED.search(sentence[candidate.end:candidate.end + 30] + sentence[max(0, candidate.start - 20):candidate.start]):
                metric_text = "speedup"
            if metric_text is None and metrics:
                # "22.1 and 26.8 mIoU", "... respectively, in accuracy": one metric named once for the sentence's numbers
                metric = _nearest(metrics, at, until, prefer_after=True)
                metric_text = metric.text if metric is not None else None
            if metric_text is None and results and results[-1].sentence == (start, end) and results[-1].kind == kind:
                metric, metric_text = results[-1].metric, results[-1].metric_text  # a list of numbers shares its metric
            if metric_text is None and kind != "relative":
                metric_text = _metric_word(sentence, candidate.start, candidate.end)
            own = main[0] if main else None
            clause = subject_of(at) if subject_of else None
            named = _by_subject(clause, text, methods, own, reference)
            method_text = None
            passive = _achieved_by(sentence, start, candidate.end, methods)
            method: Mention | None
            if passive is not None and passive != reference:
                method = passive
            elif named is not None:
                method, method_text = named
            else:
                actor = _subject_method(sentence, start, at, methods, reference, clause)
                method = actor if actor is not None and (own is None or not _OWN.search(sentence[: actor.start - start])) else own
            if _FROM_TO.search(sentence[max(0, candidate.start - 12):candidate.start]):
                method = reference  # "from 70.1% to 75.3%": the first value is the reference's
            if _REFERENCE_VALUE.search(sentence[:candidate.start]):
                # "compared to 10% for X": X's; with no method named after it ("versus 56.9% with plain
                # convolution") it is the same method's in another setting, and stays with it.
                method = _reference_value(sentence, start, candidate.end, methods) or method
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
                    compared_text=(reference.text if reference is not None and reference != method else _compared_words(sentence, candidate.start))
                    if kind != "absolute" else None,
                    extractor=EXTRACTOR,
                    confidence=0.8 if candidate.unit in _UNIT_RESULTS else 0.6,
                    method_text=method_text,
                )
            )
        results[first_here:] = _list_kinds(text, results[first_here:])
        results[first_here:] = _respectively(sentence, start, results[first_here:], methods, datasets, reference)
    return results


def _list_kinds(text: str, found: list[Result]) -> list[Result]:
    """One kind for a list of numbers: "an improvement of 1.84%, 0.67% and 0.60%" and "6.56%,
    4.76%, 5.82% improvements" are improvements all, though the cue stands by one number only.

    A list is a run of numbers of one unit separated by a comma or a conjunction
    alone; when its numbers are absolute but for one other kind, all take that kind.
    """
    runs: list[list[int]] = []
    for i, result in enumerate(found):
        if runs and found[runs[-1][-1]].unit == result.unit and _LIST_GAP.match(text[found[runs[-1][-1]].end:result.start]):
            runs[-1].append(i)
        else:
            runs.append([i])
    unified = list(found)
    for run in runs:
        kinds = {found[i].kind for i in run} - {"absolute"}
        if len(run) > 1 and len(kinds) == 1:
            kind = kinds.pop()
            model = next(found[i] for i in run if found[i].kind == kind)
            for i in run:
                if found[i].kind != kind:
                    unified[i] = replace(found[i], kind=kind, compared_to=model.compared_to, compared_text=model.compared_text)
    return unified


def _respectively(
    sentence: str, offset: int, found: list[Result], methods: Sequence[Mention], datasets: Sequence[Mention], reference: Mention | None
) -> list[Result]:
    """Pair a "respectively" sentence's lists in order: "A and B reach 80% and 85% on X and Y,
    respectively" gives 80% to A on X and 85% to B on Y.

    Each group of the sentence's results of one kind is paired with the datasets,
    the methods named before its first number (the actors) and the methods after
    a comparison word (the references) when that list is exactly as long as the
    group; a list of another length is left alone.
    """
    if not _RESPECTIVELY.search(sentence) or len(found) < 2:
        return found

    def distinct(mentions: Iterable[Mention]) -> list[Mention]:
        """The mentions as one coordinated list ("X, Y and Z"), or ``[]`` when they are no list."""
        seen: dict[str, Mention] = {}
        for mention in sorted(mentions, key=lambda m: m.start):
            seen.setdefault(mention.text.lower(), mention)
        items = list(seen.values())
        gaps = (sentence[a.end - offset:b.start - offset] for a, b in zip(items, items[1:]))
        return items if all(_COORDINATION.fullmatch(gap) for gap in gaps) else []

    paired = list(found)
    for kind in {r.kind for r in found}:
        group = [i for i, r in enumerate(found) if r.kind == kind]
        if len(group) < 2:
            continue
        first = found[group[0]].start
        cue = next((offset + m.end() for m in _COMPARISON.finditer(sentence) if offset + m.end() > first), None)
        lists = {
            "dataset": distinct(datasets),
            "method": distinct(
                m for m in methods if m.end <= first and m != reference and not _MODIFIER_BEFORE.search(sentence[: m.start - offset])
            ),
            "compared_to": distinct(m for m in methods if cue is not None and m.start >= cue) if kind != "absolute" else [],
        }
        for field, mentions in lists.items():
            if len(mentions) == len(group):
                for i, mention in zip(group, mentions):
                    paired[i] = replace(paired[i], **{field: mention})  # type: ignore[arg-type]  # field: dataset, method or compared_to, each a Mention | None
                    if field == "compared_to":
                        paired[i] = replace(paired[i], compared_text=mention.text)
    return paired


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
