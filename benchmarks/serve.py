"""Latency of five representative queries through ``kg serve`` next to the same queries in-process.

Usage::

    python benchmarks/serve.py [--triples 1000000] [--runs 30] [--dir /tmp/kg-bench-serve]

On a synthetic build of about ``--triples`` triples (``benchmarks/_synthetic.py``,
made once under ``--dir`` and reused), in one run:

* **in-process**: the build's store opened read-only with pyoxigraph, each query
  run and its results serialised to SPARQL JSON (the work the server does);
* **endpoint**: ``kg serve`` started on a free loopback port, each query POSTed
  (``application/sparql-query``, ``Accept: application/sparql-results+json``)
  one after another from one client, over a kept-alive connection.

Each query is run once to warm up, then ``--runs`` times; the script prints the
median and 95th percentile of each side and the endpoint's overhead (median
minus median), which is what the protocol, the worker hop and the row limit
cost. Numbers vary with the machine's load; compare the columns, not runs.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pyoxigraph as ox
from _synthetic import synthetic_build

from kg.store.namespace import PREFIXES

TASK = "https://w3id.org/kg-lit/id/task/task-0"
METHOD = "https://w3id.org/kg-lit/id/method/method-0"

QUERIES = {
    "methods for a task": f"""SELECT ?method ?label WHERE {{ ?method kg:addresses <{TASK}> ; rdfs:label ?label }} ORDER BY ?label LIMIT 1000""",
    "datasets per method": """SELECT ?method (COUNT(DISTINCT ?d) AS ?n) WHERE { ?method kg:evaluatedOn ?d } GROUP BY ?method ORDER BY DESC(?n) LIMIT 100""",
    "2-hop method-task-method": f"""SELECT DISTINCT ?other WHERE {{ <{METHOD}> kg:addresses ?task . ?other kg:addresses ?task FILTER(?other != <{METHOD}>) }} LIMIT 1000""",
    "top-k datasets": """SELECT ?d ?label (COUNT(DISTINCT ?m) AS ?methods) WHERE { ?m kg:evaluatedOn ?d . ?d rdfs:label ?label } GROUP BY ?d ?label ORDER BY DESC(?methods) LIMIT 10""",
    "provenance of one fact": f"""SELECT ?paper ?evidence ?confidence WHERE {{
  ?st rdf:subject <{METHOD}> ; rdf:predicate kg:addresses ; rdf:object ?task ;
      prov:wasDerivedFrom ?paper ; kg:evidence ?evidence ; kg:confidence ?confidence .
}} LIMIT 1000""",
}


def percentiles(samples: list[float]) -> tuple[float, float]:
    """Median and 95th percentile, in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] * 1000


def in_process(store: ox.Store, query: str, runs: int) -> tuple[list[float], int]:
    rows = len(store.query(query, prefixes=PREFIXES).serialize(format=ox.QueryResultsFormat.JSON))
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        store.query(query, prefixes=PREFIXES).serialize(format=ox.QueryResultsFormat.JSON)
        samples.append(time.perf_counter() - start)
    return samples, rows


def start_server(folder: Path) -> tuple[subprocess.Popen, str, int]:
    process = subprocess.Popen([sys.executable, "-m", "kg.cli", "serve", str(folder), "--port", "0", "--limit", "100000"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "http://" not in line:
        process.kill()
        raise SystemExit(f"kg serve did not start: {line!r}")
    host, port = line.split("http://")[1].split("/")[0].rsplit(":", 1)
    return process, host, int(port)


def endpoint(connection: http.client.HTTPConnection, query: str, runs: int) -> tuple[list[float], int]:
    headers = {"Content-Type": "application/sparql-query", "Accept": "application/sparql-results+json"}

    def ask() -> bytes:
        connection.request("POST", "/sparql", body=query.encode("utf-8"), headers=headers)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"endpoint answered {response.status}: {body[:200]!r}")
        return body

    size = len(ask())
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        ask()
        samples.append(time.perf_counter() - start)
    return samples, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--triples", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/kg-bench-serve"))
    args = parser.parse_args()

    start = time.perf_counter()
    folder = synthetic_build(args.dir / f"build-{args.triples}", args.triples)
    triples = json.loads((folder / "manifest.json").read_text())["triples"]
    print(f"graph: {triples:,} triples in {folder} (ready in {time.perf_counter() - start:.1f} s)")

    store = ox.Store.read_only(str(folder / "store"))
    local = {name: in_process(store, query, args.runs) for name, query in QUERIES.items()}
    del store

    process, host, port = start_server(folder)
    try:
        connection = http.client.HTTPConnection(host, port, timeout=120)
        remote = {name: endpoint(connection, query, args.runs) for name, query in QUERIES.items()}
        connection.close()
    finally:
        process.terminate()
        process.wait(timeout=30)

    print(f"{args.runs} runs each after one warm-up; milliseconds")
    print(f"{'query':<26} {'in-process median':>18} {'p95':>8} {'endpoint median':>16} {'p95':>8} {'overhead':>9} {'JSON bytes':>11}")
    for name in QUERIES:
        (lm, lp), (rm, rp) = percentiles(local[name][0]), percentiles(remote[name][0])
        if local[name][1] != remote[name][1]:
            raise SystemExit(f"{name}: the endpoint answered {remote[name][1]} bytes, in-process {local[name][1]}")
        print(f"{name:<26} {lm:>18.2f} {lp:>8.2f} {rm:>16.2f} {rp:>8.2f} {rm - lm:>+9.2f} {remote[name][1]:>11,}")


if __name__ == "__main__":
    main()
