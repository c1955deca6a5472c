"""The on-disk store against re-parsing ``graph.nt`` and against rdflib's memory store, on 1M triples.

Usage::

    python benchmarks/store.py [--papers 9000] [--keep]

One run prints:

* **publish**: the build-time cost of writing ``store/`` (bulk load, check,
  rename) next to writing ``graph.nt``, and both sizes on disk;
* **queries**: the latency of five representative questions (the named
  queries of :mod:`kg.views.queries`) answered three ways, each in its own
  fresh process, rows written out as ``kg query --format csv`` would:

  - *store*: open ``DIR/store`` read-only and query it (what ``kg query DIR`` does now);
  - *re-parse*: parse ``graph.nt`` into memory, then query (what it did before);
  - *rdflib*: rdflib's SPARQL engine over its memory store, parsed once
    beforehand (the parse is reported on its own line), each query cut off
    after ``--rdflib-cap`` seconds;

* the ratios re-parse/store and rdflib/store. The bar: every query from the
  store under 1 s and at least 10x faster than re-parsing.

The graph is synthetic but has the shape of a real build: it is made by the
build's own code (:meth:`KnowledgeGraph.from_resolution`) from generated
papers, methods, tasks, datasets and metrics whose popularity follows a
Zipf-like law, with one ``rdf:Statement`` (evidence, confidence, extractor,
paper) per fact and paper. It is written under ``/tmp/store-bench-*`` and
deleted afterwards unless ``--keep``.

Absolute seconds depend on the machine and its load; the ratios are measured
in the same run and hold better.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The five questions: named query, its parameters (filled in from the generated graph) and k.
QUERIES: list[tuple[str, str, int | None]] = [
    ("methods for a task", "methods-for-task", None),
    ("datasets per method", "datasets-per-method", None),
    ("method-task-method (2 hops)", "related-methods", None),
    ("top-10 datasets", "top-datasets", 10),
    ("provenance of one fact", "fact-provenance", None),
]

_WORDS = (
    "we propose novel approach model learning network results show performance state art method task "
    "dataset experiments demonstrate significant improvements training data robust efficient framework "
    "baseline evaluation benchmark accuracy representation deep neural graph attention language image"
).split()


def _zipf(n: int) -> Callable[[random.Random], int]:
    """A draw of an index in ``range(n)`` with weight 1/(index + 1): a few popular datasets and tasks, a long tail.

    With 1,000 choices the most popular takes 13% of the draws, the top ten 39%.
    """
    cumulative = list(accumulate(1 / (rank + 1) for rank in range(n)))
    return lambda rng: rng.choices(range(n), cum_weights=cumulative)[0]


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def synthetic_graph(papers: int, seed: int = 13):  # noqa: ANN201 - KnowledgeGraph, imported lazily
    """A build-shaped graph of ``papers`` papers (about 111 triples each)."""
    from kg.model import Entity, Paper, Resolution, ResolvedFact
    from kg.views import KnowledgeGraph

    rng = random.Random(seed)
    sizes = {"Method": papers // 2, "Task": papers // 10, "Dataset": papers // 10, "Metric": max(10, papers // 40)}
    draw = {kind: _zipf(n) for kind, n in sizes.items()}
    mentioned: dict[str, dict[str, int]] = {}
    facts = []
    paper_list = []
    for i in range(papers):
        pid = f"bench:{i:07d}"
        sentences = [_sentence(rng, rng.randint(14, 24)) for _ in range(6)]
        abstract = " ".join(sentences)
        paper_list.append(Paper(id=pid, abstract=abstract, title=_sentence(rng, 8), year=str(2015 + i % 10), authors=(f"Author {i % 977}", f"Author {(i * 7) % 977}")))
        own = f"method/m{i % sizes['Method']}"

        def fact(relation: str, subject: str | None, obj: str, k: int) -> None:
            start = abstract.find(sentences[k])
            facts.append(ResolvedFact(pid, relation, subject, obj, sentences[k], start, start + len(sentences[k]), "kg.relations/1", round(rng.uniform(0.5, 1.0), 4)))
            for key in (subject, obj):
                if key is not None:
                    mentioned.setdefault(key, {}).setdefault(pid, 0)
                    mentioned[key][pid] += 1

        fact("proposes", None, own, 0)
        for kind, relation, lo, hi in (("Task", "addresses", 1, 2), ("Dataset", "evaluatedOn", 2, 3), ("Metric", "measuredBy", 1, 2), ("Method", "outperforms", 1, 2), ("Method", "uses", 0, 1)):
            for _ in range(rng.randint(lo, hi)):
                target = f"{kind.lower()}/{kind[0].lower()}{draw[kind](rng)}"
                if target != own:
                    fact(relation, own, target, rng.randint(1, 5))
    entities = []
    for key in sorted(mentioned):
        kind = key.split("/", 1)[0].capitalize()
        name = key.split("/", 1)[1]
        per_paper = mentioned[key]
        alts = (f"{name.upper()}-alt",) if int(name[1:]) % 3 == 0 else ()
        entities.append(Entity(key=key, type=kind, label=f"{kind} {name}", alt_labels=alts, papers=tuple(sorted(per_paper)), mentions=sum(per_paper.values())))
    # One fact per paper and relation pair, as the resolver keeps them.
    unique = {(f.paper_id, f.relation, f.subject, f.object): f for f in facts}
    return KnowledgeGraph.from_resolution(paper_list, Resolution(entities=tuple(entities), facts=tuple(unique.values())))


def parameters(graph) -> dict[str, dict[str, str]]:  # noqa: ANN001
    """Values for the named queries' parameters, chosen from the graph: the busiest task and method, a fact."""
    task = graph.select("SELECT ?l (COUNT(*) AS ?n) WHERE { ?m kg:addresses ?t . ?t rdfs:label ?l } GROUP BY ?l ORDER BY DESC(?n) LIMIT 1")[0]["l"]
    method = graph.select("SELECT ?l (COUNT(*) AS ?n) WHERE { ?m kg:addresses ?t ; rdfs:label ?l } GROUP BY ?l ORDER BY DESC(?n) ?l LIMIT 1")[0]["l"]
    fact = graph.select("SELECT ?s ?o WHERE { ?s kg:evaluatedOn ?o } ORDER BY ?s ?o LIMIT 1")[0]
    return {
        "methods-for-task": {"task": task},
        "datasets-per-method": {},
        "related-methods": {"method_label": method},
        "top-datasets": {},
        "fact-provenance": {"s": fact["s"], "p": "https://w3id.org/kg-lit/vocab#evaluatedOn", "o": fact["o"]},
    }


