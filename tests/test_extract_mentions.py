"""Mentions: gazetteers, names, dataset patterns, typed phrases, acronyms and trained spans.

Docs are built by hand (``spacy.blank``, tags written in) so no model is loaded.
"""

from __future__ import annotations

import numpy
import pytest
import spacy
from spacy.tokens import Doc, Span

from kg.extract.cues import gazetteers_v1, mention_heads_v1
from kg.extract.gazetteers import build_gazetteer, read_entries
from kg.extract.mentions import find_mentions, is_name, looks_named, name_spans
from kg.model import Acronym

HEADS = mention_heads_v1()


@pytest.fixture(scope="module")
def nlp() -> spacy.language.Language:
    return spacy.blank("en")


@pytest.fixture(scope="module")
def gazetteer(nlp):
    return build_gazetteer(nlp.vocab, gazetteers_v1(), nlp.make_doc)


def labelled(mentions) -> set[tuple[str, str]]:
    return {(m.text, m.label) for m in mentions}


def tagged(nlp, rows: list[tuple[str, str, str, str]]) -> Doc:
    """A Doc from (word, POS, tag, lemma) rows; no parse."""
    words, pos, tags, lemmas = (list(column) for column in zip(*rows))
    return Doc(nlp.vocab, words=words, pos=pos, tags=tags, lemmas=lemmas)


def test_gazetteer_entries_are_found_with_their_labels(nlp, gazetteer) -> None:
    doc = nlp("We report BLEU and accuracy on ImageNet, CIFAR-10 and SQuAD with ResNet-50 for question answering.")
    found = labelled(find_mentions(doc, gazetteer, HEADS))
    assert {("BLEU", "Metric"), ("accuracy", "Metric"), ("ImageNet", "Dataset"), ("CIFAR-10", "Dataset")} <= found
    assert {("SQuAD", "Dataset"), ("ResNet-50", "Method"), ("question answering", "Task")} <= found


def test_cost_and_theory_measures_are_metrics(nlp, gazetteer) -> None:
    doc = nlp("It cuts the peak memory and running time , and its dynamic regret and sample complexity are lower .")
    found = labelled(find_mentions(doc, gazetteer, HEADS))
    assert {("peak memory", "Metric"), ("running time", "Metric"), ("dynamic regret", "Metric"), ("sample complexity", "Metric")} <= found


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("Glue the parts together.", "Glue"),  # "=GLUE" is matched as written only
        ("the full-precision baseline", "precision"),  # part of a hyphenated word
        ("a drop-in replacement", "drop"),
    ],
)
def test_gazetteer_ordinary_words_are_not_names(nlp, gazetteer, text: str, absent: str) -> None:
    assert absent not in {m.text for m in find_mentions(nlp(text), gazetteer, HEADS)}


def test_read_entries_marks_exact_ones() -> None:
    assert read_entries(["# c", "=GLUE", "ImageNet", "  "]) == [("GLUE", True), ("ImageNet", False)]


@pytest.mark.parametrize(
    ("word", "expected"),
    [("LLaMA", True), ("ResNet-50", True), ("GPT-4", True), ("T5", True), ("iHOMER", True), ("Transformer", False), ("The", False), ("Theta(n^2", False)],
)
def test_name_shapes(word: str, expected: bool) -> None:
    assert is_name(word) is expected


def test_names_join_attached_hyphens_and_skip_generic_acronyms(nlp) -> None:
    doc = nlp("We introduce AWARE-US and SAES-SVD, unlike LLMs and BERT-based models.")
    texts = [doc[s:e].text for s, e in name_spans(doc, HEADS.not_names)]
    assert texts == ["AWARE-US", "SAES-SVD", "BERT"]


def test_looks_named() -> None:
    assert looks_named("Local Support Learning") and looks_named("FooNet")
    assert not looks_named("graph clustering algorithm")


