"""How fast graph.html draws and zooms in headless Chromium, from the seeds page to 100,000 nodes; and kg serve's explorer.

Usage::

    python benchmarks/page.py [--sizes 5000 20000 100000] [--screenshots docs/img]
    python benchmarks/page.py --sizes --served 100000 [--dir /tmp/kg-bench-serve]

For the seeds page (the committed ``exports/`` graph, page written afresh) and
synthetic graphs shaped like a literature graph (``tests/test_export_support.py``,
1.5 edges per node), it writes the page with the default cap and prints:

- ``build``: seconds to write the page in Python (layout included);
- ``first draw``: milliseconds from navigation to vis-network's first frame;
- ``zoom fps``: ten zoom steps of 1.25x from the fitted view, each drawn at once
  (``network.redraw()``), as frames per second;
- ``search``: for the largest graph, milliseconds from typing the name of a
  node outside the drawn cap to its details panel (after the first draw).

Ratios are against the seeds page measured in the same run, so they hold on a
loaded machine; absolute numbers are for context. Needs the browser extra
(Playwright) and ``/usr/bin/chromium``. ``--screenshots DIR`` also saves the
pictures used in the README (seeds page: overview, search, details panel).

``--served NODES`` measures the explorer of ``kg serve`` (``/explore``) on a
synthetic build of about NODES nodes (``benchmarks/_synthetic.py``, made once
under ``--dir`` and reused; the serve extra is needed), and prints:

- ``index``: seconds to read the explorer's in-memory index from the store in
  this process (each server worker does the same once per store generation),
  and how much more resident memory the process holds with it;
  the first overview request, asked as soon as the server prints its URL,
  which waits for the rest of that reading (both workers begin it at start);
- ``search``: the search endpoint's median and 95th percentile over HTTP, and
  the same searches in-process on the index, for names that match one node, a
  few, most of the graph (one letter) and none;
- ``node``: the neighbourhood endpoint for the biggest hub and a leaf, one and two hops;
- in the browser: navigation to the overview drawn, then typing a name to its
  suggestions, and Enter to its neighbourhood drawn; the time from navigation
  to that first drawn neighbourhood, for a leaf and then for the biggest hub.
  With graph.html pages measured in the same run, the largest one's open +
  search time is the reference for the served open + search.
"""

from __future__ import annotations

import argparse
import http.client
import json
import resource
import statistics
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.explorer.page import DEFAULT_CAP, generate_html  # noqa: E402
from kg.export.html import write_html  # noqa: E402
from kg.views import KnowledgeGraph  # noqa: E402
from tests.test_export_support import synthetic_view  # noqa: E402

CHROMIUM = "/usr/bin/chromium"

_ZOOM = """() => {
  const network = kgExplorer.network;
  network.fit({animation: false});
  network.redraw();
  const start = performance.now();
  for (let step = 0; step < 10; step++) {
    network.moveTo({scale: network.getScale() * 1.25});
    network.redraw();
  }
  return performance.now() - start;
}"""


def open_page(browser, path: Path) -> tuple[object, float]:
    """A new tab showing ``path``, and its time to first draw in milliseconds."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(path.as_uri(), timeout=120_000)
    page.wait_for_selector("body[data-drawn]", state="attached", timeout=120_000)
    return page, page.evaluate("kgExplorer.firstDraw")


def measure(browser, path: Path) -> dict[str, float]:
    page, first = open_page(browser, path)
    zoom_ms = page.evaluate(_ZOOM)
    drawn = page.evaluate("kgExplorer.nodes.length")
    page.close()
    return {"first": first, "fps": 10_000 / zoom_ms, "drawn": drawn}


def search_time(browser, path: Path, name: str) -> tuple[float, float]:
    """(first draw, then typing ``name`` + Enter until its panel shows), in milliseconds."""
    page, first = open_page(browser, path)
    start = time.perf_counter()
    page.fill("#search", name)
    page.press("#search", "Enter")
    page.wait_for_function("(name) => document.querySelector('#details h2')?.textContent === name", arg=name)
    took = (time.perf_counter() - start) * 1000
    page.close()
    return first, took


def _get(connection: http.client.HTTPConnection, path: str) -> tuple[float, bytes]:
    """Seconds to answer one GET, and the body; anything but 200 ends the benchmark.

    While the server reads the graph (503, E375) the request is made again a second later,
    as the page does; the time then counts from the first try.
    """
    start = time.perf_counter()
    while True:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status == 200:
            return time.perf_counter() - start, body
        if response.status != 503 or not body.startswith(b"E375"):
            raise SystemExit(f"{path} answered {response.status}: {body[:200]!r}")
        time.sleep(1)


def _resident_mb() -> float:
    """This process's resident memory now (Linux), in MB: what an index it keeps adds to a worker."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize() / 1e6


