"""The shipped SciERC model, the relation decoder and the mapping to the graph's vocabulary."""

from __future__ import annotations

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc

from kg.errors import KgError
from kg.extract.scierc import add_trained_components
from kg.extract.scierc.labels import ENTITY_LABELS, RELATION_LABELS, SPANS_KEY
from kg.extract.scierc.mapping import map_entity, map_relation, names_data
from kg.extract.scierc.model_files import DEFAULT_MODEL_DIR
from kg.extract.scierc.relations import (
    NONE,
    RelationModel,
    candidate_pairs,
    decode,
    dependency_path,
    pair_features,
    path_between,
    token_table,
)
from kg.model import EntityType, Relation

SENTENCE = "We use conditional random fields for named entity recognition and evaluate them on the Penn Treebank ."
has_model = pytest.mark.skipif(not (DEFAULT_MODEL_DIR / "meta.json").is_file(), reason="no shipped SciERC model")


# ------------------------------------------------------------------------------ mapping


@pytest.mark.parametrize(
    ("label", "text", "expected"),
    [
        ("Method", "CRF", EntityType.METHOD),
        ("Task", "parsing", EntityType.TASK),
        ("Metric", "F1", EntityType.METRIC),
        ("Material", "Penn Treebank", EntityType.DATASET),
        ("Material", "the WSJ corpus", EntityType.DATASET),
        ("Material", "ImageNet", EntityType.DATASET),
        ("Material", "images", None),
        ("Material", "English", None),
        ("Material", "training data", None),
        ("OtherScientificTerm", "features", None),
        ("Generic", "this approach", None),
    ],
)
def test_map_entity(label, text, expected):
    assert map_entity(label, text) == expected


@pytest.mark.parametrize(
    ("label", "head", "tail", "texts", "expected"),
    [
        ("USED-FOR", "Method", "Task", ("CRF", "tagging"), (Relation.ADDRESSES, False)),
        ("USED-FOR", "Method", "Method", ("CRF", "our tagger"), (Relation.USES, True)),
        ("PART-OF", "Method", "Method", ("attention", "the model"), (Relation.USES, True)),
        ("EVALUATE-FOR", "Material", "Method", ("Penn Treebank", "our parser"), (Relation.EVALUATED_ON, True)),
        ("EVALUATE-FOR", "Dataset", "Method", ("PTB", "our parser"), (Relation.EVALUATED_ON, True)),
        ("EVALUATE-FOR", "Metric", "Method", ("BLEU", "our system"), (Relation.MEASURED_BY, True)),
        ("COMPARE", "Method", "Method", ("CRF", "HMM"), (Relation.COMPARED_WITH, False)),
        ("HYPONYM-OF", "Task", "Task", ("NER", "IE"), (Relation.SUBTYPE_OF, False)),
        ("HYPONYM-OF", "Task", "Method", ("NER", "CRF"), None),
        ("EVALUATE-FOR", "Material", "Method", ("images", "our system"), None),
        ("CONJUNCTION", "Method", "Method", ("CRF", "HMM"), None),
        ("FEATURE-OF", "Metric", "Task", ("speed", "parsing"), None),
        ("USED-FOR", "Generic", "Task", ("it", "parsing"), None),
    ],
)
def test_map_relation(label, head, tail, texts, expected):
    assert map_relation(label, head, tail, *texts) == expected


def test_mapped_relations_respect_the_graph_signatures():
    from kg.model import SIGNATURES

    for label in RELATION_LABELS:
        for head in ("Method", "Task", "Metric", "Dataset"):
            for tail in ("Method", "Task", "Metric", "Dataset"):
                mapped = map_relation(label, head, tail)
                if mapped is None:
                    continue
                relation, swap = mapped
                subject, obj = (tail, head) if swap else (head, tail)
                allowed_subjects, allowed_objects = SIGNATURES[relation]
                assert subject in allowed_subjects and obj in allowed_objects, (label, head, tail)


def test_names_data_needs_a_name_for_vague_data_words():
    assert names_data("TREC-9 data") and not names_data("bilingual data")


# ------------------------------------------------------------------------------ relations


def _parsed_doc() -> Doc:
    words = ["We", "use", "CRFs", "for", "tagging", "."]
    return Doc(
        spacy.blank("en").vocab,
        words=words,
        heads=[1, 1, 1, 1, 3, 1],
        deps=["nsubj", "ROOT", "dobj", "prep", "pobj", "punct"],
        sent_starts=[True, False, False, False, False, False],
    )


