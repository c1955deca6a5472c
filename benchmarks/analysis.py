"""Time every kg.analysis function on a real build and on a 50,000-node synthetic graph.

Usage::

    python benchmarks/analysis.py [BUILD_DIR] [--nodes 50000]

``BUILD_DIR`` defaults to a build of the last 2,000 NeurIPS 2025 abstracts at
``/tmp/kg-bench-neurips`` (made first if absent, from
``../shared/data/corpora/neurips-1987-2025.jsonl``; skipped when that file is
absent). The synthetic graph comes from :func:`kg.analysis.synthetic_graph`.

Each function runs once on a loaded graph (its inputs, such as the entity
graph, computed beforehand and not timed with it). Seconds are printed with
the ratio to a reference measured in the same run, one SPARQL scan counting
every triple, so that runs on machines of different speed compare. The target
is every function under 10 s at 50,000 nodes; the script prints whether each
meets it and never fails on time.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
NEURIPS = ROOT.parent / "shared" / "data" / "corpora" / "neurips-1987-2025.jsonl"
BUDGET_S = 10.0


def _timed(work: Callable[[], Any]) -> tuple[tuple[float, float], Any]:
    """(wall seconds, CPU seconds of this process) and the result of ``work()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return (time.perf_counter() - wall, time.process_time() - cpu), result


def neurips_build(out: Path, last: int = 2000) -> Path | None:
    """The build of the last ``last`` NeurIPS records, made once."""
    import kg

    if (out / "graph.nt").is_file():
        return out
    if not NEURIPS.is_file():
        return None
    out.mkdir(parents=True, exist_ok=True)
    records = NEURIPS.read_text(encoding="utf-8").splitlines()[-last:]
    source = out.parent / f"{out.name}-input.jsonl"
    source.write_text("\n".join(records) + "\n", encoding="utf-8")
    kg.build([str(source)], out)
    return out


def time_all(graph: Any) -> list[tuple[str, tuple[float, float]]]:
    """Seconds for each analysis function on ``graph``, the reference scan first."""
    import kg.analysis as ka
    from kg.analysis import plots
    from kg.analysis.report import render_report, report_sections

    reference = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    rows = [("reference: SPARQL COUNT of all triples", _timed(lambda: graph.select(reference))[0])]
    seconds, G = _timed(lambda: ka.entity_graph(graph))
    rows.append(("entity_graph", seconds))
    seconds, found = _timed(lambda: ka.communities(G))
    rows.append(("communities (Louvain)", seconds))
    bipartite = ka.bipartite(graph, "addresses")
    work: list[tuple[str, Callable[[], Any]]] = [
        ("usage", lambda: ka.usage(graph)),
        ("top_entities(Task)", lambda: ka.top_entities(graph, "Task")),
        ("leaderboard", lambda: ka.leaderboard(graph)),
        ("method_dataset_matrix", lambda: ka.method_dataset_matrix(graph)),
        ("cooccurrence", lambda: ka.cooccurrence(graph)),
        ("task_gaps", lambda: ka.task_gaps(graph)),
        ("papers_per_year", lambda: ka.papers_per_year(graph)),
        ("trends(Task)", lambda: ka.trends(graph, "Task")),
        ("fact_table", lambda: ka.fact_table(graph)),
        ("bipartite(addresses)", lambda: ka.bipartite(graph, "addresses")),
        ("bipartite(evaluatedOn)", lambda: ka.bipartite(graph, "evaluatedOn")),
        ("projection(methods)", lambda: ka.projection(bipartite, 0)),
        ("projection(tasks)", lambda: ka.projection(bipartite, 1)),
        ("community_table", lambda: ka.community_table(G, found)),
        ("centrality", lambda: ka.centrality(G)),
        ("bridges", lambda: ka.bridges(G, found)),
        ("single_community_datasets", lambda: ka.single_community_datasets(graph, found)),
        ("support_by_relation", lambda: ka.support_by_relation(graph)),
        ("support_share", lambda: ka.support_share(graph)),
        ("confidences", lambda: ka.confidences(graph)),
        ("annotated_graph", lambda: ka.annotated_graph(graph)),
        ("plots.community_map", lambda: plots.community_map(G, found, "Communities")),
        ("report (all sections + HTML)", lambda: render_report(report_sections(graph), "bench", {})),
    ]
    rows += [(name, _timed(fn)[0]) for name, fn in work]
    return rows


def _print(title: str, rows: list[tuple[str, tuple[float, float]]]) -> None:
    reference = rows[0][1][1] or 1e-9
    print(f"\n{title}")
    print(f"{'function':<40} {'wall s':>8} {'CPU s':>8} {'CPU x ref':>10}  CPU under {BUDGET_S:.0f} s")
    for name, (wall, cpu) in rows:
        print(f"{name:<40} {wall:>8.2f} {cpu:>8.2f} {cpu / reference:>10.1f}  {'yes' if cpu < BUDGET_S else 'NO'}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", type=Path, default=Path("/tmp/kg-bench-neurips"))
    parser.add_argument("--nodes", type=int, default=50_000)
    args = parser.parse_args(argv)

    import kg
    from kg.analysis import synthetic_graph

    build = neurips_build(args.build)
    if build is None:
        print(f"skipped the real build: {NEURIPS} is absent")
    else:
        (seconds, _), graph = _timed(lambda: kg.load(build))
        print(f"loaded {build} in {seconds:.1f} s: {graph.stats()['classes']}")
        _print(f"real build {build}", time_all(graph))
    (seconds, _), graph = _timed(lambda: synthetic_graph(args.nodes, seed=0))
    nodes = sum(graph.stats()["classes"].values())
    print(f"\nmade a synthetic graph of {nodes} nodes ({len(graph)} triples) in {seconds:.1f} s")
    _print(f"synthetic graph, {nodes} nodes", time_all(graph))
    return 0


if __name__ == "__main__":
    sys.exit(main())
