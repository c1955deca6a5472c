"""Draw the abstracts of the annotated training corpus, fix their splits and batches.

Usage::

    python benchmarks/annotation/sample.py [--size 2000] [--out benchmarks/gold/corpus/sample.json]

Draws ``--size`` abstracts from the two corpora in ``../shared/data/corpora/``
(half from the NeurIPS file, half from the arXiv cs file), spread across years by
drawing each year's share in proportion to the square root of its size, so that
the 1990s and the early NeurIPS years are present and the last years do not
swamp the rest. Left out: abstracts already annotated (``benchmarks/gold/neurips-*``),
the last 2,000 NeurIPS records (``benchmarks/neurips_facts.py`` reads their facts),
and abstracts under 60 or over 400 words (fragments, withdrawal notices, full texts).

The split of each abstract is fixed here, before anything is annotated or
trained, by a hash of its ``source_id``: 70% train, 15% dev, 15% test. The test
split is never read by a developer; only score lines are. The split hash is
salted, since the arXiv file was itself drawn by the unsalted SHA-1 of the id. Every tenth abstract
is also in a second, blind annotation (agreement). The output is deterministic.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO.parent / "shared" / "data" / "corpora"
FILES = {"neurips": "neurips-1987-2025.jsonl", "arxiv": "arxiv-cs-2016.jsonl"}
ANNOTATED = ("neurips-facts-train.json", "neurips-facts-test.json")
BATCH = 50
SEED = 20261203


def split_of(source_id: str) -> str:
    """The split of one abstract, by a hash of its id (70 / 15 / 15).

    >>> split_of("vaswani2017neurips-attention") in {"train", "dev", "test"}
    True
    """
    # Salted: the arXiv file was itself sampled by the unsalted SHA-1 of the id.
    bucket = int(hashlib.sha1(f"kg-split:{source_id}".encode()).hexdigest(), 16) % 100
    return "train" if bucket < 70 else "dev" if bucket < 85 else "test"


def content_id(abstract: str) -> str:
    """The gold id of an abstract: the first 12 hex digits of the SHA-1 of its normalised text."""
    return hashlib.sha1(" ".join(abstract.split()).encode("utf-8")).hexdigest()[:12]


def _records(corpus: str) -> list[dict]:
    with open(CORPORA / FILES[corpus], encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def draw(size: int) -> list[dict]:
    """The sample: one entry per abstract with its corpus, split and batch."""
    excluded = set()
    for name in ANNOTATED:
        excluded |= {r["source_id"] for r in json.loads((REPO / "benchmarks" / "gold" / name).read_text())}
    rng = random.Random(SEED)
    chosen: list[dict] = []
    for corpus in ("neurips", "arxiv"):
        records = _records(corpus)
        if corpus == "neurips":
            records = records[:-2000]
        by_year: dict[int, list[dict]] = defaultdict(list)
        for record in records:
            words = len(record["abstract"].split())
            if record["id"] in excluded or not 60 <= words <= 400:
                continue
            by_year[record["year"]].append(record)
        weights = {year: math.sqrt(len(rows)) for year, rows in by_year.items()}
        total = sum(weights.values())
        want = size // 2
        quota = {year: max(1, round(want * w / total)) for year, w in weights.items()}
        for year in sorted(by_year):
            rows = by_year[year]
            for record in rng.sample(rows, min(quota[year], len(rows))):
                chosen.append({"source_id": record["id"], "corpus": corpus, "year": record["year"],
                               "id": content_id(record["abstract"])})
    rng.shuffle(chosen)
    seen: set[str] = set()
    chosen = [e for e in chosen if not (e["id"] in seen or seen.add(e["id"]))][:size]
    for number, entry in enumerate(chosen):
        entry["split"] = split_of(entry["source_id"])
        entry["batch"] = f"b{number // BATCH + 1:02d}"
        entry["second"] = f"s{number // (BATCH * 10) + 1:02d}" if number % 10 == 0 else None
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "gold" / "corpus" / "sample.json")
    args = parser.parse_args()
    sample = draw(args.size)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(sample, indent=0) + "\n", encoding="utf-8")
    counts = defaultdict(int)
    for entry in sample:
        counts[(entry["corpus"], entry["split"])] += 1
    print(f"{len(sample)} abstracts -> {args.out}: " + ", ".join(f"{c}/{s} {n}" for (c, s), n in sorted(counts.items())))


if __name__ == "__main__":
    main()
