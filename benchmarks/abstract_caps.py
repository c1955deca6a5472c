"""Time and peak memory of extracting one abstract that lists N names in one sentence.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/abstract_caps.py [--names 250 500 2000 5000] [--kind issue network]

Each run is a fresh process that loads the default pipeline and extracts one
abstract. Kind ``issue`` is the reproduction in issue 15,
``"We compare " + ", ".join(f"Net{i}-{i}" for i in range(N)) + " on ImageNet."``,
where the entity model finds few mentions; kind ``network`` names
``the Net{i} network`` instead, each of which the entity model takes for a
mention, so it drives the pair caps of ``kg_scierc_relations`` (see
:mod:`kg.extract.scierc.relations`); kind ``rules`` proposes N methods evaluated on N
datasets for N tasks in one sentence, which drives the rule-based relation
finder (``kg_relations``) over every method-task pair; kind ``propose`` is issue 27's
reproduction, ``"We propose "`` + N distinct CamelCase names + ``" for image
classification and evaluate them on ImageNet with accuracy."``, which drove the
fact scorer (``kg_fact_scores``) and the list rules of ``kg_relations`` over every
pair of the list before :mod:`kg.extract.bounds`. The readers would
reject the largest of these (over ``MAX_ABSTRACT_CHARS``); this measures the
extractors alone. Prints characters, mentions, seconds and peak resident memory
per run, and for each kind the ratio of the largest run's peak to the smallest's.
Nothing is asserted: it measures.
"""

from __future__ import annotations

import argparse

from _measure import measure

SETUP = """
import itertools
from kg.extract import extract, load_pipeline
from kg.model import Paper
nlp = load_pipeline()

def camel_case(n):
    first = "Alpha Beta Gamma Delta Omega Sigma Nova Vita Luma Terra Astro Cyber Deep Hyper Meta Neuro Quant Sparse Turbo Ultra Mono Poly Graph Sonic Velo".split()
    second = "Res Dense Mobile Efficient Swin Conv Trans Graph Mix Flash Lite Tiny Grand Swift Bright Clear Sharp Fast Smart Wide".split()
    third = "Net Former Mixer Flow Seg Det Rank Fuse Grad Bert".split()
    return list(itertools.islice((a + b + c for a in first for b in second for c in third), n))
"""
WORK = """
n = {n}
text = {text}
(extraction,) = extract([Paper(id="p", abstract=text)], nlp)
result = [len(text), len(extraction.mentions), len(extraction.facts), sum(f.sentence[1] - f.sentence[0] for f in extraction.facts)]
"""
#: Kind -> a Python expression for the abstract with ``n`` names.
TEXTS = {
    "issue": '"We compare " + ", ".join(f"Net{i}-{i}" for i in range(n)) + " on ImageNet."',
    "network": '"We compare " + ", ".join(f"the Net{i} network" for i in range(n)) + " on ImageNet."',
    "rules": '"We propose " + ", ".join(f"Net{i}" for i in range(n)) + " and evaluate them on "'
             ' + ", ".join(f"Data{i} dataset" for i in range(n)) + " for "'
             ' + ", ".join(f"task{i} classification" for i in range(n)) + "."',
    "propose": '"We propose " + ", ".join(camel_case(n)) + " for image classification and evaluate them on ImageNet with accuracy."',
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", type=int, nargs="+", default=[250, 500, 2000, 5000])
    parser.add_argument("--kind", choices=sorted(TEXTS), nargs="+", default=sorted(TEXTS))
    args = parser.parse_args()
    for kind in args.kind:
        peaks = []
        for n in args.names:
            run = measure(WORK.format(text=TEXTS[kind], n=n), SETUP)
            chars, mentions, facts, evidence = run["result"]
            peaks.append(run["peak_mb"])
            print(f"{kind} x{n}: {chars} characters, {mentions} mentions, {facts} facts ({evidence} characters of evidence) "
                  f"in {run['seconds']:.1f} s, peak {run['peak_mb']:.0f} MB")
        print(f"{kind}: peak memory, most names / fewest: {max(peaks) / min(peaks):.2f}x "
              f"for {max(args.names) / min(args.names):.0f}x the names")


if __name__ == "__main__":
    main()
