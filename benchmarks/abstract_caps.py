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
finder (``kg_relations``) over every method-task pair. The readers would
reject the largest of these (over ``MAX_ABSTRACT_CHARS``); this measures the
extractors alone. Prints characters, mentions, seconds and peak resident memory
per run, and for each kind the ratio of the largest run's peak to the smallest's.
Nothing is asserted: it measures.
"""

from __future__ import annotations

import argparse

from _measure import measure

SETUP = """
from kg.extract import extract, load_pipeline
from kg.model import Paper
nlp = load_pipeline()
"""
WORK = """
n = {n}
text = {text}
(extraction,) = extract([Paper(id="p", abstract=text)], nlp)
result = [len(text), len(extraction.mentions)]
"""
#: Kind -> a Python expression for the abstract with ``n`` names.
TEXTS = {
    "issue": '"We compare " + ", ".join(f"Net{i}-{i}" for i in range(n)) + " on ImageNet."',
    "network": '"We compare " + ", ".join(f"the Net{i} network" for i in range(n)) + " on ImageNet."',
    "rules": '"We propose " + ", ".join(f"Net{i}" for i in range(n)) + " and evaluate them on "'
             ' + ", ".join(f"Data{i} dataset" for i in range(n)) + " for "'
             ' + ", ".join(f"task{i} classification" for i in range(n)) + "."',
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
            chars, mentions = run["result"]
            peaks.append(run["peak_mb"])
            print(f"{kind} x{n}: {chars} characters, {mentions} mentions in {run['seconds']:.1f} s, "
                  f"peak {run['peak_mb']:.0f} MB")
        print(f"{kind}: peak memory, most names / fewest: {max(peaks) / min(peaks):.2f}x "
              f"for {max(args.names) / min(args.names):.0f}x the names")


if __name__ == "__main__":
    main()
