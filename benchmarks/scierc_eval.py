"""SciERC benchmark: test scores of the shipped model, and what the components cost in speed.

Usage (from the repository root)::

    python benchmarks/scierc_eval.py [--data ../shared/data/scierc] [--split test] [--model DIR|minilm]

Prints entity F1, relation F1 (boundaries, strict) on the split, the trained
pipeline's docs/s on it, then the throughput on the bundled seed abstracts of
(a) bare en_core_web_sm, (b) en_core_web_sm without NER (the kg host) and
(c) the host plus the SciERC components, each timed in a fresh process. The
ratio c/a is the share of bare throughput that the trained components leave
(the rule-based components add their own cost on top).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from _measure import measure, seed_texts

_SETUP = """
import spacy
from _measure import seed_texts
from kg.extract.scierc.model_files import HOST_MODELS
name = next(n for n in HOST_MODELS if spacy.util.is_package(n))
texts = seed_texts()
"""
_PIPELINES = {
    "bare en_core_web_sm": "nlp = spacy.load(name)",
    "without NER (host)": "nlp = spacy.load(name, exclude=['ner'])",
    "host + SciERC components": (
        "from kg.extract.scierc import add_trained_components\n"
        "nlp = add_trained_components(spacy.load(name, exclude=['ner']), {model!r})"
    ),
}
_WORK = "docs = list(nlp.pipe(texts, batch_size=32)); result = sum(len(d) for d in docs)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/scierc"))
    parser.add_argument("--split", default="test")
    parser.add_argument("--model", default=None, help="model folder, or default / minilm (default: the shipped default model)")
    args = parser.parse_args()

    from kg.training.evaluate import evaluate_scierc

    report = evaluate_scierc(args.data / f"{args.split}.json", model_dir=args.model)
    for name, table in report.tables.items():
        c = table["ALL"]
        print(f"{args.split} {name:<17} P {c.precision:6.2f}  R {c.recall:6.2f}  F1 {c.f1:6.2f}")
    print(f"{args.split}: {report.docs} docs in {report.seconds:.1f} s = {report.docs_per_second:.1f} docs/s")

    texts = seed_texts()
    timings = {}
    for label, load in _PIPELINES.items():
        timings[label] = measure(_WORK, _SETUP + load.format(model=args.model) + "\nnlp(texts[0])\n")
        print(f"{label:<26} {len(texts)} abstracts in {timings[label]['seconds']:.2f} s")
    bare = timings["bare en_core_web_sm"]["seconds"]
    host = timings["without NER (host)"]["seconds"]
    full = timings["host + SciERC components"]["seconds"]
    print(f"SciERC components add {full - host:.2f} s; host+SciERC runs at {bare / full:.2f}x bare throughput")
    print(json.dumps({"scores": {k: round(v["ALL"].f1, 2) for k, v in report.tables.items()}, "seconds": timings}))


if __name__ == "__main__":
    main()
