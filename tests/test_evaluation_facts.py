"""The facts scorer: matching rules, reading a graph, the gold format, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.cli import main
from kg.errors import UserError
from kg.evaluation.facts import (
    Node,
    PredictedFact,
    forms_match,
    gold_id,
    graph_facts,
    normalise,
    parse_gold,
    read_gold,
    score,
)
from kg.views import KnowledgeGraph

from .conftest import SHARED, tiny_resolution

DEV_GOLD = SHARED / "data" / "seeds-dev-gold" / "dev_gold.json"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Vision Transformers", "vision transformer", True),
        ("GPT-4", "gpt 4", True),
        ("loss", "los", True),  # the final "s" of a word longer than three letters goes
        ("GANs", "GAN", True),
        ("bus", "bu", False),  # three letters: kept
        ("image classification", "image segmentation", False),
    ],
)
def test_normalise(a: str, b: str, same: bool) -> None:
    assert (normalise(a) == normalise(b)) is same


@pytest.mark.parametrize(
    ("label", "forms", "strict", "lenient"),
    [
        ("CIFAR10", ["CIFAR-10"], True, True),
        ("the segmentation of images", ["image segmentation"], False, True),  # stop words ignored
        ("graph network", ["graph neural network"], False, True),  # 2/3 >= 0.5
        ("neural network", ["graph neural network pruning"], False, True),  # 2/4 = 0.5
        ("network", ["graph neural network"], False, False),  # 1/3
        ("FN", ["FooNet", "FN"], True, True),  # an alias counts
    ],
)
def test_forms_match(label: str, forms: list[str], strict: bool, lenient: bool) -> None:
    assert forms_match([label], forms, lenient=False) is strict
    assert forms_match([label], forms, lenient=True) is lenient


def _gold(triples: list[list[str]], entities: list[dict], record_id: str = "p1") -> list:
    return parse_gold([{"id": record_id, "abstract": "text", "entities": entities, "triples": triples}], Path("gold.json"))


ENTITIES = [
    {"name": "FooNet", "type": "Method", "aliases": ["FN"]},
    {"name": "large-scale image classification", "type": "Task"},
    {"name": "BazNet", "type": "Method"},
]


def test_graph_facts_read_statements_and_proposals() -> None:
    papers, resolution = tiny_resolution()
    facts, nodes = graph_facts(KnowledgeGraph.from_resolution(papers, resolution))
    p1 = {(f.relation, f.subject.label, f.object.label) for f in facts["p1"]}
    assert ("introduces", "PAPER", "FooNet") in p1  # kg:proposes read as introduces
    assert ("addresses", "FooNet", "image classification") in p1
    assert ("hasCode", "PAPER", "https://github.com/a/b") in p1
    foonet = next(f.subject for f in facts["p 2"] if f.relation == "outperforms")
    assert foonet.labels == ("FooNet", "FN") and foonet.type == "Method"
    assert {n.label for n in nodes["p 2"]} == {"FooNet", "CIFAR-10", "BarNet"}


def test_score_strict_and_lenient() -> None:
    papers, resolution = tiny_resolution()
    facts, nodes = graph_facts(KnowledgeGraph.from_resolution(papers, resolution))
    gold = _gold(
        [["PAPER", "introduces", "FooNet"], ["FooNet", "addresses", "large-scale image classification"], ["FooNet", "uses", "BazNet"]],
        ENTITIES,
    )
    scores = score(gold, facts, nodes)
    # predicted for p1: introduces FooNet, addresses "image classification" (hasCode is not scored)
    assert (scores.strict["all"].predicted, scores.strict["all"].correct_predicted, scores.strict["all"].matched_gold) == (2, 1, 1)
    # "image classification" vs "large-scale image classification": Jaccard 2/3 (the hyphen splits words)
    assert (scores.lenient["all"].correct_predicted, scores.lenient["all"].matched_gold) == (2, 2)
    assert scores.lenient["uses"].gold == 1 and scores.lenient["uses"].recall == 0.0
    assert scores.unscored == {"hasCode": 1}
    (miss,) = [e for e in scores.errors if e["kind"] == "miss"]
    assert (miss["relation"], miss["subject_nodes"], miss["object_nodes"]) == ("uses", ["FooNet"], [])
    assert round(scores.lenient["all"].precision, 1) == 100.0 and round(scores.lenient["all"].recall, 1) == 66.7


def test_false_positive_carries_evidence() -> None:
    fact = PredictedFact("p1", "outperforms", Node(("FooNet",), "Method"), Node(("BarNet",), "Method"), "FooNet beats BarNet.", "kg.relations/2", 0.8)
    scores = score(_gold([["PAPER", "introduces", "FooNet"]], ENTITIES), {"p1": [fact]})
    (fp,) = [e for e in scores.errors if e["kind"] == "false_positive"]
    assert fp["evidence"] == "FooNet beats BarNet." and fp["extractor"] == "kg.relations/2"
    assert scores.lenient["outperforms"].precision == 0.0 and scores.lenient["introduces"].recall == 0.0


def test_a_record_without_a_paper_is_reported() -> None:
    scores = score(_gold([["PAPER", "introduces", "FooNet"]], ENTITIES, record_id="zz"), {})
    assert scores.unmatched_records == ["zz"] and scores.lenient["all"].gold == 1


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"abstract": "x", "triples": [["PAPER", "introduces", "Nope"]]}, "'Nope', which is not an entity"),
        ({"abstract": "x", "entities": [{"name": "A", "type": "Method"}], "triples": [["A", "likes", "A"]]}, "unknown relation 'likes'"),
        ({"abstract": "x", "entities": [{"name": "A", "type": "Model"}]}, "has type 'Model'"),
        ({"abstract": ""}, "non-empty 'abstract'"),
    ],
)
def test_bad_gold_is_a_user_error(record: dict, message: str) -> None:
    with pytest.raises(UserError, match=message) as caught:
        parse_gold([{"id": "a", **record}], Path("g.json"))
    assert caught.value.code == "E220" and "g.json: record 1" in str(caught.value)


def test_cli_bad_gold_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gold.json"
    path.write_text("[{", encoding="utf-8")
    assert main(["eval", "facts", str(path)]) == 2
    assert "E221" in capsys.readouterr().err
    with pytest.raises(UserError):
        read_gold(tmp_path / "missing.json")


@pytest.mark.slow
@pytest.mark.skipif(not DEV_GOLD.is_file(), reason="../shared/data/seeds-dev-gold is not present")
def test_cli_on_the_dev_gold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    errors = tmp_path / "errors.jsonl"
    assert main(["eval", "facts", str(DEV_GOLD), "--errors", str(errors)]) == 0
    printed = capsys.readouterr().out
    assert "introduces" in printed and "40 abstracts" in printed and "have no paper" not in printed
    rows = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    assert rows and {r["kind"] for r in rows} <= {"miss", "false_positive"}
    gold_triples = sum(len(r["triples"]) for r in json.loads(DEV_GOLD.read_text(encoding="utf-8")))
    assert sum(r["kind"] == "miss" for r in rows) < gold_triples


NEURIPS = SHARED / "data" / "corpora" / "neurips-1987-2025.jsonl"
NEURIPS_GOLD = [Path(__file__).parent.parent / "benchmarks" / "gold" / f"neurips-facts-{part}.json" for part in ("train", "test")]


def test_records_take_their_text_from_the_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"id": "p1", "abstract": "We  propose\nX for Y."}) + "\n\n", encoding="utf-8")
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"source_id": "p1", "entities": [{"name": "X", "type": "Method"}],
                                 "triples": [["PAPER", "introduces", "X"]]}]), encoding="utf-8")
    [record] = read_gold(gold, corpus)
    assert record.abstract == "We propose X for Y."
    assert record.id == gold_id("We propose X for Y.")
    with pytest.raises(UserError, match="--corpus") as caught:
        read_gold(gold)
    assert caught.value.code == "E220"
    gold.write_text(json.dumps([{"source_id": "p2", "entities": []}]), encoding="utf-8")
    with pytest.raises(UserError, match="record 1: its source_id 'p2' is not a record of"):
        read_gold(gold, corpus)


def test_triples_may_carry_their_sentence_numbers_and_records_two_corpora(tmp_path: Path) -> None:
    """The training corpus's format: a triple's 4th element lists its sentences; texts come from two corpora."""
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(json.dumps({"id": "p1", "abstract": "We propose X."}) + "\n", encoding="utf-8")
    second.write_text(json.dumps({"id": "p2", "abstract": "Y solves Z."}) + "\n", encoding="utf-8")
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([
        {"id": "r1", "source_id": "p1", "entities": [{"name": "X", "type": "Method"}], "triples": [["PAPER", "introduces", "X", [0]]]},
        {"id": "r2", "source_id": "p2", "entities": [{"name": "Y", "type": "Method"}, {"name": "Z", "type": "Task"}],
         "triples": [["Y", "addresses", "Z", [0]]]},
    ]), encoding="utf-8")
    one, two = read_gold(gold, [first, second])
    assert (one.id, one.abstract, one.triples) == ("r1", "We propose X.", (("PAPER", "introduces", "X"),))
    assert (two.abstract, two.triples) == ("Y solves Z.", (("Y", "addresses", "Z"),))
    with pytest.raises(UserError, match="'p2' is not a record of"):
        read_gold(gold, first)
    gold.write_text(json.dumps([{"abstract": "We propose X.", "entities": [{"name": "X", "type": "Method"}],
                                 "triples": [["PAPER", "introduces", "X", "0"]]}]), encoding="utf-8")
    with pytest.raises(UserError, match="sentence numbers"):
        read_gold(gold)


def test_cli_takes_the_corpus_option_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"source_id": "p9", "entities": []}]), encoding="utf-8")
    (tmp_path / "a.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "b.jsonl").write_text("", encoding="utf-8")
    assert main(["eval", "facts", str(gold), "--corpus", str(tmp_path / "a.jsonl"), "--corpus", str(tmp_path / "b.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "E220" in err and "a.jsonl" in err and "b.jsonl" in err and "Traceback" not in err


def test_cli_names_a_missing_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"source_id": "p1", "entities": []}]), encoding="utf-8")
    assert main(["eval", "facts", str(gold), "--corpus", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "E221" in err and "none.jsonl" in err and "Traceback" not in err


@pytest.mark.skipif(not NEURIPS.is_file(), reason="../shared/data/corpora is not present")
def test_the_neurips_annotations_match_their_corpus_records() -> None:
    """Every annotated record finds its abstract, and its id is that abstract's hash (the text did not change)."""
    records = [r for path in NEURIPS_GOLD for r in read_gold(path, NEURIPS)]
    assert len(records) == 450 and len({r.id for r in records}) == 450  # the training and test abstracts are apart
    assert all(r.id == gold_id(r.abstract) for r in records)
    names = [e for r in records for e in r.entities.values()]
    in_text = sum(any(f.lower() in r.abstract.lower() for f in e.forms) for r in records for e in r.entities.values())
    assert in_text >= 0.95 * len(names)


