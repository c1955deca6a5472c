"""How long the first explorer searches take for a visitor who comes some time after ``kg serve`` starts.

Usage::

    python benchmarks/explorer_start.py BUILD_DIR [--delay 45] [--lazy-explorer]

Starts ``kg serve BUILD_DIR`` on a free port, waits ``--delay`` seconds after it
prints its URL, then asks ``/api/explore/search`` twice (two names), each until
it is not 503, and prints how long each took. With the default the workers read
the explorer's index from the start; with ``--lazy-explorer`` they read it on
the first explorer request, which then waits for it. ``page.py --served``
leaves its synthetic build under ``/tmp/kg-bench-serve``; any build folder works.
"""

from __future__ import annotations

import argparse
import http.client
import subprocess
import sys
import time
from pathlib import Path


def first_search(host: str, port: int, name: str) -> tuple[int, float, int]:
    """(status, seconds, tries) for one search asked until the server stops answering 503."""
    connection = http.client.HTTPConnection(host, port, timeout=600)
    start, tries = time.perf_counter(), 0
    while True:
        connection.request("GET", "/api/explore/search?q=" + name.replace(" ", "+"))
        response = connection.getresponse()
        response.read()
        tries += 1
        if response.status != 503:
            return response.status, time.perf_counter() - start, tries
        time.sleep(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=Path)
    parser.add_argument("--delay", type=float, default=45.0)
    parser.add_argument("--lazy-explorer", action="store_true")
    args = parser.parse_args()
    command = [sys.executable, "-m", "kg.cli", "serve", str(args.build_dir), "--port", "0"]
    process = subprocess.Popen(command + (["--lazy-explorer"] if args.lazy_explorer else []), stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        if "http://" not in line:
            raise SystemExit(f"kg serve did not start: {line!r}")
        host, port = line.split("http://")[1].split("/")[0].rsplit(":", 1)
        time.sleep(args.delay)
        mode = "lazy (read on the first request)" if args.lazy_explorer else "read from the start"
        print(f"explorer index {mode}; first searches {args.delay:.0f} s after the URL was printed:")
        for name in ("task 1", "m"):  # two searches: with two workers, each may be the first of one
            status, seconds, tries = first_search(host, int(port), name)
            print(f"  {name!r}: status {status} after {seconds:.2f} s ({tries} tries)")
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    main()
