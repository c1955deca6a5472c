"""Acronyms: inside the paper that defines them, and across the corpus.

Inside a paper, a defined acronym is its long form: every mention of ``RL`` in
a paper that writes "reinforcement learning (RL)" joins the long form's node,
and ``RL`` becomes an alternative label.

Across the corpus a bare acronym (in a paper that does not define it) joins
the long form only when that is *unambiguous*: every definition in the corpus,
and the alias table if it knows the acronym, point at the same cluster. When
one paper says "reinforcement learning (RL)" and another "representation
learning (RL)", ``RL`` is ambiguous: bare mentions stay a node of their own,
and each defining paper keeps its own reading.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from kg.model import Extraction
from kg.resolve.aliases import alias_index, alias_of
from kg.resolve.cluster import ANCHOR, Clusters
from kg.resolve.generic import is_generic
from kg.resolve.normalise import compact, display, normalise


@dataclass(frozen=True)
class Definition:
    """One acronym definition met in one paper (keys are matching keys)."""

    paper: str
    short: str
    long: str
    short_key: str
    long_key: str


def local_definitions(paper_id: str, extraction: Extraction) -> dict[str, Definition]:
    """Short key -> the paper's definition of it (the first one by offset).

    Definitions whose long form is generic ("our method (OM)") or no longer
    than the acronym are ignored.
    """
    found: dict[str, Definition] = {}
    for acronym in sorted(extraction.acronyms, key=lambda a: (a.start, a.end, a.short, a.long)):
        short_key, long_key = compact(acronym.short), compact(acronym.long)
        if not short_key or not long_key or short_key == long_key or is_generic(acronym.long):
            continue
        found.setdefault(
            short_key,
            Definition(paper_id, display(acronym.short), display(acronym.long), short_key, long_key),
        )
    return found


def cluster_names(clusters: Clusters, members: dict[int, list[int]]) -> dict[int, str]:
    """Root -> a name for its cluster that does not depend on ids: its alias anchor, else its least key.

    Worked out once per cluster: a popular long form is defined in thousands of
    papers, and its cluster grows with the corpus.
    """
    names = {}
    for root, nodes in members.items():
        keys = [clusters.nodes[n][1] for n in nodes]
        anchors = [k for k in keys if k.startswith(ANCHOR)]
        names[root] = min(anchors or keys)
    return names


def _meaning(clusters: Clusters, names: dict[int, str], nodes: list[int], long_key: str) -> str:
    """What a long form stands for, whatever class its mentions were given."""
    known = alias_index().get(long_key)
    if known:
        return ANCHOR + known[0]
    return min((names[clusters.find(n)] for n in nodes), default=long_key)


def link_acronyms(
    clusters: Clusters,
    definitions: dict[str, list[Definition]],
    voting: frozenset[str],
) -> tuple[list[dict[str, object]], list[tuple[int, int]]]:
    """Join bare acronyms to their long form where the corpus is unambiguous.

    Every meaning is decided on the clusters as they stand before this step,
    so the outcome does not depend on the order acronyms are visited in.
    Returns the ambiguous acronyms (for the report) and the cross-class links
    (a bare acronym typed differently from its long form) for the type vote.
    """
    names = cluster_names(clusters, clusters.members())
    by_key: dict[str, list[int]] = defaultdict(list)
    for (_, key), node in sorted(clusters.ids.items()):
        by_key[key].append(node)
    meaning_of: dict[str, str] = {}  # long key -> meaning, each worked out once
    ambiguous: list[dict[str, object]] = []
    resolved: list[tuple[str, list[int]]] = []
    for short_key in sorted(definitions):
        defs = definitions[short_key]
        long_keys = {d.long_key for d in defs}
        for long_key in long_keys - meaning_of.keys():
            meaning_of[long_key] = _meaning(clusters, names, by_key.get(long_key, []), long_key)
        meanings = {meaning_of[k] for k in long_keys}
        known = alias_index().get(short_key)
        if known:
            meanings.add(ANCHOR + known[0])
        if len(meanings) == 1:
            resolved.append((short_key, sorted({n for k in long_keys for n in by_key.get(k, ())})))
            continue
        longs: dict[str, str] = {}
        for long in sorted([d.long for d in defs] + ([known[0]] if known else [])):
            longs.setdefault(normalise(long), long)  # one spelling per meaning, the least
        ambiguous.append(
            {
                "acronym": min(d.short for d in defs),
                "long_forms": sorted(longs.values(), key=lambda s: (s.lower(), s)),
                "papers": sorted({d.paper for d in defs}),
            }
        )
    cross: list[tuple[int, int]] = []
    for short_key, targets in resolved:
        for bare in by_key.get(short_key, ()):
            cls = clusters.nodes[bare][0]
            same_class = [t for t in targets if clusters.nodes[t][0] == cls]
            label = alias_of(short_key, cls)
            if same_class:
                clusters.union(bare, same_class[0])
            elif label:
                clusters.union(bare, clusters.node(cls, ANCHOR + label, normalise(label)))
            elif targets and cls in voting and clusters.nodes[targets[0]][0] in voting:
                cross.append((bare, targets[0]))
    return ambiguous, cross
