"""Names that differ by a symbol, a letter or a version number stay apart (issue 15, item 10)."""

from __future__ import annotations

from itertools import combinations

import pytest

from kg.resolve.normalise import compact, display, normalise, slugify, tokens

from .conftest import shared_pipeline

DISTINCT = ["C", "C#", "C--", "C++", "F#", ".NET", "a-Net", "α-Net", "A-Net", "Ω-Net", "O-Net", "Net", "β-VAE", "VAE"]


@pytest.mark.parametrize(("a", "b"), list(combinations(DISTINCT, 2)))
def test_distinct_names_have_distinct_keys_and_slugs(a: str, b: str):
    if {a, b} == {"a-Net", "A-Net"}:
        assert compact(a) == compact(b)  # case never tells names apart (module docstring)
        return
    assert compact(a) != compact(b)
    assert slugify(normalise(a)) != slugify(normalise(b))


@pytest.mark.parametrize(
    ("same", "other"),
    [
        ("ResNet 50", "ResNet-50"),
        ("ResNet50", "ResNet 50"),
        ("the ImageNet dataset", "ImageNet"),
        ("a BERT model", "BERT"),
        ("An LSTM", "LSTM"),
        ("Friedman #2 regression dataset", "Friedman 2 regression dataset"),
        ("ASP.NET", "ASP NET"),
    ],
)
def test_spelling_variants_still_join(same: str, other: str):
    assert compact(same) == compact(other)


def test_symbols_and_greek_letters_are_kept_as_words():
    assert tokens("C#") == ("c", "#") and tokens("C--") == ("c", "--") and tokens(".NET") == (".", "net")
    assert tokens("β-VAE") == ("β", "vae") and tokens("Ω-Net") == ("ω", "net")
    assert "ResNet 50" != "ResNet" and tokens("ResNet 50") == ("resnet", "50")


def test_only_a_separate_article_is_dropped():
    assert tokens("a-Net") == ("a", "net") and tokens("a Net") == ("net",)
    assert display("a-Net") == "a-Net" and display("a ResNet") == "ResNet"


TEXTS = [
    "We propose α-Net, a network for image segmentation.",
    "We propose A-Net, a network for image segmentation.",
    "We propose Ω-Net, a network for image segmentation.",
    "We propose O-Net, a network for image segmentation.",
    "We propose a-Net, a network for image segmentation, and compare it with .NET tools.",
    "We implement the parser in C, C# and C-- and compare it with F# and .NET on compilation speed.",
    "We train β-VAE on the CelebA dataset for disentanglement.",
    "ResNet 50 outperforms VGG 16 on ImageNet.",
]


@pytest.mark.slow
def test_distinct_names_become_distinct_entities():
    """Through extraction and resolution: each name is its own entity, none is cut to "Net"."""
    from kg.extract import extract
    from kg.model import Paper
    from kg.resolve import resolve

    papers = [Paper(id=f"p{i}", abstract=text) for i, text in enumerate(TEXTS)]
    extractions = list(extract(papers, shared_pipeline()))
    labels = {entity.label: entity for entity in resolve(papers, extractions).entities if entity.type == "Method"}
    for name in ("α-Net", "A-Net", "Ω-Net", "O-Net", "C#", "C--", "F#", ".NET", "β-VAE", "ResNet 50", "VGG 16"):
        assert name in labels, sorted(labels)
    assert "Net" not in labels and "ResNet" not in labels
    assert labels["A-Net"].papers == ("p1", "p4")  # a-Net is A-Net (case folds), never .NET
    assert ".NET" not in labels["A-Net"].alt_labels and "p5" in labels[".NET"].papers
