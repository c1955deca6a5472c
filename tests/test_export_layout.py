"""The HTML view's force layout: deterministic, neighbours close, nothing on top of another."""

from __future__ import annotations

import math
import random

import networkx as nx
import pytest

from kg.explorer.layout import force_layout
from tests.test_export_support import synthetic_view


def distance(a, b):
    return math.dist(a, b)


def test_same_set_of_nodes_and_edges_gives_the_same_layout():
    graph = synthetic_view(300, 450, seed=1)
    edges = list(graph.edges())
    random.Random(4).shuffle(edges)
    shuffled = nx.Graph()
    shuffled.add_nodes_from(sorted(graph, reverse=True))
    shuffled.add_edges_from((v, u) for u, v in edges)  # direction and order do not matter
    assert force_layout(graph) == force_layout(shuffled)
    assert force_layout(graph, seed=5) != force_layout(graph)


def test_neighbours_end_up_closer_than_strangers():
    graph = nx.connected_caveman_graph(8, 6)  # eight cliques in a ring
    pos = force_layout(graph)
    linked = [distance(pos[u], pos[v]) for u, v in graph.edges()]
    rng = random.Random(0)
    pairs = (rng.sample(sorted(graph), 2) for _ in range(500))
    strangers = [distance(pos[u], pos[v]) for u, v in pairs if not graph.has_edge(u, v)]
    assert sorted(linked)[len(linked) // 2] < 0.5 * sorted(strangers)[len(strangers) // 2]


def test_no_two_nodes_share_a_position():
    pos = force_layout(synthetic_view(2000, 3000))
    assert len(set(pos.values())) == len(pos)


def test_isolated_nodes_sit_in_rows_below_in_key_order():
    graph = nx.path_graph(5)
    graph.add_nodes_from(["c", "a", "b"])
    graph.add_edge(9, 9)  # a self-loop does not connect a node
    pos = force_layout(graph, isolated_key=lambda node: str(node))
    lowest = max(pos[n][1] for n in range(5))
    alone = sorted(["a", "b", "c", 9], key=str)
    assert all(pos[n][1] > lowest for n in alone)
    assert sorted(alone, key=lambda n: (pos[n][1], pos[n][0])) == alone  # reading order


@pytest.mark.parametrize("graph", [nx.Graph(), nx.empty_graph(1), nx.empty_graph(3), nx.Graph([(0, 1)])])
def test_tiny_graphs(graph):
    pos = force_layout(graph)
    assert set(pos) == set(graph) and len(set(pos.values())) == len(pos)


def test_groups_pull_their_members_together():
    # Cliques with a third of their edges rewired at random: the groups are blurred in the edges.
    graph = nx.relaxed_caveman_graph(6, 8, 0.35, seed=1)
    groups = {node: node // 8 for node in graph}
    plain, grouped = force_layout(graph), force_layout(graph, groups=groups)

    def spread(pos):
        same = [distance(pos[u], pos[v]) for u in graph for v in graph if u < v and groups[u] == groups[v]]
        other = [distance(pos[u], pos[v]) for u in graph for v in graph if groups[u] != groups[v]]
        return sum(same) / len(same) / (sum(other) / len(other))

    assert spread(grouped) < 0.9 * spread(plain)  # 0.35 against 0.41 here
    assert set(grouped) == set(graph)  # the hubs are not in the result
