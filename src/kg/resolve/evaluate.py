"""Scoring the resolver on gold pairs: two names that must, or must not, merge.

A pair file is tab-separated with the header ``a  b  type  expected  note``:
``type`` is one class (both names get it) or ``A/B`` (``a`` typed A, ``b``
typed B); ``expected`` is ``merge`` or ``keep``. A name written
``long form (ACRONYM)`` is put in its paper as an acronym definition, the way
an abstract states it, followed by one use of the bare acronym.

Each pair runs through the real :func:`kg.resolve.resolve` as a corpus of two
tiny papers, one per name; the pair merged when one entity holds both papers.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kg.model import Acronym, Extraction, Mention, Paper
from kg.resolve.resolver import resolve

_DEFINITION = re.compile(r"^(?P<long>.*\S)\s*\((?P<short>[^()\s]+)\)$")


@dataclass(frozen=True)
class Pair:
    """One gold pair of names."""

    a: str
    b: str
    type_a: str
    type_b: str
    merge: bool
    note: str = ""


def read_pairs(path: str | Path) -> list[Pair]:
    """The pairs of a TSV file (blank lines and lines starting with ``#`` skipped)."""
    lines = [
        line for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    pairs = []
    for row in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
        type_a, _, type_b = row["type"].partition("/")
        expected = row["expected"].strip()
        if expected not in ("merge", "keep"):
            raise ValueError(f"{path}: expected must be 'merge' or 'keep', not {expected!r}")
        pairs.append(Pair(row["a"], row["b"], type_a, type_b or type_a, expected == "merge", row.get("note") or ""))
    return pairs


def name_paper(paper_id: str, name: str, entity_type: str) -> tuple[Paper, Extraction]:
    """A one-sentence paper mentioning ``name`` (and defining its acronym, if written so).

    >>> paper, ext = name_paper("p", "graph neural network (GNN)", "Method")
    >>> paper.abstract
    'We study graph neural network (GNN) here. GNN is used.'
    >>> [m.text for m in ext.mentions], ext.acronyms[0].short
    (['graph neural network', 'GNN'], 'GNN')
    """
    found = _DEFINITION.match(name)
    if not found:
        text = f"We study {name} here."
        return Paper(paper_id, text), Extraction(paper_id, mentions=(Mention(9, 9 + len(name), entity_type, name),))
    long, short = found["long"], found["short"]
    text = f"We study {long} ({short}) here. {short} is used."
    use = text.rindex(short + " is used")
    mentions = (
        Mention(9, 9 + len(long), entity_type, long),
        Mention(use, use + len(short), entity_type, short),
    )
    acronym = Acronym(short=short, long=long, start=9, end=9 + len(long))
    return Paper(paper_id, text), Extraction(paper_id, mentions=mentions, acronyms=(acronym,))


def merged(pair: Pair) -> bool:
    """Whether the resolver puts the pair's two names in one entity.

    >>> merged(Pair("GANs", "generative adversarial network", "Method", "Method", True))
    True
    """
    paper_a, ext_a = name_paper("pair-a", pair.a, pair.type_a)
    paper_b, ext_b = name_paper("pair-b", pair.b, pair.type_b)
    resolution = resolve([paper_a, paper_b], [ext_a, ext_b])
    return any({"pair-a", "pair-b"} <= set(e.papers) for e in resolution.entities)


def score(pairs: Iterable[Pair]) -> dict[str, object]:
    """Precision and recall of merging over gold pairs, and the pairs got wrong."""
    tp = fp = fn = tn = 0
    wrong = []
    for pair in pairs:
        got = merged(pair)
        tp += got and pair.merge
        fp += got and not pair.merge
        fn += pair.merge and not got
        tn += not got and not pair.merge
        if got != pair.merge:
            wrong.append(pair)
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": precision, "recall": recall, "wrong": wrong}
