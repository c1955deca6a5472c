"""Contributions (proposes) and relations, on a hand-parsed Doc and, marked slow, with the real model."""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import Doc

from kg.extract import EXTRACTOR_VERSION
from kg.extract.contributions import find_contributions
from kg.extract.cues import contribution_patterns_v1, gazetteers_v1, mention_heads_v1, relation_cues_v1
from kg.extract.gazetteers import build_gazetteer
from kg.extract.mentions import find_mentions
from kg.extract.relations import dedupe, embedded_task, find_relations, list_members, topic_tasks
from kg.extract.structure import MentionIndex, proposals
from kg.model import Fact, Mention

from .conftest import shared_pipeline

HEADS, PATTERNS, CUES = mention_heads_v1(), contribution_patterns_v1(), relation_cues_v1()

# "We propose FooNet , a framework for image classification ."
ROWS = [
    # word, POS, tag, dep, head, lemma
    ("We", "PRON", "PRP", "nsubj", 1, "we"),
    ("propose", "VERB", "VBP", "ROOT", 1, "propose"),
    ("FooNet", "PROPN", "NNP", "dobj", 1, "FooNet"),
    (",", "PUNCT", ",", "punct", 2, ","),
    ("a", "DET", "DT", "det", 5, "a"),
    ("framework", "NOUN", "NN", "appos", 2, "framework"),
    ("for", "ADP", "IN", "prep", 5, "for"),
    ("image", "NOUN", "NN", "compound", 8, "image"),
    ("classification", "NOUN", "NN", "pobj", 6, "classification"),
    (".", "PUNCT", ".", "punct", 1, "."),
]


def parsed(nlp, rows) -> Doc:
    words, pos, tags, deps, heads, lemmas = (list(column) for column in zip(*rows))
    return Doc(nlp.vocab, words=words, pos=pos, tags=tags, deps=deps, heads=heads, lemmas=lemmas)


def triples(facts) -> set[tuple[str, str | None, str]]:
    return {(f.relation, f.subject.text if f.subject else None, f.object.text) for f in facts}


def test_hand_parsed_proposal_and_purpose() -> None:
    nlp = spacy.blank("en")
    doc = parsed(nlp, ROWS)
    mentions = find_mentions(doc, build_gazetteer(nlp.vocab, gazetteers_v1(), nlp.make_doc), HEADS)
    index = MentionIndex(doc, mentions)
    proposed = find_contributions(doc, index, PATTERNS, HEADS)
    assert triples(proposed) == {("proposes", None, "FooNet")}
    assert proposed[0].confidence == 0.9 and proposed[0].sentence == (0, doc[:].end_char)
    assert proposed[0].extractor == f"kg.contributions/{EXTRACTOR_VERSION}#proposal.named"  # the rule that found it
    facts = find_relations(doc, index, proposals(proposed), CUES, HEADS, PATTERNS)
    assert ("addresses", "FooNet", "image classification") in triples(facts)
    assert all(0.0 <= f.confidence <= 1.0 and f.extractor.startswith("kg.") for f in facts)


def test_embedded_task_of_a_method_phrase() -> None:
    nlp = spacy.blank("en")
    doc = parsed(
        nlp,
        [
            ("image", "NOUN", "NN", "compound", 1, "image"),
            ("segmentation", "NOUN", "NN", "compound", 2, "segmentation"),
            ("network", "NOUN", "NN", "ROOT", 2, "network"),
        ],
    )
    assert embedded_task(doc[:], HEADS).text == "image segmentation"
    assert embedded_task(doc[2:], HEADS) is None


def test_dedupe_keeps_the_most_confident() -> None:
    a = Mention(0, 3, "Method", "Foo")
    b = Mention(10, 13, "Task", "bar")
    low = Fact("addresses", a, b, (0, 20), "kg.relations/1", 0.5)
    high = Fact("addresses", a, Mention(30, 33, "Task", "Bar"), (21, 40), "kg.relations/1", 0.7)
    assert dedupe([low, high]) == [high]


# --- with the real model --------------------------------------------------------


@pytest.fixture(scope="module")
def pipeline():
    return shared_pipeline(trained=False)