def test_dependency_path_goes_up_then_down():
    doc = _parsed_doc()
    assert dependency_path(doc[2], doc[4]) == ["dobj>", "<prep", "<pobj"]
    assert dependency_path(doc[4], doc[2]) == ["pobj>", "prep>", "<dobj"]
    # The words on the path: "use" and "for" link "CRFs" and "tagging".
    assert path_between(token_table(doc), 2, 4)[1] == ["use", "for"]


def test_features_work_without_a_parse():
    doc = Doc(spacy.blank("en").vocab, words=["CRFs", "for", "tagging"])
    feats = pair_features(token_table(doc), (0, 1, "Method"), (2, 3, "Task"), [])
    assert "path=NOPATH" in feats and "bw=for" in feats


def test_candidate_pairs_stay_in_one_sentence():
    doc = Doc(spacy.blank("en").vocab, words=["A", "b", ".", "C", "d"], sent_starts=[True, False, False, True, False])
    pairs = candidate_pairs(token_table(doc), [(0, 1, "Method"), (1, 2, "Task"), (3, 4, "Method")])
    assert {(a[:2], b[:2]) for a, b, _ in pairs} == {((0, 1), (1, 2)), ((1, 2), (0, 1))}


def test_pair_features_mark_direction_and_types():
    table = token_table(_parsed_doc())
    forward = pair_features(table, (2, 3, "Method"), (4, 5, "Task"), [])
    backward = pair_features(table, (4, 5, "Task"), (2, 3, "Method"), [])
    assert "tp=Method|Task" in forward and "F:" in forward
    assert "tp=Task|Method" in backward and "R:" in backward
    assert "bw=for" in forward


def test_decode_keeps_one_label_per_pair_above_threshold():
    labels = (NONE, *RELATION_LABELS)
    a, b, c = (0, 1, "Method"), (2, 3, "Task"), (4, 5, "Task")
    probs = np.zeros((4, len(labels)))
    probs[0, labels.index("USED-FOR")] = 0.6  # a -> b
    probs[1, labels.index("PART-OF")] = 0.7  # b -> a: wins the pair
    probs[2, labels.index("COMPARE")] = 0.2  # a -> c: under the threshold
    probs[3, 0] = 1.0  # c -> a: NONE
    out = decode([(a, b, []), (b, a, []), (a, c, []), (c, a, [])], probs, labels, 0.5)
    assert out == ((2, 3, 0, 1, "PART-OF", 0.7),)


def test_relation_model_round_trips(tmp_path):
    labels = (NONE, *RELATION_LABELS)
    rng = np.random.default_rng(0)
    model = RelationModel(labels, rng.normal(size=(64, len(labels))).astype(np.float32), np.zeros(len(labels)), 0.4)
    model.save(tmp_path / "r.npz")
    back = RelationModel.load(tmp_path / "r.npz")
    assert back.labels == labels and back.threshold == pytest.approx(0.4)
    feats = [["tp=Method|Task", "bw=for"], ["ht=Task"]]
    np.testing.assert_allclose(back.probabilities(feats), model.probabilities(feats), atol=1e-2)
    assert back.probabilities(feats).sum(axis=1) == pytest.approx([1.0, 1.0])


# ------------------------------------------------------------------------------ the shipped model


def test_missing_model_raises_e203_and_a_missing_folder_e206(tmp_path):
    with pytest.raises(KgError) as info:
        add_trained_components(spacy.blank("en"), tmp_path)  # a folder without a model
    assert info.value.code == "E203"
    with pytest.raises(KgError) as info:
        add_trained_components(spacy.blank("en"), tmp_path / "nothing")
    assert info.value.code == "E206"


@pytest.mark.slow
@has_model
def test_shipped_model_predicts_on_a_handwritten_sentence():
    from kg.extract.scierc.model_files import load_host_pipeline

    nlp = add_trained_components(load_host_pipeline())
    doc = nlp(SENTENCE)
    spans = doc.spans[SPANS_KEY]
    assert len(spans) >= 2
    assert {s.label_ for s in spans} <= set(ENTITY_LABELS)
    scores = spans.attrs["scores"]
    assert len(scores) == len(spans) and all(isinstance(s, float) and 0.0 <= s <= 1.0 for s in scores)
    for hs, he, ts, te, label, score in doc._.scierc_relations:
        assert label in RELATION_LABELS and 0.0 < score <= 1.0
        assert (hs, he) in {(s.start, s.end) for s in spans} and (ts, te) in {(s.start, s.end) for s in spans}


@pytest.mark.slow
@has_model
def test_shipped_model_runs_in_a_blank_pipeline():
    nlp = add_trained_components(spacy.blank("en"))
    doc = nlp(SENTENCE)
    assert isinstance(doc._.scierc_relations, tuple)
    assert all(s.label_ in ENTITY_LABELS for s in doc.spans[SPANS_KEY])
