"""Generic descriptions merged across papers: entity nodes whose label is a description, proposed by two papers.

Run from the repository root::

    python benchmarks/generic_merges.py BUILD_DIR

A paper's own method described in common words ("probabilistic model",
"automatic method") is paper-scoped by the resolver, so no node whose label is
such a description (:func:`kg.resolve.generic.is_description`) should be
proposed by two papers. A description that papers name by an acronym
("boundary knot method (BKM)", "polynomial-time approximation scheme (PTAS)")
is a name, and is listed apart. The bar of issue 26: none on the first 2,000 records of
``../shared/data/corpora/arxiv-cs-2016.jsonl``::

    head -2000 ../shared/data/corpora/arxiv-cs-2016.jsonl > /tmp/arxiv2000.jsonl
    kg build /tmp/arxiv2000.jsonl --out /tmp/arxiv2000 && python benchmarks/generic_merges.py /tmp/arxiv2000
"""

from __future__ import annotations

import argparse
import re
import sys

import kg
from kg.resolve.generic import is_description

_PROPOSED = """
SELECT ?e ?label (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p kg:proposes ?e . ?e rdfs:label ?label }
GROUP BY ?e ?label HAVING (COUNT(DISTINCT ?p) > 1) ORDER BY DESC(?n) ?label
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    args = parser.parse_args()
    graph = kg.load(args.build)
    rows = graph.select(_PROPOSED)
    acronyms: dict[str, list[str]] = {}
    for row in graph.select("SELECT ?e ?alt WHERE { ?e skos:altLabel ?alt }"):
        if re.fullmatch(r"[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*", row["alt"]):
            acronyms.setdefault(row["e"], []).append(row["alt"])
    described = [row for row in rows if is_description(row["label"])]
    merged = [row for row in described if row["e"] not in acronyms]
    papers = graph.select("SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }")[0]["n"]
    print(f"{papers} papers; {len(rows)} nodes proposed by two or more papers; {len(merged)} of them labelled by a generic description")
    for row in merged:
        print(f"  {row['label']!r}: proposed by {row['n']} papers")
    for row in described:
        if row["e"] in acronyms:
            print(f"  (a name: {row['label']!r} ({', '.join(acronyms[row['e']])}), proposed by {row['n']} papers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
