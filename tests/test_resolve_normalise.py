"""Normalisation, slugs, aliases and the fuzzy guard of the resolver."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from kg.resolve import ALIASES, compact, normalise, slugify
from kg.resolve.aliases import alias_index, alias_of
from kg.resolve.cluster import FUZZY_MIN_LENGTH, FUZZY_THRESHOLD, fuzzy_pairs, fuzzy_signature, within_reach
from kg.resolve.generic import is_generic
from kg.resolve.memo import scope
from kg.resolve.normalise import display, fold, looks_like_acronym, singular, tokens


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("BERT", "Bert"),
        ("LLMs", "LLM"),
        ("GANs", "GAN"),
        ("transformer's", "transformer"),
        ("ResNet-50", "ResNet50"),
        ("ResNet\u201150", "ResNet 50"),
        ("\u201cnaïve Bayes\u201d", "naive bayes"),
        ("the ImageNet dataset", "ImageNet"),
        ("large language models (LLMs)", "large language model"),
        ("pre-trained", "pre trained"),
    ],
)
def test_equivalent_spellings_share_a_key(a: str, b: str) -> None:
    assert compact(a) == compact(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("ResNet-50", "ResNet-101"),
        ("GPT-3", "GPT-3.5"),
        ("CIFAR-10", "CIFAR-100"),
        ("BERT-base", "BERT-large"),
        ("A* search", "search"),  # a capital A is not an article
        ("analysis", "analyse"),
        ("language model", "language"),  # no class word is dropped after a common noun
    ],
)
def test_different_names_keep_different_keys(a: str, b: str) -> None:
    assert compact(a) != compact(b)


@pytest.mark.parametrize(
    ("plural", "single"),
    [("networks", "network"), ("strategies", "strategy"), ("approaches", "approach"), ("classes", "class"),
     ("series", "series"), ("corpus", "corpus"), ("robotics", "robotics"), ("indices", "index")],
)
def test_singular(plural: str, single: str) -> None:
    assert singular(plural) == single


def test_all_caps_words_are_never_singularised() -> None:
    assert tokens("ADAS") == ("adas",)
    assert tokens("VAEs") == ("vae",)


def test_display_keeps_case_and_drops_article_and_acronym_tail() -> None:
    assert display("The Transformer") == "Transformer"
    assert display("graph neural networks (GNNs)") == "graph neural networks"
    assert display("A* search") == "A* search"


@pytest.mark.parametrize(
    ("surface", "expected"), [("BERT", True), ("SQuAD", True), ("ResNet", False), ("deep RL", False)]
)
def test_looks_like_acronym(surface: str, expected: bool) -> None:
    assert looks_like_acronym(surface) is expected


@given(st.text(min_size=1, max_size=40))
def test_slug_uses_only_safe_characters(text: str) -> None:
    assert set(slugify(text)) <= set("abcdefghijklmnopqrstuvwxyz0123456789-._~%ABCDEF")


_WORDS = st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12),
                  min_size=1, max_size=4)


@given(_WORDS, _WORDS)
def test_slug_is_injective_on_normalised_forms(a: list[str], b: list[str]) -> None:
    form_a, form_b = normalise(" ".join(a)), normalise(" ".join(b))
    if form_a != form_b:
        assert slugify(form_a) != slugify(form_b)


def test_alias_table_is_consistent() -> None:
    seen: dict[str, str] = {}
    for label, classes, spellings in ALIASES:
        assert classes, label
        for spelling in (label, *spellings):
            key = compact(spelling)
            assert seen.setdefault(key, label) == label, f"{spelling!r} is in {seen[key]!r} and {label!r}"
    assert len(alias_index()) == len(seen)


def test_alias_respects_classes() -> None:
    assert alias_of(compact("MAP"), "Metric") == "mean average precision"
    assert alias_of(compact("MAP"), "Method") is None


@pytest.mark.parametrize(
    ("a", "b", "joined"),
    [
        ("convolution neural network", "convolutional neural network", True),
        ("hierarchical attention network", "hierarchical attentional network", True),
        ("supervised learning", "unsupervised learning", False),
        ("transformer encoder", "transformer decoder", False),
        ("text to image generation", "image to text generation", False),
        ("resnet 50 backbone", "resnet 101 backbone", False),
        ("bert base encoder", "bert large encoder", False),
        ("fast r cnn", "faster r cnn", False),
        ("tranformer", "transformer", True),
        ("gpt 3", "gpt 4", False),
    ],
)
def test_fuzzy_guard(a: str, b: str, joined: bool) -> None:
    names = {compact(a): tokens(a), compact(b): tokens(b)}
    assert bool(fuzzy_pairs(names)) is joined


def test_fuzzy_refuses_short_names() -> None:
    assert fuzzy_pairs({"bart": ("bart",), "bert": ("bert",)}) == []


def all_pairs(names: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    """The reference: every pair of keys in one signature bucket, scored one by one."""
    buckets: dict[tuple[object, ...], list[str]] = defaultdict(list)
    for key in sorted(names):
        if len(key) >= FUZZY_MIN_LENGTH:
            buckets[fuzzy_signature(names[key])].append(key)
    return [(a, b) for keys in buckets.values() for a, b in combinations(keys, 2)
            if fuzz.token_sort_ratio(" ".join(names[a]), " ".join(names[b])) >= FUZZY_THRESHOLD]


def _edited(word: str, edits: list[tuple[int, int, str]]) -> str:
    """``word`` after a few one-letter edits (0 delete, 1 substitute, 2 insert) past its third letter."""
    for kind, at, letter in edits:
        at = 3 + at % max(1, len(word) - 2)
        word = word[:at] + (letter if kind else "") + word[at + (kind < 2):]
    return word


_STEMS = st.sampled_from(["convolutional", "contrastive", "consistency", "transformer", "translation",
                          "transfer", "attention", "attentive", "regression", "regularization", "network"])
_EDITS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 40), st.sampled_from("aeinorst")), max_size=3)
_NAME = st.lists(st.tuples(_STEMS, _EDITS), min_size=1, max_size=3).map(
    lambda parts: tuple(_edited(stem, edits) for stem, edits in parts))


@settings(max_examples=300, deadline=None)
@given(st.lists(_NAME, max_size=60))
@example([("conabcdefghijklmnopqrst",), ("conabcdefghijklmnopqrstuvwx",)])  # lengths 23 and 27: at most 92
@example([("conabcdefghijklmnopqrstuv",), ("conabcdXfghijklmnopqrsYuv",)])  # two substitutions: 92 again
def test_windowed_fuzzy_pairs_equal_all_pairs(words: list[tuple[str, ...]]) -> None:
    names = {"".join(w): w for w in words}
    assert fuzzy_pairs(names) == all_pairs(names)


def test_the_length_window_keeps_a_pair_at_exactly_the_threshold() -> None:
    short, long = "conabcdefghijklmnopqrst", "conabcdefghijklmnopqrstuvwx"  # 23 and 27 letters
    assert fuzz.token_sort_ratio(short, long) == FUZZY_THRESHOLD and within_reach(len(short), len(long))
    assert fuzzy_pairs({short: (short,), long: (long,)}) == [(short, long)]
    assert not within_reach(len(short), len(long) + 1)


@given(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=20))
def test_names_are_normalised_alike_inside_and_outside_a_resolve_scope(texts: list[str]) -> None:
    functions = (fold, tokens, display, looks_like_acronym, is_generic)
    outside = [[f(t) for f in functions] for t in texts]
    with scope():
        inside = [[f(t) for f in functions] for t in texts + texts]
    assert inside == outside + outside
