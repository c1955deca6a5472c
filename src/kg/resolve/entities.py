"""From clusters of mentions to :class:`~kg.model.Entity` records and the report.

- type: the class most of the cluster's mentions were given (ties: the order
  of :class:`~kg.model.EntityType`); a cluster with several is a type conflict;
- key: ``"{type}/{slug}"``, the slug made from the cluster alone: the
  alias table's canonical name when the cluster has one, else its least
  normalised form. Two clusters of one class share a key only in one odd
  case (a bare acronym that is ambiguous in the corpus and also the alias
  table's name of another cluster); the later one, in key order, then gets
  a ``~2`` suffix, so keys stay unique and deterministic;
- label: the most frequent full form (acronyms only when there is nothing
  else), its most frequent spelling; every other spelling is an alt label.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from typing import Any

from kg.model import Entity, EntityType
from kg.resolve.cluster import ANCHOR, Clusters
from kg.resolve.normalise import compact, looks_like_acronym, slugify

_TYPE_ORDER = {t.value: i for i, t in enumerate(EntityType)}
LARGEST_MERGES = 10


@dataclass(frozen=True, slots=True)  # one per mention: slots keep it small
class Occurrence:
    """One non-generic entity mention: its paper, cleaned surface, node and class."""

    paper: str
    surface: str
    node: int
    label: str
    #: votes the mention casts for its class: more when its sentence's role typed it
    weight: int = 1


def vote(counts: Counter[str]) -> str:
    """The class with most mentions; ties go to the earlier :class:`EntityType`.

    >>> vote(Counter({"Task": 2, "Method": 2, "Metric": 1}))
    'Method'
    """
    return min(counts, key=lambda t: (-counts[t], _TYPE_ORDER.get(t, len(_TYPE_ORDER)), t))


def choose_label(occurrences: list[Occurrence], shorts: set[str], long_forms: Counter[str] | None = None) -> str:
    """The canonical label: the most frequent full form, in its most frequent spelling.

    A form is "full" unless it is an acronym (defined as one in the corpus, or
    written like one); ties go to the form in more papers, then to the least key.
    When every mention is an acronym, the long form of its definitions
    (``long_forms``: spelling -> number of definitions) is the label.

    >>> occ = [Occurrence("p1", s, 0, "Method") for s in ["CNN", "CNN", "CNNs", "ConvNet"]]
    >>> choose_label(occ, shorts={"cnn"})
    'ConvNet'
    >>> choose_label(occ[:3], shorts={"cnn"}, long_forms=Counter({"convolutional network": 1}))
    'convolutional network'
    """
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    papers: dict[str, set[str]] = defaultdict(set)
    for occurrence in occurrences:
        key = compact(occurrence.surface)
        spellings[key][occurrence.surface] += 1
        papers[key].add(occurrence.paper)

    def is_full(key: str) -> bool:
        # "MT system" normalises to the key of "MT": one acronym spelling marks the key.
        return key not in shorts and not any(looks_like_acronym(s) for s in spellings[key])

    keys = [k for k in spellings if is_full(k)]
    if not keys and long_forms:
        return min(long_forms, key=lambda s: (-long_forms[s], s))
    keys = keys or list(spellings)
    best = min(keys, key=lambda k: (-sum(spellings[k].values()), -len(papers[k]), k))
    counts = spellings[best]
    return min(counts, key=lambda s: (-counts[s], len(s), s))


def _alt_labels(label: str, surfaces: Counter[str], extra: set[str]) -> tuple[str, ...]:
    """Every other spelling, once per case-insensitive form (the most frequent spelling)."""
    chosen: dict[str, str] = {}
    for surface in sorted(set(surfaces) | extra, key=lambda s: (-surfaces.get(s, 0), s)):
        chosen.setdefault(surface.casefold(), surface)
    chosen.pop(label.casefold(), None)
    return tuple(sorted(chosen.values(), key=lambda s: (s.casefold(), s)))


def _slug(clusters: Clusters, nodes: list[int]) -> str:
    anchors = [f for n in nodes if clusters.nodes[n][1].startswith(ANCHOR) for f in clusters.forms[n]]
    forms = anchors or [f for n in nodes for f in clusters.forms[n]]
    return slugify(min(forms))


def build_entities(
    clusters: Clusters,
    occurrences: list[Occurrence],
    acronym_labels: dict[int, set[str]],
    long_labels: dict[int, Counter[str]],
    shorts: set[str],
) -> tuple[list[Entity], dict[int, str], dict[str, Any]]:
    """Entities sorted by key, the key of each cluster root, and the report so far."""
    by_root: dict[int, list[Occurrence]] = defaultdict(list)
    for occurrence in occurrences:
        by_root[clusters.find(occurrence.node)].append(occurrence)
    members = clusters.members()
    drafts = []
    for root, found in by_root.items():
        votes: Counter[str] = Counter()
        for o in found:
            votes[o.label] += o.weight
        entity_type = vote(votes)
        long_forms: Counter[str] = Counter()
        for node in members[root]:
            long_forms.update(long_labels.get(node, {}))
        extra = {s for n in members[root] for s in acronym_labels.get(n, ())} | set(long_forms)
        # A cluster of bare acronyms is labelled by a definition, else by the alias table.
        for node in members[root]:
            key = clusters.nodes[node][1]
            if key.startswith(ANCHOR):
                long_forms.setdefault(key[len(ANCHOR):], 0)
        surfaces = Counter(o.surface for o in found)
        label = choose_label(found, shorts, long_forms)
        entity = Entity(
            key=f"{entity_type.lower()}/{_slug(clusters, members[root])}",
            type=entity_type,
            label=label,
            alt_labels=_alt_labels(label, surfaces, extra),
            papers=tuple(sorted({o.paper for o in found})),
            mentions=len(found),
        )
        drafts.append((entity, root, votes))
    drafts.sort(key=lambda d: (d[0].key, d[0].label, d[0].alt_labels))
    entities: list[Entity] = []
    key_by_root: dict[int, str] = {}
    conflicts = []
    seen: Counter[str] = Counter()
    for entity, root, votes in drafts:
        seen[entity.key] += 1
        if seen[entity.key] > 1:  # the odd case of the module docstring
            entity = replace(entity, key=f"{entity.key}~{seen[entity.key]}")
        entities.append(entity)
        key_by_root[root] = entity.key
        if len(votes) > 1:
            conflicts.append(
                {"key": entity.key, "label": entity.label, "votes": dict(sorted(votes.items())), "chosen": entity.type}
            )
    report = {
        "mentions": len(occurrences),
        "entities": len(entities),
        "largest_merges": largest_merges(entities),
        "type_conflicts": conflicts,
    }
    return entities, key_by_root, report


def largest_merges(entities: list[Entity], most: int = LARGEST_MERGES) -> list[dict[str, Any]]:
    """The entities joining the most distinct surface forms (at least two), largest first."""
    merged = [e for e in entities if e.alt_labels]
    merged.sort(key=lambda e: (-len(e.alt_labels), -len(e.papers), e.key))
    return [
        {
            "key": e.key,
            "label": e.label,
            "forms": 1 + len(e.alt_labels),
            "surface_forms": [e.label, *e.alt_labels],
            "papers": len(e.papers),
        }
        for e in merged[:most]
    ]
