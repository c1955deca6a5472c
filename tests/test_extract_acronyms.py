"""Acronym definitions (Schwartz-Hearst), on text alone: no model needed."""

from __future__ import annotations

import pytest

from kg.extract.acronyms import best_long_form, find_acronyms, is_short_form


@pytest.mark.parametrize(
    ("text", "short", "long"),
    [
        ("We build Local Support Learning (LSL) for this.", "LSL", "Local Support Learning"),
        ("we formulate a local sentiment aggregation paradigm (LSA) based on patterns", "LSA", "local sentiment aggregation paradigm"),
        ("We propose Self-Adaptive Error Suppression SVD (SAES-SVD), a framework.", "SAES-SVD", "Self-Adaptive Error Suppression SVD"),
        ("Recent works on aspect-based sentiment classification (ABSC) show progress.", "ABSC", "aspect-based sentiment classification"),
        ("We call it LSL (Local Support Learning) from now on.", "LSL", "Local Support Learning"),
        ("large language models (LLMs; a popular choice) are used", "LLMs", "large language models"),
    ],
)
def test_definitions_are_found_with_their_offsets(text: str, short: str, long: str) -> None:
    found = find_acronyms(text)
    assert [(a.short, a.long) for a in found] == [(short, long)]
    assert text[found[0].start : found[0].end] == long


@pytest.mark.parametrize(
    "text",
    [
        "as shown before (see Table 1) the gain holds",
        "methods like transformers (e.g., BERT) work",
        "as shown by Smith (2019) and others",
        "three steps: (i) read, (ii) parse",
        "a model (ours) and the baseline (XYZ)",  # no words spell XYZ
        "",
    ],
)
def test_parentheses_that_define_nothing_are_ignored(text: str) -> None:
    assert find_acronyms(text) == []


def test_two_definitions_in_one_sentence_do_not_share_words() -> None:
    text = "We design Extraction Aggregation Loss (EAL) and Contrast Enhancement Loss (CEL)."
    assert [(a.short, a.long) for a in find_acronyms(text)] == [
        ("EAL", "Extraction Aggregation Loss"),
        ("CEL", "Contrast Enhancement Loss"),
    ]


@pytest.mark.parametrize(("text", "expected"), [("LSL", True), ("GPT-4", True), ("a", False), ("1999", False), ("two words", False)])
def test_short_form_shape(text: str, expected: bool) -> None:
    assert is_short_form(text) is expected


def test_first_letter_must_start_a_word() -> None:
    # "S" of "SL" may not match the "s" inside "class"; it must begin "Support".
    assert best_long_form("SL", "the class Support Learning") == "Support Learning"
    assert best_long_form("QZ", "quiet zebras") == "quiet zebras"
    assert best_long_form("QZ", "nothing here") is None
