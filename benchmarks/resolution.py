"""Resolver benchmark: merge precision/recall on the gold pairs, and speed.

Run from the repository root::

    python benchmarks/resolution.py [--pairs tests/data/resolution_pairs.tsv] [--mentions 3000]

Quality: every pair of ``tests/data/resolution_pairs.tsv`` runs through the
real resolver (:func:`kg.resolve.evaluate.score`); a merge is a positive.

Speed: a synthetic corpus of about 215 papers with ``--mentions`` mentions in
all (names drawn, with a fixed seed, from the gold pairs, the alias table and
made-up multi-word names, with acronym definitions, generic phrases and facts),
resolved several times; the best and the median wall time are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from kg.model import Acronym, Extraction, Fact, Mention, Paper, Relation
from kg.resolve import ALIASES, resolve
from kg.resolve.evaluate import read_pairs, score

ROOT = Path(__file__).resolve().parents[1]
_WORDS = """graph neural attention sparse temporal adversarial contrastive latent diffusion retrieval
token visual semantic causal federated robust hierarchical recurrent variational spectral
kernel policy reward memory prompt tuning encoder decoder fusion alignment transport""".split()
_TYPES = ("Method", "Task", "Dataset", "Metric")
_GENERIC = ("our method", "the proposed approach", "existing methods", "experiments", "this framework")


def synthetic_corpus(n_mentions: int, n_papers: int = 215, seed: int = 13) -> tuple[list[Paper], list[Extraction]]:
    """Papers and extractions with about ``n_mentions`` mentions in all."""
    rng = random.Random(seed)
    pairs = read_pairs(ROOT / "tests" / "data" / "resolution_pairs.tsv")
    names = [(p.a, p.type_a) for p in pairs] + [(p.b, p.type_b) for p in pairs]
    names += [(s, sorted(classes)[0]) for _, classes, spellings in ALIASES for s in spellings]
    names += [
        (" ".join(rng.sample(_WORDS, rng.randint(2, 4))), rng.choice(_TYPES)) for _ in range(1500)
    ]
    names = [(n, t) for n, t in names if "(" not in n]
    per_paper = max(1, -(-n_mentions // n_papers))
    papers, extractions = [], []
    for i in range(n_papers):
        chosen = [rng.choice(names) for _ in range(per_paper - 1)] + [(rng.choice(_GENERIC), "Method")]
        parts, mentions, offset = [], [], 0
        for name, entity_type in chosen:
            sentence = f"We use {name} here. "
            mentions.append(Mention(offset + 7, offset + 7 + len(name), entity_type, name))
            parts.append(sentence)
            offset += len(sentence)
        abstract = "".join(parts)
        facts = tuple(
            Fact(Relation.USES.value, a, b, (a.start - 7, b.end), "bench", rng.random())
            for a, b in zip(mentions[::2], mentions[1::2])
        ) + (Fact(Relation.PROPOSES.value, None, mentions[0], (0, mentions[0].end), "bench", 0.9),)
        first = mentions[0]
        acronym = Acronym("".join(w[0] for w in first.text.split()).upper(), first.text, first.start, first.end)
        papers.append(Paper(f"bench-{i:04d}", abstract))
        extractions.append(Extraction(f"bench-{i:04d}", tuple(mentions), facts, (acronym,)))
    return papers, extractions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=Path, default=ROOT / "tests" / "data" / "resolution_pairs.tsv")
    parser.add_argument("--mentions", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    # Speed first, so that the first run meets empty normalisation caches (a fresh process).
    papers, extractions = synthetic_corpus(args.mentions)
    start, cpu = time.perf_counter(), time.process_time()
    resolve(papers, extractions)
    cold, cold_cpu = time.perf_counter() - start, time.process_time() - cpu
    times, cpu_times = [], []
    for _ in range(args.repeat):
        start, cpu = time.perf_counter(), time.process_time()
        resolution = resolve(papers, extractions)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu)
    report = resolution.report
    print(
        f"speed: {len(papers)} papers, {sum(len(e.mentions) for e in extractions)} mentions "
        f"({report['mentions']} resolved, {report['dropped_generic']} generic) -> "
        f"{report['entities']} entities, {report['facts']} facts"
    )
    print(f"resolve(): cold {cold * 1000:.1f} ms wall, {cold_cpu * 1000:.1f} ms CPU (first run in the process); "
          f"warm: best {min(times) * 1000:.1f} ms wall, median {statistics.median(times) * 1000:.1f} ms wall, "
          f"best {min(cpu_times) * 1000:.1f} ms CPU over {args.repeat} runs")

    pairs = read_pairs(args.pairs)
    result = score(pairs)
    print(f"pairs: {len(pairs)} ({sum(p.merge for p in pairs)} merge, {sum(not p.merge for p in pairs)} keep)")
    print(f"merge precision: {result['precision']:.3f}  recall: {result['recall']:.3f}  "
          f"(tp={result['tp']} fp={result['fp']} fn={result['fn']} tn={result['tn']})")
    for pair in result["wrong"]:  # type: ignore[union-attr]
        expected = "merge" if pair.merge else "keep"
        print(f"  wrong: {pair.a!r} / {pair.b!r} ({pair.type_a}/{pair.type_b}) expected {expected}")


if __name__ == "__main__":
    main()
