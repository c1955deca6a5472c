"""The extraction cache as partition files: workers write them, the build records them, a resumed build
runs only the partitions it had not recorded, and folders of the per-paper cache are still read.

The builds use the stub engine (``tests/stub_engine.py``): no spaCy, the same orchestration.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import kg
from kg.buildfolder import BuildFolder
from kg.engines import ENGINES, ExtractJob, write_partitions
from kg.model import Extraction, Mention, Paper
from kg.pipeline import remove
from kg.pipeline.cache import cache_key, entry_text
from kg.pipeline.partitions import PartitionCache, PartitionWriter, pack, partition_name

from . import stub_engine
from .conftest import REPO

STUB_CLI = "import sys; from tests import stub_engine; stub_engine.register(); from kg.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture(autouse=True)
def _stub(monkeypatch):
    monkeypatch.setitem(ENGINES.specs, stub_engine.NAME, stub_engine.SPEC)


def _papers(path: Path, ids: Sequence[str]) -> Path:
    path.write_text("".join(json.dumps({"id": i, "abstract": f"We propose {i}Net for image classification."}) + "\n" for i in ids),
                    encoding="utf-8")
    return path


def _extraction(paper: Paper) -> Extraction:
    return Extraction(paper_id=paper.id, mentions=(Mention(11, 11 + len(paper.id) + 3, "Method", f"{paper.id}Net"),))


@dataclass
class Recorder:
    """An executor with ``map`` alone (the fallback path), which remembers what it was asked to extract."""

    asked: list[str] = field(default_factory=list)

    def map(self, papers: Sequence[Paper], job: ExtractJob) -> Iterator[Extraction]:
        for paper in papers:
            self.asked.append(paper.id)
            yield _extraction(paper)


def test_a_partition_file_is_gzip_json_lines_of_todays_entries_and_pandas_reads_it(tmp_path):
    pandas = pytest.importorskip("pandas")
    folder = BuildFolder(tmp_path / "out")
    folder.path.mkdir()
    papers = [Paper(id=f"p{i}", abstract=f"We propose P{i}Net.") for i in range(3)]
    written = PartitionWriter(folder, "v1")(papers, [_extraction(p) for p in papers])
    keys = tuple(cache_key(p, "v1") for p in papers)
    assert written.keys == keys and written.name == partition_name(keys) and written.data is None
    path = folder.partition(written.name)
    assert gzip.decompress(path.read_bytes()).decode().splitlines() == [entry_text(k, p, _extraction(p)) for k, p in zip(keys, papers)]
    table = pandas.read_json(path, lines=True)  # compression inferred from the name
    assert list(table["key"]) == list(keys) and [row["id"] for row in table["paper"]] == ["p0", "p1", "p2"]
    again = PartitionWriter(folder, "v1")(papers, [_extraction(p) for p in papers])
    assert again == written and folder.partition(again.name).read_bytes() == path.read_bytes()  # same partition, same bytes


def test_a_worker_that_cannot_see_the_folder_hands_the_bytes_back_and_the_client_writes_them(tmp_path):
    here = BuildFolder(tmp_path / "out")
    elsewhere = PartitionWriter(BuildFolder(tmp_path / "not-on-this-worker"), "v1")
    papers = [Paper(id="p0", abstract="We propose P0Net.")]
    written = elsewhere(papers, [_extraction(papers[0])])
    assert written.data is not None and not (tmp_path / "not-on-this-worker").exists()
    cache = PartitionCache(here)
    cache.record(written)
    assert PartitionCache(here).load(written.keys).entries[written.keys[0]] == (papers[0], _extraction(papers[0]))


def test_an_executor_with_map_alone_has_its_partitions_written_by_the_client(tmp_path):
    folder = BuildFolder(tmp_path / "out")
    folder.path.mkdir()
    papers = [Paper(id=f"p{i}", abstract=f"We propose P{i}Net.") for i in range(5)]
    written = list(write_partitions(Recorder(), papers, ExtractJob(), PartitionWriter(folder, "v1"), 2))
    assert [len(w.keys) for w in written] == [2, 2, 1]
    assert sorted(p.name for p in folder.partitions.iterdir()) == sorted(f"{w.name}.jsonl.gz" for w in written)


def test_the_build_writes_partitions_and_records_not_per_paper_files(tmp_path, monkeypatch):
    monkeypatch.setenv("KG_STUB_PARTITION", "3")
    out = tmp_path / "out"
    report = kg.build([str(_papers(tmp_path / "a.jsonl", [f"a{i}" for i in range(7)]))], out, engine="stub")
    cache = out / "cache"
    assert report.extracted == 7 and {p.name for p in cache.iterdir()} == {"partitions", "recorded"}
    parts = sorted(p.name for p in (cache / "partitions").iterdir())
    assert len(parts) == 3 and sorted(p.name.replace(".json", ".jsonl.gz") for p in (cache / "recorded").iterdir()) == parts
    manifest = BuildFolder(out).read_manifest()
    assert set(PartitionCache(BuildFolder(out)).keys()) == set(manifest.cache_keys)
    again = kg.build([str(tmp_path / "a.jsonl")], out, engine="stub")
    assert (again.extracted, again.from_cache) == (0, 7)


def _legacy(out: Path) -> None:
    """Turn a build folder's cache into the one-file-per-paper cache of earlier versions."""
    cache = PartitionCache(BuildFolder(out))
    for key, (paper, extraction) in cache.load(cache.keys()).entries.items():
        path = out / "cache" / key[:2] / f"{key}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(entry_text(key, paper, extraction), encoding="utf-8")
    for name in ("partitions", "recorded"):
        for path in (out / "cache" / name).iterdir():
            path.unlink()
        (out / "cache" / name).rmdir()


