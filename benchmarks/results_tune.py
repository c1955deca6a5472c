"""Score the numeric-results extractor on a split of the annotated corpus (the test split: score lines only).

Usage::

    python benchmarks/results_tune.py [--split dev|train|test] [--errors FILE]

Writes the split's annotated records (abstracts from the corpora, results with
their sentence numbers, entities for the methods' aliases) to a temporary gold
file and scores it with ``kg eval results`` (:func:`kg.evaluation.results.evaluate_results`):
a build of those abstracts, scored with the fixed definitions. This is the loop
rules are tuned in. ``--split test`` prints the score lines alone (no error
list, no examples): the test split is scored, never read.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks" / "annotation"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["train", "dev", "test"], default="dev")
    parser.add_argument("--errors", type=Path)
    args = parser.parse_args()
    if args.split == "test" and args.errors:
        parser.error("the test split is scored, never read: --errors is refused with --split test")
    from corpus import GOLD, sample, texts

    from kg.evaluation.results import KINDS, evaluate_results

    entries = {e["id"]: e for e in sample() if e["split"] == args.split}
    records = [r for f in sorted(GOLD.glob("b*.json")) for r in json.loads(f.read_text()) if r["id"] in entries]
    corpus = texts([entries[r["id"]] for r in records])
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / f"corpus-{args.split}.json"
        gold.write_text(json.dumps([{**r, "abstract": corpus[r["source_id"]]["abstract"]} for r in records]), encoding="utf-8")
        scores = evaluate_results(gold)
    print(f"{args.split}: {scores.records} abstracts, {scores.core['all'].gold} gold results")
    for name, table in (("core", scores.core), ("full", scores.full)):
        for kind in (*KINDS, "all"):
            c = table[kind]
            print(f"{name:5} {kind:12} gold {c.gold:4} pred {c.predicted:4}  P {c.precision:5.1f}  R {c.recall:5.1f}")
    if args.errors:
        with args.errors.open("w") as handle:
            for error in scores.errors:
                handle.write(json.dumps(error, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
