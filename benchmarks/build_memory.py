"""The build's own memory per paper: peak memory of ``kg.pipeline.build`` for two corpus sizes.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/build_memory.py [--papers 200 600] [--source neurips-1987-2025.jsonl]

Writes the first N records of a corpus in ``../shared/data/corpora/`` to a
JSON Lines file under ``/tmp`` and builds it (all exports, one worker) in a
fresh process, once per N. Prints papers, seconds and peak resident memory per
build, and the memory each extra paper costs: the difference of the peaks over
the difference of the paper counts. What is fixed (interpreter, spaCy and the
models, about 0.5 GB) is in both peaks and cancels out.
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
from pathlib import Path

from _measure import ROOT, measure

CORPORA = ROOT.parent / "shared" / "data" / "corpora"
WORK = """
from kg.pipeline import build
report = build([{path!r}], {out!r})
result = report.built
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs=2, default=[200, 600])
    parser.add_argument("--source", default="neurips-1987-2025.jsonl")
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
            run = measure(WORK.format(path=str(path), out=str(Path(folder, f"out-{n}"))))
            runs.append((run["result"], run["peak_mb"]))
            print(f"{run['result']} papers built in {run['seconds']:.0f} s, peak {run['peak_mb']:.0f} MB")
    (small, small_peak), (large, large_peak) = runs
    per_paper_kb = (large_peak - small_peak) * 1024 / max(large - small, 1)
    print(f"memory per paper: {per_paper_kb:.0f} KB ({large_peak - small_peak:.0f} MB for {large - small} more papers)")


if __name__ == "__main__":
    main()
