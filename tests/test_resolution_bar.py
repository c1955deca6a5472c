"""The resolution bar on the bundled corpus: one node per name, acronyms attached, no generic nodes."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from kg.buildfolder import BuildFolder
from kg.pipeline.partitions import PartitionCache
from kg.resolve import compact, is_generic
from kg.views import KnowledgeGraph

pytestmark = pytest.mark.slow

_ENTITIES = """
SELECT ?e ?type ?label WHERE {
  VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  ?e a ?type ; rdfs:label ?label .
}"""


def _labels(graph: KnowledgeGraph) -> dict[str, set[str]]:
    forms: dict[str, set[str]] = defaultdict(set)
    for row in graph.select("SELECT ?e ?f WHERE { { ?e rdfs:label ?f } UNION { ?e skos:altLabel ?f } }"):
        forms[row["e"]].add(compact(row["f"]))
    return forms


def test_no_two_entities_of_one_class_share_a_key(seed_build):
    graph = KnowledgeGraph.load(seed_build[0])
    seen: dict[tuple[str, str], str] = {}
    for row in graph.select(_ENTITIES):
        if row["label"].endswith(" (this paper)"):
            continue  # an unnamed contribution is scoped to its paper: two papers' "large-scale dataset" are two things
        key = (row["type"], compact(row["label"]))
        assert key not in seen, f"{row['label']!r} and the label of {seen[key]} normalise alike"
        seen[key] = row["e"]


def test_no_entity_is_labelled_with_a_generic_phrase(seed_build):
    graph = KnowledgeGraph.load(seed_build[0])
    generic = [row["label"] for row in graph.select(_ENTITIES) if is_generic(row["label"])]
    assert generic == []


def test_defined_acronyms_are_labels_of_their_long_form(seed_build):
    out = seed_build[0]
    manifest = json.loads((out / "manifest.json").read_text())
    ambiguous = {compact(a["acronym"]) for a in manifest["resolution"].get("ambiguous_acronyms", [])}
    forms = _labels(KnowledgeGraph.load(out))
    owners: dict[str, set[str]] = defaultdict(set)
    for entity, names in forms.items():
        for name in names:
            owners[name].add(entity)
    checked = 0
    cached = PartitionCache(BuildFolder(out)).load(manifest["cache_keys"]).entries
    for key in manifest["cache_keys"]:
        _, extraction = cached[key]
        for acronym in extraction.acronyms:
            long_form, short = compact(acronym.long), compact(acronym.short)
            if short in ambiguous or not owners.get(long_form):
                continue  # the long form named no entity, or the acronym means two things
            checked += 1
            assert any(short in forms[e] for e in owners[long_form]), (acronym.long, acronym.short)
    assert checked >= 20