def facts_of(pipeline, text: str) -> set[tuple[str, str | None, str]]:
    return triples(pipeline(text)._.kg_facts)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "name", "label"),
    [
        ("We propose FooNet, a novel framework for image segmentation.", "FooNet", "Method"),
        ("In this paper, we present BarNet, which learns faster.", "BarNet", "Method"),
        ("We also introduce AWARE-US, a benchmark of persona-grounded queries.", "AWARE-US", "Dataset"),
        ("This paper proposes CiteBART, a custom BART pre-training.", "CiteBART", "Method"),
        ("We develop Local Support Learning (LSL), a training method for continual learning.", "LSL", "Method"),
        ("To improve reliability, we propose a simple framework called controllable feature whitening.", "controllable feature whitening", "Method"),
        ("We present a simple local graph clustering algorithm for graphs with node attributes.", "local graph clustering algorithm", "Method"),
        ("We introduce a novel method that employs core subset selection for reweighting.", "method that employs core subset selection", "Method"),
        ("We propose a novel FL method based on loss decomposition, called FedLD, to reduce loss.", "FedLD", "Method"),
        ("In this paper, we propose a novel contrastive approach, which we call All4One, that works.", "All4One", "Method"),
    ],
)
def test_contribution_statements(pipeline, text: str, name: str, label: str) -> None:
    doc = pipeline(text)
    proposed = [f.object for f in doc._.kg_facts if f.relation == "proposes"]
    assert [(m.text, m.label) for m in proposed][:1] == [(name, label)]


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    ["BERT is a language model pretrained on books.", "We analyze the behaviour of BERT on long inputs.", "Recently, ResNet was proposed by others."],
)
def test_no_contribution_where_none_is_claimed(pipeline, text: str) -> None:
    assert not [f for f in pipeline(text)._.kg_facts if f.relation == "proposes"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("We propose FooNet for semantic segmentation.", ("addresses", "FooNet", "semantic segmentation")),
        ("FooNet tackles the object detection problem in real time.", ("addresses", "FooNet", "object detection")),
        ("Experiments on ImageNet and COCO show that FooNet outperforms ResNet-50.", ("evaluatedOn", "FooNet", "COCO")),
        ("Experiments on ImageNet and COCO show that FooNet outperforms ResNet-50.", ("outperforms", "FooNet", "ResNet-50")),
        ("FooNet achieves state-of-the-art results on the SQuAD benchmark.", ("evaluatedOn", "FooNet", "SQuAD")),
        ("FooNet improves BLEU by two points over the baseline.", ("measuredBy", "FooNet", "BLEU")),
        ("FooNet beats BERT in terms of accuracy.", ("measuredBy", "FooNet", "accuracy")),
        ("FooNet surpasses GPT-4 and LLaMA on reasoning.", ("outperforms", "FooNet", "LLaMA")),
        ("FooNet builds on BERT and uses a small adapter.", ("uses", "FooNet", "BERT")),
        ("We propose FooNet. It outperforms BERT on GLUE.", ("outperforms", "FooNet", "BERT")),
        ("We propose FooNet. It outperforms BERT on GLUE.", ("evaluatedOn", "FooNet", "GLUE")),
        ("Code is available at https://github.com/x/foonet.", ("hasCode", None, "https://github.com/x/foonet")),
    ],
)
def test_relation_cues(pipeline, text: str, fact: tuple[str, str | None, str]) -> None:
    assert fact in facts_of(pipeline, text)


@pytest.mark.slow
def test_relations_need_a_method_subject(pipeline) -> None:
    found = facts_of(pipeline, "The weather was good on ImageNet day, and accuracy improved for image classification.")
    assert not {f for f in found if f[0] in ("evaluatedOn", "measuredBy", "addresses")}


@pytest.mark.slow
def test_fact_offsets_point_at_their_evidence(pipeline) -> None:
    text = "We propose FooNet for semantic segmentation. Experiments on COCO show that FooNet outperforms BERT."
    doc = pipeline(text)
    for fact in doc._.kg_facts:
        start, end = fact.sentence
        assert text[fact.object.start : fact.object.end] == fact.object.text
        if fact.relation != "proposes" and fact.subject is not None and fact.subject.start >= start:
            assert start <= fact.object.start < end