# Each engine runs in a fresh interpreter so no run warms another's caches or memory.
_PEAK = """
def peak_mb():
    # VmHWM is this process's own high-water mark; ru_maxrss would keep the parent's across exec.
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")
"""
_OXIGRAPH = """
import io, json, sys, time
from kg.store.disk import open_graph
from kg.views.queries import run_named
from kg.views.results import write_csv
source, plan = sys.argv[1], json.loads(sys.argv[2])
times, rows = [], []
for name, params, k in plan:
    start = time.perf_counter()
    store = open_graph(source)          # read-only open of store/, or a full parse of graph.nt
    opened = time.perf_counter() - start
    sink = io.StringIO()
    with run_named(store, name, timeout=None, limit=k or None, **params) as result:
        write_csv(result, sink)
    times.append((opened, time.perf_counter() - start))
    rows.append(sink.getvalue().count("\\n") - 1)
    del store
print(json.dumps({"times": times, "rows": rows, "peak_mb": peak_mb()}))
"""

_RDFLIB = """
import json, signal, sys, time
import rdflib
from kg.store.namespace import PREFIXES
from kg.views.queries import NAMED
path, plan, cap = sys.argv[1], json.loads(sys.argv[2]), float(sys.argv[3])
start = time.perf_counter()
graph = rdflib.Graph()
graph.parse(path, format="nt")
parsed = time.perf_counter() - start

class Cut(Exception):
    pass

def cut(*_):
    raise Cut()

signal.signal(signal.SIGALRM, cut)
times, rows = [], []
for name, params, k in plan:
    named = NAMED[name]
    bindings = {key: rdflib.URIRef(params[key]) for key in named.iris}
    bindings.update({key: rdflib.Literal(params[key]) for key in named.texts})
    start = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, cap)
    try:
        result = list(graph.query(named.sparql, initNs=PREFIXES, initBindings=bindings))
        rows.append(len(result[:k] if k else result))
        times.append(time.perf_counter() - start)
    except Cut:
        rows.append(None)
        times.append(None)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
print(json.dumps({"parse": parsed, "times": times, "rows": rows, "peak_mb": peak_mb()}))
"""


def _child(code: str, *args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", _PEAK + code, *args], capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"benchmark child failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _command_seconds(folder: Path, params: dict[str, dict[str, str]]) -> tuple[float, float]:
    """Wall time of the real ``kg query`` command (interpreter start and imports included) on the store and on graph.nt."""
    from kg.views.queries import NAMED

    times = []
    for source in (folder, folder / "graph.nt"):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "kg.cli", "query", str(source), NAMED["top-datasets"].sparql, "-f", "csv", "--limit", "10"], check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return times[0], times[1]


