"""A build killed mid-run leaves the previous outputs intact, and the next run resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kg
from kg.buildfolder import LOCK
from kg.errors import UserError
from kg.io import folder_lock

from .conftest import cached

pytestmark = pytest.mark.slow


def _snapshot(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.iterdir()) if p.is_file() and p.name != LOCK}


def test_sigkill_mid_build_keeps_outputs_and_resumes(small_corpus, small_build, tmp_path):
    out = tmp_path / "build"
    small = tmp_path / "small.jsonl"
    small.write_text(
        "".join(json.dumps({"id": f"s{i}", "abstract": f"We propose Model{i}, a network for image classification on CIFAR-10."}) + "\n" for i in range(3)),
        encoding="utf-8",
    )
    kg.build([str(small)], out)
    before = _snapshot(out)
    cached_before = cached(out)

    child = subprocess.Popen([sys.executable, "-m", "kg.cli", "--quiet", "build", str(small_corpus), "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and cached(out) < cached_before + 20:
        time.sleep(0.2)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()

    assert _snapshot(out) == before  # every previous output byte-identical and readable
    assert kg.load(out).select("SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }") == [{"n": 3}]

    report = kg.build([str(small_corpus)], out)  # the dead build's lock is taken over
    assert report.from_cache >= 20
    assert (out / "graph.nt").read_bytes() == (small_build[0] / "graph.nt").read_bytes()
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))


def test_second_concurrent_build_is_refused(tmp_path):
    out = tmp_path / "build"
    out.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from filelock import FileLock; held = FileLock(sys.argv[1]); held.acquire(); print('held', flush=True); time.sleep(60)", str(out / LOCK)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(UserError, match="E306"):
            with folder_lock(out / LOCK):
                pass
    finally:
        holder.kill()
        holder.wait()
    with folder_lock(out / LOCK):  # the holder is gone, and the kernel dropped its lock with it
        pass
