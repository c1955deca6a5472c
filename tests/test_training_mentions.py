"""The learned mention model: gold forms located in the text, a tiny training run that loads and runs."""

from __future__ import annotations

import json

import pytest
import spacy

from kg.evaluation.facts import GoldEntity, GoldRecord
from kg.training.mentions import project, record_spans, token_annotations


def test_every_form_of_an_entity_is_located_case_insensitively_on_word_boundaries():
    text = "Graph Neural Networks (GNNs) beat a graph neural network baseline; subgraphs are not GNNs."
    spans = project(text, [("Method", ["graph neural networks", "GNNs", "graph neural network"])])
    assert [text[s:e] for s, e, _ in spans] == ["Graph Neural Networks", "GNNs", "graph neural network", "GNNs"]
    assert "subgraph" not in {text[s:e].lower() for s, e, _ in spans}


def test_a_longer_form_wins_over_a_shorter_one_of_the_same_type_inside_it():
    text = "We use deep Q-learning."
    assert project(text, [("Method", ["Q-learning", "deep Q-learning"])]) == [(7, 22, "Method")]


def test_a_task_inside_a_method_name_stays_a_mention_of_its_own():
    text = "A parser for dependency parsing."
    spans = project(text, [("Method", ["parser for dependency parsing"]), ("Task", ["dependency parsing"])])
    assert {(text[s:e], t) for s, e, t in spans} == {("parser for dependency parsing", "Method"), ("dependency parsing", "Task")}


def test_a_span_is_given_one_type_only():
    text = "Results on ImageNet."
    assert project(text, [("Dataset", ["ImageNet"]), ("Task", ["ImageNet"])]) == [(11, 19, "Dataset")]


def test_forms_that_do_not_occur_are_skipped():
    assert project("Nothing here.", [("Method", ["BERT"])]) == []


def test_record_spans_ignore_types_outside_the_guidelines():
    record = GoldRecord("p", "We run BERT on SQuAD.", {"a": GoldEntity("BERT", "Method"), "b": GoldEntity("SQuAD", "Other")}, ())
    assert record_spans(record) == [(7, 11, "Method")]


def test_character_spans_become_token_spans_inside_one_sentence():
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    doc = nlp("We propose FooNet. It beats BarNet on Qux.")
    annotations = token_annotations(doc, [(11, 17, "Method"), (28, 34, "Method"), (15, 30, "Method")])
    assert {(doc[s : e + 1].text, label) for s, e, label in annotations.entities} == {("FooNet", "Method"), ("BarNet", "Method")}


@pytest.mark.slow
def test_a_short_training_run_writes_a_model_the_pipeline_loads(tmp_path):
    from kg.extract.learned_mentions import MENTIONS_KEY, add_mention_model
    from kg.training.mentions import train_mentions

    abstracts = [
        "We propose FooNet for image segmentation. FooNet is evaluated on Cityscapes with mean IoU.",
        "We introduce BarGAN, a generative model for text-to-image synthesis, and test it on COCO.",
    ]
    entities = [
        {"f": GoldEntity("FooNet", "Method"), "t": GoldEntity("image segmentation", "Task"), "d": GoldEntity("Cityscapes", "Dataset"), "m": GoldEntity("mean IoU", "Metric")},
        {"b": GoldEntity("BarGAN", "Method"), "t": GoldEntity("text-to-image synthesis", "Task"), "d": GoldEntity("COCO", "Dataset")},
    ]
    records = [GoldRecord(f"p{i}", text, ents, ()) for i, (text, ents) in enumerate(zip(abstracts, entities))]
    lines: list[str] = []
    report = train_mentions(records, records, tmp_path / "model", epochs=2, on_progress=lines.append)
    assert report.epochs_run == 2 and lines
    meta = json.loads((tmp_path / "model" / "meta.json").read_text())
    assert set(meta["entity_labels"]) <= {"Method", "Task", "Dataset", "Metric"}
    assert 0 < report.model_bytes < 25_000_000

    from kg.extract.loader import resolve_model_name

    nlp = spacy.load(resolve_model_name(), exclude=["ner"])
    assert add_mention_model(nlp, tmp_path / "model")
    doc = nlp(abstracts[0])
    assert all(span.label_ in meta["entity_labels"] for span in doc.spans[MENTIONS_KEY])
    assert not add_mention_model(spacy.blank("en"), tmp_path / "absent")


@pytest.mark.slow
def test_model_learned_adds_the_mention_model_and_the_learned_fact_scores_and_the_default_does_not():
    from kg.extract.learned_mentions import MENTION_PIPE
    from kg.extract.loader import SCORER, load_pipeline

    learned = load_pipeline(scierc_model="learned")
    assert MENTION_PIPE in learned.pipe_names
    assert learned.pipe_names.index(MENTION_PIPE) < learned.pipe_names.index("kg_mentions")
    assert learned.get_pipe(SCORER).model.add is not None  # the learned fact model adds facts
    default = load_pipeline()
    assert MENTION_PIPE not in default.pipe_names
    assert default.get_pipe(SCORER).model.add is None
    doc = learned("We propose FooNet for image segmentation and evaluate it on Cityscapes.")
    assert any(m.extractor.startswith("kg.learned/") for m in doc._.kg_mentions)


def test_model_learned_without_its_mention_model_is_an_error_not_a_quiet_fallback(monkeypatch, tmp_path):
    from kg.errors import KgError
    from kg.extract import loader

    monkeypatch.setattr(loader, "default_model_dir", lambda: tmp_path)
    monkeypatch.setattr("kg.extract.learned_mentions.default_model_dir", lambda: tmp_path)
    with pytest.raises(KgError) as info:
        loader.load_pipeline(spacy_model=None, scierc_model="learned")
    assert info.value.code == "E208"


def test_the_cache_key_of_model_learned_follows_its_model_files(monkeypatch, tmp_path):
    from kg.pipeline import plan

    before = plan.model_fingerprint("learned")
    assert before != plan.model_fingerprint(None)
    (tmp_path / "meta.json").write_text("{}")
    monkeypatch.setattr("kg.extract.learned_mentions.default_model_dir", lambda: tmp_path)
    assert plan.model_fingerprint("learned") != before
