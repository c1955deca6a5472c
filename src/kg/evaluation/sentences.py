"""A fixed, rule-based sentence splitter for annotated abstracts.

Annotations tie each fact and each numeric result to sentence numbers, so the
numbering must never change with a parser's version: this splitter is plain
regular expressions over the whitespace-normalised abstract, and its output for a
given text is part of the annotation format. It is not the pipeline's splitter
(spaCy's parser); scorers map between the two by character offsets.

>>> [text for _, _, text in split_sentences("We propose Lynx. It beats Orca, e.g. on Reef. Code: http://a.b/c.")]
['We propose Lynx.', 'It beats Orca, e.g. on Reef.', 'Code: http://a.b/c.']

A single capital letter before a full stop is read as an initial ("J. Smith"),
so "we call it X. It ..." stays one sentence; that is part of version 1.
"""

from __future__ import annotations

import re

SPLITTER_VERSION = "kg.sentences.v1"

# A sentence ends at ., ! or ? (possibly followed by closing quotes or brackets)
# when whitespace and an upper-case letter, a digit or an opening bracket follow.
_BOUNDARY = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[A-Z0-9(\[\"'])")
# Abbreviations after which a full stop does not end a sentence.
_ABBREVIATIONS = (
    "e.g.", "i.e.", "et al.", "etc.", "vs.", "cf.", "Fig.", "Figs.", "Eq.", "Eqs.", "Sec.", "Ref.",
    "No.", "approx.", "resp.", "Dr.", "Prof.", "St.", "Inc.", "Ltd.", "Jr.", "Mr.", "Ms.", "al.",
)


def _ends_with_abbreviation(text: str) -> bool:
    """Whether ``text`` ends with a known abbreviation or a single initial ("J.")."""
    stripped = text.rstrip("\"')]")
    if any(stripped.endswith(" " + a) or stripped == a or stripped.endswith("(" + a) for a in _ABBREVIATIONS):
        return True
    return bool(re.search(r"(?:^|\s)[A-Z]\.$", stripped))


def split_sentences(text: str) -> list[tuple[int, int, str]]:
    """Sentences of ``text`` as (start, end, sentence) character spans, in order.

    >>> split_sentences("A b. C d.")
    [(0, 4, 'A b.'), (5, 9, 'C d.')]
    """
    spans: list[tuple[int, int, str]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start()
        # Keep closing quotes or brackets with the sentence they close.
        end += len(match.group(0)) - len(match.group(0).lstrip("\"')]"))
        if _ends_with_abbreviation(text[start:end]):
            continue
        piece = text[start:end].strip()
        if piece:
            spans.append((start, start + len(piece), piece))
        start = match.end()
    piece = text[start:].strip()
    if piece:
        offset = text.index(piece, start)
        spans.append((offset, offset + len(piece), piece))
    return spans


def sentence_of(text: str, offset: int) -> int:
    """The number of the sentence of ``text`` that holds character ``offset`` (-1 if none).

    >>> sentence_of("A b. C d.", 6)
    1
    """
    for number, (start, end, _) in enumerate(split_sentences(text)):
        if start <= offset < end:
            return number
    return -1
