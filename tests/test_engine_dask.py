"""The Dask engine: same bytes as a local build, survives a killed worker, clean errors without Dask.

The identity test builds the whole example corpus and compares it with the seed build; the kill and stop
tests run on conftest's ``small_corpus`` (128 of its papers, still 8 partitions) and compare with that
corpus's plain local build, ``small_build``.
"""

from __future__ import annotations

import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
from importlib.util import find_spec
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.cli import main
from kg.engines.dask_engine import WorkerError, partition_count, split
from kg.errors import UserError

from .conftest import CORPUS, SMALL_PAPERS, cached

needs_dask = pytest.mark.skipif(find_spec("distributed") is None, reason="the dask extra is not installed")


@given(st.lists(st.integers(), max_size=60), st.integers(min_value=1, max_value=80))
def test_split_keeps_order_and_balances(items, count):
    parts = split(items, count)
    assert [x for part in parts for x in part] == items
    sizes = [len(p) for p in parts]
    assert max(sizes) - min(sizes) <= 1
    assert len(parts) == max(1, min(count, len(items)))


@given(st.integers(min_value=1, max_value=10**7), st.integers(min_value=0, max_value=4096))
def test_every_worker_gets_work_and_partitions_stay_bounded(papers, cores):
    count = partition_count(papers, cores)
    assert 1 <= count <= papers
    assert count >= min(papers, cores)  # no idle worker while papers remain
    assert papers / count <= 200  # the default size bounds what a lost worker costs


def test_a_worker_error_keeps_its_code_across_pickling():
    raised = UserError("E201", name="xx_missing")
    travelled = pickle.loads(pickle.dumps(WorkerError(raised.code, raised.values, True)))
    error = travelled.as_kg_error()
    assert isinstance(error, UserError) and str(error) == str(raised)


def test_without_the_extra_the_build_names_it_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    out = tmp_path / "build"
    assert main(["build", str(CORPUS), "--out", str(out), "--engine", "dask"]) == 2
    message = capsys.readouterr().err.strip()
    assert message.startswith("kg: error: E250") and "kg-lit[dask]" in message and "\n" not in message
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "code"),
    [(["--engine", "spark"], "E312"), (["--scheduler", "tcp://127.0.0.1:1"], "E311"), (["--partitions", "4"], "E311")],
)
def test_engine_options_are_checked_before_the_folder_is_touched(tmp_path, capsys, args, code):
    out = tmp_path / "build"
    assert main(["build", str(CORPUS), "--out", str(out), *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"kg: error: {code}"), err
    assert not out.exists()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
@needs_dask
def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path, capsys):
    address = f"tcp://127.0.0.1:{_free_port()}"
    assert main(["build", str(CORPUS), "--out", str(tmp_path / "b"), "--engine", "dask", "--scheduler", address]) == 2
    err = capsys.readouterr().err.strip()
    assert f"E252: cannot reach the Dask scheduler at {address}" in err
    assert not (tmp_path / "b" / "graph.nt").exists()


@pytest.mark.slow
@needs_dask
def test_dask_build_equals_local_build(seed_build, tmp_path, capsys):
    out = tmp_path / "dask"
    assert main(["build", str(CORPUS), "--out", str(out), "--engine", "dask", "--workers", "2"]) == 0
    err = capsys.readouterr().err.strip()
    assert (out / "graph.nt").read_bytes() == (seed_build[0] / "graph.nt").read_bytes()
    assert "over 2 workers" in err and "Dask dashboard: http://127.0.0.1:" in err
    assert "partition 8/8 done" in err and "215/215 papers" in err


