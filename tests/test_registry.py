"""One registry pattern for readers, exporters and engines: lazy built-ins, entry points for other packages.

Another package's plugin is simulated by a monkeypatched ``importlib.metadata.entry_points``
that adds entry points (of this module's objects) to one group, as an installed
distribution's ``entry_points.txt`` would.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import subprocess
import sys
from collections.abc import Iterable, Iterator
from importlib.metadata import EntryPoint, EntryPoints

import pytest

from kg.cli import main
from kg.engines import make_executor
from kg.errors import UserError
from kg.export import write_all
from kg.model import Paper, Rejection
from kg.readers import Format, read_inputs
from kg.registry import ENGINES, EXPORTERS, READERS, Registry
from tests.test_export_support import small_kg

REGISTRIES = {"reader": READERS, "exporter": EXPORTERS, "engine": ENGINES}


def parse_bib(text: str | Iterable[str], name: str) -> Iterator[Paper | Rejection]:
    """A toy BibTeX-ish reader: one ``abstract = {...}`` per line is one paper."""
    lines = text.splitlines() if isinstance(text, str) else text
    for number, line in enumerate(lines, 1):
        if "abstract = {" in line:
            yield Paper(id=f"bib-{number}", abstract=line.split("{", 1)[1].rstrip("}\n "), source=f"{name}:{number}")


BIB = Format("bib", parse_bib, (".bib",))


def write_count(kg, path) -> None:
    """A toy exporter: the number of triples."""
    path.write_text(f"{len(kg)}\n", encoding="utf-8")


def _add_entry_points(monkeypatch, group: str, **specs: str) -> None:
    real = importlib.metadata.entry_points
    added = EntryPoints(EntryPoint(name, spec, group) for name, spec in specs.items())

    def entry_points(**params):
        return added if params.get("group") == group else real(**params)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)


def test_importing_the_registries_imports_none_of_the_builtins():
    modules = sorted({spec.split(":")[0] for registry in REGISTRIES.values() for spec in registry.specs.values()})
    code = (
        "import sys, kg.registry, kg.engines, kg.export\n"
        f"print([m for m in {modules!r} if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


@pytest.mark.parametrize("kind,name", [(kind, name) for kind, registry in REGISTRIES.items() for name in registry.specs])
def test_every_builtin_name_resolves_to_its_plugin(kind, name):
    if name == "dask" and importlib.util.find_spec("distributed") is None:
        pytest.skip("the dask extra is not installed")
    plugin = REGISTRIES[kind][name]
    if kind == "reader":
        assert isinstance(plugin, Format) and plugin.name == name
    else:
        assert callable(plugin)


def test_a_reader_from_another_package_reads_the_files_it_claims(monkeypatch, tmp_path):
    _add_entry_points(monkeypatch, "kg.readers", bib="tests.test_registry:BIB")
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "a.bib").write_text("@article{x,\n  abstract = {We study graphs.}\n}\n", encoding="utf-8")
    (folder / "b.txt").write_text("A plain abstract.\n", encoding="utf-8")
    assert next(p.id for p in read_inputs([folder]) if isinstance(p, Paper)) == "bib-2"  # found in a folder by its extension
    assert "bib" in READERS and list(READERS)[-1] == "bib"
    plain = tmp_path / "c.txt"
    plain.write_text("x\nabstract = {Forced.}\n", encoding="utf-8")
    assert [p.abstract for p in read_inputs(plain, format="bib")] == ["Forced."]


def test_an_exporter_from_another_package_is_written_when_named_and_never_by_default(monkeypatch, tmp_path, capsys):
    _add_entry_points(monkeypatch, "kg.exporters", **{"graph.count": "tests.test_registry:write_count"})
    kg = small_kg()
    graph = tmp_path / "graph.nt"
    graph.write_bytes(kg.serialize("ntriples"))
    assert main(["export", str(graph), "graph.count", "graph.nq", "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "graph.count").read_text(encoding="utf-8") == f"{len(kg)}\n"
    assert "graph.count" in capsys.readouterr().out
    defaults = write_all(kg, tmp_path / "all")
    assert "graph.count" not in {path.name for path in defaults}


def test_an_engine_from_another_package_is_made_by_name(monkeypatch):
    _add_entry_points(monkeypatch, "kg.engines", stub="tests.stub_engine:make_executor")
    assert type(make_executor("stub")).__name__ == "StubExecutor"


def test_unknown_names_keep_their_one_line_errors_naming_the_added_ones(monkeypatch, tmp_path):
    _add_entry_points(monkeypatch, "kg.engines", stub="tests.stub_engine:make_executor")
    with pytest.raises(UserError) as engine:
        make_executor("spark")
    assert str(engine.value) == "E312: unknown engine 'spark': choose one of local, dask, stub"
    with pytest.raises(UserError, match=r"^E305: unknown output format 'graph\.xyz'"):
        write_all(small_kg(), tmp_path, ["graph.xyz"])
    with pytest.raises(UserError, match="^E113: unknown input format 'bib': choose one of text, jsonl, arxiv, csv, tsv, atom$"):
        read_inputs(tmp_path, format="bib")


def test_a_builtin_name_wins_over_an_entry_point_of_the_same_name(monkeypatch):
    _add_entry_points(monkeypatch, "kg.readers", jsonl="tests.test_registry:BIB", bib="tests.test_registry:BIB")
    assert READERS["jsonl"].name == "jsonl" and READERS.spec("jsonl") == "kg.readers.jsonl:JSONL"
    assert list(READERS) == ["text", "jsonl", "arxiv", "csv", "tsv", "atom", "bib"]


def test_a_registry_is_a_read_only_mapping_of_names(monkeypatch):
    registry = Registry("kg.tests", {"count": "tests.test_registry:write_count"})
    assert registry["count"] is write_count and len(registry) == 1 and "other" not in registry
    with pytest.raises(KeyError):
        registry["other"]
    registry.register("other", "tests.test_registry:parse_bib")
    assert list(registry) == ["count", "other"] and registry["other"] is parse_bib
