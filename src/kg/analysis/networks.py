"""Networks among the entities: bipartite views, projections, communities, centrality, bridges.

The entity graph (:func:`entity_graph`) links two entities when abstracts
name them together, weighted by the papers they share, and records which
facts (``addresses``, ``evaluatedOn``...) connect them. Communities come
from the Louvain method as NetworkX implements it
(:func:`networkx.community.louvain_communities`): it ships with NetworkX, a
dependency already, it is fast enough for tens of thousands of nodes, and a
fixed ``seed`` makes it deterministic. Leiden (``leidenalg``) guarantees
well-connected communities but needs igraph, a compiled extra dependency,
for a difference that does not show at this scale.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING

import networkx as nx

from kg.analysis.queries import ENTITIES, FACT_SUPPORT, RELATIONS, frame
from kg.analysis.tables import entity_pairs

if TYPE_CHECKING:
    import pandas as pd

    from kg.views import KnowledgeGraph

__all__ = ["bipartite", "bridges", "centrality", "communities", "community_table", "entity_graph", "fact_table", "projection", "single_community_datasets"]

#: Above this many nodes, betweenness is estimated from a sample of sources (exact below).
EXACT_BETWEENNESS_UP_TO = 500


def fact_table(graph: KnowledgeGraph) -> pd.DataFrame:
    """Every fact between two entities: ``subject``, ``relation``, ``object``, their labels and types, ``support``, ``confidence``.

    Facts whose subject is a paper (``proposes``, ``hasCode``) are left out.

    >>> from kg.analysis.sample import tiny_graph
    >>> facts = fact_table(tiny_graph())
    >>> len(facts), int(facts.support.max())
    (14, 3)
    """
    facts = frame(graph, FACT_SUPPORT, ["subject", "relation", "object", "support", "confidence"])
    names = frame(graph, ENTITIES, ["entity", "type", "label"]).set_index("entity")
    facts = facts[facts.subject.isin(names.index) & facts.object.isin(names.index)].copy()
    for end in ("subject", "object"):
        facts[f"{end}_label"] = facts[end].map(names.label)
        facts[f"{end}_type"] = facts[end].map(names.type)
    return facts.sort_values(["relation", "subject", "object"], kind="stable").reset_index(drop=True)


def _add_entities(G: nx.Graph, names: pd.DataFrame) -> None:
    """Add the rows of ``names`` (``entity``, ``type``, ``label``) to ``G`` as nodes.

    >>> import pandas as pd
    >>> G = nx.Graph()
    >>> _add_entities(G, pd.DataFrame({"entity": ["e"], "type": ["Task"], "label": ["parsing"]}))
    >>> dict(G.nodes(data=True))
    {'e': {'type': 'Task', 'label': 'parsing'}}
    """
    chosen = names
    G.add_nodes_from((row.entity, {"type": row.type, "label": row.label}) for row in chosen.itertuples(index=False))


def entity_graph(graph: KnowledgeGraph, min_papers: int = 1) -> nx.Graph:
    """Entities linked when abstracts name them together: the graph communities are found in.

    Nodes are entity IRIs with ``type`` and ``label``; an edge has ``weight``
    (papers naming both; at least ``min_papers``) and ``relations`` (the facts
    between the two, ``;``-separated, empty when they are only named together).
    Entities sharing no abstract with another are isolated nodes.

    >>> from kg.analysis.sample import tiny_graph
    >>> G = entity_graph(tiny_graph())
    >>> G.number_of_nodes(), G["https://w3id.org/kg-lit/id/method/bert"]["https://w3id.org/kg-lit/id/dataset/squad"]
    (12, {'weight': 2, 'relations': 'evaluatedOn'})
    """
    names = frame(graph, ENTITIES, ["entity", "type", "label"])
    G = nx.Graph()
    _add_entities(G, names)
    pairs = entity_pairs(graph, min_papers)
    G.add_edges_from((a, b, {"weight": int(n), "relations": ""}) for a, b, n in zip(pairs.a, pairs.b, pairs.papers))
    relations: dict[tuple[str, str], set[str]] = defaultdict(set)
    for s, r, o in frame(graph, RELATIONS, ["subject", "relation", "object"]).itertuples(index=False):
        if s != o and G.has_edge(s, o):
            relations[(s, o) if s < o else (o, s)].add(r)
    for (s, o), found in relations.items():
        G[s][o]["relations"] = ";".join(sorted(found))
    return G


def bipartite(graph: KnowledgeGraph, relation: str = "addresses") -> nx.Graph:
    """The method–task (``addresses``) or method–dataset (``evaluatedOn``) bipartite graph.

    Methods have ``bipartite=0``, the other side ``bipartite=1``; both carry
    ``type`` and ``label``. Edge ``weight`` is the fact's support (papers).

    >>> from kg.analysis.sample import tiny_graph
    >>> B = bipartite(tiny_graph(), "evaluatedOn")
    >>> sorted(B.nodes[n]["label"] for n in B if B.nodes[n]["bipartite"] == 1)
    ['GLUE', 'ImageNet', 'SQuAD']
    """
    facts = fact_table(graph)
    facts = facts[(facts.relation == relation) & (facts.subject_type == "Method")]
    B = nx.Graph()
    for end, side in (("subject", 0), ("object", 1)):
        B.add_nodes_from((n, {"type": t, "label": label, "bipartite": side}) for n, t, label in zip(facts[end], facts[f"{end}_type"], facts[f"{end}_label"]))
    B.add_edges_from((s, o, {"weight": int(w)}) for s, o, w in zip(facts.subject, facts.object, facts.support))
    return B


def projection(B: nx.Graph, side: int = 0) -> nx.Graph:
    """Project a :func:`bipartite` graph onto one side: methods sharing a task, or tasks sharing a method.

    Edge ``weight`` counts the shared neighbours.

    >>> from kg.analysis.sample import tiny_graph
    >>> P = projection(bipartite(tiny_graph(), "addresses"), side=0)
    >>> sorted(tuple(sorted(P.nodes[n]["label"] for n in e)) for e in P.edges)
    [('BERT', 'GPT'), ('ResNet', 'ViT')]
    """
    nodes = [n for n, s in B.nodes(data="bipartite") if s == side]
    return nx.bipartite.weighted_projected_graph(B, nodes)


def communities(G: nx.Graph, *, seed: int = 0, resolution: float = 1.0) -> pd.DataFrame:
    """Louvain communities of ``G`` (weighted), numbered by size: 0 is the largest.

    Returns one row per node: ``node``, ``label``, ``type``, ``community`` and
    ``size`` (of its community). Ties in size are ordered by their smallest
    node, so the numbering is stable for a fixed ``seed``.

    >>> from kg.analysis.sample import tiny_graph
    >>> found = communities(entity_graph(tiny_graph()))
    >>> found.groupby("community").label.apply(sorted).tolist()
    [['BERT', 'F1', 'GLUE', 'GPT', 'SQuAD', 'question answering'], ['Adam', 'ImageNet', 'ResNet', 'ViT', 'accuracy', 'image classification']]
    """
    import pandas as pd

    linked = G.subgraph([n for n in G if G.degree(n)])
    # An isolated node is a community of its own; leaving them out spares Louvain the work.
    found = nx.community.louvain_communities(linked, weight="weight", resolution=resolution, seed=seed) if linked.number_of_nodes() else []
    found += [{n} for n in G if not G.degree(n)]
    found = sorted(found, key=lambda members: (-len(members), min(members)))
    rows = [(n, G.nodes[n].get("label", n), G.nodes[n].get("type", ""), i, len(members)) for i, members in enumerate(found) for n in sorted(members)]
    return pd.DataFrame(rows, columns=["node", "label", "type", "community", "size"])


def community_table(G: nx.Graph, found: pd.DataFrame, top: int = 3) -> pd.DataFrame:
    """One row per community: ``community``, ``size``, the ``top`` best-connected ``members`` (labels) and the ``types`` mix.

    >>> from kg.analysis.sample import tiny_graph
    >>> G = entity_graph(tiny_graph())
    >>> community_table(G, communities(G), top=2).members.tolist()
    [['BERT', 'question answering'], ['Adam', 'ImageNet']]
    """
    import pandas as pd

    strength = dict(G.degree(weight="weight"))
    rows = []
    for community, members in found.groupby("community", sort=True):
        ranked = sorted(zip(members.node, members.label), key=lambda m: (-strength.get(m[0], 0), m[1]))
        types = Counter(members.type)
        rows.append((community, len(members), [label for _, label in ranked[:top]], dict(sorted(types.items()))))
    return pd.DataFrame(rows, columns=["community", "size", "members", "types"])


def centrality(G: nx.Graph, *, samples: int = 8, seed: int = 0) -> pd.DataFrame:
    """Degree, weighted degree (``strength``), PageRank and betweenness of every node, most central first.

    Betweenness is exact up to :data:`EXACT_BETWEENNESS_UP_TO` linked nodes
    and estimated from ``samples`` random sources (fixed ``seed``) above:
    each source costs one breadth-first search of the whole graph, so the
    estimate ranks the big hubs and no more; isolated nodes score 0.

    >>> from kg.analysis.sample import tiny_graph
    >>> table = centrality(entity_graph(tiny_graph()))
    >>> table.label.head(3).tolist()
    ['Adam', 'BERT', 'question answering']
    """
    import pandas as pd

    columns = ["node", "label", "type", "degree", "strength", "pagerank", "betweenness"]
    if G.number_of_nodes() == 0:
        return pd.DataFrame(columns=columns)
    # Isolated nodes lie on no path: leaving them out keeps every sampled source useful.
    linked = G.subgraph([n for n in G if G.degree(n)])
    k = None if linked.number_of_nodes() <= EXACT_BETWEENNESS_UP_TO else min(samples, linked.number_of_nodes())
    between = dict.fromkeys(G, 0.0)
    between.update(nx.betweenness_centrality(linked, k=k, seed=seed, normalized=True))
    rank = nx.pagerank(G, weight="weight")
    strength = dict(G.degree(weight="weight"))
    table = pd.DataFrame(
        [(n, d.get("label", n), d.get("type", ""), G.degree(n), strength[n], rank[n], between[n]) for n, d in G.nodes(data=True)],
        columns=columns,
    )
    return table.sort_values(["betweenness", "pagerank", "node"], ascending=[False, False, True], kind="stable").reset_index(drop=True)


def bridges(G: nx.Graph, found: pd.DataFrame) -> pd.DataFrame:
    """Nodes that connect communities, by their participation coefficient.

    For a node with weighted degree k and weight k_c into community c, the
    participation coefficient is ``1 - sum_c (k_c / k)^2`` (Guimerà and
    Amaral, 2005): 0 when all its links stay in one community, near 1 when
    they spread evenly over many. Columns ``node``, ``label``, ``type``,
    ``community``, ``communities`` (touched by its links), ``participation``
    and ``strength``; only nodes linking two or more communities, strongest
    bridges first.

    >>> from kg.analysis.sample import tiny_graph
    >>> G = entity_graph(tiny_graph())
    >>> bridges(G, communities(G))[["label", "communities"]].values.tolist()
    [['Adam', 2], ['BERT', 2], ['question answering', 2], ['SQuAD', 2]]
    """
    import pandas as pd

    member = dict(zip(found.node, found.community))
    rows = []
    for node in G:
        weights: Counter[int] = Counter()
        for neighbour, data in G[node].items():
            weights[member[neighbour]] += data.get("weight", 1)
        total = sum(weights.values())
        if len(weights) < 2:
            continue
        participation = 1 - sum((w / total) ** 2 for w in weights.values())
        rows.append((node, G.nodes[node].get("label", node), G.nodes[node].get("type", ""), member[node], len(weights), participation, total))
    table = pd.DataFrame(rows, columns=["node", "label", "type", "community", "communities", "participation", "strength"])
    table["_score"] = table.participation * table.strength
    return table.sort_values(["_score", "label"], ascending=[False, True], kind="stable").drop(columns="_score").reset_index(drop=True)


def single_community_datasets(graph: KnowledgeGraph, found: pd.DataFrame, min_methods: int = 2) -> pd.DataFrame:
    """Datasets whose methods all sit in one community: benchmarks that one corner of the field keeps to itself.

    Looks at the methods evaluated on each dataset (at least ``min_methods``
    of them) and the communities of those methods in ``found``
    (:func:`communities`). Columns ``dataset``, ``label``, ``methods``,
    ``community``; most methods first.

    >>> from kg.analysis.sample import tiny_graph
    >>> g = tiny_graph()
    >>> single_community_datasets(g, communities(entity_graph(g)))[["label", "methods", "community"]].values.tolist()
    [['ImageNet', 2, 1]]
    """
    import pandas as pd

    member = dict(zip(found.node, found.community))
    facts = fact_table(graph)
    facts = facts[facts.relation == "evaluatedOn"]
    rows = []
    for (dataset, label), group in facts.groupby(["object", "object_label"], sort=True):
        methods = set(group.subject)
        homes = {member.get(m) for m in methods}
        if len(methods) >= min_methods and len(homes) == 1 and None not in homes:
            rows.append((dataset, label, len(methods), homes.pop()))
    table = pd.DataFrame(rows, columns=["dataset", "label", "methods", "community"])
    return table.sort_values(["methods", "label"], ascending=[False, True], kind="stable").reset_index(drop=True)