def test_trained_relations_are_mapped_and_swapped() -> None:
    nlp = spacy.blank("en")
    doc = parsed(nlp, ROWS)
    if not Doc.has_extension("scierc_relations"):
        Doc.set_extension("scierc_relations", default=())
    # The model says: image classification (7-9) USED-FOR ... FooNet (2-3), i.e. reversed.
    doc._.scierc_relations = ((7, 9, 2, 3, "USED-FOR", 1.0), (0, 1, 2, 3, "CONJUNCTION", 0.9))
    mentions = find_mentions(doc, build_gazetteer(nlp.vocab, gazetteers_v1(), nlp.make_doc), HEADS)

    def map_relation(label, head_type, tail_type, head_text, tail_text):
        return ("addresses", True) if label == "USED-FOR" and head_type == "Task" else None

    index = MentionIndex(doc, mentions)
    facts = find_relations(doc, index, [], CUES, HEADS, PATTERNS, map_relation)
    # One fact per triple survives: the trained one here, as it is the more confident (0.8 > 0.75).
    trained = [f for f in facts if f.extractor.startswith("kg.scierc/")]
    assert [(f.relation, f.subject.text, f.object.text) for f in trained] == [("addresses", "FooNet", "image classification")]
    assert trained[0].confidence == pytest.approx(0.8)
    rules_only = find_relations(doc, index, [], CUES, HEADS, PATTERNS, None)
    assert not [f for f in rules_only if f.extractor.startswith("kg.scierc/")]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("In this study, we propose the local effective dimension as a capacity measure which correlates with error.", "local effective dimension"),
        ("This results in our new method Explained Variance Adaptation (EVA).", "Explained Variance Adaptation"),
        ("We propose a minimalistic model robustness patching framework that carries a model trained on clean data.", "minimalistic model robustness patching framework"),
        ("We define the value of a set to be the change when only this set has changed, and derive an importance weighting method for computing it.", "importance weighting method"),
        ("In this paper, a data-driven local-verification approach is proposed to compete in the challenge.", "data-driven local-verification approach"),
        ("In this article, we propose some simple transformations of these classifiers resulting in improved performance.", "transformations of these classifiers"),
        ("Given this, we advocate employing local equivariance, leading to a self-consistent robust error named SCORE.", "SCORE"),
        # the name after a comma, even where the parser hangs it elsewhere
        ("To address this question, we introduce a gradient-based online algorithm, Receding Horizon Inexact Gradient (RHIG), and analyze it.", "RHIG"),
        ("To address this, we propose De-focus Attention Networks, which employ learnable bandpass filters.", "De-focus Attention Networks"),
        # a proper noun no rule took for a name; a purpose clause the parser hangs on a gerund
        ("In this work, we propose Turtle to learn the truncated causal history model for video restoration.", "Turtle"),
        ("We present Sparrow, a fast sampler for diffusion models.", "Sparrow"),
        ("We then use causal machine learning to develop CLASH, the first method for early stopping.", "CLASH"),
    ],
)
def test_more_contribution_statements(pipeline, text: str, name: str) -> None:
    proposed = [f.object.text for f in pipeline(text)._.kg_facts if f.relation == "proposes"]
    assert proposed[:1] == [name]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "not_proposed"),
    [
        ("In detail, we propose to exploit the richer priors from strong self-supervised pre-trained models (PTM).", "PTM"),
        ("Our work builds upon recent 3D CNN-based descriptor extractors, which use voxels.", "CNN"),
        ("We show that the proposed regularization with triplet loss outperforms existing techniques.", "triplet loss"),
        ("We combine the previously proposed joint distance covariance (JdCov) with a new measure.", "joint distance covariance"),
        ("In this paper we provide an explanation based on the recently observed phenomenon, called neural collapse.", "neural collapse"),
        ("We formalize and study a phenomenon called feature collapse in language tasks.", "feature collapse"),
        ("Our model shows robustness on two benchmarks for Knee OsteoArthritis (KOA) grade classification.", "Knee OsteoArthritis"),
        ("We validate FooNet on the benchmarks -- ImageNet and derived five distribution shift benchmarks.", "distribution shift"),
        ("To address this issue, we propose leveraging evolution strategies (ESs), a class of black-box optimization algorithms.", "ES"),
        ("We introduce a three-stage framework: (1) Meta-Scientific Integration, where models enhance workflows.", "Integration"),
    ],
)
def test_no_contribution_of_what_others_made(pipeline, text: str, not_proposed: str) -> None:
    proposed = {f.object.text for f in pipeline(text)._.kg_facts if f.relation == "proposes"}
    assert not any(not_proposed in p for p in proposed), proposed


