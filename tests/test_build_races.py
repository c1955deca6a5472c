"""Races and kills: the build lock, kill -9 and Ctrl-C at random points, dead and orphaned workers (issue 15).

The lock race and the kill test use the stub engine (``tests/stub_engine.py``),
with real extractions taken from the seed build's cache, so that they need no
spaCy per run and stay within a minute or two; the worker tests run the real
pipeline on the small corpus (conftest's ``small_corpus``, 128 of the example's papers) and compare
with its plain build (``small_build``).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kg
from kg.buildfolder import LOCK, BuildFolder
from kg.cli import main
from kg.engines import ENGINES
from kg.pipeline.partitions import PartitionCache

from . import stub_engine
from .conftest import REPO, cached

pytestmark = pytest.mark.slow


def read_manifest(out):
    return BuildFolder(Path(out)).read_manifest()


def staging_path(out):
    return BuildFolder(Path(out)).staging


STUB_CLI = "import sys; from tests import stub_engine; stub_engine.register(); from kg.cli import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture
def stub(monkeypatch):
    monkeypatch.setitem(ENGINES.specs, stub_engine.NAME, stub_engine.SPEC)
    return monkeypatch


def _jsonl(path: Path, papers) -> Path:
    path.write_text("".join(json.dumps({"id": p.id, "abstract": p.abstract}) + "\n" for p in papers), encoding="utf-8")
    return path


# --- the lock: two builds started together, 100 times ----------------------------------------------


# Everything a stub build imports (the extractor version reads spaCy's; the exporters, the resolver and the views).
RACER_PRELOAD = ["kg.cli", "kg.readers", "kg.pipeline", "kg.extract.loader", "kg.extract.scierc", "kg.resolve", "kg.store.rdf",
                 "kg.views.graph", "kg.views.facts", "kg.views.stats", "kg.views.sparql", "kg.export", "kg.export.store",
                 "kg.export.rdf", "kg.export.csv", "kg.export.graphml", "kg.export.html", "tests.stub_engine"]


def _racer(args: list[str], start) -> None:
    stub_engine.register()
    os.environ["KG_STUB_DELAY"] = "0.3"  # the winner holds the lock at least this long
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    start.wait()
    os._exit(main(args))


def test_two_builds_started_together_one_writes_the_other_exits_2(tmp_path, stub):
    stub.setenv("KG_STUB_DELAY", "0.3")  # the winner holds the lock at least this long
    out = tmp_path / "out"
    kg.build([str(_jsonl(tmp_path / "warm.jsonl", [kg.model.Paper(id="w", abstract="We propose WarmNet.")]))], tmp_path / "warm", engine="stub")
    # Children come from a fork server that has imported what a build imports: they start with everything
    # imported, so the race is the lock's (and a round costs the build, not its imports), and they do not
    # inherit this process's RocksDB state (a plain fork after a store was opened here can deadlock in the child).
    fork = multiprocessing.get_context("forkserver")
    fork.set_forkserver_preload(RACER_PRELOAD)
    for round_ in range(int(os.environ.get("KG_RACE_ROUNDS", "100"))):
        inputs = [tmp_path / f"{side}.jsonl" for side in "ab"]
        for side, path in zip("ab", inputs):
            path.write_text(json.dumps({"id": f"{side}{round_}", "abstract": f"We propose Net{round_}."}) + "\n")
        start = fork.Event()
        racers = [fork.Process(target=_racer, args=(["-q", "build", str(path), "--out", str(out), "--engine", "stub"], start)) for path in inputs]
        for racer in racers:
            racer.start()
        start.set()
        for racer in racers:
            racer.join(60)
        codes = [racer.exitcode for racer in racers]
        assert sorted(codes) == [0, 2], (round_, codes)
        winner = "ab"[codes.index(0)]
        manifest = read_manifest(out)
        assert manifest.papers == (f"{winner}{round_}",) and manifest.generation == round_ + 1


def _held(lock: Path) -> bool:
    """Whether some process holds a ``flock`` on ``lock`` now (read from /proc/locks, without taking it)."""
    try:
        inode = os.stat(lock).st_ino
    except FileNotFoundError:
        return False
    return any(line.split()[1] == "FLOCK" and line.split()[5].endswith(f":{inode}") for line in Path("/proc/locks").read_text().splitlines())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/locks")
def test_the_losing_command_says_so_in_one_line(tmp_path):
    out = tmp_path / "out"
    env = {**os.environ, "KG_STUB_DELAY": "1"}
    for round_ in range(3):
        data = _jsonl(tmp_path / f"r{round_}.jsonl", [kg.model.Paper(id=f"r{round_}", abstract="We propose RaceNet.")])
        command = [sys.executable, "-c", STUB_CLI, "build", str(data), "--out", str(out), "--engine", "stub", "-q"]
        first = subprocess.Popen(command, cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
        while first.poll() is None and not _held(out / LOCK):
            time.sleep(0.01)  # until the first command holds the lock (it then "extracts" for a second)
        second = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
        first.communicate(timeout=60)
        assert (first.returncode, second.returncode) == (0, 2)
        assert second.stderr.count("\n") == 1 and "E306" in second.stderr and "Traceback" not in second.stderr


# --- kill -9 at random points of build, --update and remove ----------------------------------------


def _state(out: Path) -> dict:
    """What a generation says, file by file: the deterministic exports and the manifest's papers."""
    manifest = read_manifest(out)
    listed = set(manifest.files)
    present = {p.name for p in out.iterdir()} - {LOCK, "cache"}
    assert present == listed, f"files of another generation: {sorted(present ^ listed)}"
    return {"papers": manifest.papers, **{name: (out / name).read_bytes() for name in ("graph.nt", "graph.ttl", "facts.csv")}}


