"""Evidence a reader can check: the share of facts whose evidence names their subject.

Run from the repository root::

    python benchmarks/evidence.py [BUILD_DIR] [--relation addresses]

For each statement of the relation, the evidence is the sentence stating the
fact plus, when the subject is named in another sentence, that sentence
(``kg:subjectEvidence``); it counts when it holds the subject's label or one
of its other names (:func:`kg.analysis.quality.checkable_evidence`). The bar
of issue 26 is 95% of the example build's ``addresses`` facts (81 of 203 with
the stating sentence alone).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import kg
from kg.analysis.quality import checkable_evidence

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default=str(ROOT / "exports"))
    parser.add_argument("--relation", default="addresses")
    args = parser.parse_args()
    named, total = checkable_evidence(kg.load(args.build), args.relation)
    print(f"{args.relation}: {named} of {total} statements have evidence naming the subject ({named / max(total, 1):.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