def test_a_folder_with_the_per_paper_cache_of_an_earlier_version_is_read_and_never_written(tmp_path):
    out = tmp_path / "out"
    a = _papers(tmp_path / "a.jsonl", ["a1", "a2"])
    kg.build([str(a)], out, engine="stub")
    reference = (out / "graph.nt").read_bytes()
    _legacy(out)
    legacy = sorted(p.relative_to(out) for p in (out / "cache").rglob("*.json"))
    assert len(legacy) == 2
    report = kg.build([str(_papers(tmp_path / "b.jsonl", ["b1"]))], out, update=True, engine="stub")
    assert (report.extracted, report.papers) == (1, 3)  # a1 and a2 from their per-paper files
    assert sorted(p.relative_to(out) for p in (out / "cache").rglob("*.json") if p.parent.name != "recorded") == legacy
    remove(out, ["b1"])
    assert (out / "graph.nt").read_bytes() == reference
    assert kg.build([str(a)], out, engine="stub").extracted == 0


def test_a_partition_file_no_record_lists_is_removed_by_the_next_build(tmp_path):
    out = tmp_path / "out"
    kg.build([str(_papers(tmp_path / "a.jsonl", ["a1"]))], out, engine="stub")
    folder = BuildFolder(out)
    orphan = folder.partition("0" * 32)
    orphan.write_bytes(pack(["{}"]))
    kept = sorted(folder.partitions.iterdir())
    kept.remove(orphan)
    kg.build([str(_papers(tmp_path / "b.jsonl", ["b1"]))], out, update=True, engine="stub")
    assert not orphan.exists() and all(path.exists() for path in kept)


def _stats(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.iterdir()}


@pytest.mark.slow
def test_a_killed_build_resumes_running_only_the_partitions_it_had_not_recorded(tmp_path, monkeypatch):
    ids = [f"p{i:02d}" for i in range(40)]
    data = _papers(tmp_path / "a.jsonl", ids)
    out = tmp_path / "out"
    env = {**os.environ, "KG_STUB_DELAY": "0.1", "KG_STUB_PARTITION": "4"}
    child = subprocess.Popen([sys.executable, "-c", STUB_CLI, "-q", "build", str(data), "--out", str(out), "--engine", "stub"],
                             cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    recorded = out / "cache" / "recorded"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and child.poll() is None and len(list(recorded.glob("*.json")) if recorded.exists() else []) < 3:
        time.sleep(0.02)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    folder = BuildFolder(out)
    done = PartitionCache(folder)
    done_keys = set(done.keys())
    done_ids = {paper.id for paper, _ in done.load(done_keys).entries.values()}
    assert 12 <= len(done_ids) < len(ids) and not folder.manifest_path.exists()
    before = _stats(folder.partitions)
    recorded_before = _stats(folder.recorded)

    recorder = Recorder()
    report = kg.build([str(data)], out, engine=recorder)
    assert sorted(recorder.asked) == sorted(set(ids) - done_ids)  # only the papers of unrecorded partitions
    assert (report.extracted, report.from_cache) == (len(ids) - len(done_ids), len(done_ids))
    after, recorded_after = _stats(folder.partitions), _stats(folder.recorded)
    finished = [name for name in before if name.removesuffix(".jsonl.gz") + ".json" in recorded_before]
    assert len(finished) == len(recorded_before)
    assert {name: after[name] for name in finished} == {name: before[name] for name in finished}  # not written again
    assert {name: recorded_after[name] for name in recorded_before} == recorded_before
    assert set(PartitionCache(folder).keys()) == set(folder.read_manifest().cache_keys)


def _where(papers: Sequence[Paper], extractions: list[Extraction]) -> tuple[int, int]:
    """A sink that says which process ran it, and for how many papers."""
    return os.getpid(), len(extractions)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["local", "dask"])
def test_the_sink_runs_in_the_workers_not_in_the_client(engine):
    if engine == "dask":
        pytest.importorskip("distributed")
    from kg.engines import make_executor

    papers = [Paper(id=f"p{i}", abstract=f"We propose Net{i}, a network for image classification on CIFAR-10.") for i in range(24)]
    executor = make_executor(engine, workers=2, **({"partitions": 4} if engine == "dask" else {}))
    results = list(executor.write(papers, ExtractJob(batch_size=6), _where))
    assert sum(count for _, count in results) == 24 and len(results) == 4
    assert os.getpid() not in {pid for pid, _ in results}
