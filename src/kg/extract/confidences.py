"""Fact confidences: one versioned, registered table, keyed by the rule that made a fact.

Rules record *which* rule produced a fact (:class:`kg.model.Rule`); how much a
fact is trusted is looked up here, never written into the rules. The table is
the data file ``data/confidences.v1.json``, registered as
``kg.FactConfidences.v1``: a component's config names the table it used, and a
change of values is a new file and a new registered version.

>>> table = fact_confidences_v1()
>>> table[Rule.PROPOSAL_NAMED] > table[Rule.PROPOSAL_DESCRIBED]
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from spacy.util import registry

from kg.model import Rule

DATA_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Confidences:
    """A confidence in [0, 1] for every :class:`~kg.model.Rule`."""

    version: str
    table: Mapping[Rule, float]
    #: taken off when a fact's subject is only implied ("we", "it", or named in another sentence)
    implied_subject_penalty: float = 0.1

    def __getitem__(self, rule: Rule) -> float:
        return self.table[rule]


def read_confidences(path: Path, version: str) -> Confidences:
    """The table in ``path``; every rule must have a value in [0, 1] (a missing one is a bug)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    table = {Rule(k): float(v) for k, v in raw["rules"].items()}
    missing = sorted(r.value for r in Rule if r not in table)
    if missing or not all(0.0 <= v <= 1.0 for v in table.values()):
        raise ValueError(f"{path}: confidences missing for {missing} or outside [0, 1]")
    return Confidences(version, table, float(raw["implied_subject_penalty"]))


@registry.misc("kg.FactConfidences.v1")
def fact_confidences_v1() -> Confidences:
    return read_confidences(DATA_DIR / "confidences.v1.json", "kg.FactConfidences.v1")
