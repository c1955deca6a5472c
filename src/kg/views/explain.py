"""What one node gathers: its surface forms, papers and facts (``kg explain``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import UserError
from kg.views.facts import facts
from kg.views.sparql import select

__all__ = ["explain", "similar_labels"]

_FIND = """
SELECT DISTINCT ?e ?type ?label ?wanted WHERE {
  ?e rdfs:label ?label ; a ?type .
  VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  { ?e rdfs:label ?name } UNION { ?e skos:altLabel ?name }
  FILTER(LCASE(STR(?name)) = LCASE(STR(?wanted)))
} ORDER BY ?e
"""

_NAMES = """
SELECT DISTINCT ?name WHERE {
  ?e a ?type . VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  { ?e rdfs:label ?name } UNION { ?e skos:altLabel ?name }
}
"""
_FORMS = "SELECT ?f ?e WHERE { { ?e rdfs:label ?f } UNION { ?e skos:altLabel ?f } } ORDER BY ?f"
_PAPERS = "SELECT ?id ?e WHERE { ?e kg:mentionedIn ?p . ?p dcterms:identifier ?id } ORDER BY ?id"


def similar_labels(store: ox.Store, label: str, limit: int = 3) -> list[str]:
    """The labels and other names of entities closest to ``label`` (for a "did you mean"), best first.

    A name that starts with the typed words ranks first, then close spellings (rapidfuzz).
    """
    from rapidfuzz import fuzz, process

    names = [row["name"] for row in select(store, _NAMES)]
    wanted = label.casefold().strip()
    starts = sorted((n for n in names if n.casefold().startswith(wanted)), key=len)[:limit] if wanted else []
    close = process.extract(label, names, scorer=fuzz.ratio, processor=str.casefold, limit=limit * 3, score_cutoff=70)
    ranked = dict.fromkeys([*starts, *(name for name, _, _ in sorted(close, key=lambda c: (-c[1], len(c[0]))))])
    return list(ranked)[:limit]


def explain(store: ox.Store, label: str, source: str | Path = "the graph") -> list[dict[str, Any]]:
    """The entities whose label or alternative label is ``label`` (case-insensitive).

    Each is a dict with ``iri``, ``type``, ``label``, ``forms``, ``papers`` and
    ``facts``; raises :class:`UserError` E308 (naming ``source``) if there is none.
    """
    found = select(store, _FIND, {"wanted": label})
    if not found:
        close = similar_labels(store, label)
        hint = f" (did you mean {' or '.join(repr(name) for name in close)}?)" if close else ""
        raise UserError("E308", label=label, path=source, hint=hint)
    every_fact = facts(store)
    entities = []
    for row in found:
        node = {"e": ox.NamedNode(row["e"])}
        entities.append(
            {
                "iri": row["e"],
                "type": row["type"].rsplit("#", 1)[-1],
                "label": row["label"],
                "forms": [r["f"] for r in select(store, _FORMS, node)],
                "papers": [r["id"] for r in select(store, _PAPERS, node)],
                "facts": [
                    {"subject": f.subject_label, "relation": f.relation, "object": f.object_label, "paper": f.paper_id, "evidence": f.evidence, "subject_evidence": f.subject_evidence}
                    for f in every_fact
                    if row["e"] in (f.subject, f.object)
                ],
            }
        )
    return entities