def _ratio(value: float) -> str:
    return f"{value:.1f}x" if value < 10 else f"{value:.0f}x"


def _seconds(value: float | None, cap: float) -> str:
    return f"> {cap:.0f} s" if value is None else f"{value:.3f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=9000, help="synthetic papers (about 111 triples each; 9,000 give 1M)")
    parser.add_argument("--rdflib-cap", type=float, default=120.0, help="seconds after which an rdflib query is cut off")
    parser.add_argument("--keep", action="store_true", help="keep the generated build folder")
    options = parser.parse_args()

    from kg.export.rdf import write_rdf
    from kg.export.store import write_store

    folder = Path(tempfile.mkdtemp(prefix="store-bench-"))
    try:
        start = time.perf_counter()
        graph = synthetic_graph(options.papers)
        made = time.perf_counter() - start
        print(f"graph: {len(graph):,} triples from {options.papers:,} synthetic papers (made in {made:.1f} s) in {folder}")
        start = time.perf_counter()
        write_rdf(graph, folder / "graph.nt", "ntriples")
        nt_seconds = time.perf_counter() - start
        start = time.perf_counter()
        write_store(graph, folder / "store")
        store_seconds = time.perf_counter() - start
        params = parameters(graph)
        del graph
        nt_mb = (folder / "graph.nt").stat().st_size / 2**20
        store_mb = sum(p.stat().st_size for p in (folder / "store").iterdir()) / 2**20
        print("\npublish (build time)")
        print(f"  graph.nt  (sorted N-Triples, written and re-parsed): {nt_seconds:6.2f} s  {nt_mb:7.1f} MB")
        print(f"  store/    (bulk load, read-only check, rename):      {store_seconds:6.2f} s  {store_mb:7.1f} MB")

        plan = json.dumps([(name, params[name], k) for _, name, k in QUERIES])
        store = _child(_OXIGRAPH, str(folder), plan)
        reparse = _child(_OXIGRAPH, str(folder / "graph.nt"), plan)
        memory = _child(_RDFLIB, str(folder / "graph.nt"), plan, str(options.rdflib_cap))
        if store["rows"] != reparse["rows"]:
            raise SystemExit(f"the store and graph.nt disagree: {store['rows']} rows against {reparse['rows']}")

        print(f"\nqueries (seconds from opening to the last row written; rdflib parsed graph.nt once in {memory['parse']:.1f} s beforehand)")
        header = f"  {'query':<30}{'rows':>7}{'store':>11}{'re-parse':>11}{'rdflib':>11}{'re-parse/store':>16}{'rdflib/store':>14}"
        print(header)
        worst_ratio, slowest = float("inf"), 0.0
        for i, (label, _, _) in enumerate(QUERIES):
            s = store["times"][i][1]
            r = reparse["times"][i][1]
            lib = memory["times"][i]
            worst_ratio, slowest = min(worst_ratio, r / s), max(slowest, s)
            lib_ratio = _ratio(lib / s) if lib is not None else "> " + _ratio(options.rdflib_cap / s)
            print(f"  {label:<30}{store['rows'][i]:>7}{s:>10.3f}s{r:>10.2f}s{_seconds(lib, options.rdflib_cap):>11}{_ratio(r / s):>16}{lib_ratio:>14}")
        command = _command_seconds(folder, params)
        print(f"\n  the whole `kg query DIR ... --limit 10` command (top-10 datasets), fresh process: store {command[0]:.2f} s, graph.nt {command[1]:.2f} s")
        opens = [t[0] for t in store["times"]]
        parses = [t[0] for t in reparse["times"]]
        print(f"\n  opening store/ read-only: {min(opens) * 1000:.0f}-{max(opens) * 1000:.0f} ms; parsing graph.nt: {min(parses):.2f}-{max(parses):.2f} s")
        print(f"  peak memory: store {store['peak_mb']:.0f} MB, re-parse {reparse['peak_mb']:.0f} MB, rdflib {memory['peak_mb']:.0f} MB")
        verdict = "met" if slowest < 1.0 and worst_ratio >= 10 else "NOT met"
        print(f"\nbar (every query from the store < 1 s and >= 10x faster than re-parsing): {verdict} (slowest {slowest:.3f} s, smallest ratio {worst_ratio:.0f}x)")
    finally:
        if not options.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
