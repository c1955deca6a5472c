"""Resolve all papers of a build, and say which entity IRIs went away."""

from __future__ import annotations

from collections.abc import Mapping

from kg.model import EntityType, Extraction, Paper, Resolution

__all__ = ["iri_changes", "resolve_papers"]


def resolve_papers(everything: Mapping[str, tuple[Paper, Extraction]], *,
                   min_confidence: float) -> tuple[list[Paper], Resolution]:
    """Resolve every paper, in sorted-id order, so neither input order nor engine matters."""
    from kg.resolve import resolve

    ids = sorted(everything)
    papers = [everything[i][0] for i in ids]
    return papers, resolve(papers, [everything[i][1] for i in ids], min_confidence=min_confidence)


def iri_changes(old: Mapping[str, tuple[str, ...]], resolution: Resolution) -> list[dict[str, str]]:
    """Old entity keys that no longer exist, each mapped to the entity that took most of its forms."""
    from kg.store.namespace import entity_iri

    new_keys = {e.key for e in resolution.entities}
    owner: dict[tuple[str, str], str] = {}
    for entity in resolution.entities:
        for form in (entity.label, *entity.alt_labels):
            owner[(entity.type, form)] = entity.key
    changes = []
    for key in sorted(set(old) - new_keys):
        kind = key.split("/", 1)[0]
        votes: dict[str, int] = {}
        for form in old[key]:
            for entity_type in (t.value for t in EntityType):
                if entity_type.lower() == kind and (entity_type, form) in owner:
                    target = owner[(entity_type, form)]
                    votes[target] = votes.get(target, 0) + 1
        new = max(sorted(votes), key=votes.__getitem__) if votes else None
        changes.append({"old": entity_iri(key), "new": entity_iri(new) if new else ""})
    return changes
