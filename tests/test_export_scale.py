"""A large build leaves out the exports of no use at its size, and says so in one line (issue 24, item 3).

The limit is lowered through ``KG_LARGE_GRAPH`` so that stub-engine builds of a few papers are "large".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kg
from kg.buildfolder import BuildFolder
from kg.cli import main
from kg.engines import ENGINES

from . import stub_engine

SKIPPED = {"graph.ttl", "graph.jsonld", "graph.graphml"}


@pytest.fixture(autouse=True)
def _stub(monkeypatch):
    monkeypatch.setitem(ENGINES.specs, stub_engine.NAME, stub_engine.SPEC)


def _papers(path: Path, ids) -> Path:
    path.write_text("".join(json.dumps({"id": i, "abstract": f"We propose {i}Net for image classification."}) + "\n" for i in ids),
                    encoding="utf-8")
    return path


def _build(tmp_path, out, **options):
    warnings: list[str] = []
    report = kg.build([str(_papers(tmp_path / "a.jsonl", ["a1", "a2", "a3"]))], out, engine="stub",
                      on_warning=warnings.append, **options)
    return report, warnings


def _names(out: Path) -> set[str]:
    return {p.name for p in out.iterdir()}


def test_above_the_limit_the_build_skips_what_is_of_no_use_and_says_so_once(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_LARGE_GRAPH", "10")
    report, warnings = _build(tmp_path, tmp_path / "out")
    notes = [w for w in warnings if "not written" in w]
    assert len(notes) == 1 and f"{report.triples:,} triples (more than 10)" in notes[0], warnings
    assert all(name in notes[0] for name in SKIPPED) and "graph.html" not in notes[0]  # three nodes fit on a page
    assert not SKIPPED & _names(tmp_path / "out")
    assert {"graph.nt", "store", "facts.csv", "results.csv", "graph.html"} <= _names(tmp_path / "out")
    files = set(BuildFolder(tmp_path / "out").read_manifest().files)
    assert not SKIPPED & files and {"graph.nt", "store", "graph.html"} <= files
    assert kg.load(tmp_path / "out").serialize("ntriples") == (tmp_path / "out" / "graph.nt").read_bytes()


def test_the_page_is_skipped_only_when_it_could_not_hold_the_graph(tmp_path, monkeypatch):
    import kg.export.html as html_export

    monkeypatch.setattr(html_export, "PAGE_LIMIT", 2)
    monkeypatch.setenv("KG_LARGE_GRAPH", "10")
    _, warnings = _build(tmp_path, tmp_path / "out")
    assert "graph.html" not in _names(tmp_path / "out")
    assert [w for w in warnings if "graph.html" in w] == [w for w in warnings if "not written" in w]  # no page note either
    monkeypatch.setenv("KG_LARGE_GRAPH", "1000000")
    _, warnings = _build(tmp_path, tmp_path / "small")
    assert {"graph.html", *SKIPPED} <= _names(tmp_path / "small") and not any("not written" in w for w in warnings)


def test_exports_named_are_written_whatever_the_size(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_LARGE_GRAPH", "1")
    _, warnings = _build(tmp_path, tmp_path / "out", formats=["graph.ttl", "graph.nt"])
    assert {"graph.ttl", "graph.nt"} <= _names(tmp_path / "out") and "store" not in _names(tmp_path / "out")
    assert not any("not written" in w for w in warnings)
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".store")]  # the scratch store is gone


def test_a_bad_limit_is_one_line_and_nothing_is_written(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KG_LARGE_GRAPH", "lots")
    code = main(["build", str(_papers(tmp_path / "a.jsonl", ["a1"])), "--out", str(tmp_path / "out"), "--engine", "stub"])
    err = capsys.readouterr().err
    assert code == 2 and [line for line in err.splitlines() if line.startswith("kg: error:")] == [
        "kg: error: E311: invalid option: KG_LARGE_GRAPH='lots' is not a whole number of triples"], err
    assert "Traceback" not in err and not (tmp_path / "out").exists()


def test_the_cli_says_it_in_one_warning_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KG_LARGE_GRAPH", "1")
    code = main(["build", str(_papers(tmp_path / "a.jsonl", ["a1"])), "--out", str(tmp_path / "out"), "--engine", "stub"])
    out = capsys.readouterr()
    lines = [line for line in (out.out + out.err).splitlines() if "not written" in line]
    assert code == 0 and len(lines) == 1 and lines[0].startswith("kg: warning: the graph has"), out
