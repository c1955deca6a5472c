"""Acronym definitions: ``Local Support Learning (LSL)`` and ``LSL (Local Support Learning)``.

This is the algorithm of Schwartz & Hearst (2003), "A simple algorithm for
identifying abbreviation definitions in biomedical text": a short form in
parentheses is matched right to left, character by character, against the words
before it; the first character of the short form must start a word. The reverse
order (short form first, long form in parentheses) is tried too. It works on the
text alone, so it needs no parse.

>>> [(a.short, a.long) for a in find_acronyms("We build Local Support Learning (LSL) here.")]
[('LSL', 'Local Support Learning')]
>>> [(a.short, a.long) for a in find_acronyms("We build LSL (local support learning).")]
[('LSL', 'local support learning')]
"""

from __future__ import annotations

import re

from kg.model import Acronym

_PARENS = re.compile(r"\(([^()]{1,120})\)")
_WORD = re.compile(r"\S+")
# The long-form window stops at a clause boundary: a sentence end, a colon or a
# semicolon, or a closing parenthesis (the previous definition).
_BOUNDARY = re.compile(r"[.;:!?)\]](?:\s|$)|\)")
_SKIP_INSIDE = re.compile(r"^(?:e\.g|i\.e|see|cf|resp|ours|in|for|with|where|which)\b", re.I)


def is_short_form(text: str) -> bool:
    """Whether ``text`` can be an abbreviation: 2-10 characters, one upper-case letter, one word.

    >>> is_short_form("LSL"), is_short_form("ResNet-50"), is_short_form("i"), is_short_form("2024")
    (True, True, False, False)
    """
    return (
        2 <= len(text) <= 10
        and " " not in text
        and text[0].isalnum()
        and any(c.isupper() for c in text)
        and sum(c.isalpha() for c in text) >= 2
    )


_FUNCTION_WORDS = frozenset({"and", "or", "of", "the", "a", "an", "for", "in", "on", "to", "with", "by"})


def best_long_form(short: str, candidate: str) -> str | None:
    """The shortest tail of ``candidate`` whose letters spell ``short`` (Schwartz-Hearst).

    >>> best_long_form("LSL", "we build Local Support Learning")
    'Local Support Learning'
    >>> best_long_form("XYZ", "nothing matches here") is None
    True
    >>> best_long_form("AGLFOP", "the Accuracy and Global-Local Fairness Optimality Problem")
    'Accuracy and Global-Local Fairness Optimality Problem'
    """
    s_idx, l_idx = len(short) - 1, len(candidate) - 1
    while s_idx >= 0:
        char = short[s_idx].lower()
        if not char.isalnum():
            s_idx -= 1
            continue
        # The first character of the short form must begin a word of the long form.
        while l_idx >= 0 and (
            candidate[l_idx].lower() != char
            or (s_idx == 0 and l_idx > 0 and candidate[l_idx - 1].isalnum())
            # nor is it a function word: "the Accuracy and Global ... Problem (AGLFOP)"
            or (s_idx == 0 and candidate[l_idx:].split(" ", 1)[0].lower() in _FUNCTION_WORDS)
        ):
            l_idx -= 1
        if l_idx < 0:
            return None
        l_idx -= 1
        s_idx -= 1
    start = candidate.rfind(" ", 0, l_idx + 1) + 1
    long = candidate[start:].strip()
    # A long form longer than the short one, and not just the short form itself.
    if len(long) <= len(short) or long.lower() == short.lower():
        return None
    return long


def _window_start(text: str, end: int, max_words: int) -> int:
    """Where the long-form window before ``end`` starts: ``max_words`` back, within the clause."""
    boundary = 0
    for match in _BOUNDARY.finditer(text, max(0, end - 400), end):
        boundary = match.end()
    words = [m.start() for m in _WORD.finditer(text, boundary, end)]
    return words[-max_words] if len(words) >= max_words else boundary


def find_acronyms(text: str) -> list[Acronym]:
    """Every acronym defined in ``text``, with the long form's character offsets."""
    found: list[Acronym] = []
    for match in _PARENS.finditer(text):
        inside = re.split(r"[;,]", match.group(1))[0].strip()
        if not inside or _SKIP_INSIDE.match(inside):
            continue
        open_at = match.start()
        if is_short_form(inside):
            max_words = min(len(inside) + 5, len(inside) * 2)
            start = _window_start(text, open_at, max_words)
            candidate = text[start:open_at].rstrip()
            long = best_long_form(inside, candidate)
            if long:
                long_end = start + len(candidate)
                found.append(Acronym(inside, long, long_end - len(long), long_end))
            continue
        # Reverse order: "LSL (Local Support Learning)".
        before = text[:open_at].rstrip()
        short_match = re.search(r"(\S+)$", before)
        if short_match and len(inside.split()) >= 2:
            short = short_match.group(1)
            long = best_long_form(short, inside) if is_short_form(short) else None
            if long and inside.lower().startswith(long.lower()):
                start = match.start(1) + match.group(1).index(inside)
                found.append(Acronym(short, long, start, start + len(long)))
    return found