@pytest.mark.slow
@needs_dask
def test_a_killed_worker_is_replaced_and_the_build_is_unchanged(small_corpus, small_build, tmp_path):
    """SIGKILL one worker once the first partition is cached; Dask reschedules what it held."""
    import distributed

    out = tmp_path / "dask"
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None)
    client = distributed.Client(cluster, set_as_default=False)
    killed: list[int] = []

    def kill_one_worker_after_first_partition() -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not cached(out):
            time.sleep(0.05)
        victim = sorted(client.run(os.getpid).values())[0]
        killed.append(cached(out))
        os.kill(victim, signal.SIGKILL)

    killer = threading.Thread(target=kill_one_worker_after_first_partition)
    try:
        killer.start()
        args = ["build", str(small_corpus), "--out", str(out), "--engine", "dask", "--scheduler", cluster.scheduler_address, "--partitions", "7"]
        assert main(args) == 0
        killer.join()
    finally:
        client.close()
        cluster.close()
    assert killed and killed[0] < SMALL_PAPERS  # the worker died mid-build, with partitions still to do
    assert (out / "graph.nt").read_bytes() == (small_build[0] / "graph.nt").read_bytes()


@pytest.mark.slow
@needs_dask
def test_a_killed_client_resumes_from_the_cache(small_corpus, small_build, tmp_path, capsys):
    """SIGKILL the build (and the cluster it started) mid-way; the re-run extracts only what is missing."""
    out = tmp_path / "dask"
    args = ["build", str(small_corpus), "--out", str(out), "--engine", "dask", "--workers", "2"]
    child = subprocess.Popen([sys.executable, "-m", "kg.cli", "--quiet", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and cached(out) < 20 and child.poll() is None:
        time.sleep(0.1)
    os.killpg(child.pid, signal.SIGKILL)  # its own process group: the client and its workers
    child.wait()
    done = cached(out)
    assert 20 <= done < SMALL_PAPERS and not (out / "graph.nt").exists()
    assert main(args) == 0
    assert f"({SMALL_PAPERS - done} extracted, {done} from cache)" in capsys.readouterr().err
    assert (out / "graph.nt").read_bytes() == (small_build[0] / "graph.nt").read_bytes()


@pytest.mark.slow
@needs_dask
def test_a_catalogue_error_on_a_worker_reaches_the_user_as_itself(tmp_path, capsys):
    out = tmp_path / "b"
    assert main(["build", str(CORPUS), "--out", str(out), "--engine", "dask", "--spacy-model", "xx_no_such_model"]) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("kg: error")]
    assert lines == ["kg: error: E201: spaCy model 'xx_no_such_model' is not installed: pip install it, or pass --spacy-model with an installed one"]
    assert not (out / "graph.nt").exists()


@pytest.mark.slow
@needs_dask
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stopped_worker_is_killed_and_its_partition_run_again(small_corpus, small_build, tmp_path):
    """SIGSTOP one worker of the cluster kg starts once a partition is cached (issue 27, item 4): it hung the build."""
    out = tmp_path / "dask"
    env = {**os.environ, "KG_STALL_FLOOR": "10"}
    command = [sys.executable, "-m", "kg.cli", "build", str(small_corpus), "--out", str(out), "--engine", "dask", "--workers", "2"]
    child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and child.poll() is None and not cached(out):
        time.sleep(0.1)
    workers = [
        int(pid)
        for task in Path(f"/proc/{child.pid}/task").iterdir()
        for pid in (task / "children").read_text().split()
        if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]
    assert workers, "no worker processes found"
    os.kill(workers[0], signal.SIGSTOP)
    _, err = child.communicate(timeout=900)
    assert child.returncode == 0, err
    assert "made no progress" in err and "Traceback" not in err
    assert (out / "graph.nt").read_bytes() == (small_build[0] / "graph.nt").read_bytes()


def test_ending_a_worker_that_is_already_gone_is_not_an_error():
    """A stalled partition's worker may have died already; restarting it raised KeyError with a traceback."""
    from kg.engines.dask_engine import _kill_worker

    class GoneClient:
        def restart_workers(self, workers, timeout, raise_for_error):
            raise KeyError(workers[0])

    _kill_worker(GoneClient(), object(), "tcp://127.0.0.1:1")  # returns quietly
