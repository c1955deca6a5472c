"""What one node gathers: its surface forms, papers and facts (``kg explain``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import UserError
from kg.views.facts import facts
from kg.views.sparql import select

__all__ = ["explain"]

_FIND = """
SELECT DISTINCT ?e ?type ?label ?wanted WHERE {
  ?e rdfs:label ?label ; a ?type .
  VALUES ?type { kg:Method kg:Task kg:Dataset kg:Metric }
  { ?e rdfs:label ?name } UNION { ?e skos:altLabel ?name }
  FILTER(LCASE(STR(?name)) = LCASE(STR(?wanted)))
} ORDER BY ?e
"""

_FORMS = "SELECT ?f ?e WHERE { { ?e rdfs:label ?f } UNION { ?e skos:altLabel ?f } } ORDER BY ?f"
_PAPERS = "SELECT ?id ?e WHERE { ?e kg:mentionedIn ?p . ?p dcterms:identifier ?id } ORDER BY ?id"


def explain(store: ox.Store, label: str, source: str | Path = "the graph") -> list[dict[str, Any]]:
    """The entities whose label or alternative label is ``label`` (case-insensitive).

    Each is a dict with ``iri``, ``type``, ``label``, ``forms``, ``papers`` and
    ``facts``; raises :class:`UserError` E308 (naming ``source``) if there is none.
    """
    found = select(store, _FIND, {"wanted": label})
    if not found:
        raise UserError("E308", label=label, path=source)
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
                    {"subject": f.subject_label, "relation": f.relation, "object": f.object_label, "paper": f.paper_id, "evidence": f.evidence}
                    for f in every_fact
                    if row["e"] in (f.subject, f.object)
                ],
            }
        )
    return entities
