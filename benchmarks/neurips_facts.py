"""How much a build of real abstracts says: facts per relation per 100 papers, entity nodes in a fact.

Usage::

    python benchmarks/neurips_facts.py [--records 2000] [--save FACTS.jsonl]
                                       [--compare OLD.jsonl --sample 50 --seed 0] [--model learned]

Builds the last ``--records`` records of ``../shared/data/corpora/neurips-1987-2025.jsonl``
(the most recent NeurIPS abstracts) with the default pipeline (or ``--model``), then prints the
facts of each relation per 100 papers and how many entity nodes (methods,
tasks, datasets, metrics) sit in at least one fact. ``--save`` writes every
fact (paper, relation, subject, object, evidence, extractor) as JSON lines;
``--compare`` with a file saved by an earlier run prints ``--sample`` random
facts this build has and that one had not, for reading their precision by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "data" / "corpora" / "neurips-1987-2025.jsonl"

_NODES = """SELECT (COUNT(DISTINCT ?n) AS ?all) WHERE {
  ?n a ?t . VALUES ?t { kg:Method kg:Task kg:Dataset kg:Metric } }"""
_IN_FACTS = """SELECT (COUNT(DISTINCT ?n) AS ?used) WHERE {
  ?n a ?t . VALUES ?t { kg:Method kg:Task kg:Dataset kg:Metric }
  { ?st rdf:subject ?n } UNION { ?st rdf:object ?n } ?st a rdf:Statement }"""


def _key(fact: dict) -> tuple[str, str, str, str]:
    return (fact["paper"], fact["relation"], fact["subject"].lower(), fact["object"].lower())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--compare", type=Path)
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default=None, help="the trained model, as kg build --model (default, learned, minilm)")
    args = parser.parse_args()
    if not CORPUS.is_file():
        sys.exit(f"{CORPUS} is not present")

    import kg
    from kg.evaluation.facts import graph_facts
    from kg.views import KnowledgeGraph

    lines = CORPUS.read_text(encoding="utf-8").splitlines()[-args.records :]
    with tempfile.TemporaryDirectory(prefix="kg-neurips-") as tmp:
        inputs = Path(tmp) / "last.jsonl"
        inputs.write_text("\n".join(lines) + "\n", encoding="utf-8")
        started = time.perf_counter()
        report = kg.build([inputs], Path(tmp) / "out", kg.BuildSettings(scierc_model=args.model), formats=["graph.nt"])
        seconds = time.perf_counter() - started
        graph = KnowledgeGraph.load(Path(tmp) / "out" / "graph.nt")
    facts, _ = graph_facts(graph)
    rows = [
        {"paper": f.paper_id, "relation": f.relation, "subject": f.subject.label, "object": f.object.label,
         "evidence": f.evidence, "extractor": f.extractor, "confidence": f.confidence}
        for paper_facts in facts.values() for f in paper_facts
    ]
    papers = report.papers
    counts = Counter(r["relation"] for r in rows)
    print(f"{papers} papers built in {seconds:.0f} s")
    print(f"{'relation':<14}{'facts':>8}{'per 100 papers':>16}")
    for relation, n in sorted(counts.items()):
        print(f"{relation:<14}{n:>8}{100 * n / papers:>16.1f}")
    total = graph.select(_NODES)[0]["all"]
    used = graph.select(_IN_FACTS)[0]["used"]
    print(f"entity nodes in at least one fact: {used} of {total} ({100 * used / total:.0f}%)")
    if args.save:
        args.save.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    if args.compare:
        old = {_key(json.loads(line)) for line in args.compare.read_text(encoding="utf-8").splitlines()}
        new = [r for r in rows if _key(r) not in old and r["relation"] != "hasCode"]
        print(f"\n{len(new)} facts not in {args.compare}; {min(args.sample, len(new))} at random:")
        for r in random.Random(args.seed).sample(new, min(args.sample, len(new))):
            print(f"- [{r['relation']}] {r['subject']} -> {r['object']}  ({r['extractor']})\n    {r['evidence']}")


if __name__ == "__main__":
    main()
