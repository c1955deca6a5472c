"""Time an incremental update of one new abstract against a full build of the seeds.

Usage::

    python benchmarks/update.py

Both are measured in fresh processes in this run (imports and model loading
included in both, as a user running ``kg build`` twice would see): a full build
of the bundled example corpus, then ``--update`` of that folder with one new
abstract. Prints both times and their ratio (the target is under 10%).
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
WORK = "import kg\nreport = kg.build([{inp!r}], {out!r}, update={update})\nresult = report.papers"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "build"
        new = Path(tmp) / "new.jsonl"
        new.write_text(json.dumps(NEW) + "\n", encoding="utf-8")
        full = measure(WORK.format(inp=str(SEEDS_DIR), out=str(out), update=False))
        update = measure(WORK.format(inp=str(new), out=str(out), update=True))
        again = measure(WORK.format(inp=str(new), out=str(out), update=True))
    print(f"full build:          {full['seconds']:.2f} s ({full['result']} papers)")
    print(f"update, 1 new paper: {update['seconds']:.2f} s ({update['result']} papers)")
    print(f"repeat update:       {again['seconds']:.2f} s ({again['result']} papers, nothing new)")
    print(f"ratio update/full:   {update['seconds'] / full['seconds']:.1%} (target < 10%)")


if __name__ == "__main__":
    main()
