"""The knowledge graph facade: triples in Oxigraph, and the read side one method away.

:class:`KnowledgeGraph` holds a :class:`pyoxigraph.Store` and keeps the
methods the README and notebooks use (``select``, ``query``, ``facts``,
``to_networkx``, ``rdflib``, ``stats``, ``from_resolution``, ``load``). Each
is a one-line delegation: building is :mod:`kg.store.rdf`, opening
:mod:`kg.store.disk`, writing :mod:`kg.store.serialize`, and every question
a function of :mod:`kg.views` over the store, computed afresh on each call.

>>> from kg.model import Paper, Resolution
>>> g = KnowledgeGraph.from_resolution([Paper(id="p1", abstract="We study X.")],
...                                    Resolution(entities=(), facts=()))
>>> g.select("SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }")
[{'n': 1}]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from kg.model import Paper, Resolution
from kg.store import disk, serialize
from kg.store.rdf import graph_triples
from kg.views import facts as fact_view
from kg.views import network, numbers, sparql
from kg.views import stats as stats_view
from kg.views.bounded import is_update
from kg.views.bridge import rdflib_graph
from kg.views.facts import NODE_TYPES, FactRow
from kg.views.numbers import ResultRow
from kg.views.sparql import to_python

if TYPE_CHECKING:
    import networkx as nx
    import rdflib

__all__ = ["NODE_TYPES", "FactRow", "KnowledgeGraph", "is_update", "load", "to_python"]

FORMATS = serialize.FORMATS


class KnowledgeGraph:
    """A knowledge graph of papers and scientific entities, stored in Oxigraph.

    Parameters
    ----------
    store:
        An existing :class:`pyoxigraph.Store` (in memory, or on disk and
        read-only as :meth:`load` opens it); a new in-memory store by default.
    """

    def __init__(self, store: ox.Store | None = None) -> None:
        self.store = store if store is not None else ox.Store()

    @classmethod
    def from_resolution(cls, papers: Sequence[Paper], resolution: Resolution) -> KnowledgeGraph:
        """Build the graph of ``papers`` from the resolver's output, in memory."""
        graph = cls()
        graph.store.bulk_extend(ox.Quad(t.subject, t.predicate, t.object) for t in graph_triples(papers, resolution))
        return graph

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeGraph:
        """Open a build folder or an Oxigraph store read-only, or load an RDF file into memory.

        See :func:`kg.store.disk.open_graph`; nothing is ever written to ``path``.
        """
        return cls(disk.open_graph(path))

    def __len__(self) -> int:
        return len(self.store)

    def triples(self) -> list[ox.Triple]:
        """All triples, sorted by their N-Triples form (a deterministic order)."""
        return serialize.sorted_triples(self.store)

    def serialize(self, fmt: str = "turtle") -> bytes:
        """Serialise the graph as ``turtle``, ``ntriples`` (sorted) or ``jsonld``."""
        return serialize.serialize(self.store, fmt)

    @property
    def rdflib(self) -> rdflib.Graph:
        """An rdflib ``Graph`` over the same Oxigraph store (through oxrdflib)."""
        return rdflib_graph(self.store)

    def query(self, sparql_text: str, bindings: Mapping[str, Any] | None = None) -> Any:
        """Run a read-only, offline SPARQL query; see :func:`kg.views.sparql.query`."""
        return sparql.query(self.store, sparql_text, bindings)

    def select(self, sparql_text: str, bindings: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a SELECT query and return rows of plain Python values (ready for pandas)."""
        return sparql.select(self.store, sparql_text, bindings)

    def facts(self) -> Iterator[FactRow]:
        """One row per fact and supporting paper, sorted, with labels and types."""
        return iter(fact_view.facts(self.store))

    def results(self) -> list[ResultRow]:
        """Every numeric result (``kg:Result``), by paper and position; see :func:`kg.views.numbers.results`."""
        return numbers.results(self.store)

    def to_networkx(self) -> nx.MultiDiGraph:
        """A new NetworkX MultiDiGraph derived from the RDF; see :func:`kg.views.network.to_networkx`."""
        return network.to_networkx(self.store)

    def stats(self) -> dict[str, dict[str, int]]:
        """Counts of nodes by class and of facts (direct triples) by relation."""
        return stats_view.stats(self.store)

    def frozen(self) -> KnowledgeGraph:
        """The same graph for a burst of reads while nobody edits it (an export): each view is made once.

        Exporters ask for the sorted triples, the facts and the NetworkX view
        several times; the frozen graph computes each on first use and hands
        out the same objects (do not edit them). Views made before an edit of
        the store stay as they were: use it only while the store is unchanged.
        """
        return _Frozen(self.store)


class _Frozen(KnowledgeGraph):
    def __init__(self, store: ox.Store) -> None:
        super().__init__(store)
        self._made: dict[str, Any] = {}

    def _once(self, name: str, make: Callable[[], Any]) -> Any:
        if name not in self._made:
            self._made[name] = make()
        return self._made[name]

    def triples(self) -> list[ox.Triple]:
        return list(self._once("triples", super().triples))

    def serialize(self, fmt: str = "turtle") -> bytes:
        return serialize.serialize(self.store, fmt, triples=self._once("triples", super().triples))

    def facts(self) -> Iterator[FactRow]:
        return iter(self._once("facts", lambda: list(super(_Frozen, self).facts())))

    def to_networkx(self) -> nx.MultiDiGraph:
        return self._once("networkx", lambda: network.to_networkx(self.store, self.facts()))

    def frozen(self) -> KnowledgeGraph:
        return self


def load(path: str | Path) -> KnowledgeGraph:
    """Open a build folder, an Oxigraph store or an RDF file; see :meth:`KnowledgeGraph.load`."""
    return KnowledgeGraph.load(path)