def _spread(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(ordered) * 1000:8.1f} {p95 * 1000:8.1f}"


def _search_path(query: str) -> str:
    return "/api/explore/search?" + urllib.parse.urlencode({"q": query})


def _node_path(iri: str, hops: int) -> str:
    return "/api/explore/node?" + urllib.parse.urlencode({"iri": iri, "hops": hops})


def served(browser, nodes: int, root: Path, runs: int, reference: float | None) -> None:
    """The served explorer on a synthetic build of about ``nodes`` nodes (see the module's docstring)."""
    import pyoxigraph as ox
    from _synthetic import TRIPLES_PER_PAPER, synthetic_build, synthetic_resolution
    from serve import start_server

    from kg.explorer.search import find
    from kg.serve.graph_index import read_index
    from kg.store.namespace import PREFIXES

    papers, resolution = synthetic_resolution(2_000)
    per_paper = (len(papers) + len(resolution.entities)) / len(papers)  # nodes per paper, measured on this generator
    triples = round(nodes / per_paper) * TRIPLES_PER_PAPER
    start = time.perf_counter()
    folder = synthetic_build(root / f"build-{triples}", triples)
    print(f"\nserved explorer: synthetic build of {json.loads((folder / 'manifest.json').read_text())['triples']:,} triples in {folder}"
          f" (ready in {time.perf_counter() - start:.1f} s)")
    store = ox.Store.read_only(str(folder / "store"))
    before = _resident_mb()
    start = time.perf_counter()
    index = read_index(store)
    print(f"index: {len(index.iris):,} nodes, {len(index.edges):,} facts, read in {time.perf_counter() - start:.1f} s in this process"
          f" (resident memory {_resident_mb() - before:,.0f} MB higher with it)")
    entities = [n for n in range(len(index.iris)) if index.types[n] != "Paper" and index.adjacency[n]]
    hub = max(entities, key=lambda n: (index.support[n], len(index.adjacency[n])))  # noqa: F821 (the lambdas run here, before the del below)
    leaf = min(entities, key=lambda n: (index.support[n], len(index.adjacency[n]), index.iris[n]))  # noqa: F821
    picked = {"hub": (index.iris[hub], index.labels[hub]), "leaf": (index.iris[leaf], index.labels[leaf])}
    queries = {"exact": index.labels[leaf], "prefix, many": "task 1", "one letter": "m", "none": "zzqx"}
    local = {}
    for name, query in queries.items():
        samples = []
        for _ in range(runs):
            start = time.perf_counter()
            _hits, count, complete = find(index.names, query)
            samples.append(time.perf_counter() - start)
        local[name] = (samples, ("" if complete else ">") + f"{count:,}")
    # What the index saves: one SPARQL scan of every label per keystroke (and it ranks nothing).
    scan = 'SELECT ?n WHERE { ?n rdfs:label ?l FILTER(CONTAINS(LCASE(STR(?l)), "task 1")) }'
    samples = []
    for _ in range(3):
        start = time.perf_counter()
        list(store.query(scan, prefixes=PREFIXES))
        samples.append(time.perf_counter() - start)
    print(f"for comparison, a SPARQL CONTAINS scan of all labels for 'task 1': median {statistics.median(samples) * 1000:.0f} ms")
    del index, store

    process, host, port = start_server(folder)
    try:
        with ThreadPoolExecutor(2) as pool:  # both workers began reading the index when the server started
            start = time.perf_counter()
            list(pool.map(lambda _: _get(http.client.HTTPConnection(host, port, timeout=600), "/api/explore/overview"), range(2)))
        print(f"first overview in both workers, asked as soon as the server answers (the workers read the index from the start):"
              f" {time.perf_counter() - start:.1f} s (asked again on 503)")
        connection = http.client.HTTPConnection(host, port, timeout=600)
        print(f"{runs} runs each after one warm-up; milliseconds (median, p95)")
        print(f"{'search':<13} {'query':<18} {'matches':>8} {'endpoint':>17} {'in-process':>17}")
        for name, query in queries.items():
            _get(connection, _search_path(query))
            remote = [_get(connection, _search_path(query))[0] for _ in range(runs)]
            print(f"{name:<13} {query!r:<18} {local[name][1]:>8} {_spread(remote)} {_spread(local[name][0])}")
        print(f"{'node':<13} {'label':<18} {'hops':>8} {'endpoint':>17} {'KB':>8} {'nodes':>8}")
        for kind, (iri, label) in picked.items():
            for hops in (1, 2):
                body = _get(connection, _node_path(iri, hops))[1]
                samples = [_get(connection, _node_path(iri, hops))[0] for _ in range(max(3, runs // 5))]
                print(f"{kind:<13} {label!r:<18} {hops:>8} {_spread(samples)} {len(body) / 1000:8.1f} {len(json.loads(body)['nodes']):>8}")
        connection.close()
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://{host}:{port}/explore", timeout=300_000)
        page.wait_for_selector("body[data-drawn]", state="attached", timeout=300_000)
        print(f"browser: overview drawn {page.evaluate('kgExplorer.firstDraw'):.0f} ms after navigation"
              f" ({page.evaluate('kgExplorer.model.nodes.length'):,} nodes loaded)")
        for count, kind in enumerate(("leaf", "hub"), start=1):
            label = picked[kind][1]
            start = time.perf_counter()
            page.fill("#search", label)
            page.locator("#suggestions [role=option]").first.wait_for(timeout=300_000)
            typed = time.perf_counter() - start
            start = time.perf_counter()
            page.press("#search", "Enter")
            page.wait_for_selector(f"body[data-fetches='{count}']", state="attached", timeout=300_000)
            drawn = time.perf_counter() - start
            at = page.evaluate("kgExplorer.fetchDrawn")
            line = (f"{kind} {label!r}: suggestions {typed * 1000:.0f} ms after typing, neighbourhood drawn {drawn * 1000:.0f} ms"
                    f" after Enter; navigation to this neighbourhood drawn {at / 1000:.2f} s")
            if count == 1 and reference:
                line += f" ({at / reference:.2f} x graph.html's open + search)"
            print(line)
        page.close()
    finally:
        process.terminate()
        process.wait(timeout=30)


def screenshots(browser, path: Path, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    page, _ = open_page(browser, path)
    page.screenshot(path=str(folder / "graph.png"))
    page.fill("#search", "lora")
    page.screenshot(path=str(folder / "explorer-search.png"))
    page.press("#search", "Enter")
    page.wait_for_timeout(200)
    page.screenshot(path=str(folder / "explorer-details.png"))
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[5_000, 20_000, 100_000])
    parser.add_argument("--screenshots", type=Path, default=None)
    parser.add_argument("--served", type=int, default=0, metavar="NODES", help="also measure kg serve's explorer on about NODES nodes")
    parser.add_argument("--dir", type=Path, default=Path("/tmp/kg-bench-serve"), help="where the synthetic build for --served is kept")
    parser.add_argument("--runs", type=int, default=30, help="requests per search for --served")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="kg-page-") as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        pages: list[tuple[str, Path, float, object]] = []
        start = time.perf_counter()
        seeds = Path(tmp) / "seeds.html"
        write_html(KnowledgeGraph.load(ROOT / "exports" / "graph.ttl"), seeds)
        pages.append(("seeds", seeds, time.perf_counter() - start, None))
        for size in args.sizes:
            view = synthetic_view(size, size * 3 // 2)
            start = time.perf_counter()
            path = Path(tmp) / f"synthetic-{size}.html"
            path.write_text(generate_html(view), encoding="utf-8")
            pages.append((f"{size:,} nodes", path, time.perf_counter() - start, view))
        print(f"headless Chromium, 1280x800, default cap {DEFAULT_CAP:,} nodes")
        print(f"{'page':>14} {'MB':>6} {'build s':>8} {'drawn':>6} {'first draw ms':>14} {'x seeds':>8} {'zoom fps':>9} {'x seeds':>8}")
        reference: dict[str, float] = {}
        for name, path, build, _view in pages:
            result = measure(browser, path)
            reference = reference or result
            print(
                f"{name:>14} {path.stat().st_size / 1e6:6.1f} {build:8.1f} {result['drawn']:6,} {result['first']:14.0f}"
                f" {result['first'] / reference['first']:8.2f} {result['fps']:9.1f} {result['fps'] / reference['fps']:8.2f}"
            )
        name, path, _build, view = pages[-1]
        open_and_search = None
        if view is not None:
            # The least supported entity: never among the nodes drawn at first.
            node = min((n for n, d in view.nodes(data=True) if d["type"] != "Paper"), key=lambda n: (view.nodes[n]["support"], n))
            label = view.nodes[node]["label"]
            first, took = search_time(browser, path, label)
            print(f"{name}: opened in {first:.0f} ms, then found {label!r} and showed its panel in {took:.0f} ms;"
                  f" open + search {(first + took) / 1000:.1f} s")
            open_and_search = first + took
        if args.served:
            served(browser, args.served, args.dir, args.runs, open_and_search)
        if args.screenshots:
            screenshots(browser, seeds, args.screenshots)
            print(f"screenshots in {args.screenshots}")
        browser.close()


if __name__ == "__main__":
    main()
