"""Extraction at scale: local processes against a Dask cluster, on real abstracts.

Usage::

    python benchmarks/scale.py [--papers 5000] [--corpus arxiv|mixed]
    python benchmarks/scale.py --identity 2000
    python benchmarks/scale.py --resolve 10000,30000,66000
    python benchmarks/scale.py --resolve-real BUILD_DIR [--sizes 10000,30000,66000]

Default mode: the first ``--papers`` records of
``../shared/data/corpora/arxiv-cs-2016.jsonl`` (``mixed``: alternately arXiv and
NeurIPS records) are extracted three times, each in a fresh process, through
the executors the build uses (:func:`kg.engines.make_executor`): local with 1
worker, local with 2 workers, Dask with a ``LocalCluster`` of 2 workers. Each
time covers loading the models (and starting the cluster), as a build does.
Prints papers per second, the ratios to local 1 worker (the bar: Dask 2 workers
>= 1.6x on an otherwise idle machine), the 1-minute load average before and
after each run, and peak resident memory per worker process.

``--identity N``: builds the first N arXiv records with ``kg build`` locally and
with ``--engine dask --workers 2`` and says whether the two ``graph.nt`` files
are byte-identical.

``--kill N``: builds the first N arXiv records locally, then with ``--engine dask
--workers 2`` while killing one Dask worker (SIGKILL) after five partitions, and
says whether the second build completed with a ``graph.nt`` byte-identical to
the first.

``--resolve SIZES``: times the resolver alone on synthetic corpora of those
sizes, made by copying the seed build's real extractions with a third of the
entity names changed per copy (so the vocabulary keeps growing, as in a real
corpus); each size in a fresh process. Prints mentions, entities, wall and CPU
seconds, peak memory, and the growth of CPU time per mention from the smallest
size (CPU time, because a loaded machine's wall time is mostly waiting).

``--resolve-real BUILD_DIR``: the same table on real papers: the first N papers
of an existing build folder, in its (sorted) order, with the extractions its
cache holds, for each N of ``--sizes`` (default: all of them). The resolver
runs with the build's ``--min-confidence``. Loading the cache is not timed;
"inputs MB" is the process's peak before ``resolve`` starts, so the
resolver's own memory is about "peak MB" minus it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from itertools import chain, zip_longest
from pathlib import Path

from _measure import ROOT, SEEDS_DIR, measure

from kg.buildfolder import BuildFolder
from kg.errors import UserError

CORPORA = ROOT.parent / "shared" / "data" / "corpora"
ARXIV = CORPORA / "arxiv-cs-2016.jsonl"
NEURIPS = CORPORA / "neurips-1987-2025.jsonl"

SETUP_EXTRACT = """
import os, resource
from kg.engines import ExtractJob, make_executor
from kg.readers import read_inputs
from kg.model import Paper
papers = [p for p in read_inputs([{path!r}]) if isinstance(p, Paper)]
"""
WORK_LOCAL = """
count = sum(1 for _ in make_executor("local", workers={workers}).map(papers, ExtractJob()))
me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
result = {{"papers": count, "workers": [me] if {workers} == 1 else [children] * {workers}}}
"""
WORK_DASK = """
import re
messages = []
count = sum(1 for _ in make_executor("dask", workers={workers}, on_message=messages.append).map(papers, ExtractJob()))
peaks = [m for m in messages if m.startswith("peak memory per worker")][-1]
result = {{"papers": count, "workers": sorted(float(mb) for mb in re.findall(r"[0-9.]+", peaks))}}
"""

LOAD_BUILD = """
import resource, time
from pathlib import Path
from kg.buildfolder import BuildFolder
from kg.pipeline.extraction import load_existing
from kg.pipeline.partitions import PartitionCache
from kg.resolve import resolve

def build_papers(folder, count=None):
    # The first `count` papers of a build folder, in its order, with their cached extractions.
    folder = BuildFolder(Path(folder))
    manifest = folder.read_manifest()
    found = load_existing(PartitionCache(folder), manifest.cache_keys[:count], folder.path)
    return manifest, list(found.values())
"""
SETUP_RESOLVE = """
import zlib
from dataclasses import replace
_, loaded = build_papers({seeds!r})
words = sorted({{w for p, _ in loaded for w in p.abstract.lower().split() if w.isalpha() and len(w) > 3}})

def renamed(text, copy):
    h = zlib.crc32(f"{{text}}|{{copy}}".encode())
    return text if h % 3 else f"{{text}} {{words[h // 3 % len(words)]}}"

def mention(m, copy):
    return None if m is None else replace(m, text=renamed(m.text, copy))

