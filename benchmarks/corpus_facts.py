"""Score the build's facts on a split of the annotated corpus (the test split: score lines only).

Usage::

    python benchmarks/corpus_facts.py [--split dev|train|test] [--model learned] [--cuts 0.3,0.5] [--errors FILE] [--keep DIR]
    python benchmarks/corpus_facts.py --split train --gold-out /tmp/corpus-train.json

Gathers the split's records of ``benchmarks/gold/corpus/b*.json`` (splits fixed in
``sample.json``) into one gold file that names its texts by ``source_id``, and
scores it as ``kg eval facts GOLD --corpus NEURIPS --corpus ARXIV`` does
(:func:`kg.evaluation.facts.evaluate_facts`): a build of those abstracts, scored
strict and lenient, per relation. ``--cuts`` also scores the same build's facts
at each confidence cut (as ``--min-confidence`` would). ``--gold-out`` writes the
split's gold file (no text) for ``kg train facts ... --corpus NEURIPS --corpus ARXIV``
and exits. ``--split test`` prints the score lines alone: no error list, no
record, no gold file; the test split is scored, never read.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks" / "annotation"))


def split_records(split: str) -> list[dict]:
    """The annotated records of one split, as stored (``source_id``, no text)."""
    from corpus import GOLD, sample

    ids = {e["id"] for e in sample() if e["split"] == split}
    return [r for f in sorted(GOLD.glob("b*.json")) for r in json.loads(f.read_text(encoding="utf-8")) if r["id"] in ids]


def corpora() -> list[Path]:
    """The two corpora the records' ``source_id`` point into."""
    from corpus import CORPORA, FILES

    return [CORPORA / name for name in FILES.values()]


def print_scores(title: str, scores) -> None:
    from kg.evaluation.facts import RELATIONS

    print(title)
    for relation in (*RELATIONS, "all"):
        s, le = scores.strict[relation], scores.lenient[relation]
        print(
            f"  {relation:12} gold {s.gold:5} pred {le.predicted:5}  strict P {s.precision:5.1f} R {s.recall:5.1f}"
            f"  lenient P {le.precision:5.1f} R {le.recall:5.1f} F1 {le.f1:5.1f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["train", "dev", "test"], default="dev")
    parser.add_argument("--cuts", default="", help="comma-separated confidence cuts to score the same build at")
    parser.add_argument("--errors", type=Path)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--gold-out", type=Path)
    parser.add_argument("--model", help="the trained model, as kg build --model (default, learned, minilm)")
    args = parser.parse_args()
    if args.split == "test" and (args.errors or args.keep or args.gold_out):
        parser.error("the test split is scored, never read: --errors, --keep and --gold-out are refused with --split test")
    records = split_records(args.split)
    if args.gold_out:
        args.gold_out.write_text(json.dumps(records, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{args.split}: {len(records)} records written to {args.gold_out}")
        return 0

    from kg.evaluation.facts import evaluate_facts, graph_facts, read_gold, score, write_errors
    from kg.views import KnowledgeGraph

    with tempfile.TemporaryDirectory(prefix="kg-corpus-facts-") as tmp:
        gold = Path(tmp) / f"corpus-{args.split}.json"
        gold.write_text(json.dumps(records), encoding="utf-8")
        workdir = args.keep or Path(tmp) / "work"
        scores = evaluate_facts(gold, corpus=corpora(), workdir=workdir, scierc_model=args.model)
        print_scores(f"{args.split}: {scores.records} abstracts", scores)
        if args.cuts:
            gold_records = read_gold(gold, corpora())
            facts, nodes = graph_facts(KnowledgeGraph.load(workdir / "build" / "graph.nt"))
            for cut in (float(c) for c in args.cuts.split(",")):
                kept = {p: [f for f in fs if f.confidence >= cut] for p, fs in facts.items()}
                print_scores(f"{args.split}, confidence >= {cut}", score(gold_records, kept, nodes))
    if scores.unmatched_records:
        print(f"{len(scores.unmatched_records)} records have no paper in the build")
    if args.errors:
        write_errors(scores, args.errors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
