"""Shared fixtures: small hand-made graphs, and paths to the shared data when present."""

from __future__ import annotations

import functools
import json
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from kg.model import Entity, Paper, Resolution, ResolvedFact

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEEDS = sorted((SHARED / "seeds").glob("*.txt"))
SCIERC = SHARED / "data" / "scierc"

needs_seeds = pytest.mark.skipif(not SEEDS, reason="../shared/seeds is not present")

#: Fixtures that run a whole build: a test using one is slow, and must say so (``pytest -m "not slow"`` is the quick loop).
BUILD_FIXTURES = frozenset({"seed_build", "small_build", "small_corpus"})


# Every core runs a test worker (and the builds, workers and browsers it starts): a process that spins up a
# thread per core for its matrix maths (BLAS under numpy and thinc, torch) only adds contention, so one
# thread each. Set before any test imports them.
for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_name, "1")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Refuse to run when a test uses a build fixture without ``@pytest.mark.slow``."""
    unmarked = [
        item.nodeid
        for item in items
        if BUILD_FIXTURES & set(getattr(item, "fixturenames", ())) and item.get_closest_marker("slow") is None
    ]
    if unmarked:
        raise pytest.UsageError("these tests run a whole build but are not marked slow: " + ", ".join(unmarked))


def tiny_resolution() -> tuple[list[Paper], Resolution]:
    """Two papers, three entities and four facts, written by hand."""
    a = "We propose FooNet for image classification. Code: https://github.com/a/b"
    b = 'FooNet is evaluated on CIFAR-10 and "beats" <b>BarNet</b>.'
    papers = [
        Paper(id="p1", abstract=a, title="FooNet: a <net>", year="2021", authors=("Ada",)),
        Paper(id="p 2", abstract=b),
    ]
    entities = (
        Entity(key="method/foonet", type="Method", label="FooNet", alt_labels=("FN",), papers=("p 2", "p1"), mentions=3),
        Entity(key="task/image-classification", type="Task", label="image classification", papers=("p1",), mentions=1),
        Entity(key="dataset/cifar-10", type="Dataset", label="CIFAR-10", papers=("p 2",), mentions=1),
        Entity(key="method/barnet", type="Method", label="BarNet", papers=("p 2",), mentions=1),
    )
    facts = (
        ResolvedFact("p1", "proposes", None, "method/foonet", a[:43], 0, 43, "kg.contributions/1", 0.9),
        ResolvedFact("p1", "addresses", "method/foonet", "task/image-classification", a[:43], 0, 43, "kg.relations/1", 0.8),
        ResolvedFact("p1", "hasCode", None, "https://github.com/a/b", a[44:], 44, len(a), "kg.relations/1", 0.95),
        ResolvedFact("p 2", "evaluatedOn", "method/foonet", "dataset/cifar-10", b, 0, len(b), "kg.relations/1", 0.7),
        ResolvedFact("p 2", "outperforms", "method/foonet", "method/barnet", b, 0, len(b), "kg.relations/1", 0.6),
    )
    return papers, Resolution(entities=entities, facts=facts)


@pytest.fixture
def tiny_graph():
    from kg.views import KnowledgeGraph

    papers, resolution = tiny_resolution()
    return KnowledgeGraph.from_resolution(papers, resolution)


CORPUS = REPO / "examples" / "corpus"


@functools.cache
def shared_pipeline(*, trained: bool = True, scores: bool = True):
    """``load_pipeline(trained=..., scores=...)``, loaded once per test process for each pair of options.

    A spaCy load takes seconds; the tests only run texts through the pipeline, so one serves them all.
    """
    from kg.extract import load_pipeline

    return load_pipeline(trained=trained, scores=scores)


def shared_folder(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """``name``, made by ``make(folder)`` once per test run and shared by every pytest-xdist worker.

    A session fixture runs once per worker: two workers would each build the
    same corpus. The first to take the lock makes the folder in the run's
    temporary root (common to the workers) and marks it done; the others wait
    and reuse it. A folder left without the mark (a failed ``make``) is made
    again. Tests only read what this returns; one that changes a build copies it.
    """
    from filelock import FileLock

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # popen-gwN's parent: this run's root, the same for every worker
    folder = root / name
    done = root / f"{name}.done"
    with FileLock(root / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def _build_with_report(inputs: list[Path], cache: Path | None = None) -> Callable[[Path], None]:
    """A ``make`` for :func:`shared_folder`: build ``inputs`` into ``folder/build``, keep the report beside it.

    With ``cache`` (another build's ``cache/``, copied first) the papers it holds are not extracted again.
    """

    def make(folder: Path) -> None:
        import kg

        if cache is not None:
            shutil.copytree(cache, folder / "build" / "cache")
        report = kg.build([str(i) for i in inputs], folder / "build")
        (folder / "report.pickle").write_bytes(pickle.dumps(report))

    return make


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory):
    """One full build of the bundled example corpus, shared by every test (and every worker) that reads it."""
    folder = shared_folder(tmp_path_factory, "seeds", _build_with_report([CORPUS]))
    return folder / "build", pickle.loads((folder / "report.pickle").read_bytes())


def cached(out: Path) -> int:
    """How many entries the cache of the build folder ``out`` has recorded (safe while a build writes it)."""
    from kg.buildfolder import BuildFolder
    from kg.pipeline.partitions import PartitionCache

    return len(PartitionCache(BuildFolder(out)).keys())


#: Papers in the small corpus: four batches of 32 for two local workers (two still running when two
#: are done), eight Dask partitions.
SMALL_PAPERS = 128


def _write_small_corpus(folder: Path) -> None:
    from kg.readers import read_inputs

    unique: dict[str, Paper] = {}
    for item in read_inputs([CORPUS]):
        if isinstance(item, Paper):
            unique.setdefault(item.id, item)
    papers = sorted(unique.values(), key=lambda p: p.id)[:SMALL_PAPERS]
    lines = (json.dumps({"id": p.id, "abstract": p.abstract}) + "\n" for p in papers)
    (folder / "small.jsonl").write_text("".join(lines), encoding="utf-8")


@pytest.fixture(scope="session")
def small_corpus(tmp_path_factory) -> Path:
    """:data:`SMALL_PAPERS` distinct papers of the example corpus (the first by id), as one JSON-lines file.

    For the tests that run a real build only to compare it with a reference
    (kill a worker, stop one, resume after a kill, a Dask build): what they
    check (retries, resumption, identical bytes) shows on 128 papers as on 215.
    """
    return shared_folder(tmp_path_factory, "small-corpus", _write_small_corpus) / "small.jsonl"


@pytest.fixture(scope="session")
def small_build(tmp_path_factory, small_corpus, seed_build):
    """A plain build of :func:`small_corpus`, the reference those tests compare with; (folder, report).

    Its extractions come from the seed build's cache (a cached build writes what an uncached one does:
    ``test_build_e2e`` checks it), so it costs an export, not another extraction.
    """
    folder = shared_folder(tmp_path_factory, "small-build", _build_with_report([small_corpus], seed_build[0] / "cache"))
    return folder / "build", pickle.loads((folder / "report.pickle").read_bytes())