@pytest.mark.parametrize(
    ("text", "datasets"),
    [
        ("results on the MMLU , GSM8K and MATH benchmarks", {"MMLU", "GSM8K", "MATH"}),
        ("we release the AWARE-US benchmark", {"AWARE-US"}),
        ("on five benchmark datasets", set()),
        ("on the Penn Treebank dataset", {"Penn Treebank"}),
    ],
)
def test_names_before_a_dataset_noun_are_datasets(nlp, text: str, datasets: set[str]) -> None:
    doc = nlp(text)
    for token in doc:  # proper nouns as a tagger would mark them
        token.pos_ = "PROPN" if token.is_title else "NOUN"
    found = {m.text for m in find_mentions(doc, None, HEADS) if m.label == "Dataset"}
    assert found == datasets


def test_typed_phrases_drop_generic_words(nlp) -> None:
    doc = tagged(
        nlp,
        [
            ("We", "PRON", "PRP", "we"),
            ("present", "VERB", "VBP", "present"),
            ("a", "DET", "DT", "a"),
            ("simple", "ADJ", "JJ", "simple"),
            ("graph", "NOUN", "NN", "graph"),
            ("clustering", "VERB", "VBG", "cluster"),
            ("algorithm", "NOUN", "NN", "algorithm"),
            ("and", "CCONJ", "CC", "and"),
            ("a", "DET", "DT", "a"),
            ("novel", "ADJ", "JJ", "novel"),
            ("framework", "NOUN", "NN", "framework"),
            ("for", "ADP", "IN", "for"),
            ("the", "DET", "DT", "the"),
            ("query", "NOUN", "NN", "query"),
            ("repair", "NOUN", "NN", "repair"),
            ("problem", "NOUN", "NN", "problem"),
        ],
    )
    doc[0].dep_ = "nsubj"  # any dependency label marks the Doc as parsed
    found = labelled(find_mentions(doc, None, HEADS))
    assert ("graph clustering algorithm", "Method") in found
    assert ("query repair", "Task") in found  # "the ... problem" names its task
    assert not any(text.endswith("framework") for text, _ in found)  # "a novel framework" names nothing


def test_acronym_short_forms_take_the_long_form_label(nlp) -> None:
    text = "We formulate a local sentiment aggregation paradigm ( LSA ) . LSA works ."
    doc = nlp(text)
    acronym = Acronym("LSA", "local sentiment aggregation paradigm", text.index("local"), text.index(" ( LSA"))
    found = find_mentions(doc, None, HEADS, (acronym,))
    assert [(m.text, m.label) for m in found if m.text == "LSA"] == [("LSA", "Method"), ("LSA", "Method")]
    assert ("local sentiment aggregation paradigm", "Method") in labelled(found)


def test_trained_spans_are_mapped_and_scored(nlp) -> None:
    doc = nlp("Our parser handles dependency parsing well .")
    doc.spans["scierc"] = [Span(doc, 1, 2, label="Method"), Span(doc, 3, 5, label="Generic")]
    doc.spans["scierc"].attrs["scores"] = [0.8, 0.9]

    def map_entity(label: str, text: str):
        return None if label == "Generic" else label

    found = find_mentions(doc, None, HEADS, map_entity=map_entity)
    parser = [m for m in found if m.text == "parser"]
    assert parser and parser[0].extractor.startswith("kg.scierc/") and parser[0].score == pytest.approx(0.72)
    assert "dependency parsing" not in {m.text for m in found}
    # Scores stored as an (n, 1) array read the same.
    doc.spans["scierc"].attrs["scores"] = numpy.array([[0.8], [0.9]])
    assert [m.score for m in find_mentions(doc, None, HEADS, map_entity=map_entity) if m.text == "parser"] == [0.72]
    doc.spans["scierc"] = []
    assert "parser" not in {m.text for m in find_mentions(doc, None, HEADS, map_entity=map_entity)}


