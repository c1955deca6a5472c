"""Agreement of the blind second annotation with the first, per relation (and for numeric results).

Usage::

    python benchmarks/annotation/agreement.py

Scores each second-annotation batch (``benchmarks/gold/corpus-second/s*.json``)
as if it were a build against the first annotation of the same abstracts
(``benchmarks/gold/corpus/b*.json``), with the scorers of ``kg eval facts`` and
``kg eval results``, so agreement reads against the same definitions as every
extractor score. Only abstracts annotated twice are counted.
"""

from __future__ import annotations

import json
import sys

from corpus import GOLD, sample, texts

from kg.evaluation.facts import PAPER, RELATIONS, Node, PredictedFact, parse_gold, score
from kg.evaluation.results import KINDS, PredictedResult, cleaned_span, parse_results_gold, score_results
from kg.evaluation.sentences import split_sentences
from kg.readers import clean_text


def _facts(records: list[dict], abstracts: dict[str, str]) -> list:
    rows = [{**r, "abstract": abstracts[r["id"]], "triples": [t[:3] for t in r["triples"]]} for r in records]
    return parse_gold(rows, GOLD)


def main() -> int:
    first = {r["id"]: r for f in sorted(GOLD.glob("b*.json")) for r in json.loads(f.read_text())}
    second = {r["id"]: r for f in sorted(GOLD.parent.glob("corpus-second/s*.json")) for r in json.loads(f.read_text())}
    both = sorted(set(first) & set(second))
    entries = [e for e in sample() if e["id"] in both]
    corpus = texts(entries)
    abstracts = {e["id"]: corpus[e["source_id"]]["abstract"] for e in entries}
    gold = _facts([first[i] for i in both], abstracts)
    other = _facts([second[i] for i in both], abstracts)
    predicted = {}
    for record in other:
        def node(name: str, record=record) -> Node:
            return Node((), paper=True) if name == PAPER else Node(record.entities[name].forms)

        predicted[record.id] = [PredictedFact(record.id, rel, node(s), node(o)) for s, rel, o in record.triples]
    scores = score(gold, predicted)
    print(f"second annotation against the first: {len(both)} abstracts annotated twice")
    print(f"{'relation':12} {'first':>5} {'second':>6}  strict P / R    lenient P / R   lenient F1")
    for relation in (*RELATIONS, "all"):
        s, le = scores.strict[relation], scores.lenient[relation]
        print(f"{relation:12} {s.gold:5} {le.predicted:6}  {s.precision:5.1f} / {s.recall:5.1f}   {le.precision:5.1f} / {le.recall:5.1f}   {le.f1:5.1f}")
    results_gold = parse_results_gold([{**first[i], "abstract": abstracts[i]} for i in both], GOLD)
    predicted_results = {}
    for i in both:
        # Offsets in the cleaned text, as a build's and the gold spans are (kg.evaluation.results.cleaned_span).
        cleaned = clean_text(abstracts[i])
        spans = [cleaned_span(abstracts[i], cleaned, start, end) for start, end, _ in split_sentences(abstracts[i])]
        predicted_results[i] = [
            PredictedResult(i, r["value"], r["kind"], spans[r["sentence"]][0] + cleaned[slice(*spans[r["sentence"]])].find(r["value"]),
                            (r["method"], *next((e.get("aliases", []) for e in second[i]["entities"] if e["name"] == r["method"]), [])),
                            (r["metric"],) if r["metric"] else (), (r["dataset"],) if r["dataset"] else ())
            for r in second[i].get("results", [])
        ]
    res = score_results(results_gold, predicted_results)
    print("numeric results (second as predictions):")
    for kind in (*KINDS, "all"):
        c, f = res.core[kind], res.full[kind]
        print(f"  {kind:12} first {c.gold:3} second {c.predicted:3}  core P/R {c.precision:5.1f} / {c.recall:5.1f}  full P/R {f.precision:5.1f} / {f.recall:5.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