@pytest.mark.slow
def test_a_bare_name_described_as_a_dataset_is_one(pipeline) -> None:
    doc = pipeline("We propose Breaking Bad, a large-scale dataset of fractured objects for shape assembly.")
    assert [(f.object.text, f.object.label) for f in doc._.kg_facts if f.relation == "proposes"] == [("Breaking Bad", "Dataset")]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "We propose FooNet. Finally, we validate that our method outperforms existing approaches on four benchmark "
            "datasets: Corrupted CIFAR-10, Biased FFHQ, WaterBirds, and CelebA.",
            ("evaluatedOn", "FooNet", "WaterBirds"),
        ),
        (
            "We propose FooNet. Experiments on CIFAR10/100 and Tiny ImageNet demonstrate the superiority of the proposed algorithms.",
            ("evaluatedOn", "FooNet", "Tiny ImageNet"),
        ),
        (
            "We propose FooNet. Experiments show that FooNet outperforms existing methods on various classification tasks.",
            ("addresses", "FooNet", "classification"),
        ),
    ],
)
def test_result_sentences_about_the_papers_method(pipeline, text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts_of(pipeline, text)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "absent"),
    [
        (
            "We propose FooNet. When fine-tuning LLaMA2-7B on the MetaMathQA dataset and validating on GSM8k, FooNet scores 49.",
            ("evaluatedOn", "FooNet", "MetaMathQA"),
        ),
        (
            "Recent advancements in Large Language Models (LLMs) have showcased their capabilities in text understanding. "
            "We propose FooNet, a method for machine unlearning.",
            ("addresses", "FooNet", "text understanding"),
        ),
        (
            "Pedestrian attribute recognition has attracted attention due to its wide applications in scene understanding. "
            "We propose FooNet for it.",
            ("addresses", "FooNet", "scene understanding"),
        ),
    ],
)
def test_no_relation_to_training_data_or_examples(pipeline, text: str, absent: tuple[str, str, str]) -> None:
    assert absent not in facts_of(pipeline, text)


@pytest.mark.slow
def test_a_name_given_to_a_typed_phrase_addresses_its_task(pipeline) -> None:
    facts = facts_of(pipeline, "We present an online handwriting calibration method, called QuillCal (QC), which aligns strokes.")
    assert {("addresses", "QC", "online handwriting calibration"), ("addresses", "QuillCal", "online handwriting calibration")} & facts


@pytest.mark.slow
def test_new_task_nouns_type_task_phrases(pipeline) -> None:
    doc = pipeline("Feature matching and model selection are hard. We propose QuillNet for feature matching.")
    labels = {m.text.lower(): m.label for m in doc._.kg_mentions}
    assert labels["feature matching"] == "Task" and labels["model selection"] == "Task"


@pytest.mark.slow
def test_trained_task_spans_of_the_opening_sentence_are_topics(pipeline) -> None:
    text = "Shot classification aims at labeling from few examples. We propose QuillNet."
    doc = pipeline(text)
    # The rules' index without tasks; the trained spans: a task phrase and a bare word.
    untyped = [m for m in doc._.kg_mentions if m.label != "Task"]
    index = MentionIndex(doc, untyped)
    spans = [("Shot classification", text.index("Shot")), ("labeling", text.index("labeling"))]
    trained = [Mention(start, start + len(name), "Task", name, 0.8, "kg.scierc/4") for name, start in spans]
    every = MentionIndex(doc, [*untyped, *trained])
    assert [m.text for m in topic_tasks(doc, index, (), every, HEADS)] == ["Shot classification"]
    assert topic_tasks(doc, index, ()) == []


# "FooNet is tested on MNIST , SVHN and CIFAR-10 ."
LIST_ROWS = [
    ("FooNet", "PROPN", "NNP", "nsubjpass", 2, "FooNet"),
    ("is", "AUX", "VBZ", "auxpass", 2, "be"),
    ("tested", "VERB", "VBN", "ROOT", 2, "test"),
    ("on", "ADP", "IN", "prep", 2, "on"),
    ("MNIST", "PROPN", "NNP", "pobj", 3, "MNIST"),
    (",", "PUNCT", ",", "punct", 4, ","),
    ("SVHN", "PROPN", "NNP", "conj", 4, "SVHN"),
    ("and", "CCONJ", "CC", "cc", 6, "and"),
    ("CIFAR-10", "PROPN", "NNP", "conj", 6, "CIFAR-10"),
    (".", "PUNCT", ".", "punct", 2, "."),
]


def test_a_fact_on_one_list_member_holds_for_each_member_of_its_type() -> None:
    nlp = spacy.blank("en")
    doc = parsed(nlp, LIST_ROWS)
    texts = {"FooNet": "Method", "MNIST": "Dataset", "SVHN": "Dataset", "CIFAR-10": "Dataset"}
    mentions = [Mention(t.idx, t.idx + len(t), texts[t.text], t.text, 0.9, "test") for t in doc if t.text in texts]
    index = MentionIndex(doc, mentions)
    foonet, mnist = mentions[0], mentions[1]
    one = Fact("evaluatedOn", foonet, mnist, (0, len(doc.text)), "kg.relations/test#evaluatedOn.verb", 0.7)
    added = list_members([one], index, HEADS)
    assert triples(added) == {("evaluatedOn", "FooNet", "SVHN"), ("evaluatedOn", "FooNet", "CIFAR-10")}
    assert {(f.extractor, f.confidence, f.sentence) for f in added} == {(one.extractor, one.confidence, one.sentence)}
    assert list_members([Fact("proposes", None, mnist, (0, 1), "x", 0.5)], index, HEADS) == []  # the paper's facts are not listed
