"""Peak memory of the publish step alone (graph, store and exports), apart from reading and resolving.

Usage (from the repository root, in the project's virtualenv; Linux only)::

    python benchmarks/publish_memory.py --papers 2000 [--source arxiv-cs-2016.jsonl] [--cache DIR]
    python benchmarks/publish_memory.py --synthetic 12000

Writes the first N records of a corpus in ``../shared/data/corpora/`` to a
JSON Lines file and builds it once into ``--cache`` (default under ``/tmp``;
kept, so later runs extract nothing). Then, in a fresh process, rebuilds a copy
of that folder: every paper comes from the cache, so the build reads, resolves
and publishes. When the build reports its ``graph`` stage (resolving done), the
child notes its resident memory and its peak so far, and resets the peak
(``/proc/self/clear_refs``); the peak at the end is then the publish step's
own. Prints the three numbers, the triples and the seconds of each stage.

``--synthetic N`` publishes instead the graph of N synthetic papers
(``_synthetic.synthetic_resolution``, about 81 triples a paper) into an empty
folder: no corpus, no cache and no extraction, and graphs larger than the
machine could extract in minutes. The child hands the build's resolve-and-publish
step (``kg.pipeline.run._finish``, a private function) that resolution in place
of resolving, so it runs on any version of kg that has that step.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import tempfile
from pathlib import Path

from _measure import ROOT, measure

CORPORA = ROOT.parent / "shared" / "data" / "corpora"
SETUP = """
import re
import kg

def status():
    text = open("/proc/self/status").read()
    return {key: int(re.search(key + r":\\s+(\\d+)", text).group(1)) / 1024 for key in ("VmRSS", "VmHWM")}

marks = {}

def progress(stage, done, total):
    if stage == "graph" and "resolved" not in marks:
        marks["resolved"] = status()
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")  # resets VmHWM: from here on it is the publish step's peak
"""
SYNTHETIC = """
import kg.pipeline.run as run
from pathlib import Path
from _synthetic import synthetic_resolution
from kg.buildfolder import BuildFolder, BuildSettings
resolved = synthetic_resolution({papers})
run.resolve_papers = lambda everything, min_confidence: resolved
folder = BuildFolder(Path({out!r}))
folder.path.mkdir()
folder.lock.touch()
report = run._finish(folder, {{}}, BuildSettings(), "synthetic", progress, print, previous=None, update=False,
                     formats=None, rejections=[])
result = {{"triples": report.triples, "papers": report.papers, "after_resolve_mb": marks["resolved"]["VmRSS"],
          "resolve_peak_mb": marks["resolved"]["VmHWM"], "publish_peak_mb": status()["VmHWM"],
          "seconds": {{k: round(v, 1) for k, v in report.seconds.items()}}}}
"""
WORK = """
report = kg.build([{path!r}], {out!r}, progress=progress)
result = {{"triples": report.triples, "papers": report.papers, "after_resolve_mb": marks["resolved"]["VmRSS"],
          "resolve_peak_mb": marks["resolved"]["VmHWM"], "publish_peak_mb": status()["VmHWM"],
          "seconds": {{k: round(v, 1) for k, v in report.seconds.items()}}}}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=2000)
    parser.add_argument("--source", default="arxiv-cs-2016.jsonl")
    parser.add_argument("--cache", type=Path, default=None, help="the build folder whose cache later runs reuse")
    parser.add_argument("--synthetic", type=int, default=None, help="publish N synthetic papers instead")
    args = parser.parse_args()
    if args.synthetic:
        with tempfile.TemporaryDirectory(prefix="kg-publish-memory-") as folder:
            _report(measure(SYNTHETIC.format(papers=args.synthetic, out=str(Path(folder, "out"))), SETUP)["result"])
        return
    source = CORPORA / args.source
    if not source.is_file():
        raise SystemExit(f"{source} is missing: this benchmark needs ../shared/data/corpora/")
    cache = args.cache or Path(tempfile.gettempdir(), f"kg-publish-memory-{source.stem}-{args.papers}")
    path = cache.with_suffix(".jsonl")
    with source.open(encoding="utf-8") as lines:
        path.write_text("".join(itertools.islice(lines, args.papers)), encoding="utf-8")
    if not (cache / "manifest.json").is_file():
        print(f"building {cache} once (extraction) ...")
        measure(f"import kg\nkg.build([{str(path)!r}], {str(cache)!r})\nresult = 0")
    with tempfile.TemporaryDirectory(prefix="kg-publish-memory-") as folder:
        out = Path(folder, "out")
        shutil.copytree(cache, out)
        _report(measure(WORK.format(path=str(path), out=str(out)), SETUP)["result"])


def _report(result: dict) -> None:
    print(f"{result['papers']} papers, {result['triples']:,} triples; stages (s): {result['seconds']}")
    print(f"after resolve {result['after_resolve_mb']:.0f} MB (peak so far {result['resolve_peak_mb']:.0f} MB); "
          f"publish peak {result['publish_peak_mb']:.0f} MB, "
          f"{result['publish_peak_mb'] - result['after_resolve_mb']:.0f} MB above what resolving left")


if __name__ == "__main__":
    main()