papers, extractions = [], []
for copy in range({size} // len(loaded) + 1):
    for paper, ext in loaded:
        if len(papers) == {size}:
            break
        pid = f"{{paper.id}}~{{copy}}"
        papers.append(replace(paper, id=pid))
        extractions.append(replace(
            ext, paper_id=pid,
            mentions=tuple(mention(m, copy) for m in ext.mentions),
            facts=tuple(replace(f, subject=mention(f.subject, copy), object=mention(f.object, copy)) for f in ext.facts),
            acronyms=tuple(replace(a, long=renamed(a.long, copy)) for a in ext.acronyms),
        ))
del loaded
min_confidence = 0.0
inputs_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""
SETUP_RESOLVE_REAL = """
manifest, loaded = build_papers({folder!r}, {size})
papers, extractions = [p for p, _ in loaded], [e for _, e in loaded]
del loaded
min_confidence = manifest.settings.min_confidence
inputs_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""
WORK_RESOLVE = """
cpu = time.process_time()
resolution = resolve(papers, extractions, min_confidence=min_confidence)
result = {"papers": len(papers), "mentions": resolution.report["mentions"], "entities": len(resolution.entities),
          "facts": len(resolution.facts), "inputs_mb": inputs_mb, "cpu_seconds": time.process_time() - cpu}
"""


def records(corpus: str, count: int) -> list[str]:
    """The first ``count`` JSON Lines records: arXiv, or arXiv and NeurIPS alternately."""
    with ARXIV.open(encoding="utf-8") as arxiv, NEURIPS.open(encoding="utf-8") as neurips:
        lines = arxiv if corpus == "arxiv" else (line for line in chain.from_iterable(zip_longest(arxiv, neurips)) if line)
        chosen = []
        for line in lines:
            if len(chosen) == count:
                break
            chosen.append(line)
    return chosen


def load() -> float:
    return os.getloadavg()[0]


def throughput(path: Path, count: int) -> None:
    runs = [("local, 1 worker", WORK_LOCAL.format(workers=1)), ("local, 2 workers", WORK_LOCAL.format(workers=2)), ("Dask, 2 workers", WORK_DASK.format(workers=2))]
    rows = []
    for name, work in runs:
        before = load()
        outcome = measure(work, SETUP_EXTRACT.format(path=str(path)))
        rows.append((name, outcome, before, load()))
    reference = rows[0][1]["result"]["papers"] / rows[0][1]["seconds"]
    print(f"{count} abstracts from {path.name}; each time includes loading the models (and starting the cluster)")
    print(f"{'run':<18} {'papers':>6} {'seconds':>8} {'papers/s':>9} {'ratio':>6} {'load before/after':>18}  peak MB per worker (client)")
    for name, outcome, before, after in rows:
        rate = outcome["result"]["papers"] / outcome["seconds"]
        peaks = ", ".join(f"{mb:.0f}" for mb in outcome["result"]["workers"])
        print(f"{name:<18} {outcome['result']['papers']:>6} {outcome['seconds']:>8.1f} {rate:>9.1f} {rate / reference:>6.2f} {before:>8.2f} / {after:<7.2f}  {peaks} ({outcome['peak_mb']:.0f})")
    dask_ratio = rows[2][1]["result"]["papers"] / rows[2][1]["seconds"] / reference
    print(f"Dask 2 workers / local 1 worker: {dask_ratio:.2f} (bar >= 1.6 on an idle machine; {os.cpu_count()} cores, load average now {load():.2f})")


def kg_build(source: Path, out: Path, *extra: str) -> None:
    command = [sys.executable, "-m", "kg.cli", "--quiet", "build", str(source), "--out", str(out), *extra]
    subprocess.run(command, check=True)


def identity(path: Path, count: int, scratch: Path) -> None:
    kg_build(path, scratch / "local")
    kg_build(path, scratch / "dask", "--engine", "dask", "--workers", "2")
    same = (scratch / "local" / "graph.nt").read_bytes() == (scratch / "dask" / "graph.nt").read_bytes()
    triples = sum(1 for _ in (scratch / "local" / "graph.nt").open(encoding="utf-8"))
    print(f"{count} arXiv records, {triples} triples: graph.nt of local and Dask (2 workers) builds {'identical' if same else 'DIFFER'}")
    if not same:
        raise SystemExit(1)


def killed_worker(path: Path, count: int, scratch: Path, after: int = 5) -> None:
    """Build with Dask (2 workers), SIGKILL one worker once ``after`` partitions are done; compare with a local build."""
    import psutil

    kg_build(path, scratch / "local", "--workers", "2")
    command = [sys.executable, "-m", "kg.cli", "build", str(path), "--out", str(scratch / "dask"), "--engine", "dask", "--workers", "2"]
    build = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    assert build.stderr is not None
    done, killed = 0, None
    for line in build.stderr:
        done += line.startswith("kg: partition ")
        if killed is None and done >= after:
            # The workers are the build's spawned processes (its LocalCluster's nannies start them).
            workers = [p for p in psutil.Process(build.pid).children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]
            killed = workers[0]
            killed.kill()
            print(f"killed Dask worker {killed.pid} after {line.strip()[4:]}")
    if build.wait() != 0:
        raise SystemExit(f"the build with a killed worker failed (exit {build.returncode})")
    same = (scratch / "local" / "graph.nt").read_bytes() == (scratch / "dask" / "graph.nt").read_bytes()
    print(f"{count} arXiv records: the Dask build with a killed worker completed; graph.nt "
          f"{'identical to' if same else 'DIFFERS from'} the local build")
    if not same or killed is None:
        raise SystemExit(1)


def resolve_table(title: str, setups: list[str]) -> None:
    """Time ``resolve`` once per setup (each in a fresh process) and print the growth table."""
    print(title)
    print(f"{'papers':>7} {'mentions':>9} {'entities':>9} {'seconds':>8} {'CPU s':>7} {'us/mention':>10} {'growth':>6} {'peak MB':>8} {'inputs MB':>9} {'load before/after':>18}")
    first = None
    for setup in setups:
        before = load()
        outcome = measure(WORK_RESOLVE, LOAD_BUILD + setup)
        result = outcome["result"]
        per_mention = result["cpu_seconds"] / result["mentions"] * 1e6
        first = first or per_mention
        print(f"{result['papers']:>7} {result['mentions']:>9} {result['entities']:>9} {outcome['seconds']:>8.1f} {result['cpu_seconds']:>7.1f} "
              f"{per_mention:>10.1f} {per_mention / first:>6.2f} {outcome['peak_mb']:>8.0f} {result['inputs_mb']:>9.0f} {before:>8.2f} / {load():<7.2f}")
    print(f"us/mention and growth are CPU time (wall time on a shared machine includes waiting for a core); "
          f"growth is relative to the smallest size (1.0 = linear); {os.cpu_count()} cores")


def resolve_growth(sizes: list[int], scratch: Path) -> None:
    seeds = scratch / "seeds"
    kg_build(SEEDS_DIR, seeds)
    setups = [SETUP_RESOLVE.format(seeds=str(seeds), size=size) for size in sizes]
    resolve_table("synthetic corpora from the seed extractions (a third of the names changed per copy)", setups)


def resolve_real(folder: Path, sizes: list[int] | None) -> None:
    try:
        count = len(BuildFolder(folder).read_manifest().papers)
    except UserError as error:
        raise SystemExit(f"scale.py: {error}") from None
    sizes = sizes or [count]
    if max(sizes) > count:
        raise SystemExit(f"scale.py: {folder} holds {count} papers, fewer than {max(sizes)}")
    setups = [SETUP_RESOLVE_REAL.format(folder=str(folder), size=size) for size in sizes]
    resolve_table(f"the first papers of {folder} (sorted by id), with their cached extractions", setups)


def sizes(text: str) -> list[int]:
    """Comma-separated positive numbers, for argparse."""
    try:
        numbers = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}") from None
    if min(numbers) < 1:
        raise argparse.ArgumentTypeError(f"sizes must be positive: {text!r}")
    return numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=5000, help="abstracts for the throughput runs")
    parser.add_argument("--corpus", choices=("arxiv", "mixed"), default="arxiv", help="arXiv only, or arXiv and NeurIPS alternately")
    parser.add_argument("--identity", type=int, metavar="N", help="instead: compare local and Dask builds of the first N arXiv records")
    parser.add_argument("--kill", type=int, metavar="N", help="instead: kill one Dask worker while building the first N arXiv records; compare with a local build")
    parser.add_argument("--resolve", metavar="SIZES", type=sizes, help="instead: time the resolver on synthetic corpora of these sizes (comma-separated)")
    parser.add_argument("--resolve-real", metavar="BUILD_DIR", type=Path, help="instead: time the resolver on the first papers of this build folder")
    parser.add_argument("--sizes", metavar="SIZES", type=sizes, help="with --resolve-real: numbers of papers (comma-separated; default: all)")
    args = parser.parse_args()
    if args.resolve_real:
        resolve_real(args.resolve_real, args.sizes)
        return
    with tempfile.TemporaryDirectory(prefix="kg-scale-") as folder:
        scratch = Path(folder)
        if args.resolve:
            resolve_growth(args.resolve, scratch)
            return
        if not ARXIV.is_file() or (args.corpus == "mixed" and not NEURIPS.is_file()):
            raise SystemExit(f"the corpora are not in {CORPORA}")
        count = args.identity or args.kill or args.papers
        path = scratch / "abstracts.jsonl"
        path.write_text("".join(records("arxiv" if args.identity or args.kill else args.corpus, count)), encoding="utf-8")
        if args.identity:
            identity(path, count, scratch)
        elif args.kill:
            killed_worker(path, count, scratch)
        else:
            throughput(path, count)


if __name__ == "__main__":
    main()
