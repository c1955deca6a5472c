"""Every gold pair of tests/data/resolution_pairs.tsv through the real resolver."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kg.resolve.evaluate import Pair, merged, read_pairs, score

PAIRS_FILE = Path(__file__).parent / "data" / "resolution_pairs.tsv"
PAIRS = read_pairs(PAIRS_FILE)


def test_the_pair_set_is_large_enough_and_unique() -> None:
    counts = Counter(p.merge for p in PAIRS)
    assert counts[True] >= 60 and counts[False] >= 60
    assert len({(p.a, p.b, p.type_a, p.type_b) for p in PAIRS}) == len(PAIRS)
    assert all(p.note for p in PAIRS)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p.a}|{p.b}|{'merge' if p.merge else 'keep'}")
def test_pair(pair: Pair) -> None:
    assert merged(pair) is pair.merge, pair.note


@pytest.mark.parametrize("pair", [p for p in PAIRS if p.type_a == p.type_b][:40], ids=lambda p: f"{p.b}|{p.a}")
def test_pair_is_symmetric(pair: Pair) -> None:
    swapped = Pair(pair.b, pair.a, pair.type_b, pair.type_a, pair.merge, pair.note)
    assert merged(swapped) is pair.merge


def test_score_counts_errors(tmp_path: Path) -> None:
    bad = tmp_path / "pairs.tsv"
    bad.write_text("a\tb\ttype\texpected\tnote\nBERT\tBART\tMethod\tmerge\twrong on purpose\n"
                   "GPT-3\tGPT-4\tMethod\tmerge\twrong on purpose\nGAN\tGANs\tMethod\tmerge\tright\n", encoding="utf-8")
    result = score(read_pairs(bad))
    assert (result["tp"], result["fn"], result["fp"]) == (1, 2, 0)
    assert result["recall"] == pytest.approx(1 / 3) and result["precision"] == 1.0


def test_bad_expected_value_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "pairs.tsv"
    bad.write_text("a\tb\ttype\texpected\tnote\nBERT\tBART\tMethod\tmaybe\tx\n", encoding="utf-8")
    with pytest.raises(ValueError, match="maybe"):
        read_pairs(bad)
