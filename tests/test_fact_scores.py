"""Learned fact confidences: candidate pairs, their labels, the model, the pipeline stage, ``kg train facts``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.evaluation.facts import parse_gold
from kg.extract.annotations import as_tuple
from kg.extract.pairs import PairModel, candidates, group_things, read_pair_model, rescored
from kg.model import Acronym, Mention

from .conftest import shared_pipeline

TEXT = (
    "We propose QuillNet, a framework for handwriting recognition. "
    "QuillNet employs BERT to encode strokes. Experiments on IAM-Lines show that QuillNet beats InkRNN."
)


@pytest.fixture(scope="module")
def pipeline():
    return shared_pipeline(scores=False)


def _parts(doc):
    return as_tuple(doc._.kg_mentions), as_tuple(doc._.kg_facts), as_tuple(doc._.kg_acronyms)


def test_things_join_an_acronym_with_its_long_form_and_take_the_rules_type() -> None:
    mentions = [
        Mention(0, 16, "Task", "Graph Clustering", 0.8, "kg.mentions/6"),
        Mention(18, 20, "Task", "GC", 0.8, "kg.mentions/6"),
        Mention(30, 46, "Method", "graph clustering", 0.7, "kg.scierc/6"),
    ]
    [thing] = group_things(mentions, [Acronym("GC", "Graph Clustering", 0, 16)])
    assert thing.label == "Task" and thing.forms == ["GC", "Graph Clustering", "graph clustering"]


def test_a_model_scores_by_its_features() -> None:
    model = PairModel({"uses|main=True": 2.0, "uses|apart": -1.0}, 0.0, "t")
    assert model.score(["uses|main=True"]) > 0.85 > model.score([]) == 0.5 > model.score(["uses|apart"])
    assert PairModel.from_dict(model.to_dict()) == model


@pytest.mark.slow
def test_candidates_pair_the_main_method_with_every_fitting_mention(pipeline) -> None:
    doc = pipeline(TEXT)
    found = {c.slot: c for c in candidates(doc, *_parts(doc))}
    slots = {(relation, s, o) for relation, s, o in found}
    assert ("addresses", "quillnet", "handwriting recognition") in slots
    assert ("uses", "quillnet", "bert") in slots and ("evaluatedOn", "quillnet", "iam line") in slots
    # what the rules state is marked, and every feature names its relation
    assert found[("uses", "quillnet", "bert")].ruled
    assert all(f.startswith("uses|") for f in found[("uses", "quillnet", "bert")].features)
    only = {("uses", "quillnet", "bert")}
    assert [c.slot for c in candidates(doc, *_parts(doc), only=only)] == list(only)


@pytest.mark.slow
def test_relation_facts_take_the_models_score_and_proposals_keep_theirs(pipeline) -> None:
    doc = pipeline(TEXT)
    mentions, facts, acronyms = _parts(doc)
    model = PairModel({"uses|bias": 3.0}, -1.0, "t")
    after = rescored(doc, mentions, facts, acronyms, model)
    assert len(after) == len(facts)
    for old, new in zip(facts, after):
        assert (old.relation, old.subject, old.object, old.extractor) == (new.relation, new.subject, new.object, new.extractor)
        if old.relation == "uses":
            assert new.confidence == 0.881  # sigmoid(3 - 1), rounded
        elif old.relation in ("proposes", "hasCode"):
            assert new.confidence == old.confidence
    assert any(f.relation == "uses" for f in after)


@pytest.mark.slow
def test_the_pipeline_runs_the_scorer_with_the_trained_components_only() -> None:
    assert shared_pipeline().pipe_names[-1] == "kg_fact_scores"
    assert "kg_fact_scores" not in shared_pipeline(scores=False).pipe_names
    assert "kg_fact_scores" not in shared_pipeline(trained=False).pipe_names


@pytest.mark.slow
def test_training_labels_pairs_by_the_gold_and_learns_what_tells_them_apart(pipeline) -> None:
    pytest.importorskip("sklearn")
    from kg.training.pairs import examples, fit, label

    record = parse_gold(
        [{"abstract": TEXT, "entities": [
            {"name": "QuillNet", "type": "Method"}, {"name": "BERT", "type": "Method"},
            {"name": "handwriting recognition", "type": "Task"}, {"name": "IAM-Lines", "type": "Dataset"}],
          "triples": [["QuillNet", "uses", "BERT"], ["QuillNet", "addresses", "handwriting recognition"],
                      ["QuillNet", "evaluatedOn", "IAM-Lines"]]}],
        Path("g.json"),
    )
    data = examples(record * 3, pipeline)
    assert {e.candidate.slot for e in data if e.label} >= {("uses", "quillnet", "bert"), ("evaluatedOn", "quillnet", "iam line")}
    assert all(label(e.candidate, record[0]) == e.label for e in data)
    assert any(not e.label for e in data)
    stated = [e for e in data if e.rule_confidence is not None]
    assert stated and all(e.candidate.ruled for e in stated)
    model = fit(data, c=10.0)
    right = [model.score(e.candidate.features) for e in data if e.label]
    wrong = [model.score(e.candidate.features) for e in data if not e.label]
    assert min(right) > max(wrong)


@pytest.mark.slow
def test_kg_train_facts_writes_a_model_the_pipeline_can_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sklearn")
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"id": "p1", "abstract": TEXT}) + "\n", encoding="utf-8")
    annotations = tmp_path / "train.json"
    annotations.write_text(json.dumps([{"source_id": "p1", "entities": [
        {"name": "QuillNet", "type": "Method"}, {"name": "BERT", "type": "Method"}],
        "triples": [["QuillNet", "uses", "BERT"]]}]), encoding="utf-8")
    out = tmp_path / "scores.json"
    args = ["train", "facts", str(annotations), "--corpus", str(corpus), "--out", str(out), "--test", str(annotations)]
    assert main(args) == 0
    model = read_pair_model(out)
    assert model.weights and model.version == "kg.FactScores.v1"
    printed = capsys.readouterr().out
    assert "candidate pairs" in printed and "AUC" in printed
    assert main(["train", "facts", str(annotations), "--out", str(out)]) == 2  # no corpus for a source_id
    assert "E220" in capsys.readouterr().err


@pytest.mark.slow
def test_a_gated_rules_fact_stays_only_when_the_model_agrees(pipeline) -> None:
    from dataclasses import replace

    from kg.extract.pairs import GATE, GATED

    doc = pipeline(TEXT)
    mentions, facts, acronyms = _parts(doc)
    [uses] = [f for f in facts if f.relation == "uses" and f.object.text == "BERT"]
    gated = replace(uses, extractor=uses.extractor.partition("#")[0] + "#" + sorted(GATED)[0])
    others = [f for f in facts if f is not uses]
    doubtful = PairModel({"uses|bias": -1.0}, 0.0, "t")  # sigmoid(-1) < GATE
    assert gated not in rescored(doc, mentions, [*others, gated], acronyms, doubtful)
    sure = PairModel({"uses|bias": 3.0}, 0.0, "t")
    kept = [f for f in rescored(doc, mentions, [*others, gated], acronyms, sure) if f.extractor == gated.extractor]
    assert len(kept) == 1 and kept[0].confidence >= GATE


def test_a_models_cuts_travel_with_its_file() -> None:
    model = PairModel({"uses|bias": 1.0}, -0.5, "t", add=0.3, drop=0.2)
    assert PairModel.from_dict(json.loads(json.dumps(model.to_dict()))) == model
    assert "add" not in PairModel({}, 0.0, "t").to_dict()


@pytest.mark.slow
def test_a_model_with_an_add_cut_states_pairs_no_rule_states(pipeline) -> None:
    from kg.model import Rule

    doc = pipeline(TEXT)
    mentions, facts, acronyms = _parts(doc)
    unstated = [c for c in candidates(doc, mentions, facts, acronyms) if not c.ruled]
    assert unstated
    sure = {f"{c.relation}|bias": 3.0 for c in unstated}
    without = rescored(doc, mentions, facts, acronyms, PairModel(sure, 0.0, "t"))
    assert not any(f.extractor.endswith("#" + Rule.PAIRS_LEARNED.value) for f in without)
    added = [f for f in rescored(doc, mentions, facts, acronyms, PairModel(sure, 0.0, "t", add=0.5)) if f.extractor.endswith("#" + Rule.PAIRS_LEARNED.value)]
    assert len(added) == len(unstated)
    for fact in added:  # the evidence is the object's sentence, verbatim
        start, end = fact.sentence
        assert start <= fact.object.start and fact.object.end <= end and fact.confidence >= 0.5


@pytest.mark.slow
def test_a_model_with_a_drop_cut_leaves_out_the_rules_doubtful_facts(pipeline) -> None:
    doc = pipeline(TEXT)
    mentions, facts, acronyms = _parts(doc)
    doubtful = {f"{r}|bias": -3.0 for r in ("uses", "addresses", "evaluatedOn", "outperforms", "measuredBy")}
    kept = rescored(doc, mentions, facts, acronyms, PairModel(doubtful, 0.0, "t"))
    assert any(f.relation == "uses" for f in kept)
    dropped = rescored(doc, mentions, facts, acronyms, PairModel(doubtful, 0.0, "t", drop=0.2))
    assert not any(f.relation == "uses" for f in dropped) and any(f.relation == "proposes" for f in dropped)
