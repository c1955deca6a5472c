"""Build the bundled example corpus and compare with a bare spaCy parse of the same text.

Usage::

    python benchmarks/build_seeds.py [--workers N] [--model learned|minilm]

Prints the build's wall time, peak memory and abstracts per second, the bare
``en_core_web_sm`` ``nlp.pipe`` (full pipeline, NER included) over the same
abstracts, and the ratio of the two throughputs. Both run in fresh processes
in this same run, from a cold start (model loading included in both), with no
extraction cache. Importing spaCy happens before the clock starts in both: it
is the same cost for both and, with the ``transformer`` extra installed, about
5 s (thinc imports torch), which the bare run never counted.
"""

from __future__ import annotations

import argparse
import tempfile

from _measure import SEEDS_DIR, measure, seed_texts

BARE_SETUP = """
from _measure import seed_texts
from kg.extract.loader import resolve_model_name
import spacy
texts = seed_texts()
"""
BARE_WORK = """
nlp = spacy.load(resolve_model_name(None))
result = sum(len(doc) for doc in nlp.pipe(texts))
"""
BUILD_SETUP = "import kg\nimport spacy"
BUILD_WORK = """
from kg.engines import make_executor
report = kg.build([{corpus!r}], {out!r}, kg.BuildSettings(scierc_model={model!r}), engine=make_executor("local", workers={workers}))
result = {{"papers": report.papers, "read": report.read, "triples": report.triples, "seconds": report.seconds}}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--model", default=None, help="the trained model, as kg build --model (default: the default one)")
    args = parser.parse_args()
    n = len(seed_texts())
    bare = measure(BARE_WORK, BARE_SETUP)
    with tempfile.TemporaryDirectory() as out:
        built = measure(BUILD_WORK.format(corpus=str(SEEDS_DIR), out=out, workers=args.workers, model=args.model), BUILD_SETUP)
    info = built["result"]
    print(f"abstracts read:          {info['read']} ({info['papers']} distinct papers, {info['triples']} triples)")
    print(f"kg build wall time:      {built['seconds']:.2f} s  (stages: " + ", ".join(f"{k} {v:.2f}s" for k, v in info["seconds"].items()) + ")")
    print(f"kg build peak memory:    {built['peak_mb']:.0f} MB")
    print(f"kg build throughput:     {n / built['seconds']:.1f} abstracts/s")
    print(f"bare nlp.pipe:           {bare['seconds']:.2f} s, {n / bare['seconds']:.1f} abstracts/s, peak {bare['peak_mb']:.0f} MB")
    print(f"ratio build/bare:        {bare['seconds'] / built['seconds']:.2f}x the bare pipeline's throughput")


if __name__ == "__main__":
    main()
