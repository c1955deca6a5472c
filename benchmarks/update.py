"""Time an incremental update of one new abstract against a full build of the seeds.

Usage::

    python benchmarks/update.py

Two measurements, each in this same run:

* **warm** (the work itself): one process imports kg and loads the pipeline by
  building a one-paper warm-up corpus, then times a full build of the bundled
  example corpus and ``--update`` of that build with one new abstract. This is
  what a notebook or a service that keeps kg loaded sees, and compares the work
  each does. The target is an update under 10% of the full build.
* **cold** (the command line): a full build and an update each in a fresh
  process, imports and model loading included in both.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from _measure import SEEDS_DIR, measure

NEW = {
    "id": "bench-new-1",
    "title": "A new paper",
    "abstract": "We propose GraphMixer, a lightweight model for link prediction. "
    "Experiments on the OGB and Cora datasets show that GraphMixer outperforms GraphSAGE in accuracy.",
}
WARMUP = {"id": "bench-warmup", "abstract": "We propose WarmNet, a network for image classification on CIFAR-10."}
COLD = "import kg\nreport = kg.build([{inp!r}], {out!r}, update={update})\nresult = report.papers"
WARM = """
import time, kg
kg.build([{warm!r}], {warm_out!r})
t = time.perf_counter(); full = kg.build([{seeds!r}], {out!r}); t_full = time.perf_counter() - t
t = time.perf_counter(); upd = kg.build([{new!r}], {out!r}, update=True); t_update = time.perf_counter() - t
t = time.perf_counter(); kg.build([{new!r}], {out!r}, update=True); t_again = time.perf_counter() - t
result = {{"full": t_full, "update": t_update, "again": t_again, "papers": upd.papers, "stages": upd.seconds}}
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        new, warm = tmp / "new.jsonl", tmp / "warm.jsonl"
        new.write_text(json.dumps(NEW) + "\n", encoding="utf-8")
        warm.write_text(json.dumps(WARMUP) + "\n", encoding="utf-8")
        w = measure(WARM.format(warm=str(warm), warm_out=str(tmp / "w"), seeds=str(SEEDS_DIR), out=str(tmp / "a"), new=str(new)))["result"]
        full = measure(COLD.format(inp=str(SEEDS_DIR), out=str(tmp / "b"), update=False))
        update = measure(COLD.format(inp=str(new), out=str(tmp / "b"), update=True))
    print("warm (one process, pipeline loaded):")
    print(f"  full build:            {w['full']:.2f} s")
    print(f"  update, 1 new paper:   {w['update']:.2f} s ({w['papers']} papers; stages: " + ", ".join(f"{k} {v:.2f}s" for k, v in w["stages"].items()) + ")")
    print(f"  repeat update:         {w['again']:.2f} s (nothing new)")
    print(f"  ratio update/full:     {w['update'] / w['full']:.1%} (target < 10%)")
    print("cold (fresh processes, as `kg build` twice from a shell):")
    print(f"  full build:            {full['seconds']:.2f} s")
    print(f"  update, 1 new paper:   {update['seconds']:.2f} s")
    print(f"  ratio update/full:     {update['seconds'] / full['seconds']:.1%}")


if __name__ == "__main__":
    main()
