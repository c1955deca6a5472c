"""kg.analysis on hand-made and synthetic graphs: shapes, edge cases and determinism."""

from __future__ import annotations

import networkx as nx
import pytest

pytest.importorskip("pandas")

from kg.analysis import (  # noqa: E402
    annotated_graph,
    bipartite,
    bridges,
    centrality,
    communities,
    cooccurrence,
    entity_graph,
    leaderboard,
    projection,
    synthetic_graph,
    task_gaps,
    tiny_graph,
    trends,
    usage,
    write_gexf,
    write_graphml,
)
from kg.errors import UserError  # noqa: E402
from kg.model import Entity, Paper, Resolution, ResolvedFact  # noqa: E402
from kg.views import KnowledgeGraph  # noqa: E402


@pytest.fixture(scope="module")
def synthetic():
    return synthetic_graph(1_500, seed=3)


def test_unknown_entity_type_is_a_user_error():
    with pytest.raises(UserError, match="E392"):
        usage(tiny_graph(), "Paper")


def test_leaderboard_keeps_methods_evaluated_on_nothing(synthetic):
    board = leaderboard(synthetic)
    assert not board.empty
    assert {"task", "method", "papers", "datasets", "metrics"} <= set(board.columns)
    assert all(isinstance(v, list) for v in board.datasets) and all(isinstance(v, list) for v in board.metrics)
    # A synthetic method states only some relations, so some rows have no dataset at all.
    assert (board.datasets.map(len) == 0).any() and (board.datasets.map(len) > 0).any()


def test_cooccurrence_counts_shared_papers_once_per_pair():
    pairs = cooccurrence(tiny_graph())
    assert (pairs.a < pairs.b).all()
    assert not pairs.duplicated(["a", "b"]).any()
    ends = pairs.a_label + "|" + pairs.b_label
    shared = pairs[ends.isin(["BERT|SQuAD", "SQuAD|BERT"])].papers.tolist()
    assert shared == [2]


def test_task_gaps_rank_tasks_without_datasets_first():
    papers = [Paper(id=f"q{i}", abstract=f"Abstract {i}.") for i in range(3)]
    entities = (
        Entity(key="task/lonely", type="Task", label="lonely task", papers=("q0", "q1", "q2"), mentions=3),
        Entity(key="task/served", type="Task", label="served task", papers=("q0", "q1", "q2"), mentions=3),
        Entity(key="method/m", type="Method", label="M", papers=("q0",), mentions=1),
        Entity(key="dataset/d", type="Dataset", label="D", papers=("q0",), mentions=1),
    )
    facts = (
        ResolvedFact("q0", "addresses", "method/m", "task/served", "Abstract 0.", 0, 11, "test/1", 0.9),
        ResolvedFact("q0", "evaluatedOn", "method/m", "dataset/d", "Abstract 0.", 0, 11, "test/1", 0.9),
    )
    graph = KnowledgeGraph.from_resolution(papers, Resolution(entities=entities, facts=facts))
    gaps = task_gaps(graph)
    assert gaps.label.tolist() == ["lonely task", "served task"]
    assert gaps.datasets.tolist() == [0, 1]


def test_trends_are_empty_without_dates():
    papers = [Paper(id="u1", abstract="We study parsing.")]
    entities = (Entity(key="task/parsing", type="Task", label="parsing", papers=("u1",), mentions=1),)
    graph = KnowledgeGraph.from_resolution(papers, Resolution(entities=entities, facts=()))
    assert trends(graph).empty


def test_trend_shares_are_shares(synthetic):
    table = trends(synthetic, "Dataset", top=5)
    assert table.label.nunique() == 5
    assert ((table.share >= 0) & (table.share <= 1)).all()


def test_projection_links_methods_through_shared_tasks():
    B = bipartite(tiny_graph(), "addresses")
    assert nx.is_bipartite(B)
    P = projection(B, side=1)
    assert P.number_of_edges() == 0  # no method addresses both tasks


