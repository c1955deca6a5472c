"""Run a piece of work in a fresh child process and report its wall time and peak memory.

Benchmarks compare two measurements taken in the same run, so they print ratios
that hold on a noisy machine; absolute seconds are printed for context only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS_DIR = ROOT / "examples" / "corpus"

_CHILD = """
import json, resource, sys, time
sys.path.insert(0, {bench!r})
setup, work = {setup!r}, {work!r}
namespace = {{}}
exec(setup, namespace)
start = time.perf_counter()
exec(work, namespace)
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"seconds": seconds, "peak_mb": usage.ru_maxrss / 1024, "cpu_s": usage.ru_utime + usage.ru_stime,
                  "result": namespace.get("result")}}))
"""


def measure(work: str, setup: str = "") -> dict:
    """Run ``setup`` then time ``work`` (Python source) in a new interpreter.

    Returns ``{"seconds", "peak_mb", "cpu_s", "result"}`` (``cpu_s``: the child's own CPU seconds, user
    and system, setup included, not its children's); ``result`` is whatever the
    work left in a variable named ``result`` (JSON-serialisable).
    """
    code = _CHILD.format(bench=str(Path(__file__).parent), setup=setup, work=work)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"benchmark child failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def seed_texts() -> list[str]:
    """The abstracts of the bundled example corpus (plain-text format), in order."""
    texts = []
    for path in sorted(SEEDS_DIR.glob("*.txt")):
        paragraphs = path.read_text(encoding="utf-8").split("\n\n")[1:]
        texts += [p.strip() for p in paragraphs if p.strip()]
    return texts
