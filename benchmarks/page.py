"""How fast graph.html draws and zooms in headless Chromium, from the seeds page to 100,000 nodes.

Usage::

    python benchmarks/page.py [--sizes 5000 20000 100000] [--screenshots docs/img]

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
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.export.html import DEFAULT_CAP, generate_html, write_html  # noqa: E402
from kg.store import KnowledgeGraph  # noqa: E402
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
        if view is not None:
            # The least supported entity: never among the nodes drawn at first.
            node = min((n for n, d in view.nodes(data=True) if d["type"] != "Paper"), key=lambda n: (view.nodes[n]["support"], n))
            label = view.nodes[node]["label"]
            first, took = search_time(browser, path, label)
            print(f"{name}: opened in {first:.0f} ms, then found {label!r} and showed its panel in {took:.0f} ms;"
                  f" open + search {(first + took) / 1000:.1f} s")
        if args.screenshots:
            screenshots(browser, seeds, args.screenshots)
            print(f"screenshots in {args.screenshots}")
        browser.close()


if __name__ == "__main__":
    main()
