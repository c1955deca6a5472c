"""Numeric results as rows (``results.csv``) and as leaderboards.

A leaderboard is, for one (dataset, metric), the absolute results ordered
best first (each with its task where the abstract names one), each with its method, paper and evidence sentence; "best" follows
whether a higher or a lower value is better for the metric, from the data table
``kg/views/data/metric_directions.v1.json`` (a metric not in it is ordered
higher-is-better and marked ``direction = "unknown"``). Improvements claimed
over a reference are listed by :func:`improvements`.

>>> direction("Top-1 accuracy"), direction("WER"), direction("GPU memory usage"), direction("vibes")
('higher', 'lower', 'lower', 'unknown')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from typing import Any

import pyoxigraph as ox

from kg.views.sparql import select

__all__ = ["RESULT_FIELDS", "LEADERBOARD_QUERY", "ResultRow", "direction", "improvements", "leaderboard", "leaderboards", "results"]

_RESULTS = """
SELECT ?r ?id ?method ?methodName ?valueText ?value ?unit ?kind ?metric ?metricName ?metricLabel ?dataset ?datasetName
       ?task ?taskName ?reference ?referenceName ?referenceLabel ?evidence ?es ?ee ?vs ?c ?x WHERE {
  ?r a kg:Result ; kg:method ?method ; kg:valueText ?valueText ; kg:value ?value ; kg:resultKind ?kind ;
     kg:evidence ?evidence ; kg:evidenceStart ?es ; kg:evidenceEnd ?ee ; kg:valueStart ?vs ;
     kg:confidence ?c ; kg:extractor ?x ; prov:wasDerivedFrom ?paper .
  ?paper dcterms:identifier ?id .
  ?method rdfs:label ?methodName .
  OPTIONAL { ?r kg:unit ?unit }
  OPTIONAL { ?r kg:metric ?metric . ?metric rdfs:label ?metricName }
  OPTIONAL { ?r kg:metricLabel ?metricLabel }
  OPTIONAL { ?r kg:onDataset ?dataset . ?dataset rdfs:label ?datasetName }
  OPTIONAL { ?r kg:forTask ?task . ?task rdfs:label ?taskName }
  OPTIONAL { ?r kg:comparedTo ?reference . ?reference rdfs:label ?referenceName }
  OPTIONAL { ?r kg:comparedToLabel ?referenceLabel }
}
"""

def _leaderboard_query() -> str:
    """The named query of one leaderboard, its lower-is-better metrics written in from the data table."""
    lower = " ".join(json.dumps(m) for m, way in sorted(_directions().items()) if way == "lower")
    return f"""SELECT DISTINCT ?value ?valueText ?unit ?method ?methodName ?id ?evidence ?taskName ?dataset_label ?metric_label WHERE {{
  ?r a kg:Result ; kg:resultKind "absolute" ; kg:value ?value ; kg:valueText ?valueText ; kg:method ?method ;
     kg:evidence ?evidence ; prov:wasDerivedFrom ?paper ; kg:onDataset ?dataset .
  ?dataset rdfs:label ?dataset_label . ?method rdfs:label ?methodName . ?paper dcterms:identifier ?id .
  {{ ?r kg:metric/rdfs:label ?metric_label }} UNION {{ ?r kg:metricLabel ?metric_label }}
  OPTIONAL {{ ?r kg:unit ?unit }}
  OPTIONAL {{ ?r kg:forTask/rdfs:label ?taskName }}
  BIND(LCASE(STR(?metric_label)) IN ({", ".join(lower.split(" ")) if lower else '""'}) AS ?lowerIsBetter)
}} ORDER BY (IF(?lowerIsBetter, ?value, -?value)) ?methodName ?id"""


@dataclass(frozen=True)
class ResultRow:
    """One numeric result: a row of ``results.csv``."""

    paper_id: str
    method: str
    method_label: str
    value: str
    value_text: str
    unit: str
    kind: str
    metric: str
    metric_label: str
    dataset: str
    dataset_label: str
    task: str
    task_label: str
    compared_to: str
    compared_to_label: str
    evidence: str
    evidence_start: int
    evidence_end: int
    value_start: int
    confidence: float
    extractor: str


#: The columns of ``results.csv``, in order.
RESULT_FIELDS: tuple[str, ...] = tuple(ResultRow.__dataclass_fields__)


@lru_cache(maxsize=1)
def _directions() -> dict[str, str]:
    """Metric label (lower case) -> ``higher`` or ``lower``, from the data table."""
    table = json.loads(resources.files("kg.views").joinpath("data/metric_directions.v1.json").read_text(encoding="utf-8"))
    return {**{m.lower(): "higher" for m in table["higher"]}, **{m.lower(): "lower" for m in table["lower"]}}


def direction(metric: str) -> str:
    """``higher``, ``lower`` or ``unknown``: which way the metric improves, by its label or the words in it."""
    table = _directions()
    key = metric.lower().strip()
    if key in table:
        return table[key]
    words = re.findall(r"[a-z0-9@\-]+", key)
    for size in (3, 2, 1):  # the longest listed phrase inside the label decides ("gpu memory usage" -> memory)
        for at in range(len(words) - size + 1):
            phrase = " ".join(words[at:at + size])
            if phrase in table:
                return table[phrase]
    return "unknown"


def _text(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    return "" if value is None else str(value)


def results(store: ox.Store) -> list[ResultRow]:
    """Every numeric result of the graph, by paper and position in the abstract."""
    rows = []
    for row in select(store, _RESULTS):
        rows.append(
            ResultRow(
                paper_id=str(row["id"]),
                method=row["method"],
                method_label=str(row["methodName"]),
                value=format(Decimal(str(row["value"])).normalize(), "f"),
                value_text=str(row["valueText"]),
                unit=_text(row, "unit"),
                kind=str(row["kind"]),
                metric=_text(row, "metric"),
                metric_label=_text(row, "metricLabel") or _text(row, "metricName"),
                dataset=_text(row, "dataset"),
                dataset_label=_text(row, "datasetName"),
                task=_text(row, "task"),
                task_label=_text(row, "taskName"),
                compared_to=_text(row, "reference"),
                compared_to_label=_text(row, "referenceName") or _text(row, "referenceLabel"),
                evidence=str(row["evidence"]),
                evidence_start=int(row["es"]),
                evidence_end=int(row["ee"]),
                value_start=int(row["vs"]),
                confidence=float(row["c"]),
                extractor=str(row["x"]),
            )
        )
    rows.sort(key=lambda r: (r.paper_id, r.value_start))
    return rows


def _board_key(row: ResultRow) -> tuple[str, str]:
    return (row.dataset_label, row.metric_label.lower())


def leaderboards(store: ox.Store, *, min_entries: int = 1) -> dict[tuple[str, str], list[ResultRow]]:
    """Absolute results grouped by (dataset, metric), each list ordered best first.

    A board is one dataset and one metric (the metric compared case-insensitively);
    each row keeps its task (``task_label``), which abstracts often name apart from
    the benchmark. Only results that name a dataset and a metric are ranked; groups
    with fewer than ``min_entries`` results are left out. Biggest boards first.
    """
    boards: dict[tuple[str, str], list[ResultRow]] = {}
    for row in results(store):
        if row.kind == "absolute" and row.dataset_label and row.metric_label:
            boards.setdefault(_board_key(row), []).append(row)
    ordered = {}
    for key, rows in sorted(boards.items(), key=lambda item: (-len(item[1]), item[0])):
        if len(rows) < min_entries:
            continue
        lower = direction(key[1]) == "lower"
        ordered[key] = sorted(rows, key=lambda r: (Decimal(r.value) if lower else -Decimal(r.value), r.method_label, r.paper_id))
    return ordered


def leaderboard(store: ox.Store, dataset: str, metric: str, task: str | None = None) -> list[ResultRow]:
    """One leaderboard: the absolute results on ``dataset`` by ``metric`` (labels, case-insensitive), best first;
    ``task`` keeps the rows of one task."""
    wanted = (dataset.lower(), metric.lower())
    rows = [
        r for key, board in leaderboards(store).items() for r in board
        if (key[0].lower(), key[1]) == wanted and (task is None or r.task_label.lower() == task.lower())
    ]
    lower = direction(metric) == "lower"
    return sorted(rows, key=lambda r: (Decimal(r.value) if lower else -Decimal(r.value), r.method_label, r.paper_id))


def improvements(store: ox.Store) -> list[ResultRow]:
    """The improvements and relative results that name (or describe) the reference they are claimed over."""
    return [r for r in results(store) if r.kind in ("improvement", "relative") and (r.compared_to or r.compared_to_label)]


#: The named SPARQL query of a leaderboard: the absolute results on one dataset by one metric, best first
#: (bind ?dataset_label and ?metric_label; a metric the data table lists as lower-is-better sorts ascending).
LEADERBOARD_QUERY = _leaderboard_query()