def test_learned_spans_are_mentions_that_win_over_the_rules_they_overlap(nlp, gazetteer) -> None:
    doc = nlp("We report accuracy on ImageNet classification with a tiny model .")
    doc.spans["kg_learned"] = [Span(doc, 4, 6, label="Task"), Span(doc, 8, 11, label="Method"), Span(doc, 2, 3, label="Metric")]
    doc.spans["kg_learned"].attrs["scores"] = numpy.array([0.9, 0.4, 0.7])
    found = find_mentions(doc, gazetteer, HEADS)
    # "ImageNet classification" (learned) wins over the gazetteer's "ImageNet" inside it
    assert ("ImageNet classification", "Task") in labelled(found) and ("ImageNet", "Dataset") not in labelled(found)
    learned = {m.text: m for m in found if m.extractor.startswith("kg.learned/")}
    assert set(learned) == {"ImageNet classification", "accuracy"}  # the span scored 0.4 is left out
    assert learned["accuracy"].score == pytest.approx(0.7)
    doc.spans["kg_learned"] = []
    assert ("ImageNet", "Dataset") in labelled(find_mentions(doc, gazetteer, HEADS))


def test_learned_spans_with_ragged_ends_are_left_out(nlp) -> None:
    doc = nlp("The -art method ( VPR ) wins .")
    doc.spans["kg_learned"] = [Span(doc, 1, 3, label="Method"), Span(doc, 4, 6, label="Method")]
    doc.spans["kg_learned"].attrs["scores"] = [0.9, 0.9]
    assert not any(m.extractor.startswith("kg.learned/") for m in find_mentions(doc, None, HEADS))


def test_trained_plurals_without_a_name_are_no_dataset(nlp) -> None:
    doc = nlp("We test on synthetic and real-world datasets and on CIFAR datasets .")
    doc[8].tag_ = doc[12].tag_ = "NNS"
    doc.spans["scierc"] = [Span(doc, 3, 9, label="Material"), Span(doc, 11, 13, label="Material")]
    doc.spans["scierc"].attrs["scores"] = [0.9, 0.9]
    found = labelled(find_mentions(doc, None, HEADS, map_entity=lambda label, text: "Dataset"))
    assert not any("real-world" in text for text, _ in found)  # several datasets described, none named
    assert any(text.startswith("CIFAR") and label == "Dataset" for text, label in found)  # a name stays
    doc = nlp("We test on one synthetic dataset and a graph benchmark .")
    doc[4].pos_, doc[5].pos_, doc[8].pos_, doc[9].pos_ = "ADJ", "NOUN", "NOUN", "NOUN"
    doc.spans["scierc"] = [Span(doc, 4, 6, label="Material"), Span(doc, 8, 10, label="Material")]
    doc.spans["scierc"].attrs["scores"] = [0.9, 0.9]
    found = labelled(find_mentions(doc, None, HEADS, map_entity=lambda label, text: "Dataset"))
    assert ("synthetic dataset", "Dataset") not in found  # adjectives describe, they do not name
    assert ("graph benchmark", "Dataset") in found


def test_names_join_alphanumeric_parts_after_a_hyphen(nlp) -> None:
    doc = nlp("We test on PA-100K and RAP.")
    assert "PA-100K" in [doc[s:e].text for s, e in name_spans(doc, HEADS.not_names)]


def test_generic_words_come_from_the_shared_lexicon() -> None:
    from kg.lexicon import DETERMINERS, GENERIC_MODIFIERS

    assert DETERMINERS | GENERIC_MODIFIERS <= HEADS.generic
    assert "few" not in HEADS.generic  # "few-shot learning" keeps its first word


def _parsed(nlp, rows: list[tuple[str, str, str, str, int]]) -> Doc:
    words, pos, tags, deps, heads = (list(column) for column in zip(*rows))
    lemmas = [{"achieves": "achieve", "wins": "win"}.get(w.lower(), w.lower()) for w in words]
    return Doc(nlp.vocab, words=words, pos=pos, tags=tags, deps=deps, heads=heads, lemmas=lemmas)


