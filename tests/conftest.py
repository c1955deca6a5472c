"""Shared fixtures: small hand-made graphs, and paths to the shared data when present."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.model import Entity, Paper, Resolution, ResolvedFact

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEEDS = sorted((SHARED / "seeds").glob("*.txt"))
SCIERC = SHARED / "data" / "scierc"

needs_seeds = pytest.mark.skipif(not SEEDS, reason="../shared/seeds is not present")


def tiny_resolution() -> tuple[list[Paper], Resolution]:
    """Two papers, three entities and four facts, written by hand."""
    a = "We propose FooNet for image classification. Code: https://github.com/a/b"
    b = 'FooNet is evaluated on CIFAR-10 and "beats" <b>BarNet</b>.'
    papers = [
        Paper(id="p1", abstract=a, title="FooNet: a <net>", year="2021", authors=("Ada",)),
        Paper(id="p 2", abstract=b),
    ]
    entities = (
        Entity(key="method/foonet", type="Method", label="FooNet", alt_labels=("FN",), papers=("p 2", "p1"), mentions=3),
        Entity(key="task/image-classification", type="Task", label="image classification", papers=("p1",), mentions=1),
        Entity(key="dataset/cifar-10", type="Dataset", label="CIFAR-10", papers=("p 2",), mentions=1),
        Entity(key="method/barnet", type="Method", label="BarNet", papers=("p 2",), mentions=1),
    )
    facts = (
        ResolvedFact("p1", "proposes", None, "method/foonet", a[:43], 0, 43, "kg.contributions/1", 0.9),
        ResolvedFact("p1", "addresses", "method/foonet", "task/image-classification", a[:43], 0, 43, "kg.relations/1", 0.8),
        ResolvedFact("p1", "hasCode", None, "https://github.com/a/b", a[44:], 44, len(a), "kg.relations/1", 0.95),
        ResolvedFact("p 2", "evaluatedOn", "method/foonet", "dataset/cifar-10", b, 0, len(b), "kg.relations/1", 0.7),
        ResolvedFact("p 2", "outperforms", "method/foonet", "method/barnet", b, 0, len(b), "kg.relations/1", 0.6),
    )
    return papers, Resolution(entities=entities, facts=facts)


@pytest.fixture
def tiny_graph():
    from kg.views import KnowledgeGraph

    papers, resolution = tiny_resolution()
    return KnowledgeGraph.from_resolution(papers, resolution)


CORPUS = REPO / "examples" / "corpus"


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory):
    """One full build of the bundled example corpus, shared by every test that reads it."""
    import kg

    out = tmp_path_factory.mktemp("seeds") / "build"
    report = kg.build([str(CORPUS)], out)
    return out, report
