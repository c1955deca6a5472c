"""The SciERC scorer on hand-made gold and predictions, and the DyGIE round trip."""

from __future__ import annotations

import json

import pytest

from kg.extract.scierc.labels import Annotations
from kg.training.data import (
    gold_annotations,
    prediction_record,
    read_dygie,
    write_predictions,
)
from kg.training.score import ALL, entity_table, relation_table, score, summary

ENTS = frozenset({(0, 1, "Method"), (4, 4, "Task"), (6, 8, "Material"), (10, 10, "Metric")})
RELS = frozenset({(0, 1, 4, 4, "USED-FOR"), (6, 8, 0, 1, "EVALUATE-FOR"), (10, 10, 0, 1, "EVALUATE-FOR")})
GOLD = [Annotations(ENTS, RELS), Annotations(frozenset({(2, 3, "Generic")}), frozenset())]


def test_perfect_prediction_scores_100_everywhere():
    tables = score(GOLD, GOLD)
    assert summary(tables) == {"entities": 100.0, "relations": 100.0, "relations_strict": 100.0}
    assert all(c.f1 == 100.0 for t in tables.values() for c in t.values())


def test_empty_prediction_scores_0_with_full_gold_counts():
    empty = [Annotations(), Annotations()]
    tables = score(GOLD, empty)
    assert summary(tables) == {"entities": 0.0, "relations": 0.0, "relations_strict": 0.0}
    assert tables["entities"][ALL].gold == 5 and tables["entities"][ALL].pred == 0
    assert tables["relations"][ALL].gold == 3


def test_one_wrong_entity_label_moves_exactly_one_prediction():
    wrong = [Annotations(ENTS - {(4, 4, "Task")} | {(4, 4, "Method")}, RELS), GOLD[1]]
    table = entity_table(GOLD, wrong)
    assert (table["Task"].tp, table["Task"].pred, table["Task"].gold) == (0, 0, 1)
    assert (table["Method"].tp, table["Method"].pred, table["Method"].gold) == (1, 2, 1)
    assert (table[ALL].tp, table[ALL].pred, table[ALL].gold) == (4, 5, 5)
    # Boundaries ignore argument types; strict loses the relation whose tail is retyped.
    assert relation_table(GOLD, wrong)[ALL].tp == 3
    strict = relation_table(GOLD, wrong, strict=True)
    assert (strict["USED-FOR"].tp, strict["EVALUATE-FOR"].tp) == (0, 2)


def test_one_wrong_relation_label_lowers_both_labels():
    wrong_rels = RELS - {(0, 1, 4, 4, "USED-FOR")} | {(0, 1, 4, 4, "PART-OF")}
    table = relation_table(GOLD, [Annotations(ENTS, wrong_rels), GOLD[1]])
    assert (table["USED-FOR"].tp, table["USED-FOR"].gold, table["USED-FOR"].pred) == (0, 1, 0)
    assert (table["PART-OF"].tp, table["PART-OF"].pred) == (0, 1)
    assert table[ALL].precision == pytest.approx(200 / 3)
    assert table[ALL].recall == pytest.approx(200 / 3)


@pytest.mark.parametrize("label", ["USED-FOR", "CONJUNCTION", "COMPARE"])
def test_relations_are_directed_even_symmetric_ones(label):
    gold = [Annotations(ENTS, frozenset({(0, 1, 4, 4, label)}))]
    flipped = [Annotations(ENTS, frozenset({(4, 4, 0, 1, label)}))]
    assert relation_table(gold, flipped)[ALL].tp == 0


def test_a_wrong_boundary_misses_entity_and_relation():
    pred = [Annotations(ENTS - {(0, 1, "Method")} | {(0, 2, "Method")}, frozenset({(0, 2, 4, 4, "USED-FOR")})), GOLD[1]]
    tables = score(GOLD, pred)
    assert tables["entities"]["Method"].tp == 0
    assert tables["relations"][ALL].tp == 0


def test_lengths_must_match():
    with pytest.raises(ValueError):
        score(GOLD, GOLD[:1])


def test_prediction_records_round_trip_through_the_scorer(tmp_path):
    record = {
        "doc_key": "d1",
        "sentences": [["We", "use", "CRFs", "."], ["CRFs", "tag", "words", "."]],
        "ner": [[[2, 2, "Method"]], [[4, 4, "Method"], [6, 6, "OtherScientificTerm"]]],
        "relations": [[], [[4, 4, 6, 6, "USED-FOR"]]],
    }
    gold = gold_annotations(record)
    out = tmp_path / "pred.jsonl"
    write_predictions(out, [prediction_record(record, gold)])
    line = json.loads(out.read_text())
    assert line["predicted_ner"] == record["ner"]
    assert line["predicted_relations"] == record["relations"]
    # Anyone can score the file by reading it back as a DyGIE record.
    back = read_dygie(out)[0]
    again = gold_annotations({"ner": back["predicted_ner"], "relations": back["predicted_relations"]})
    assert again == gold
