"""What one node gathers: its surface forms, papers and facts (``kg explain``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kg.errors import UserError
from kg.store.graph import KnowledgeGraph

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


def explain(graph: KnowledgeGraph, label: str, source: str | Path = "the graph") -> list[dict[str, Any]]:
    """The entities whose label or alternative label is ``label`` (case-insensitive).

    Each is a dict with ``iri``, ``type``, ``label``, ``forms``, ``papers`` and
    ``facts``; raises :class:`UserError` E308 if there is none.
    """
    import pyoxigraph as ox

    found = graph.select(_FIND, {"wanted": label})
    if not found:
        raise UserError("E308", label=label, path=source)
    entities = []
    for row in found:
        node = {"e": ox.NamedNode(row["e"])}
        facts = [f for f in graph.facts() if row["e"] in (f.subject, f.object)]
        entities.append(
            {
                "iri": row["e"],
                "type": row["type"].rsplit("#", 1)[-1],
                "label": row["label"],
                "forms": [r["f"] for r in graph.select(_FORMS, node)],
                "papers": [r["id"] for r in graph.select(_PAPERS, node)],
                "facts": [
                    {"subject": f.subject_label, "relation": f.relation, "object": f.object_label, "paper": f.paper_id, "evidence": f.evidence}
                    for f in facts
                ],
            }
        )
    return entities
