"""The streamed graph.nt and store: the same bytes and triples as the in-memory graph, in bounded memory (issue 24, item 3)."""

from __future__ import annotations

from typing import cast

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.export.rdf import write_ntriples
from kg.export.store import load_store
from kg.model import Entity, Paper, Resolution, ResolvedFact
from kg.store.ntriples import sorted_lines, store_triples
from kg.store.rdf import graph_triples
from kg.views import KnowledgeGraph

texts = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=20)
names = st.text("abcdef", min_size=1, max_size=3)


@st.composite
def resolutions(draw) -> tuple[list[Paper], Resolution]:
    """Small random graphs: papers, entities mentioned in them, facts between them with confidences
    whose decimals the store writes canonical (0.5000 -> 0.5), and facts repeated across papers."""
    ids = draw(st.lists(names, min_size=1, max_size=5, unique=True))
    papers = [Paper(id=i, abstract=draw(texts), title=draw(st.none() | texts), year=draw(st.sampled_from([None, "2019", "x"])))
              for i in ids]
    keys = draw(st.lists(names, min_size=1, max_size=6, unique=True))
    entities = tuple(Entity(key=f"method/{k}", type=draw(st.sampled_from(["Method", "Task", "Dataset"])), label=draw(texts),
                            alt_labels=tuple(draw(st.lists(texts, max_size=2))), papers=tuple(draw(st.lists(st.sampled_from(ids), min_size=1, max_size=3))),
                            mentions=draw(st.integers(1, 9)))
                     for k in keys)
    facts = []
    for _ in range(draw(st.integers(0, 8))):
        evidence = draw(texts)
        facts.append(ResolvedFact(draw(st.sampled_from(ids)), draw(st.sampled_from(["uses", "addresses", "hasCode"])),
                                  f"method/{draw(st.sampled_from(keys))}", draw(st.sampled_from([f"method/{k}" for k in keys] + ["https://github.com/a/b"])),
                                  evidence, 0, len(evidence), "test/1", draw(st.sampled_from([0.5, 1.0, 0.25, 0.12345, 0.0]))))
    return papers, Resolution(entities, tuple(facts))


def _old_ntriples(store: ox.Store) -> bytes:
    """graph.nt as kg wrote it before streaming: every triple serialised at once, the lines sorted."""
    triples = [ox.Triple(q.subject, q.predicate, q.object) for q in store]
    return b"".join(sorted(cast(bytes, ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES)).splitlines(keepends=True)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(graph=resolutions(), chunk=st.integers(1, 40), fan_in=st.integers(2, 5))
def test_the_streamed_graph_equals_the_in_memory_one(graph, chunk, fan_in, tmp_path_factory):
    papers, resolution = graph
    folder = tmp_path_factory.mktemp("g")
    memory = KnowledgeGraph.from_resolution(papers, resolution)
    count = load_store((ox.Quad(t.subject, t.predicate, t.object) for t in graph_triples(papers, resolution)), folder / "store")
    disk = KnowledgeGraph(ox.Store.read_only(str(folder / "store")))
    assert count == len(memory) == len(disk)
    assert set(disk.store) == set(memory.store)  # the same terms: the store's canonical decimals both ways
    expected = _old_ntriples(memory.store)
    assert b"".join(sorted_lines(store_triples(disk.store), chunk=chunk, fan_in=fan_in, spill=folder)) == expected
    assert memory.serialize("ntriples") == expected
    write_ntriples(disk, folder / "graph.nt")
    assert (folder / "graph.nt").read_bytes() == expected
    assert sorted(p.name for p in folder.iterdir()) == ["graph.nt", "store"]  # no sorted run left behind


@pytest.mark.parametrize("chunk", [1, 2, 3, 100])
def test_lines_are_sorted_bytes_each_once(chunk, tmp_path):
    triples = [ox.Triple(ox.NamedNode(f"http://a/{c}"), ox.NamedNode("http://a/p"), ox.Literal(v))
               for c in "zyxab" for v in ("é", "e", "E")]
    lines = list(sorted_lines(triples + triples[::-1], chunk=chunk, fan_in=2, spill=tmp_path))
    assert lines == sorted(set(lines)) and len(lines) == len(triples)
    assert list(tmp_path.iterdir()) == []


def test_a_sort_given_up_half_way_leaves_no_runs(tmp_path):
    triples = (ox.Triple(ox.NamedNode(f"http://a/{i}"), ox.NamedNode("http://a/p"), ox.Literal("1")) for i in range(50))
    lines = sorted_lines(triples, chunk=5, spill=tmp_path)
    assert next(lines).startswith(b"<http://a/0>")
    assert len(list(tmp_path.iterdir())) == 1  # the runs' folder
    lines.close()
    assert list(tmp_path.iterdir()) == []


def _peak_bytes(chunk: int, spill) -> int:
    import tracemalloc

    triples = (ox.Triple(ox.NamedNode(f"http://a/{i:06}"), ox.NamedNode("http://a/p"), ox.Literal("x" * 50)) for i in range(20_000))
    tracemalloc.start()
    try:
        for _ in sorted_lines(triples, chunk=chunk, spill=spill):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_sort_holds_a_chunk_not_the_graph(tmp_path):
    whole, chunked = _peak_bytes(20_000, tmp_path), _peak_bytes(500, tmp_path)
    assert chunked * 5 < whole, (chunked, whole)
