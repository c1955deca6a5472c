"""Peak memory of extraction as the corpus grows: it streams, so it should stay flat.

Usage::

    python benchmarks/memory_scaling.py [--factors 1 4]

For each factor k, a fresh process runs ``kg.extract.extract`` over the seed
abstracts repeated k times (each copy made distinct by a numbered sentence, so
nothing is deduplicated) and discards each Extraction as it comes, as a build
does after caching it. Prints papers, seconds and peak resident memory per
factor, and the ratio of the largest to the smallest peak.
"""

from __future__ import annotations

import argparse

from _measure import measure

SETUP = """
from _measure import seed_texts
from kg.extract import extract, load_pipeline
from kg.model import Paper
nlp = load_pipeline()
texts = seed_texts()
"""
WORK = """
def papers():
    for copy in range({k}):
        for i, text in enumerate(texts):
            yield Paper(id=f"c{{copy}}-{{i}}", abstract=f"{{text}} This is copy {{copy}}.")
count = 0
for extraction in extract(papers(), nlp):
    count += 1
result = count
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factors", type=int, nargs="+", default=[1, 4])
    args = parser.parse_args()
    peaks = []
    for k in args.factors:
        run = measure(WORK.format(k=k), SETUP)
        peaks.append(run["peak_mb"])
        print(f"x{k}: {run['result']} papers in {run['seconds']:.1f} s, peak {run['peak_mb']:.0f} MB")
    print(f"peak memory, largest / smallest corpus: {max(peaks) / min(peaks):.2f}x for {max(args.factors) / min(args.factors):.0f}x the papers")


if __name__ == "__main__":
    main()