def test_communities_are_deterministic_for_a_seed(synthetic):
    G = entity_graph(synthetic)
    first, second = communities(G, seed=7), communities(G, seed=7)
    assert first.equals(second)
    assert set(first.node) == set(G.nodes)
    assert first.groupby("community")["size"].first().is_monotonic_decreasing


def test_bridges_touch_several_communities(synthetic):
    G = entity_graph(synthetic)
    found = communities(G)
    table = bridges(G, found)
    assert not table.empty
    assert (table.communities >= 2).all()
    assert ((table.participation > 0) & (table.participation < 1)).all()


def test_betweenness_is_sampled_on_large_graphs(monkeypatch, synthetic):
    import kg.analysis.networks as networks

    G = entity_graph(synthetic)
    monkeypatch.setattr(networks, "EXACT_BETWEENNESS_UP_TO", 10)
    sampled = centrality(G, samples=8, seed=1)
    assert len(sampled) == G.number_of_nodes()
    assert sampled.betweenness.max() > 0
    assert centrality(G, samples=8, seed=1).equals(sampled)


def test_gexf_and_graphml_carry_communities_and_survive_odd_labels(tmp_path):
    papers = [Paper(id="v1", abstract="Odd.")]
    entities = (
        Entity(key="method/odd", type="Method", label='A\x1b"<&>\r\n', papers=("v1",), mentions=1),
        Entity(key="task/t", type="Task", label="t", papers=("v1",), mentions=1),
    )
    facts = (ResolvedFact("v1", "addresses", "method/odd", "task/t", "Odd.", 0, 4, "test/1", 0.5),)
    G = annotated_graph(KnowledgeGraph.from_resolution(papers, Resolution(entities=entities, facts=facts)))
    write_gexf(G, tmp_path / "g.gexf")
    write_graphml(G, tmp_path / "g.graphml")
    for back in (nx.read_gexf(tmp_path / "g.gexf"), nx.read_graphml(tmp_path / "g.graphml")):
        node = back.nodes["https://w3id.org/kg-lit/id/method/odd"]
        assert node["community"] == 0 and "pagerank" in node and "betweenness" in node
        assert node["label"].startswith('A"<&>')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.gexf", "g.graphml"]


def test_default_graphml_export_is_unchanged_by_analysis(tmp_path):
    from kg.export import write_all

    graph = tiny_graph()
    write_all(graph, tmp_path, ["graph.graphml"])
    before = (tmp_path / "graph.graphml").read_bytes()
    annotated_graph(graph)
    write_all(graph, tmp_path, ["graph.graphml"])
    assert (tmp_path / "graph.graphml").read_bytes() == before


def test_every_function_in_kg_analysis_has_a_docstring_example():
    import importlib
    import inspect
    import pkgutil

    import kg.analysis

    missing = []
    for info in pkgutil.iter_modules(kg.analysis.__path__):
        module = importlib.import_module(f"kg.analysis.{info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ == module.__name__ and ">>>" not in (function.__doc__ or ""):
                missing.append(f"{module.__name__}.{name}")
    assert missing == []


def test_the_vocabulary_iri_agrees_with_the_store():
    from kg.analysis.queries import VOCAB
    from kg.store.namespace import VOCAB as STORE_VOCAB

    assert VOCAB == STORE_VOCAB


def test_centrality_samples_betweenness_above_the_bound(monkeypatch):
    """Past EXACT_BETWEENNESS_UP_TO linked nodes, betweenness comes from `samples` sources (notebook 02 stays fast)."""
    import networkx as nx

    from kg.analysis import networks

    seen = []
    real = nx.betweenness_centrality

    def spy(G, k=None, **options):
        seen.append((G.number_of_nodes(), k))
        return real(G, k=k, **options)

    monkeypatch.setattr(networks.nx, "betweenness_centrality", spy)
    assert networks.EXACT_BETWEENNESS_UP_TO <= 500
    networks.centrality(nx.path_graph(networks.EXACT_BETWEENNESS_UP_TO + 1), samples=8)
    networks.centrality(nx.path_graph(50))
    assert seen == [(networks.EXACT_BETWEENNESS_UP_TO + 1, 8), (50, None)]
