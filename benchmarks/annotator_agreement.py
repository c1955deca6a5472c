"""How far two annotators agree on the seeds dev set: the ceiling any extractor's score is read against.

Usage::

    python benchmarks/annotator_agreement.py [--second benchmarks/gold/seeds-dev-second-annotator.json]

``benchmarks/gold/seeds-dev-second-annotator.json`` annotates the 40 abstracts of
``../shared/data/seeds-dev-gold/dev_gold.json`` a second time, under the same
GUIDELINES.md but without seeing that file. This script scores the second
annotation as if it were a build, with the scorer of ``kg eval facts`` (strict and
lenient, per relation), so the figures read against the dev gold's own
definitions. The second file keeps no abstract: the records are matched by id.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEV_GOLD = REPO.parent / "shared" / "data" / "seeds-dev-gold" / "dev_gold.json"
SECOND = REPO / "benchmarks" / "gold" / "seeds-dev-second-annotator.json"


def as_predictions(path: Path, abstracts: dict[str, str]) -> dict[str, list]:
    """The second annotator's triples as predicted facts, each end labelled with its name and aliases."""
    from kg.evaluation.facts import PAPER, Node, PredictedFact, parse_gold

    raw = json.loads(path.read_text(encoding="utf-8"))
    records = parse_gold([{**r, "abstract": abstracts[r["id"]]} for r in raw], path)
    predicted = {}
    for record in records:
        def node(name: str) -> Node:
            return Node((), paper=True) if name == PAPER else Node(record.entities[name].forms)

        predicted[record.id] = [PredictedFact(record.id, rel, node(s), node(o)) for s, rel, o in record.triples]
    return predicted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--second", type=Path, default=SECOND, help="the second annotation (gold format, abstracts matched by id)")
    args = parser.parse_args(argv)
    if not DEV_GOLD.is_file():
        print(f"skipped: {DEV_GOLD} is not present")
        return 0
    from kg.evaluation.facts import RELATIONS, read_gold, score

    gold = read_gold(DEV_GOLD)
    predicted = as_predictions(args.second, {r.id: r.abstract for r in gold})
    scores = score([r for r in gold if r.id in predicted], predicted)
    print(f"second annotator against {DEV_GOLD.name} ({len(predicted)} abstracts)")
    print(f"{'relation':12} {'gold':>5} {'second':>6}  strict P / R    lenient P / R   lenient F1")
    for relation in (*RELATIONS, "all"):
        s, le = scores.strict[relation], scores.lenient[relation]
        print(f"{relation:12} {s.gold:5} {le.predicted:6}  {s.precision:5.1f} / {s.recall:5.1f}   {le.precision:5.1f} / {le.recall:5.1f}   {le.f1:5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
