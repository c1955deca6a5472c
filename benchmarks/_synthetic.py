"""A synthetic build folder shaped like a real one, of about a given number of triples.

Papers propose methods; methods address tasks, are evaluated on datasets,
measured by metrics and outperform other methods; popularity is skewed (a few
hub tasks and datasets, a long tail), and every fact carries its evidence
statement, as the real graph does. The triples come from the same code as a
real build (:meth:`KnowledgeGraph.from_resolution`), so their shapes are the
real ones.

:func:`synthetic_build` writes ``graph.nt``, ``manifest.json`` and the on-disk
store ``store/`` into a folder, once: a folder already holding a build of the
same size and seed is reused. Shared by the benchmarks that need a big graph.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

import pyoxigraph as ox

from kg.export import write_all
from kg.model import Entity, Paper, Resolution, ResolvedFact
from kg.views import KnowledgeGraph

#: Triples per paper, measured on this generator (papers, entities and facts together).
TRIPLES_PER_PAPER = 81
_KINDS = {"Method": 1.2, "Task": 0.15, "Dataset": 0.2, "Metric": 0.04}  # entities per paper


def _pick(rng: random.Random, keys: list[str]) -> str:
    # Skewed popularity: index ~ n * u^3 puts most picks on the first few keys.
    return keys[int(len(keys) * rng.random() ** 3)]


def synthetic_resolution(papers: int, seed: int = 7) -> tuple[list[Paper], Resolution]:
    """``papers`` papers with entities and facts, deterministic for a seed."""
    rng = random.Random(seed)
    keys = {kind: [f"{kind.lower()}/{kind.lower()}-{i}" for i in range(max(2, int(papers * share)))] for kind, share in _KINDS.items()}
    paper_list, facts = [], []
    mentioned: dict[str, set[str]] = defaultdict(set)
    for n in range(papers):
        pid = f"synth-{n:07d}"
        method = keys["Method"][n % len(keys["Method"])] if n < len(keys["Method"]) else _pick(rng, keys["Method"])
        task, metric = _pick(rng, keys["Task"]), _pick(rng, keys["Metric"])
        datasets = {_pick(rng, keys["Dataset"]) for _ in range(2)}
        rival = _pick(rng, keys["Method"])
        text = f"We propose {method} for {task}, evaluated on {', '.join(sorted(datasets))} with {metric}; it beats {rival}."
        paper_list.append(Paper(id=pid, abstract=text, title=f"Paper {n}"))
        end = len(text)
        triples = [("proposes", None, method), ("addresses", method, task), ("measuredBy", method, metric)]
        triples += [("evaluatedOn", method, d) for d in sorted(datasets)]
        if rival != method:
            triples.append(("outperforms", method, rival))
        for relation, subject, obj in triples:
            facts.append(ResolvedFact(pid, relation, subject, obj, text, 0, end, "synthetic/1", round(rng.uniform(0.5, 1.0), 4)))
            for key in (subject, obj):
                if key is not None:
                    mentioned[key].add(pid)
    entities = tuple(
        Entity(key=key, type=kind, label=key.split("/")[1].replace("-", " "), papers=tuple(sorted(mentioned[key])), mentions=len(mentioned[key]))
        for kind, names in keys.items()
        for key in names
        if mentioned[key]
    )
    return paper_list, Resolution(entities=entities, facts=tuple(facts))


def synthetic_build(folder: str | Path, triples: int = 1_000_000, seed: int = 7) -> Path:
    """A build folder of about ``triples`` triples in ``folder`` (made once, then reused)."""
    folder = Path(folder)
    papers = max(10, triples // TRIPLES_PER_PAPER)
    stamp = {"synthetic": {"papers": papers, "seed": seed}}
    manifest = folder / "manifest.json"
    if manifest.is_file() and json.loads(manifest.read_text()).get("synthetic") == stamp["synthetic"] and (folder / "store").is_dir():
        return folder
    graph = KnowledgeGraph.from_resolution(*synthetic_resolution(papers, seed))
    write_all(graph, folder, names=["graph.nt"])
    # The store as a build writes it (the store exporter does the same bulk load).
    store = ox.Store(str(folder / "store"))
    store.bulk_load(path=str(folder / "graph.nt"), format=ox.RdfFormat.N_TRIPLES)
    store.flush()
    del store
    manifest.write_text(json.dumps({**stamp, "triples": len(graph)}), encoding="utf-8")
    return folder