def test_a_name_typed_by_its_apposition_is_found_again(nlp) -> None:
    # "We propose Bone , a method . Bone wins ."
    doc = _parsed(
        nlp,
        [
            ("We", "PRON", "PRP", "nsubj", 1),
            ("propose", "VERB", "VBP", "ROOT", 1),
            ("Bone", "PROPN", "NNP", "dobj", 1),
            (",", "PUNCT", ",", "punct", 2),
            ("a", "DET", "DT", "det", 5),
            ("method", "NOUN", "NN", "appos", 2),
            (".", "PUNCT", ".", "punct", 1),
            ("Bone", "PROPN", "NNP", "nsubj", 8),
            ("wins", "VERB", "VBZ", "ROOT", 8),
            (".", "PUNCT", ".", "punct", 8),
        ],
    )
    found = [(m.text, m.label, m.start) for m in find_mentions(doc, None, HEADS)]
    assert [(text, label) for text, label, _ in found] == [("Bone", "Method"), ("Bone", "Method")]


def test_untyped_names_results_are_reported_on_are_datasets(nlp) -> None:
    # "FooNet achieves top accuracy on PASLX and CCSX ."
    doc = _parsed(
        nlp,
        [
            ("FooNet", "PROPN", "NNP", "nsubj", 1),
            ("achieves", "VERB", "VBZ", "ROOT", 1),
            ("top", "ADJ", "JJ", "amod", 3),
            ("accuracy", "NOUN", "NN", "dobj", 1),
            ("on", "ADP", "IN", "prep", 1),
            ("PASLX", "PROPN", "NNP", "pobj", 4),
            ("and", "CCONJ", "CC", "cc", 5),
            ("CCSX", "PROPN", "NNP", "conj", 5),
            (".", "PUNCT", ".", "punct", 1),
        ],
    )
    labels = {m.text: m.label for m in find_mentions(doc, None, HEADS)}
    assert labels["PASLX"] == labels["CCSX"] == "Dataset"
    assert labels["FooNet"] == "Method"


def test_plural_proper_noun_heads_type_a_name(nlp) -> None:
    """The lemmatizer keeps "Networks" (NNPS) as it is; the phrase still ends with the method head "network"."""
    rows = [
        ("We", "PRON", "PRP", "nsubj", 1),
        ("propose", "VERB", "VBP", "ROOT", 1),
        ("Focus", "PROPN", "NNP", "compound", 4),
        ("Attention", "PROPN", "NNP", "compound", 4),
        ("Networks", "PROPN", "NNPS", "dobj", 1),
        ("for", "ADP", "IN", "prep", 4),
        ("segmentation", "NOUN", "NN", "pobj", 5),
    ]
    assert ("Focus Attention Networks", "Method") in labelled(find_mentions(_parsed(nlp, rows), None, HEADS))
    rows[4] = ("Networks", "PROPN", "NNP", "dobj", 1)  # a singular proper noun "Networks" is no plural of a head
    assert "Focus Attention Networks" not in {m.text for m in find_mentions(_parsed(nlp, rows), None, HEADS)}


@pytest.mark.parametrize(
    ("text", "long", "label"),
    [
        # a coinage of four words that ends in a listed task is a method's name
        ("We propose Sparse Lattice Image Denoising ( SLID ) . SLID is fast .", "Sparse Lattice Image Denoising", "Method"),
        # the listed task itself, or a short phrase ending in it, stays a task
        ("Medical Image Segmentation ( MIS ) is hard . MIS needs labels .", "Medical Image Segmentation", "Task"),
        ("Image Denoising ( ID ) is old . ID still matters .", "Image Denoising", "Task"),
    ],
)
def test_a_long_coinage_ending_in_a_listed_task_is_a_method(nlp, gazetteer, text: str, long: str, label: str) -> None:
    doc = nlp(text)
    short = text.split("( ")[1].split(" )")[0]
    acronym = Acronym(short, long, text.index(long), text.index(long) + len(long))
    found = find_mentions(doc, gazetteer, HEADS, (acronym,))
    assert {m.label for m in found if m.text in (long, short)} == {label}