@pytest.mark.skipif(not DEV_GOLD.is_file(), reason="../shared/data/seeds-dev-gold is not present")
def test_the_second_annotation_covers_the_dev_set_and_is_scored(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "annotator_agreement.py"
    spec = importlib.util.spec_from_file_location("annotator_agreement", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    second = json.loads(module.SECOND.read_text(encoding="utf-8"))
    assert sorted(r["id"] for r in second) == sorted(r.id for r in read_gold(DEV_GOLD))
    assert module.main([]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("all"))
    gold, predicted = (int(v) for v in line.split()[1:3])
    assert gold == sum(len(r.triples) for r in read_gold(DEV_GOLD))
    assert predicted == sum(len(r["triples"]) for r in second)


def test_the_corpus_benchmark_never_reads_the_test_split(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``benchmarks/corpus_facts.py --split test`` refuses every option that would show a record or an error."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus_facts.py"
    spec = importlib.util.spec_from_file_location("corpus_facts", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    for option in ("--errors", "--keep", "--gold-out"):
        monkeypatch.setattr(sys, "argv", ["corpus_facts.py", "--split", "test", option, str(tmp_path / "x")])
        with pytest.raises(SystemExit) as caught:
            module.main()
        assert caught.value.code == 2
        assert not (tmp_path / "x").exists()
