"""``neo4j/``: CSV files for ``neo4j-admin database import``, with the graph's nodes and relationships.

The folder holds node files ``papers.csv``, ``entities.csv``, ``code.csv`` and
``results.csv`` and relationship files ``facts.csv``, ``mentions.csv`` and
``result_links.csv``, with the header
conventions of Neo4j's bulk importer: ``iri:ID`` (every node's IRI, one ID
space), ``:LABEL``, ``:START_ID``, ``:END_ID``, ``:TYPE``, and typed properties
(``support:int``, ``confidence:double``, ``papers:string[]``). Import with::

    neo4j-admin database import full neo4j \\
      --nodes=papers.csv --nodes=entities.csv --nodes=code.csv --nodes=results.csv \\
      --relationships=facts.csv --relationships=mentions.csv --relationships=result_links.csv \\
      --array-delimiter="U+001F" --multiline-fields=true

Nodes are those of :meth:`KnowledgeGraph.to_networkx` (labels ``Paper``,
``Method``, ``Task``, ``Dataset``, ``Metric``, ``Code``); relationships are its
fact edges (types in upper snake case: ``EVALUATED_ON``) with their support,
highest confidence, papers and evidence sentences, plus ``MENTIONED_IN`` from
each entity to the papers that mention it. Each numeric result is a ``Result``
node (value, value as written, unit, kind, metric as written, evidence,
confidence) linked by ``METHOD``, ``METRIC``, ``ON_DATASET``, ``FOR_TASK``,
``COMPARED_TO`` and ``REPORTED_IN`` (its paper).

Limits and dangers
------------------
- Arrays are separated by U+001F (the unit separator), which cleaned text never
  holds, because evidence sentences often contain ``;``, the importer's
  default: pass ``--array-delimiter="U+001F"`` or the arrays come out wrong.
- Abstracts may span lines: pass ``--multiline-fields=true``.
- The folder is written next to its final place and swapped in with two
  renames; a crash between them leaves the old folder aside as ``.neo4j.old.*``.
"""

from __future__ import annotations

import csv
import os
import re
import secrets
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import KgError

if TYPE_CHECKING:
    from kg.views.graph import KnowledgeGraph

__all__ = ["ARRAY_DELIMITER", "HEADERS", "write_neo4j"]

ARRAY_DELIMITER = "\x1f"

#: File name -> header, in neo4j-admin's ``name:type`` convention.
HEADERS: dict[str, tuple[str, ...]] = {
    "papers.csv": ("iri:ID", "identifier", "title", "abstract", "date", "doi", "url", "authors:string[]", ":LABEL"),
    "entities.csv": ("iri:ID", "name", "altLabels:string[]", "support:int", "mentionCount:int", ":LABEL"),
    "code.csv": ("iri:ID", "url", ":LABEL"),
    "facts.csv": (":START_ID", ":END_ID", ":TYPE", "support:int", "confidence:double", "papers:string[]", "evidence:string[]"),
    "mentions.csv": (":START_ID", ":END_ID", ":TYPE"),
    "results.csv": ("iri:ID", "value:double", "valueText", "unit", "kind", "metricLabel", "evidence", "confidence:double", ":LABEL"),
    "result_links.csv": (":START_ID", ":END_ID", ":TYPE"),
}

