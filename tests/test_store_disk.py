"""The on-disk store: written atomically by the build, opened read-only, never created by a reader."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pyoxigraph as ox
import pytest

from kg.cli import main
from kg.errors import KgError, UserError
from kg.export import write_all
from kg.export.store import write_store
from kg.views import KnowledgeGraph
from kg.store.disk import open_graph, open_store

from .conftest import needs_seeds


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_write_all_publishes_a_store_equal_to_the_graph(tiny_graph, tmp_path):
    write_all(tiny_graph, tmp_path, ["graph.nt", "store"])
    store = open_store(tmp_path / "store")
    assert KnowledgeGraph(store).serialize("ntriples") == (tmp_path / "graph.nt").read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_build_folder_is_read_from_its_store_not_graph_nt(tiny_graph, tmp_path, capsys):
    write_all(tiny_graph, tmp_path, ["graph.nt", "store"])
    (tmp_path / "graph.nt").write_text("not N-Triples at all")  # would fail to parse if it were read
    assert main(["query", str(tmp_path), "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }", "-f", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == ["n", "2"]
    assert KnowledgeGraph.load(tmp_path).stats() == tiny_graph.stats()


def test_a_store_folder_opens_directly_and_read_only(tiny_graph, tmp_path):
    write_store(tiny_graph, tmp_path / "store")
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "store").iterdir()}
    graph = KnowledgeGraph.load(tmp_path / "store")
    assert len(graph) == len(tiny_graph)
    with pytest.raises(RuntimeError, match="read-write"):  # read-only: Oxigraph refuses writes
        graph.store.add(ox.Quad(ox.NamedNode("http://a/x"), ox.NamedNode("http://a/p"), ox.Literal("1")))
    del graph
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "store").iterdir()} == before


def test_old_build_folders_without_store_still_load(tiny_graph, tmp_path):
    (tmp_path / "graph.nt").write_bytes(tiny_graph.serialize("ntriples"))
    assert KnowledgeGraph.load(tmp_path).serialize("ntriples") == tiny_graph.serialize("ntriples")


@pytest.mark.parametrize("command", [["query", "{dir}", "SELECT * WHERE { ?s ?p ?o }"], ["stats", "{dir}"], ["explain", "{dir}", "x"], ["validate", "{dir}"]])
def test_reading_an_empty_folder_is_one_line_and_creates_nothing(tmp_path, capsys, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    code = main([a.replace("{dir}", str(empty)) for a in command])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("kg: error: E330") and str(empty) in err
    assert list(empty.iterdir()) == []


def test_reading_a_folder_of_other_files_creates_nothing(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(UserError, match="E330"):
        open_graph(tmp_path)
    assert _files(tmp_path) == ["notes.txt"]


def test_a_broken_store_is_a_user_error(tiny_graph, tmp_path):
    write_store(tiny_graph, tmp_path / "store")
    for sst in (tmp_path / "store").glob("*.sst"):
        sst.write_bytes(b"garbage")
    with pytest.raises(UserError, match="E333"):
        open_graph(tmp_path)


def test_two_readers_at_once_in_one_process_and_in_two(tiny_graph, tmp_path):
    write_store(tiny_graph, tmp_path / "store")
    first, second = open_graph(tmp_path), open_graph(tmp_path)
    assert len(first) == len(second) == len(tiny_graph)
    script = "import sys; from kg.store.disk import open_graph; print(len(open_graph(sys.argv[1])))"
    readers = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True) for _ in range(2)]
    assert [int(r.communicate(timeout=60)[0]) for r in readers] == [len(tiny_graph)] * 2
    assert len(list(first.query("SELECT * WHERE { ?s ?p ?o }"))) == len(tiny_graph)  # still readable


def test_republishing_keeps_open_readers_working(tiny_graph, tmp_path):
    write_store(tiny_graph, tmp_path / "store")
    reader = open_graph(tmp_path)
    bigger = KnowledgeGraph()
    bigger.store.bulk_extend(tiny_graph.store)
    bigger.store.add(ox.Quad(ox.NamedNode("http://a/x"), ox.NamedNode("http://a/p"), ox.Literal("1")))
    write_store(bigger, tmp_path / "store")
    assert len(reader) == len(tiny_graph)  # the old generation, still whole
    assert len(open_graph(tmp_path)) == len(tiny_graph) + 1
    assert [p.name for p in tmp_path.iterdir()] == ["store"]  # no temporary or old folder left


def test_a_failed_check_keeps_the_old_store(tiny_graph, tmp_path, monkeypatch):
    write_store(tiny_graph, tmp_path / "store")
    before = _files(tmp_path)
    import kg.export.store as module

    def refuse(folder, triples):
        raise KgError("E350", path=folder, reason="refused by the test")

    monkeypatch.setattr(module, "check_store", refuse)
    with pytest.raises(KgError, match="E350"):
        write_store(KnowledgeGraph(), tmp_path / "store")
    assert _files(tmp_path) == before and len(open_graph(tmp_path)) == len(tiny_graph)


@pytest.mark.slow
@needs_seeds
def test_the_seed_build_writes_a_store_that_agrees_with_graph_nt(seed_build, tmp_path):
    out, _ = seed_build
    from_store = KnowledgeGraph(open_store(out / "store"))
    assert from_store.serialize("ntriples") == (out / "graph.nt").read_bytes()
    copy = tmp_path / "copy"
    shutil.copytree(out / "store", copy / "store")
    os.chmod(copy / "store", 0o555)  # a reader needs no write permission
    try:
        assert KnowledgeGraph.load(copy).stats() == from_store.stats()
    finally:
        os.chmod(copy / "store", 0o755)
