"""The build's own memory per paper: peak memory of ``kg.pipeline.build`` for two corpus sizes.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/build_memory.py [--papers 200 600] [--source neurips-1987-2025.jsonl] [--workers 1]

Writes the first N records of a corpus in ``../shared/data/corpora/`` to a
JSON Lines file under ``/tmp`` and builds it (all exports, one worker) in a
fresh process, once per N. Prints papers, seconds and peak resident memory per
build, and the memory each extra paper costs: the difference of the peaks over
the difference of the paper counts. What is fixed (interpreter, spaCy and the
models, about 0.5 GB) is in both peaks and cancels out. With ``--workers 2`` or
more, extraction runs in worker processes and the peak is the client's alone
(the process that reads, caches, resolves and publishes), and so is the CPU
time printed (which, unlike the seconds, a busy machine hardly changes); the
seconds of each step are printed apart.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
from pathlib import Path

from _measure import ROOT, measure

CORPORA = ROOT.parent / "shared" / "data" / "corpora"
WORK = """
from kg.engines import make_executor
from kg.pipeline import build
report = build([{path!r}], {out!r}, engine=make_executor("local", workers={workers}))
result = [report.built, report.seconds]
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs=2, default=[200, 600])
    parser.add_argument("--source", default="neurips-1987-2025.jsonl")
    parser.add_argument("--workers", type=int, default=1, help="local worker processes (2 or more: the peak is the client's)")
    args = parser.parse_args()
    source = CORPORA / args.source
    if not source.is_file():
        raise SystemExit(f"{source} is missing: this benchmark needs ../shared/data/corpora/")
    runs = []
    with tempfile.TemporaryDirectory(prefix="kg-build-memory-") as folder:
        for n in args.papers:
            path = Path(folder, f"papers-{n}.jsonl")
            with source.open(encoding="utf-8") as lines:
                path.write_text("".join(itertools.islice(lines, n)), encoding="utf-8")
            run = measure(WORK.format(path=str(path), out=str(Path(folder, f"out-{n}")), workers=args.workers))
            built, seconds = run["result"]
            runs.append((built, run["peak_mb"]))
            steps = ", ".join(f"{step} {seconds[step]:.1f}" for step in ("read", "extract", "resolve", "graph", "export") if step in seconds)
            print(f"{built} papers built in {run['seconds']:.0f} s ({steps} s), peak {run['peak_mb']:.0f} MB, "
                  f"CPU of the building process {run['cpu_s']:.1f} s")
    (small, small_peak), (large, large_peak) = runs
    per_paper_kb = (large_peak - small_peak) * 1024 / max(large - small, 1)
    print(f"memory per paper: {per_paper_kb:.0f} KB ({large_peak - small_peak:.0f} MB for {large - small} more papers)")


if __name__ == "__main__":
    main()