_PAPERS = """
SELECT ?p ?id ?title ?abstract ?date ?doi ?url (GROUP_CONCAT(?author; SEPARATOR="\\u001f") AS ?authors) WHERE {
  ?p a kg:Paper ; dcterms:identifier ?id ; dcterms:abstract ?abstract .
  OPTIONAL { ?p dcterms:title ?title } OPTIONAL { ?p dcterms:date ?date } OPTIONAL { ?p kg:doi ?doi }
  OPTIONAL { ?p schema:url ?url } OPTIONAL { ?p dcterms:creator ?author }
} GROUP BY ?p ?id ?title ?abstract ?date ?doi ?url ORDER BY ?p
"""
_MENTIONS = "SELECT ?n ?p WHERE { ?n kg:mentionedIn ?p } ORDER BY ?n ?p"
_COUNTS = "SELECT ?n ?c WHERE { ?n kg:mentionCount ?c }"
_RESULTS = """
SELECT ?r ?value ?text ?unit ?kind ?metricLabel ?evidence ?c WHERE {
  ?r a kg:Result ; kg:value ?value ; kg:valueText ?text ; kg:resultKind ?kind ; kg:evidence ?evidence ; kg:confidence ?c .
  OPTIONAL { ?r kg:unit ?unit } OPTIONAL { ?r kg:metricLabel ?metricLabel }
} ORDER BY ?r
"""
# A result's links: METHOD, METRIC, ON_DATASET, FOR_TASK, COMPARED_TO, and REPORTED_IN its paper.
_RESULT_LINKS = """
SELECT ?r ?p ?o WHERE {
  ?r a kg:Result .
  { ?r ?p ?o . FILTER(?p IN (kg:method, kg:metric, kg:onDataset, kg:forTask, kg:comparedTo)) }
  UNION { ?r prov:wasDerivedFrom ?o . BIND(prov:wasDerivedFrom AS ?p) }
}
"""


def relationship_type(relation: str) -> str:
    """Neo4j's upper snake case for a kg relation.

    >>> relationship_type("evaluatedOn"), relationship_type("hasCode")
    ('EVALUATED_ON', 'HAS_CODE')
    """
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", relation).upper()


def _array(values: Iterable[Any]) -> str:
    return ARRAY_DELIMITER.join(str(v) for v in values)


def _rows(kg: KnowledgeGraph) -> dict[str, Sequence[Sequence[Any]]]:
    graph = kg.to_networkx()
    counts = {row["n"]: row["c"] for row in kg.select(_COUNTS)}
    papers = [
        (r["p"], r["id"], r["title"] or "", r["abstract"], r["date"] or "", r["doi"] or "", r["url"] or "", r["authors"] or "", "Paper")
        for r in kg.select(_PAPERS)
    ]
    entities, code = [], []
    for node, attrs in sorted(graph.nodes(data=True)):
        if attrs["type"] == "Code":
            code.append((node, node, "Code"))
        elif attrs["type"] != "Paper":
            entities.append((node, attrs["label"], _array(attrs["alt_labels"]), attrs["support"], counts.get(node, 0), attrs["type"]))
    facts = [
        (s, o, relationship_type(e["relation"]), e["support"], e["confidence"], _array(e["papers"]), _array(e["evidence"]))
        for s, o, e in sorted(graph.edges(data=True), key=lambda edge: (edge[0], edge[1], edge[2]["relation"]))
    ]
    mentions = [(r["n"], r["p"], "MENTIONED_IN") for r in kg.select(_MENTIONS)]
    results, links = [], []
    for row in kg.select(_RESULTS):
        results.append((row["r"], row["value"], row["text"], row["unit"] or "", row["kind"], row["metricLabel"] or "", row["evidence"], row["c"], "Result"))
    for row in kg.select(_RESULT_LINKS):
        name = row["p"].rsplit("#", 1)[-1]
        links.append((row["r"], row["o"], "REPORTED_IN" if name == "wasDerivedFrom" else relationship_type(name)))
    return {
        "papers.csv": papers, "entities.csv": entities, "code.csv": code, "facts.csv": facts, "mentions.csv": mentions,
        "results.csv": results, "result_links.csv": sorted(links),
    }


def _check(folder: Path) -> None:
    for name, header in HEADERS.items():
        with open(folder / name, encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        if not rows or tuple(rows[0]) != header or any(len(row) != len(header) for row in rows):
            raise KgError("E350", path=folder / name, reason="header or row width does not match")


def write_neo4j(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write the ``neo4j-admin`` CSV files for ``kg`` into the folder ``path``, replacing it whole."""
    final = Path(path)
    staging = final.with_name(f".{final.name}.{secrets.token_hex(6)}.tmp")
    staging.mkdir()
    try:
        for name, rows in _rows(kg).items():
            with open(staging / name, "w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
                writer.writerow(HEADERS[name])
                writer.writerows(rows)
        _check(staging)
        old = final.with_name(f".{final.name}.old.{secrets.token_hex(6)}")
        if final.exists():
            os.replace(final, old)
        os.replace(staging, final)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
