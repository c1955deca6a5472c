"""Numeric results of a real build: counts per kind, the busiest leaderboard, and a sample to read.

Usage::

    python benchmarks/neurips_results.py [--records 2000] [--out DIR] [--sample 50 --seed 0 --save SAMPLE.jsonl]

Builds the last ``--records`` records of ``../shared/data/corpora/neurips-1987-2025.jsonl``
into ``--out`` (kept, so ``kg report`` and ``kg query`` can be run on it), then
prints the results per kind, the papers stating at least one, and the
leaderboard of the (dataset, metric) pair with most absolute results, answered by
the named query ``leaderboard`` (each row with its paper and evidence). ``--save``
writes ``--sample`` randomly drawn results (seeded) with every field and the
evidence sentence, for reading their correctness by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "data" / "corpora" / "neurips-1987-2025.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=Path("/tmp/kg-neurips-results"))
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path)
    args = parser.parse_args()
    if not CORPUS.is_file():
        print(f"skipped: {CORPUS} is not present")
        return 0
    import kg
    from kg.views.numbers import leaderboards
    from kg.views.queries import run_named

    lines = CORPUS.read_text(encoding="utf-8").splitlines()[-args.records:]
    inputs = args.out.with_suffix(".jsonl")
    inputs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    started = time.perf_counter()
    kg.build([inputs], args.out, force=True)
    print(f"built {len(lines)} records in {time.perf_counter() - started:.0f} s -> {args.out}")
    graph = kg.load(args.out)
    rows = graph.results()
    kinds = Counter(r.kind for r in rows)
    print(f"results: {len(rows)} in {len({r.paper_id for r in rows})} papers; " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    boards = leaderboards(graph.store)
    if boards:
        (task, dataset, metric), board = next(iter(boards.items()))
        print(f"busiest leaderboard: dataset {dataset!r}, metric {board[0].metric_label!r} ({len(board)} results)")
        with run_named(graph.store, "leaderboard", dataset_label=dataset, metric_label=board[0].metric_label) as answer:
            for rank, row in enumerate(answer, 1):
                print(f"  {rank}. {row['valueText'].value} {row['methodName'].value} [{row['id'].value}] {row['evidence'].value[:110]}")
    if args.save:
        drawn = random.Random(args.seed).sample(rows, min(args.sample, len(rows)))
        with args.save.open("w", encoding="utf-8") as handle:
            for row in drawn:
                handle.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")
        print(f"{len(drawn)} results drawn (seed {args.seed}) -> {args.save}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
