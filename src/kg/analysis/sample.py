"""Small graphs to try the analyses on: one written by hand, one random and as large as asked.

:func:`tiny_graph` is the graph every docstring example in :mod:`kg.analysis`
runs on: six dated papers about question answering and image classification,
whose answers can be checked by eye. :func:`synthetic_graph` makes a random
graph of a given number of nodes with the same shape as a real build, for
benchmarks and scale tests; it is seeded, so two calls give the same graph.
"""

from __future__ import annotations

import random
from pathlib import Path

from kg.model import Entity, Paper, Resolution, ResolvedFact
from kg.views import KnowledgeGraph

__all__ = ["synthetic_graph", "tiny_build", "tiny_graph"]

# (paper, year, abstract)
_PAPERS = (
    ("p1", "2020", "We propose BERT for question answering and report F1 on SQuAD."),
    ("p2", "2020", "BERT and GPT address question answering."),
    ("p3", "2021", "BERT, trained with Adam, answers questions on SQuAD."),
    ("p4", "2021", "GPT beats BERT on GLUE for question answering."),
    ("p5", "2022", "We propose ViT, which beats ResNet on ImageNet for image classification."),
    ("p6", "2022", "ResNet, trained with Adam, reaches high accuracy on ImageNet for image classification."),
)
# (key, type, label, papers)
_ENTITIES = (
    ("method/bert", "Method", "BERT", ("p1", "p2", "p3", "p4")),
    ("method/gpt", "Method", "GPT", ("p2", "p4")),
    ("method/resnet", "Method", "ResNet", ("p5", "p6")),
    ("method/vit", "Method", "ViT", ("p5",)),
    ("method/adam", "Method", "Adam", ("p3", "p6")),
    ("task/question-answering", "Task", "question answering", ("p1", "p2", "p3", "p4")),
    ("task/image-classification", "Task", "image classification", ("p5", "p6")),
    ("dataset/squad", "Dataset", "SQuAD", ("p1", "p3")),
    ("dataset/glue", "Dataset", "GLUE", ("p4",)),
    ("dataset/imagenet", "Dataset", "ImageNet", ("p5", "p6")),
    ("metric/f1", "Metric", "F1", ("p1",)),
    ("metric/accuracy", "Metric", "accuracy", ("p6",)),
)
# (paper, relation, subject, object, confidence); subject None is the paper itself
_FACTS = (
    ("p1", "proposes", None, "method/bert", 0.9),
    ("p1", "addresses", "method/bert", "task/question-answering", 0.8),
    ("p2", "addresses", "method/bert", "task/question-answering", 0.7),
    ("p3", "addresses", "method/bert", "task/question-answering", 0.9),
    ("p1", "evaluatedOn", "method/bert", "dataset/squad", 0.85),
    ("p3", "evaluatedOn", "method/bert", "dataset/squad", 0.6),
    ("p1", "measuredBy", "method/bert", "metric/f1", 0.75),
    ("p2", "addresses", "method/gpt", "task/question-answering", 0.65),
    ("p4", "addresses", "method/gpt", "task/question-answering", 0.6),
    ("p4", "evaluatedOn", "method/gpt", "dataset/glue", 0.55),
    ("p4", "outperforms", "method/gpt", "method/bert", 0.7),
    ("p3", "uses", "method/bert", "method/adam", 0.5),
    ("p5", "proposes", None, "method/vit", 0.9),
    ("p5", "addresses", "method/resnet", "task/image-classification", 0.9),
    ("p6", "addresses", "method/resnet", "task/image-classification", 0.8),
    ("p5", "addresses", "method/vit", "task/image-classification", 0.85),
    ("p5", "evaluatedOn", "method/resnet", "dataset/imagenet", 0.95),
    ("p6", "evaluatedOn", "method/resnet", "dataset/imagenet", 0.9),
    ("p5", "evaluatedOn", "method/vit", "dataset/imagenet", 0.7),
    ("p5", "outperforms", "method/vit", "method/resnet", 0.6),
    ("p6", "measuredBy", "method/resnet", "metric/accuracy", 0.85),
    ("p6", "uses", "method/resnet", "method/adam", 0.55),
)


