"""The build folder as one transaction, and every way a user can hand kg a bad folder (issue 15).

These builds use the stub engine (``tests/stub_engine.py``): no spaCy, so they are fast;
the orchestration they test is the same for every engine.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
from pathlib import Path

import pytest

import kg
from kg.buildfolder import LOCK, BuildFolder, BuildSettings
from kg.cli import main
from kg.engines import ENGINES
from kg.errors import UserError
from kg.pipeline import remove

from . import stub_engine


@pytest.fixture(autouse=True)
def _stub(monkeypatch):
    monkeypatch.setitem(ENGINES.specs, stub_engine.NAME, stub_engine.SPEC)


def _papers(path: Path, ids, text="We propose {i}Net, a network for image classification on CIFAR-10.") -> Path:
    path.write_text("".join(json.dumps({"id": i, "abstract": text.format(i=i)}) + "\n" for i in ids), encoding="utf-8")
    return path


def _build(inputs, out, settings=None, **options):
    return kg.build([str(i) for i in inputs], out, settings, engine="stub", **options)


def read_manifest(out):
    return BuildFolder(Path(out)).read_manifest()


def staging_path(out):
    return BuildFolder(Path(out)).staging


def _cli(capsys, *args):
    code = main([*args, "--engine", "stub"] if args[0] == "build" else list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("kg: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# --- 4: inputs are never overwritten, outputs never read -------------------------------------------


def test_out_with_foreign_files_is_refused_unless_forced(tmp_path, capsys):
    out = tmp_path / "clob"
    out.mkdir()
    (out / "facts.csv").write_text("my own spreadsheet\n")
    data = _papers(tmp_path / "a.jsonl", ["a1"])
    code, _, err = _cli(capsys, "build", str(data), "--out", str(out))
    assert code == 2 and "E315" in _one_line(err) and "facts.csv" in err
    assert (out / "facts.csv").read_text() == "my own spreadsheet\n"
    (out / "notes.txt").write_text("keep me")
    code, _, _ = _cli(capsys, "build", str(data), "--out", str(out), "--force")
    assert code == 0 and (out / "notes.txt").read_text() == "keep me"
    assert (out / "facts.csv").read_text() != "my own spreadsheet\n"  # --force replaces what an output names
    code, _, err = _cli(capsys, "build", str(data), "--out", str(out))  # still not kg's: each build must be told
    assert code == 2 and "notes.txt" in _one_line(err)


def test_out_inside_an_input_folder_is_refused_and_never_read(tmp_path, capsys):
    indir = tmp_path / "indir"
    indir.mkdir()
    _papers(indir / "a.jsonl", ["a1", "a2"])
    code, _, err = _cli(capsys, "build", str(indir), "--out", str(indir / "out"))
    assert code == 2 and "E316" in _one_line(err)
    assert not (indir / "out").exists()
    counts = []
    for _ in range(3):
        report = _build([indir], indir / "out", force=True)
        counts.append((report.read, report.rejected))
    assert counts == [(2, 0)] * 3  # its own outputs are never read back


def test_a_build_of_nothing_keeps_the_papers_already_there(tmp_path):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    before = (out / "graph.nt").read_bytes()
    with pytest.raises(UserError, match="E325"):
        _build([bad], out)
    assert (out / "graph.nt").read_bytes() == before


# --- 5: model changes on --update ------------------------------------------------------------------


def test_update_honours_the_manifest_models_and_reextracts_on_a_change(tmp_path):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1", "a2"])], out, BuildSettings(spacy_model="model_a"))
    report = _build([_papers(tmp_path / "b.jsonl", ["b1"])], out, update=True)
    assert report.extracted == 1 and read_manifest(out).settings.spacy_model == "model_a"
    warnings: list[str] = []
    report = _build([_papers(tmp_path / "c.jsonl", ["c1"])], out, BuildSettings(spacy_model="model_b"), update=True, on_warning=warnings.append)
    assert report.extracted == 4 and any("re-extracting its 3 paper(s)" in w for w in warnings)
    manifest = read_manifest(out)
    assert manifest.settings.spacy_model == "model_b" and "+model_b+" in manifest.extractor_version
    assert remove(out, ["a1"]).removed == 1  # the folder still works for later commands
    assert _build([_papers(tmp_path / "d.jsonl", ["d1"])], out, update=True).extracted == 1


def test_update_and_remove_keep_the_folders_settings_and_return_their_report(tmp_path):
    out = tmp_path / "out"
    first = _build([_papers(tmp_path / "a.jsonl", ["a1", "a2"])], out, BuildSettings(spacy_model="model_a", min_confidence=0.9))
    assert (first.read, first.built, first.papers) == (2, 2, 2) and first.files
    with pytest.raises(AttributeError):
        first.read = 0  # a report is made once, by the build that returns it
    _build([_papers(tmp_path / "b.jsonl", ["b1"])], out, BuildSettings(min_confidence=0.2), update=True)
    assert read_manifest(out).settings == BuildSettings("model_a", None, 0.2)  # the model kept, the threshold given
    removed = remove(out, ["b1"])
    assert removed.removed == 1 and removed.papers == 2 and removed.read == 0
    assert read_manifest(out).settings == BuildSettings("model_a", None, 0.2)
    assert _build([_papers(tmp_path / "c.jsonl", ["c1"])], out).papers == 1  # a full build starts from the defaults
    assert read_manifest(out).settings == BuildSettings(None, None, 0.0)


# --- 7: one transaction ----------------------------------------------------------------------------


def interrupted_export(graph, path):
    """An exporter that writes half a file and is stopped by Ctrl-C."""
    path.write_text("half")
    raise KeyboardInterrupt


def test_a_failing_export_leaves_the_previous_generation_and_no_temporary_files(tmp_path, monkeypatch):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    from kg.export import EXPORTERS

    monkeypatch.setitem(EXPORTERS.specs, "graph.html", "tests.test_build_folder:interrupted_export")
    with pytest.raises(KeyboardInterrupt):
        _build([_papers(tmp_path / "b.jsonl", ["b1"])], out)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    assert not staging_path(out).exists()
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_stale_iri_changes_do_not_survive_a_full_build_and_rejections_accumulate(tmp_path):
    out = tmp_path / "out"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n' + json.dumps({"id": "a1", "abstract": "We propose A1Net for parsing."}) + "\n")
    _build([bad], out)
    _build([_papers(tmp_path / "b.jsonl", ["b1"])], out, update=True)
    assert (out / "iri-changes.jsonl").exists()
    rows = (out / "rejected.jsonl").read_text().splitlines()
    assert len(rows) == 1 and "bad.jsonl" in rows[0]  # the first build's rejection is still listed
    _build([_papers(tmp_path / "c.jsonl", ["c1"])], out)
    assert not (out / "iri-changes.jsonl").exists()
    assert read_manifest(out).generation == 3


def test_update_says_when_a_known_id_comes_with_another_abstract(tmp_path):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    warnings: list[str] = []
    report = _build([_papers(tmp_path / "a2.jsonl", ["a1"], text="A different abstract about {i}.")], out, update=True, on_warning=warnings.append)
    assert report.duplicates == 1 and any("'a1' is already in" in w for w in warnings)


# --- 8: corrupt state ------------------------------------------------------------------------------


def _cache_file(out: Path) -> Path:
    """The one partition file of a one-paper build."""
    files = list((out / "cache").rglob("*.jsonl.gz"))
    assert len(files) == 1
    return files[0]


def _lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode().splitlines()


# mtime=0: the bytes, and so the test ids, must be the same in every xdist worker's collection.
@pytest.mark.parametrize("content", [gzip.compress(b'{"key": "x", "paper": {"id": "a1", "abs', mtime=0), gzip.compress(b"{}\n", mtime=0),
                                     gzip.compress(b"null\n", mtime=0), gzip.compress(b"\n" * 3, mtime=0)[:-6], b"not gzip"])
def test_a_corrupt_cache_file_is_named_on_update_and_rebuilt_by_a_full_build(tmp_path, capsys, content):
    out = tmp_path / "out"
    data = _papers(tmp_path / "a.jsonl", ["a1"])
    _build([data], out)
    entry = _cache_file(out)
    entry.write_bytes(content)
    for args in (["build", str(_papers(tmp_path / "b.jsonl", ["b1"])), "--out", str(out), "--update"], ["remove", str(out), "a1"]):
        code, _, err = _cli(capsys, *args)
        assert code == 2 and "E319" in _one_line(err) and str(entry) in err
    assert _build([data], out).extracted == 1  # a full build re-extracts the paper
    assert json.loads(_lines(entry)[0])["paper"]["id"] == "a1"  # into the same partition file: its name is its keys'


def test_an_unreadable_record_is_named_and_its_papers_extracted_again(tmp_path, capsys):
    out = tmp_path / "out"
    data = _papers(tmp_path / "a.jsonl", ["a1"])
    _build([data], out)
    (record,) = (out / "cache" / "recorded").iterdir()
    record.write_text('{"keys": ')
    code, _, err = _cli(capsys, "remove", str(out), "a1")
    assert code == 2 and "E319" in _one_line(err) and str(record) in err
    assert _build([data], out).extracted == 1
    assert json.loads(record.read_text())["keys"]


def test_a_deleted_cache_or_an_empty_manifest_is_named(tmp_path, capsys):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    import shutil

    shutil.rmtree(out / "cache")
    code, _, err = _cli(capsys, "remove", str(out), "a1")
    assert code == 2 and "E319" in _one_line(err) and "missing" in err
    (out / "manifest.json").write_text("{}")
    code, _, err = _cli(capsys, "remove", str(out), "a1")
    assert code == 2 and "E317" in _one_line(err) and str(out / "manifest.json") in err


# --- 9: user situations ----------------------------------------------------------------------------


def test_out_naming_a_file_is_one_line(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("x")
    code, _, err = _cli(capsys, "build", str(_papers(tmp_path / "a.jsonl", ["a1"])), "--out", str(target))
    assert code == 2 and "E314" in _one_line(err) and target.read_text() == "x"


@pytest.mark.parametrize(("number", "code", "exit_code"), [(errno.ENOSPC, "E321", 1), (errno.EROFS, "E320", 2), (errno.EACCES, "E320", 2)])
def test_write_failures_are_one_line_and_keep_the_previous_build(tmp_path, capsys, monkeypatch, number, code, exit_code):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    before = (out / "graph.nt").read_bytes()
    real_fsync = os.fsync

    def failing(fd):
        raise OSError(number, os.strerror(number), str(out / "graph.ttl"))

    monkeypatch.setattr(os, "fsync", failing)  # the disk fills up (or turns read-only) while exporting
    status, _, err = _cli(capsys, "build", str(_papers(tmp_path / "b.jsonl", ["b1"])), "--out", str(out))
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert status == exit_code and code in _one_line(err)
    assert (out / "graph.nt").read_bytes() == before and not staging_path(out).exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_out_is_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    before = (out / "graph.nt").read_bytes()
    data = _papers(tmp_path / "b.jsonl", ["b1"])
    os.chmod(tmp_path, 0o555)  # the folder that holds --out cannot take a new generation
    try:
        code, _, err = _cli(capsys, "build", str(data), "--out", str(out))
    finally:
        os.chmod(tmp_path, 0o755)
    assert code == 2 and "E320" in _one_line(err) and (out / "graph.nt").read_bytes() == before


def test_dangling_links_fifos_and_odd_names_in_an_input_folder(tmp_path, capsys):
    indir = tmp_path / "in"
    indir.mkdir()
    _papers(indir / "good.jsonl", ["g1"])
    (indir / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    os.mkfifo(indir / "pipe.jsonl")
    odd = os.fsencode(indir) + b"/caf\xe9\n\x1b[31m.jsonl"  # Latin-1 bytes, a newline and an ESC in a name
    Path(os.fsdecode(odd)).write_text('{"id": "o1"}\n' + json.dumps({"id": "o2", "abstract": "We propose OddNet."}) + "\n")
    code, _, err = _cli(capsys, "build", str(indir), "--out", str(tmp_path / "out"))
    assert code == 0, err
    assert "skipped" in err and "gone.jsonl" in err and "pipe.jsonl" in err
    assert "caf\\xe9\\n\\x1b[31m.jsonl" in err and "\x1b" not in err  # the rejection names the file, escaped
    assert read_manifest(tmp_path / "out").papers == ("g1", "o2")
    assert "caf" in (tmp_path / "out" / "rejected.jsonl").read_text(encoding="utf-8")


# --- 11: minor ones --------------------------------------------------------------------------------


def test_a_failed_command_leaves_no_empty_folder(tmp_path, capsys):
    out = tmp_path / "new"
    code, _, err = _cli(capsys, "build", str(_papers(tmp_path / "a.jsonl", ["a1"])), "--out", str(out), "--update")
    assert code == 2 and "E307" in _one_line(err) and not out.exists()
    code, _, err = _cli(capsys, "remove", str(out), "a1")
    assert code == 2 and not out.exists()
    code, _, err = _cli(capsys, "build", str(tmp_path / "a.jsonl"), "--out", str(tmp_path / "x" / "y" / "z"), "--update")
    assert code == 2 and sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl"]


def test_quiet_after_the_command(tmp_path, capsys):
    code, _, err = _cli(capsys, "build", str(_papers(tmp_path / "a.jsonl", ["a1"])), "--out", str(tmp_path / "out"), "-q")
    assert code == 0 and err == ""


def test_unknown_engine_and_engine_options(tmp_path, capsys):
    data = str(_papers(tmp_path / "a.jsonl", ["a1"]))
    assert main(["build", data, "--out", str(tmp_path / "o"), "--engine", "spark"]) == 2
    assert "E312" in _one_line(capsys.readouterr().err)
    assert main(["build", data, "--out", str(tmp_path / "o"), "--scheduler", "tcp://x:1"]) == 2
    assert "E311" in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "o").exists()


def test_a_linked_out_folder_stays_a_link(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], link)
    _build([_papers(tmp_path / "b.jsonl", ["b1"])], link)
    assert link.is_symlink() and read_manifest(real).papers == ("b1",)


def test_out_may_be_the_current_folder(tmp_path, monkeypatch):
    data = _papers(tmp_path / "a.jsonl", ["a1"])
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    _build([data], ".")
    assert read_manifest(tmp_path / "here").papers == ("a1",)


def test_lock_is_the_same_file_across_generations(tmp_path):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    inode = (out / LOCK).stat().st_ino
    _build([_papers(tmp_path / "b.jsonl", ["b1"])], out)
    assert (out / LOCK).stat().st_ino == inode and (out / LOCK).stat().st_nlink == 1


def test_a_held_lock_refuses_at_once(tmp_path):
    from kg.io import folder_lock

    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK).write_text("")  # an empty lock file is no longer mistaken for a stale one: flock decides
    with folder_lock(out / LOCK):
        with pytest.raises(UserError, match="E306"):
            _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)


# --- the swap without renameat2: two renames, and recovery after a kill between them ---------------


def test_fallback_swap_and_recovery_between_its_two_renames(tmp_path, monkeypatch):
    from kg.pipeline import folder

    monkeypatch.setattr(folder, "_exchange", lambda a, b: False)  # a system without RENAME_EXCHANGE
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    _build([_papers(tmp_path / "b.jsonl", ["b1"])], out)
    assert read_manifest(out).papers == ("b1",) and not BuildFolder(out).old.exists()

    real_rename = os.rename
    calls = []

    def dies_after_the_first(source, target):
        calls.append(target)
        if len(calls) == 2:
            raise KeyboardInterrupt  # killed between the two renames
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", dies_after_the_first)
    with pytest.raises(KeyboardInterrupt):
        _build([_papers(tmp_path / "c.jsonl", ["c1"])], out)
    monkeypatch.setattr(os, "rename", real_rename)
    assert read_manifest(out).papers == ("b1",)  # the failed build put the old generation back at once
    assert not BuildFolder(out).old.exists() and not staging_path(out).exists()
    _build([_papers(tmp_path / "d.jsonl", ["d1"])], out, update=True)
    assert read_manifest(out).papers == ("b1", "d1")


def test_recovery_prefers_a_complete_staged_generation(tmp_path):
    from kg.pipeline import folder

    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    staged = staging_path(out)
    import shutil

    shutil.copytree(out, staged)
    (staged / "graph.nt").write_bytes(b"")  # stands for the new generation
    os.rename(out, BuildFolder(out).old)  # killed after the first rename of the fallback swap
    folder.recover(BuildFolder(out))
    assert (out / "graph.nt").read_bytes() == b"" and not staged.exists() and not BuildFolder(out).old.exists()


def test_a_build_too_large_for_one_page_says_what_graph_html_holds(tmp_path, monkeypatch):
    import kg.export.html as html_export

    monkeypatch.setattr(html_export.page_note, "__defaults__", (2,))
    monkeypatch.setattr(html_export.write_html, "__defaults__", (2,))
    warnings: list[str] = []
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1", "a2", "a3"])], out, on_warning=warnings.append)
    # The stub engine extracts nothing: three papers in no fact, of which the page holds two.
    assert any(w.startswith("graph.html holds 2 of the graph's 3 nodes") and "kg serve" in w for w in warnings)
    assert "1 other node left out" in (out / "graph.html").read_text(encoding="utf-8")
    warnings.clear()
    _build([_papers(tmp_path / "b.jsonl", ["b1"])], tmp_path / "small", on_warning=warnings.append)
    assert not any("graph.html" in w for w in warnings)


# --- issue 27, item 8: typed manifest and cache, duplicate ids, empty builds, report and export -------


@pytest.mark.parametrize("field,value", [("generation", "x"), ("settings.min_confidence", "high"), ("files", [1]),
                                         ("settings.spacy_model", 3), ("settings", [])])
def test_a_mistyped_manifest_is_named_and_a_full_build_replaces_it(tmp_path, capsys, field, value):
    out = tmp_path / "out"
    data = _papers(tmp_path / "a.jsonl", ["a1"])
    _build([data], out)
    manifest = json.loads((out / "manifest.json").read_text())
    *parents, field = field.split(".")
    inner = manifest
    for name in parents:
        inner = inner[name]
    inner[field] = value
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = _cli(capsys, "remove", str(out), "a1")
    assert code == 2 and "E317" in _one_line(err) and repr(field) in err
    assert _build([data], out).papers == 1
    assert read_manifest(out).generation == 1


def test_a_mistyped_cache_entry_is_named_and_rebuilt(tmp_path, capsys):
    out = tmp_path / "out"
    data = _papers(tmp_path / "a.jsonl", ["a1"])
    _build([data], out)
    entry = _cache_file(out)
    record = json.loads(_lines(entry)[0])
    record["extraction"]["mentions"] = [{"start": 0, "end": 1, "label": "Task", "text": "t", "score": "x", "extractor": ""}]
    entry.write_bytes(gzip.compress(json.dumps(record).encode() + b"\n"))
    code, _, err = _cli(capsys, "remove", str(out), "a1")
    assert code == 2 and "E319" in _one_line(err) and "mentions[0].score is not a number" in err and "at line 1" in err
    assert _build([data], out).extracted == 1  # a full build re-extracts the paper, no TypeError
    assert json.loads(_lines(entry)[0])["extraction"]["mentions"] == []


def test_one_id_with_two_abstracts_is_warned_and_fatal_under_strict(tmp_path, capsys):
    data = tmp_path / "a.jsonl"
    data.write_text(json.dumps({"id": "a1", "abstract": "We propose AlphaNet."}) + "\n" + json.dumps({"id": "a1", "abstract": "We propose BetaNet."}) + "\n")
    code, _, err = _cli(capsys, "build", str(data), "--out", str(tmp_path / "out"))
    assert code == 0 and "E326" in err and f"{data}:2" in err and f"{data}:1" in err
    code, _, err = _cli(capsys, "build", str(data), "--out", str(tmp_path / "strict"), "--strict")
    assert code == 2 and "E327" in _one_line(err) and not (tmp_path / "strict").exists()
    same = tmp_path / "same.jsonl"
    same.write_text(json.dumps({"id": "a1", "abstract": "We propose AlphaNet."}) + "\n" * 2 + json.dumps({"id": "a1", "abstract": "We propose AlphaNet."}) + "\n")
    code, _, err = _cli(capsys, "build", str(same), "--out", str(tmp_path / "same"), "--strict")
    assert code == 0 and "E326" not in err  # a plain repeat is only counted


def test_a_build_of_no_paper_is_refused_into_a_new_folder(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    code, _, err = _cli(capsys, "build", str(bad), "--out", str(tmp_path / "new"))
    assert code == 2 and "E325" in _one_line(err) and "nothing was written" in err
    assert not (tmp_path / "new").exists()


def test_export_into_a_file_is_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    target = tmp_path / "file"
    target.write_text("x")
    code, _, err = _cli(capsys, "export", str(out), "graph.nq", "--out", str(target))
    assert code == 2 and "E314" in _one_line(err) and target.read_text() == "x"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_export_into_a_read_only_folder_is_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1"])], out)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = _cli(capsys, "export", str(out), "graph.nq", "--out", str(locked / "sub"))
    finally:
        locked.chmod(0o700)
    assert code == 2 and "E320" in _one_line(err)


def test_report_into_a_folder_or_an_unwritable_place_is_one_line(tmp_path, capsys, monkeypatch):
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    out = tmp_path / "out"
    _build([_papers(tmp_path / "a.jsonl", ["a1", "a2"])], out)
    code, _, err = _cli(capsys, "report", str(out), "--out", str(tmp_path))
    assert code == 2 and "E393" in _one_line(err) and "it is a folder" in err
    import kg.io.atomic as atomic

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path / "r.html"))

    monkeypatch.setattr(atomic, "_create_temporary", refused)  # as a read-only folder answers (root ignores chmod)
    code, _, err = _cli(capsys, "report", str(out), "--out", str(tmp_path / "r.html"))
    assert code == 2 and "E393" in _one_line(err) and "Permission denied" in err
