"""A build with one extraction worker stopped (``kill -STOP``) against the same build left alone.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/stalled_worker.py [--papers 200] [--workers 2] [--engine local|dask]

Writes the first N records of ``neurips-1987-2025.jsonl`` in ``../shared/data/corpora/``
to a JSON Lines file under ``/tmp`` and builds it twice with ``--workers``, each
time into a fresh folder (so nothing comes from a cache): once untouched, once
with one worker process stopped as soon as the first papers are cached. Prints
both wall times, whether the second finished, and their ratio (issue 27's bar:
under 3). Nothing is asserted: it measures.
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import ROOT

CORPORA = ROOT.parent / "shared" / "data" / "corpora"


def _workers(pid: int) -> list[int]:
    """The spawned worker processes of ``pid`` (``pgrep``)."""
    found = subprocess.run(["pgrep", "-P", str(pid), "-f", "spawn_main"], capture_output=True, text=True).stdout
    return [int(line) for line in found.split()]


def run(source: Path, out: Path, workers: int, engine: str, stop: bool) -> tuple[float, int, str]:
    """Seconds, exit status and the stall messages of one build."""
    command = [sys.executable, "-m", "kg.cli", "build", str(source), "--out", str(out), "--workers", str(workers), "--engine", engine]
    started = time.monotonic()
    child = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])})
    if stop:
        while child.poll() is None and not list(out.glob("cache/*/*.json")):
            time.sleep(0.1)
        stopped = _workers(child.pid)[:1]
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)
    _, err = child.communicate()
    notes = "; ".join(line for line in err.splitlines() if "no progress" in line or "error" in line)
    return time.monotonic() - started, child.returncode, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--engine", default="local")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kg-stall-"))
    source = work / f"a{args.papers}.jsonl"
    with open(CORPORA / "neurips-1987-2025.jsonl", encoding="utf-8") as corpus:
        source.write_text("".join(itertools.islice(corpus, args.papers)), encoding="utf-8")
    normal, code, _ = run(source, work / "normal", args.workers, args.engine, stop=False)
    print(f"untouched: {normal:.1f} s, exit {code}")
    stalled, code, notes = run(source, work / "stalled", args.workers, args.engine, stop=True)
    print(f"one worker stopped: {stalled:.1f} s, exit {code} ({notes})")
    print(f"ratio: {stalled / normal:.2f}x")


if __name__ == "__main__":
    main()