def tiny_graph() -> KnowledgeGraph:
    """Six dated papers, five methods, two tasks, three datasets, two metrics, 22 facts.

    Question answering (BERT, GPT; SQuAD, GLUE; F1) and image classification
    (ResNet, ViT; ImageNet; accuracy) share only the optimiser Adam, which
    both BERT and ResNet use: two communities and one bridge.

    >>> g = tiny_graph()
    >>> g.select("SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }")
    [{'n': 6}]
    """
    abstracts = {pid: text for pid, _, text in _PAPERS}
    papers = [Paper(id=pid, abstract=text, title=text.rstrip("."), year=year) for pid, year, text in _PAPERS]
    entities = tuple(Entity(key=k, type=t, label=label, papers=ps, mentions=len(ps)) for k, t, label, ps in _ENTITIES)
    facts = tuple(
        ResolvedFact(pid, relation, subject, obj, abstracts[pid], 0, len(abstracts[pid]), "kg.sample/1", confidence)
        for pid, relation, subject, obj, confidence in _FACTS
    )
    return KnowledgeGraph.from_resolution(papers, Resolution(entities=entities, facts=facts))


def tiny_build(folder: Path) -> Path:
    """``folder`` made a build folder of :func:`tiny_graph`: its N-Triples and a manifest; returns ``folder``.

    >>> import tempfile
    >>> from kg.buildfolder import is_build_folder
    >>> is_build_folder(tiny_build(Path(tempfile.mkdtemp())))
    True
    """
    from kg.buildfolder import NTRIPLES, BuildFolder, Manifest
    from kg.export import write_all

    ids = tuple(pid for pid, _, _ in _PAPERS)
    write_all(tiny_graph(), folder, [NTRIPLES])
    BuildFolder(folder).write_manifest(Manifest(papers=ids, cache_keys=ids, extractor_version="kg.sample", files=(NTRIPLES,)))
    return folder


# How a synthetic corpus is shaped: the share of entity nodes of each type, the
# facts per paper by relation, and the years papers fall in.
_TYPE_SHARE = {"Method": 0.55, "Task": 0.15, "Dataset": 0.2, "Metric": 0.1}
_RELATIONS = (("addresses", "Method", "Task"), ("evaluatedOn", "Method", "Dataset"), ("measuredBy", "Method", "Metric"), ("outperforms", "Method", "Method"), ("uses", "Method", "Method"))
_YEARS = tuple(str(y) for y in range(2015, 2026))


def synthetic_graph(nodes: int = 50_000, *, seed: int = 0, facts_per_paper: int = 4) -> KnowledgeGraph:
    """A random graph of about ``nodes`` nodes (papers and entities), shaped like a real build.

    A third of the nodes are papers; the rest are methods, tasks, datasets and
    metrics, picked with a heavy-tailed (Zipf-like) popularity so that a few
    tasks and datasets are crowded, as in real corpora. Each paper states
    ``facts_per_paper`` facts and mentions their ends. Entities are split into
    topical groups so that there are communities to find.

    >>> g = synthetic_graph(300, seed=1)
    >>> g.stats()["classes"]["Paper"]
    100
    """
    rng = random.Random(seed)
    n_papers = max(1, nodes // 3)
    n_entities = max(4, nodes - n_papers)
    groups = max(1, n_entities // 400)
    pools: dict[str, list[str]] = {}
    for kind, share in _TYPE_SHARE.items():
        count = max(1, round(n_entities * share))
        pools[kind] = [f"{kind.lower()}/s{i}" for i in range(count)]

    def pick(kind: str, group: int) -> str:
        pool = pools[kind]
        # Half the picks follow a Zipf-like popularity (a few crowded entities), half are
        # uniform (the long tail that names one paper each); 90 % stay in the paper's group.
        rank = min(len(pool) - 1, int(rng.paretovariate(1.2)) - 1) if rng.random() < 0.5 else rng.randrange(len(pool))
        home = group if rng.random() < 0.9 else rng.randrange(groups)
        return pool[(rank * groups + home) % len(pool)]

    papers, facts = [], []
    mentioned: dict[str, set[str]] = {}
    for i in range(n_papers):
        pid = f"s{i}"
        abstract = f"Synthetic abstract {i}."
        papers.append(Paper(id=pid, abstract=abstract, year=rng.choice(_YEARS)))
        group = rng.randrange(groups)
        method = pick("Method", group)
        for _ in range(facts_per_paper):
            relation, _, target = rng.choice(_RELATIONS)
            obj = pick(target, group)
            if obj == method:
                continue
            facts.append(ResolvedFact(pid, relation, method, obj, abstract, 0, len(abstract), "kg.synthetic/1", round(rng.uniform(0.3, 1.0), 4)))
            mentioned.setdefault(method, set()).add(pid)
            mentioned.setdefault(obj, set()).add(pid)
    entities = tuple(
        Entity(key=key, type=kind, label=key.split("/")[1].upper() if kind == "Method" else key, papers=tuple(sorted(mentioned.get(key, ()))), mentions=len(mentioned.get(key, ())))
        for kind, pool in pools.items()
        for key in pool
    )
    return KnowledgeGraph.from_resolution(papers, Resolution(entities=entities, facts=tuple(dict.fromkeys(facts))))
