"""What the served explorer keeps in memory: every node's names, type and support, and the facts as an adjacency.

The explorer asks for neighbourhoods and searches many times a second; a SPARQL
scan of all labels per keystroke, or a walk over all statements per click,
would not keep up on a large graph. So each worker process reads the graph
once per store generation (:func:`graph_index`) into plain lists: nodes (as
the NetworkX view has them: typed nodes and the ends of facts), edges (one per
subject, relation and object) and a :class:`~kg.explorer.search.NameIndex`.
Support and confidence of facts, evidence, paper metadata and mentions stay in
the store and are read per request, for the few facts and papers it needs.

Limits
------
Reading takes seconds to a minute on a large store (``benchmarks/page.py
--served`` prints it). ``kg serve`` starts it in each worker when the server
starts (:func:`start_reading`), unless ``--lazy-explorer`` defers it to the
first explorer request; after a rebuild it happens on the first request. It runs in a thread of the worker, not as the
request, so the server's ``--timeout`` does not stop it: requests that come
before it is done wait a little, then get 503 (E375) and the page asks again.
Memory grows with the graph (names and adjacency lists of every node).
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

import pyoxigraph as ox

from kg import vocab
from kg.buildfolder import Generation
from kg.errors import KgError
from kg.explorer.payload import MAX_ALT_LABELS
from kg.explorer.search import NameIndex, name_index
from kg.serve.worker import open_store
from kg.store.namespace import PREFIXES

__all__ = ["GraphIndex", "graph_index", "read_index", "start_reading"]

# Each query is one pattern, a scan of one index: grouping the statements, or joining a
# pattern per fact, would cost several lookups per row on a large store.
_CLASS = "SELECT ?class ?n WHERE { ?n a ?class }"
_RELATION = "SELECT ?relation ?s ?o WHERE { ?s ?relation ?o }"
_LABELS = "SELECT ?n ?label WHERE { ?n rdfs:label ?label }"
_ALTS = "SELECT ?n ?alt WHERE { ?n skos:altLabel ?alt }"
_SUPPORT = "SELECT ?n (COUNT(DISTINCT ?p) AS ?c) WHERE { ?n kg:mentionedIn ?p } GROUP BY ?n"
_YEARS = "SELECT (MIN(STR(?y)) AS ?first) (MAX(STR(?y)) AS ?last) WHERE { ?p dcterms:date ?y }"


@dataclass
class GraphIndex:
    """The graph's nodes and facts as lists; node ``i`` is ``iris[i]``, edge ``e`` is ``edges[e]``."""

    iris: list[str]
    labels: list[str]
    types: list[str]
    alts: list[list[str]]
    support: list[int]
    #: ``(subject, object, relation)``, one per direct triple of a relation (the build writes one per fact)
    edges: list[tuple[int, int, str]]
    adjacency: list[list[int]]
    names: NameIndex
    years: tuple[int, int] | None
    ids: dict[str, int] = field(default_factory=dict)
    #: Every fact, strongest first (:mod:`kg.serve.explore` sorts them on first use).
    ranked_facts: list[int] | None = None

    def __post_init__(self) -> None:
        self.ids = {iri: i for i, iri in enumerate(self.iris)}

    def shown_alts(self, node: int) -> list[str]:
        """The other names the explorer shows and searches (as graph.html keeps them)."""
        return [a for a in self.alts[node] if a != self.labels[node]][:MAX_ALT_LABELS]

    def type_counts(self) -> dict[str, int]:
        """Nodes per legend type (unknown types count as ``Other``)."""
        return dict(Counter(kind if kind in vocab.COLOURS else "Other" for kind in self.types))

    def relation_counts(self) -> dict[str, int]:
        return dict(Counter(edge[2] for edge in self.edges))


def _rows(store: ox.Store, sparql: str, **iris: str) -> list[ox.QuerySolution]:
    substitutions: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {ox.Variable(name): ox.NamedNode(iri) for name, iri in iris.items()}
    return list(cast(ox.QuerySolutions, store.query(sparql, prefixes=PREFIXES, substitutions=substitutions)))  # a SELECT's answer


def _year(value: str | None) -> int | None:
    found = re.match(r"\d{4}", value or "")
    return int(found.group(0)) if found else None