def _query_ids(out: Path, capsys) -> tuple[str, ...]:
    assert main(["query", str(out), "SELECT ?i WHERE { ?p a kg:Paper ; dcterms:identifier ?i } ORDER BY ?i", "--format", "csv"]) == 0
    return tuple(capsys.readouterr().out.split()[1:])


def _drop_unused_cache(out: Path) -> None:
    """Keep only the cache entries the current generation uses (as one partition), so the next op has to extract."""
    folder = BuildFolder(out)
    manifest = read_manifest(out) if folder.manifest_path.exists() else None
    kept = PartitionCache(folder).load(manifest.cache_keys).entries if manifest is not None else {}
    shutil.rmtree(folder.cache, ignore_errors=True)
    if manifest is not None and kept:
        cache = PartitionCache(folder)
        cache.record(cache.writer(manifest.extractor_version)([p for p, _ in kept.values()], [e for _, e in kept.values()]))


def _run_and_kill(args: list[str], out: Path, trigger: tuple[str, float], env: dict) -> str:
    """Start ``kg args`` and kill -9 it at ``trigger``; returns the phase it was in."""
    child = subprocess.Popen([sys.executable, "-c", STUB_CLI, *args], cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    before = cached(out)
    kind, amount = trigger
    started = time.monotonic()
    staged_at = None
    while child.poll() is None and time.monotonic() - started < 120:
        if kind == "extract" and cached(out) - before >= amount:
            break
        if kind == "export":
            if staged_at is None and staging_path(out).exists():
                staged_at = time.monotonic()
            if staged_at is not None and time.monotonic() - staged_at >= amount:
                break
        time.sleep(0.005)
    phase = "export" if staging_path(out).exists() else "extract" if kind == "extract" else "done" if child.poll() is not None else "other"
    child.send_signal(signal.SIGKILL)
    child.wait()
    return phase


def test_kill_at_random_points_leaves_one_generation_and_the_rerun_equals_a_clean_build(seed_build, tmp_path, stub, capsys):
    donor = seed_build[0]
    stub.setenv("KG_STUB_DONOR", str(donor))
    stub.setenv("KG_STUB_DELAY", "0.02")
    entries = PartitionCache(BuildFolder(donor))
    papers = sorted((paper for paper, _ in entries.load(entries.keys()).entries.values()), key=lambda p: p.id)
    a, b = _jsonl(tmp_path / "a.jsonl", papers[:40]), _jsonl(tmp_path / "b.jsonl", papers[40:60])
    gone = [p.id for p in papers[:40:5]]
    rest = _jsonl(tmp_path / "rest.jsonl", [p for p in papers[:60] if p.id not in gone])
    expected = {}
    for name, inputs in (("build", [a]), ("update", [a, b]), ("remove", [rest])):
        kg.build([str(i) for i in inputs], tmp_path / f"clean-{name}", engine="stub")
        expected[name] = _state(tmp_path / f"clean-{name}")
    ops = {
        "build": ["build", str(a), "--out"],
        "update": ["build", str(b), "--update", "--out"],
        "remove": ["remove"],
    }
    out = tmp_path / "out"
    rng = random.Random(15)
    env = {**os.environ, "KG_STUB_DONOR": str(donor), "KG_STUB_DELAY": "0.02"}
    phases = []
    for number in range(20):
        name = ("build", "update", "remove")[number % 3]
        if out.exists():
            _drop_unused_cache(out)
        before = _state(out) if (out / "manifest.json").exists() else None
        args = [*ops[name], str(out), *(gone if name == "remove" else ["--engine", "stub"])]
        trigger = ("export", rng.uniform(0, 0.6)) if name == "remove" or rng.random() < 0.5 else ("extract", rng.randint(1, 15))
        phases.append(_run_and_kill(["-q", *args], out, trigger, env))
        now = None
        if (out / "manifest.json").exists():
            now = _state(out)
            assert now in (before, expected[name]), (number, name, phases[-1])
            assert _query_ids(out, capsys) == tuple(sorted(now["papers"]))
        else:
            assert before is None and not any(p.name not in (LOCK, "cache") for p in out.iterdir())
        if name == "remove" and now == expected[name]:
            continue  # the removal finished before the kill; it cannot run twice (its leftovers go with the next command)
        assert main(args) == 0  # the re-run
        capsys.readouterr()
        assert _state(out) == expected[name], (number, name)
        assert not staging_path(out).exists() and not list(out.rglob("*.tmp"))
    assert phases.count("extract") >= 3 and phases.count("export") >= 3, phases


@pytest.mark.parametrize("signum,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_prints_a_message_and_keeps_the_previous_generation(tmp_path, stub, signum, status):
    out = tmp_path / "out"
    first = _jsonl(tmp_path / "first.jsonl", [kg.model.Paper(id="p0", abstract="We propose FooNet.")])
    kg.build([str(first)], out, engine="stub")
    before = _state(out)
    many = _jsonl(tmp_path / "many.jsonl", [kg.model.Paper(id=f"p{i}", abstract=f"We propose Net{i}.") for i in range(1, 40)])
    env = {**os.environ, "KG_STUB_DELAY": "0.2"}
    # The child starts with SIGINT at its default, as in a terminal: a suite run as a background
    # job (`.ci/run &` from a script) inherits SIGINT ignored, and Python then never turns it into
    # KeyboardInterrupt, so the build ran to the end (exit 0) in such a run.
    child = subprocess.Popen(
        [sys.executable, "-c", STUB_CLI, "build", str(many), "--out", str(out), "--engine", "stub"],
        cwd=REPO, env=env, stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while cached(out) < 4 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert child.poll() is None, "the build ended before it could be interrupted"
    child.send_signal(signum)
    _, err = child.communicate(timeout=60)
    assert child.returncode == status and "kg: interrupted" in err and "Traceback" not in err
    assert _state(out) == before and not staging_path(out).exists()


# --- workers: a dead worker, a dead parent ---------------------------------------------------------


def _workers(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(int(child))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _start_with_workers(corpus: Path, out: Path, papers_done: int, env: dict[str, str] | None = None) -> tuple[subprocess.Popen, list[int]]:
    command = [sys.executable, "-m", "kg.cli", "build", str(corpus), "--out", str(out), "--workers", "2"]
    child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and child.poll() is None:
        if cached(out) >= papers_done:
            break
        time.sleep(0.1)
    return child, _workers(child.pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_worker_is_replaced_and_the_graph_is_the_same(small_corpus, small_build, tmp_path):
    out = tmp_path / "out"
    child, workers = _start_with_workers(small_corpus, out, 33)
    assert workers, "no worker processes found"
    os.kill(workers[0], signal.SIGKILL)
    _, err = child.communicate(timeout=600)
    assert child.returncode == 0, err
    assert "worker died; retrying" in err
    assert (out / "graph.nt").read_bytes() == (small_build[0] / "graph.nt").read_bytes()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and PR_SET_PDEATHSIG")
def test_workers_die_with_their_parent(small_corpus, tmp_path):
    out = tmp_path / "out"
    child, workers = _start_with_workers(small_corpus, out, 1)
    assert workers, "no worker processes found"
    child.kill()
    child.wait()
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)
    shutil.rmtree(out, ignore_errors=True)


# --- workers: a stopped worker (issue 27, item 4) ----------------------------------------------------


def _lock_is_free(out: Path) -> bool:
    import fcntl

    with open(out / LOCK, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(handle, fcntl.LOCK_UN)
    return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stopped_worker_is_killed_and_its_papers_retried(small_corpus, small_build, tmp_path):
    out = tmp_path / "out"
    child, workers = _start_with_workers(small_corpus, out, 33, {"KG_STALL_FLOOR": "10"})
    assert workers, "no worker processes found"
    os.kill(workers[0], signal.SIGSTOP)
    _, err = child.communicate(timeout=600)
    assert child.returncode == 0, err
    assert "made no progress" in err and "Traceback" not in err
    assert not _alive(workers[0])
    assert (out / "graph.nt").read_bytes() == (small_build[0] / "graph.nt").read_bytes()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_batch_that_stalls_twice_fails_the_build_in_one_line_and_frees_the_lock(small_corpus, tmp_path):
    out = tmp_path / "out"
    child, workers = _start_with_workers(small_corpus, out, 33, {"KG_STALL_FLOOR": "5"})
    assert workers, "no worker processes found"
    for pid in workers:
        os.kill(pid, signal.SIGSTOP)
    lines = []
    for line in child.stderr:  # the first stall: a fresh pool takes the papers again; stop it too
        lines.append(line)
        if "made no progress" in line:
            break
    deadline = time.monotonic() + 120
    stopped: set[int] = set(workers)
    while child.poll() is None and time.monotonic() < deadline:
        for pid in set(_workers(child.pid)) - stopped:
            os.kill(pid, signal.SIGSTOP)
            stopped.add(pid)
        time.sleep(0.2)
    lines += child.stderr.readlines()
    child.wait(timeout=60)
    errors = [line for line in lines if line.startswith("kg: error")]
    assert child.returncode == 1 and len(errors) == 1 and "E324" in errors[0], "".join(lines)
    assert not any(_alive(pid) for pid in stopped)
    assert _lock_is_free(out) if (out / LOCK).exists() else True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_stops_the_workers_and_leaks_no_semaphore(small_corpus, tmp_path):
    out = tmp_path / "out"
    child, workers = _start_with_workers(small_corpus, out, 33)
    assert workers, "no worker processes found"
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 143 and "kg: interrupted" in err, err
    assert "leaked" not in err and "Traceback" not in err
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)
    assert not staging_path(out).exists()
