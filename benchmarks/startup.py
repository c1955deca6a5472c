"""How long ``kg --help``, ``kg query`` and ``kg stats`` take to start, against a bare ``import pyoxigraph``.

Usage::

    python benchmarks/startup.py [BUILD_DIR] [--repeats 9]

Each command runs as a fresh process (``python -m kg.cli ...``), the way a shell
runs ``kg``, and the reference, ``python -c 'import pyoxigraph'`` (the least any
command that reads the store must pay), runs in the same rounds: the commands
take turns within each round, so a machine that gets busier slows all of them
alike. Prints each command's median wall time, its ratio to the reference and
the time it adds to it; the target is 0.25 s per command. The CPU time (user
and system, the forked query process included) is printed beside it: on a
machine shared with other jobs, wall times grow with the load and CPU times
much less. Without
``BUILD_DIR`` the bundled example corpus is built into a temporary folder
first (about a minute); pass a build of it to skip that.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _measure import SEEDS_DIR

TARGET = 0.25
QUERY = "SELECT ?label WHERE { ?m a kg:Method ; rdfs:label ?label } LIMIT 10"


def commands(build: Path) -> dict[str, list[str]]:
    """What is timed, by name: the reference first."""
    kg = [sys.executable, "-m", "kg.cli"]
    return {
        "python -c 'import pyoxigraph'": [sys.executable, "-c", "import pyoxigraph"],
        "kg --help": [*kg, "--help"],
        "kg query BUILD 'SELECT ...'": [*kg, "query", str(build), QUERY],
        "kg stats BUILD": [*kg, "stats", str(build)],
    }


def run_once(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``command`` and the processes it waited for; a failure stops the benchmark."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(build: Path, repeats: int) -> dict[str, tuple[float, float]]:
    """Each command's median (wall, CPU) seconds over ``repeats`` rounds (a first warm-up round not counted)."""
    todo = commands(build)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in todo}
    for round_ in range(repeats + 1):
        for name, command in todo.items():
            seconds = run_once(command)
            if round_:  # the first round fills the file cache
                times[name].append(seconds)
    return {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)) for name, runs in times.items()}


def report(medians: dict[str, tuple[float, float]], repeats: int) -> None:
    reference_name, *names = medians
    wall_ref, cpu_ref = medians[reference_name]
    print(f"median of {repeats} runs, each a fresh process; wall time (CPU time, user + system):")
    print(f"  {reference_name:<30} {wall_ref:6.3f} s ({cpu_ref:.3f} s)  reference")
    for name in names:
        wall, cpu = medians[name]
        verdict = "within" if wall <= TARGET else "over"
        print(
            f"  {name:<30} {wall:6.3f} s ({cpu:.3f} s)  {wall / wall_ref:5.2f}× the reference (CPU {cpu / cpu_ref:.2f}×), "
            f"+{wall - wall_ref:.3f} s; {verdict} {TARGET} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=Path, nargs="?", help="a build of examples/corpus (default: build one now)")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    if args.build_dir is not None:
        report(measure(args.build_dir, args.repeats), args.repeats)
        return
    with tempfile.TemporaryDirectory() as tmp:
        build = Path(tmp) / "seeds"
        subprocess.run([sys.executable, "-m", "kg.cli", "-q", "build", str(SEEDS_DIR), "--out", str(build)], check=True)
        report(measure(build, args.repeats), args.repeats)


if __name__ == "__main__":
    main()