def read_index(store: ox.Store) -> GraphIndex:
    """Read the whole index from ``store`` (nodes: every typed node and every end of a fact)."""
    types = {row["n"].value: kind for iri, kind in vocab.NODE_TYPES.items() for row in _rows(store, _CLASS, **{"class": iri})}
    edge_rows = [(row["s"].value, row["o"].value, term.relation.value) for term in vocab.RELATIONS.values() for row in _rows(store, _RELATION, relation=term.iri)]
    iris = sorted(set(types) | {end for s, o, _ in edge_rows for end in (s, o)})
    ids = {iri: i for i, iri in enumerate(iris)}
    labels = list(iris)
    for row in _rows(store, _LABELS):
        node = ids.get(row["n"].value)
        if node is not None:
            labels[node] = row["label"].value
    alts: list[list[str]] = [[] for _ in iris]
    for row in _rows(store, _ALTS):
        node = ids.get(row["n"].value)
        if node is not None:
            alts[node].append(row["alt"].value)
    for names in alts:
        names.sort()
    support = [1] * len(iris)
    for row in _rows(store, _SUPPORT):
        node = ids.get(row["n"].value)
        if node is not None:
            support[node] = max(1, int(row["c"].value))
    edges = sorted((ids[s], ids[o], relation) for s, o, relation in edge_rows)
    adjacency: list[list[int]] = [[] for _ in iris]
    for e, (s, o, _relation) in enumerate(edges):
        adjacency[s].append(e)
        if o != s:
            adjacency[o].append(e)
    span = _rows(store, _YEARS)
    first = _year(span[0]["first"].value) if span and span[0]["first"] is not None else None
    last = _year(span[0]["last"].value) if span and span[0]["last"] is not None else None
    index = GraphIndex(
        iris=iris,
        labels=labels,
        types=[types.get(iri, "") for iri in iris],
        alts=alts,
        support=support,
        edges=edges,
        adjacency=adjacency,
        names=NameIndex("\n", [], [], {}, {}),
        years=(first, last) if first is not None and last is not None else None,
    )
    searchable = [[labels[i], *index.shown_alts(i)] for i in range(len(iris))]
    index.names = name_index(searchable, [(-support[i], labels[i], iris[i]) for i in range(len(iris))])
    return index


# Per store path: the index of the generation last read, and the reading under way (generation, thread, start).
_READY: dict[str, tuple[Generation, GraphIndex | Exception]] = {}
_READING: dict[str, tuple[Generation, threading.Thread, float]] = {}
_LOCK = threading.Lock()


def _read_in_background(path: str, generation: Generation, store: ox.Store) -> None:
    try:
        found: GraphIndex | Exception = read_index(store)
    except OSError as error:
        found = KgError("E348", path=path, reason=" ".join(str(error).split()))
    except Exception as error:  # a bug: raised by every request of this generation, not lost in the thread
        found = error
    with _LOCK:
        _READY[path] = (generation, found)
        if _READING.get(path, (None,))[0] == generation:
            del _READING[path]


def graph_index(path: str, generation: Generation, wait: float) -> tuple[ox.Store, GraphIndex]:
    """The store at ``path`` and its index, read again when the generation changed.

    The index is read by a thread of this worker, so that reading a large graph
    is not stopped by the server's ``--timeout`` as a query would be: this call
    waits for it at most ``wait`` seconds, then raises :class:`~kg.errors.KgError`
    E375 (503: try again) while the reading goes on.
    """
    store = open_store(path, generation)
    with _LOCK:
        ready = _READY.get(path)
        reading = _READING.get(path)
        if (ready is None or ready[0] != generation) and (reading is None or reading[0] != generation):
            thread = threading.Thread(target=_read_in_background, args=(path, generation, store), name="kg-explorer-index", daemon=True)
            reading = _READING[path] = (generation, thread, time.monotonic())
            thread.start()
    if reading is not None and reading[0] == generation:
        reading[1].join(wait)
    with _LOCK:
        ready = _READY.get(path)
    if ready is not None and ready[0] == generation:
        if isinstance(ready[1], Exception):
            raise ready[1]
        return store, ready[1]
    started = reading[2] if reading is not None else time.monotonic()
    raise KgError("E375", seconds=round(time.monotonic() - started))


def start_reading(path: str, generation: Generation) -> None:
    """Begin reading the index in this worker's background and return at once, so that the first
    visitor of the explorer does not wait for it (the wait was 24 s at 100,000 nodes)."""
    try:
        graph_index(path, generation, wait=0)
    except KgError as error:
        if error.code != "E375":  # E375: still reading, as intended
            raise
