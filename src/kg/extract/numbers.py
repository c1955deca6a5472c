"""Numbers in a sentence that may be results: where they are, their value, unit and range.

Pure text functions, no spaCy: :func:`number_candidates` finds every number of
a sentence that could be a reported result and leaves out those the guidelines
say never are: numbers inside names (``CIFAR-10``, ``Llama-3.1-70B``,
``ViT-S/8``), years, list markers (``(1)``), numbers in URLs and inside
asymptotic bounds (``O(1/T)``), settings (``5-shot``, ``top-5``, ``k = 3``) and
sizes (``1000 images``, ``7B parameters``). Whether a candidate really is a
result, and what it belongs to, is decided by :mod:`kg.extract.results`.

>>> [(c.value, c.unit) for c in number_candidates("ResNet-50 reaches 76.1% top-1 accuracy, 2.5x faster, on 3 datasets.")]
[('76.1', '%'), ('2.5', 'x')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

__all__ = ["NumberCandidate", "canonical_number", "number_candidates"]

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+"
# A number, an optional range to a second number, and an optional unit right after.
_CANDIDATE = re.compile(
    rf"""
    (?P<sign>[+\-\u2212±]\s?)?
    (?P<value>(?:{_NUM})(?:(?:%|\\%|x|×|X)?(?:-|–|—)(?:{_NUM}))?)
    (?P<unit>\s?(?:\\%|%|×|x\b|X\b|-fold\b|\s?fold\b|\s?times\b|\s?points?\b|\s?pp\b|\s?percentage\s+points?\b|
        \s?ms\b|\s?s\b|\s?mm\b|\s?cm\b|\s?mJ\b|\s?mW\b|\s?sec(?:onds?)?\b|\s?minutes?\b|\s?hours?\b|\s?[kKMGT]B\b|\s?dB\b|\s?FPS\b|\s?fps\b|\s?Hz\b))?
    """,
    re.VERBOSE,
)
_UNITS = {
    "\\%": "%", "%": "%", "×": "x", "x": "x", "X": "x", "-fold": "x", "fold": "x", "times": "x",
    "point": "points", "points": "points", "pp": "points", "percentage point": "points", "percentage points": "points",
    "sec": "s", "second": "s", "seconds": "s",
}
_URL = re.compile(r"(?:https?://|www\.)\S+|\S+\.(?:com|org|io|net)/\S*|\(cid:\d+\)")
_MATH_BOUND = re.compile(r"\b[OΩΘo]\*?\s*\(|\\(?:mathcal|Omega|Theta|tilde)\s*\{?\s*O?")
# Nouns that make the number before them a size or a count, not a result.
_SIZE_WORDS = re.compile(
    r"^\s*(?:[kKMBT]\b|thousand|million|billion|trillion|images?|samples?|examples?|instances?|documents?|sentences?|words?|"
    r"tokens?|parameters?|params|layers?|heads?|datasets?|benchmarks?|tasks?|languages?|classes|categories|domains|subjects?|"
    r"participants?|users?|nodes?|vertices|edges|agents?|GPUs?|CPUs?|cores?|videos?|hours? of|frames|pairs?|questions?|"
    r"queries|patients?|models?|methods?|baselines?|architectures?|experiments?|environments?|games?|robots?|players?|"
    r"steps?|epochs?|iterations?|rounds?|runs?|seeds?|trials?|dimensions?|bits?|-bit|-shot|-way|-layer|-dimensional|-th|"
    r"[GMk]Hz|GHz|MHz|pixels?|processors?|machines?|workstations?|servers?|threads?|(?:x|×)\s*\d|"
    r"st\b|nd\b|rd\b|th\b|D\b|-D\b)"
)
# A setting's name right before a number ("top-5", "k = 3", "Table 2"); a name must be a whole word, so
# the "d" ending "and" does not make "and 0.64 Recall" a setting.
_SETTING_BEFORE = re.compile(
    r"(?:(?<![A-Za-z])(?:top|Top|k|K|n|N|T|d|Section|Sec\.|Eq\.|Fig\.|Figure|Table|Appendix|Theorem|Lemma|step|stage|level|order|version|v)|=|@|#)[\s-]*$"
)


@dataclass(frozen=True)
class NumberCandidate:
    """One number of a sentence: offsets in the sentence, the value as written, its unit."""

    start: int
    end: int  # the end of the value (the unit is not included)
    value: str
    unit: str | None
    signed: bool  # written with a leading + or -


def canonical_number(value: str) -> str | None:
    """The first number of a value as a canonical decimal string (commas and units dropped).

    >>> canonical_number("1,024"), canonical_number("8-24"), canonical_number("2.50"), canonical_number("x")
    ('1024', '8', '2.5', None)
    """
    match = re.search(_NUM, value)
    if match is None:
        return None
    try:
        number = Decimal(match.group(0).replace(",", ""))
    except InvalidOperation:
        return None
    text = format(number.normalize(), "f")
    return text


def _in_spans(position: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= position < end for start, end in spans)


def _math_spans(sentence: str) -> list[tuple[int, int]]:
    """Spans of asymptotic bounds ``O(...)``, whose numbers are never results."""
    spans = []
    for match in _MATH_BOUND.finditer(sentence):
        depth, end = 0, match.end()
        for end in range(match.end(), min(len(sentence), match.end() + 80)):
            if sentence[end] in "({":
                depth += 1
            elif sentence[end] in ")}":
                depth -= 1
                if depth < 0:
                    break
        spans.append((match.start(), end + 1))
    return spans


def number_candidates(sentence: str) -> list[NumberCandidate]:
    """The numbers of ``sentence`` that could be results, in order (see the module docstring).

    >>> [c.value for c in number_candidates("Llama-3.1-70B and CIFAR-10 (1) in 2023 with O(1/T) and 5-shot, 1000 images")]
    []
    >>> [(c.value, c.unit) for c in number_candidates("from 70.1% to 75.3% (+5.2 points), 8-24% fewer, 20x-200x")]
    [('70.1', '%'), ('75.3', '%'), ('5.2', 'points'), ('8-24', '%'), ('20x-200x', 'x')]
    """
    urls = [m.span() for m in _URL.finditer(sentence)]
    bounds = _math_spans(sentence)
    found: list[NumberCandidate] = []
    for match in _CANDIDATE.finditer(sentence):
        start, end = match.span("value")
        before = sentence[:match.start()]
        prev = before[-1:] if before else ""
        value = match.group("value")
        unit_raw = (match.group("unit") or "").strip()
        # Inside a name or a word: "CIFAR-10", "GPT4", "ViT-S/8", "x2"; a sign is not a hyphen of a name.
        if prev.isalpha() or prev in "_/.^'" or (match.group("sign") and match.group("sign").strip() == "-" and before[-2:-1].isalnum()):
            continue
        if re.search(r"[A-Za-z][\w]*-$", before) or re.search(r"\\[a-z]+\{?$", before):
            continue
        after = sentence[match.end():]
        if after[:1].isalpha() and not unit_raw or re.match(r"^[.-]?\d|^-[A-Za-z]|^/\d|^[A-Za-z]", after) and not unit_raw:
            continue
        if _in_spans(start, urls) or _in_spans(start, bounds):
            continue
        if after[:1] == "^" or re.search(r"[A-Za-z]:$", before):
            continue  # the base of a power ("2^O(k)") or an identifier ("arXiv:1306.3727")
        if prev == "(" and after[:1] == ")" and not unit_raw and re.fullmatch(r"\d{1,2}", value):
            continue  # "(1)": a list marker or a citation
        if re.fullmatch(r"(?:19|20)\d\d", value) and not unit_raw:
            continue  # a year
        if _SETTING_BEFORE.search(before) and not unit_raw:
            continue
        if not unit_raw and "." not in value and re.search(r"\b(?:on|in|across|among)\s+$", before):
            continue  # "on 10 policy models", "in 5 languages": a count of what was tested
        if not unit_raw and _SIZE_WORDS.match(after):
            continue
        if re.match(r"^\s?(?:[kKMB]|-bit|-shot|-way|-layer)\b", after) and unit_raw in ("", "x"):
            continue
        if re.match(r"^\s*(?:\d|10\s*\^|\\?cdot)", after) and unit_raw in ("x", "×", "X"):
            continue  # "160 × 160" (a size) or "5 × 10^-6" (a mantissa)
        if re.search(r"\d\s*[x×X]\s*$", before):
            continue  # the second factor of "160 × 160"
        if not unit_raw and re.search(r"\b[A-Z][A-Za-z]*\s$", before) and not re.match(r"^\s*[a-z]", after):
            continue  # a version or a setting after a name: "Web 2.0", "TM 4.0", "NFE 500"
        if re.search(r"\b(?:e\.g\.|i\.e\.|such as)[^.;]{0,20}$", before):
            continue  # an example, not an outcome
        if not unit_raw and re.fullmatch(r"[01]", value):
            continue  # "converges to 0", "a rank of 1" are not outcomes without a unit
        unit = _UNITS.get(unit_raw.lower(), _UNITS.get(unit_raw, unit_raw)) if unit_raw else None
        if unit is None and value.endswith(("%", "x", "×")) and not re.search(r"(?:-|–|—|~|to)", value):
            value, unit = value.rstrip("%x×\\ "), "%" if value.endswith("%") else "x"
        if unit == "x" and re.search(r"\d[x×X](?:-|–|—)", value):
            value += sentence[start + len(value)]  # "20x-200x": a range of factors keeps its last "x"
        if unit in ("%",) and value.endswith("\\"):
            value = value[:-1]
        found.append(NumberCandidate(start, start + len(value), value, unit, bool(match.group("sign"))))
    return _ranges(sentence, found)


# "between 2% and 5%", "ranging from 2% to 5%": the two ends of one range; "from 70.1% to 75.3%" alone is a change.
_RANGE_OPEN = re.compile(r"(?:\bbetween|\b(?:rang(?:e|es|ed|ing)|var(?:y|ies|ied|ying))\s+from)\s+$", re.IGNORECASE)
_RANGE_GAP = re.compile(r"\s*(?:%|\\%|x|×|points?)?\s*(?:and|to)\s+", re.IGNORECASE)


def _ranges(sentence: str, found: list[NumberCandidate]) -> list[NumberCandidate]:
    """Join the two ends of a range written in words into one candidate, whose value is the range as written.

    >>> [(c.value, c.unit) for c in number_candidates("X uses between 2.26x and 418.81x less energy, ranging from 5% to 23% less.")]
    [('2.26x and 418.81', 'x'), ('5% to 23', '%')]
    """
    joined: list[NumberCandidate] = []
    for candidate in found:
        last = joined[-1] if joined else None
        if (
            last is not None and not candidate.signed and _RANGE_OPEN.search(sentence[: last.start])
            and _RANGE_GAP.fullmatch(sentence[last.end : candidate.start]) and last.unit in (None, candidate.unit)
        ):
            joined[-1] = NumberCandidate(last.start, candidate.end, sentence[last.start : candidate.end], candidate.unit, last.signed)
        else:
            joined.append(candidate)
    return joined
