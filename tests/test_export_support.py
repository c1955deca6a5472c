"""Graphs for the export tests: a small real KnowledgeGraph and a synthetic big view.

Imported by the other ``test_export*`` modules; the few tests here check that
the builders give what the others rely on.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx

from kg.model import Entity, Paper, Resolution, ResolvedFact

RELATIONS = ("addresses", "evaluatedOn", "measuredBy", "outperforms", "uses")
ENTITY_TYPES = ("Method", "Task", "Dataset", "Metric")


def small_papers_and_resolution(
    label: str = "BERT", evidence: str = "We apply BERT to question answering.", title: str = "A paper"
) -> tuple[list[Paper], Resolution]:
    """Two papers, four entities, a URL; ``label``/``evidence``/``title`` are injectable."""
    papers = [
        Paper(id="p1", abstract=evidence, title=title),
        Paper(id="p2", abstract="BERT is evaluated on SQuAD with F1."),
    ]
    entities = (
        Entity(key="method/bert", type="Method", label=label, alt_labels=("bert-base", "B.E.R.T."),
               papers=("p1", "p2"), mentions=3),
        Entity(key="task/qa", type="Task", label="question answering", alt_labels=("QA",), papers=("p1",), mentions=1),
        Entity(key="dataset/squad", type="Dataset", label="SQuAD", papers=("p2",), mentions=1),
        Entity(key="metric/f1", type="Metric", label="F1", papers=("p2",), mentions=1),
    )

    def fact(paper: str, relation: str, subject: str | None, obj: str, sentence: str, confidence: float) -> ResolvedFact:
        return ResolvedFact(paper_id=paper, relation=relation, subject=subject, object=obj, evidence=sentence,
                            start=0, end=len(sentence), extractor="test", confidence=confidence)

    second = papers[1].abstract
    facts = (
        fact("p1", "addresses", "method/bert", "task/qa", evidence, 0.9),
        fact("p1", "proposes", None, "method/bert", evidence, 0.7),
        fact("p1", "hasCode", None, "https://github.com/example/bert", evidence, 0.8),
        fact("p2", "evaluatedOn", "method/bert", "dataset/squad", second, 0.85),
        fact("p2", "measuredBy", "method/bert", "metric/f1", second, 0.6),
    )
    return papers, Resolution(entities=entities, facts=facts)


def small_kg(**texts: str):
    """A real KnowledgeGraph of :func:`small_papers_and_resolution`."""
    from kg.views import KnowledgeGraph

    return KnowledgeGraph.from_resolution(*small_papers_and_resolution(**texts))


def synthetic_view(n_nodes: int = 2000, n_edges: int = 3000, seed: int = 0) -> nx.MultiDiGraph:
    """A view shaped like ``to_networkx()`` of a literature graph, of the given size.

    A quarter of the nodes are papers; entity popularity is skewed (a few hubs,
    many leaves) as in real corpora; every edge has one to four evidence sentences.
    """
    rng = random.Random(seed)
    graph = nx.MultiDiGraph()
    papers = [f"https://w3id.org/kg-lit/id/paper/p{i}" for i in range(n_nodes // 4)]
    entities = [f"https://w3id.org/kg-lit/id/e/{i}" for i in range(n_nodes - len(papers))]
    for i, node in enumerate(papers):
        graph.add_node(node, type="Paper", label=f"Paper {i}: a study of things", alt_labels=[], support=1)
    for i, node in enumerate(entities):
        kind = ENTITY_TYPES[i % len(ENTITY_TYPES)]
        graph.add_node(node, type=kind, label=f"{kind} number {i}", alt_labels=[f"alt {i}", f"A{i}"],
                       support=1 + int(rng.paretovariate(1.5)))
    cumulative = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(entities))))
    added = 0
    while added < n_edges:
        if rng.random() < 0.3:
            source, relation = rng.choice(papers), "proposes"
        else:
            source, relation = rng.choice(entities), rng.choice(RELATIONS)
        target = rng.choices(entities, cum_weights=cumulative)[0]
        if source == target or graph.has_edge(source, target, key=relation):
            continue
        count = rng.randint(1, 4)
        graph.add_edge(source, target, key=relation, relation=relation, support=count,
                       papers=[f"p{rng.randrange(len(papers))}" for _ in range(count)],
                       evidence=[f"Sentence {k} says that {relation} holds here." for k in range(count)],
                       confidence=round(rng.random(), 3))
        added += 1
    return graph


def test_synthetic_view_has_the_requested_size_and_attributes():
    graph = synthetic_view(200, 300, seed=3)
    assert (graph.number_of_nodes(), graph.number_of_edges()) == (200, 300)
    assert {d["type"] for _, d in graph.nodes(data=True)} == {"Paper", *ENTITY_TYPES}
    assert all(len(d["evidence"]) == d["support"] for *_, d in graph.edges(data=True))


def test_small_kg_view_has_every_node_type():
    view = small_kg().to_networkx()
    assert {d["type"] for _, d in view.nodes(data=True)} == {"Paper", "Method", "Task", "Dataset", "Metric", "Code"}
