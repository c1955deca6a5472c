"""The read side: the :class:`KnowledgeGraph` facade and plain functions that answer questions from a store.

Every function takes a :class:`pyoxigraph.Store` (a read-only one on disk,
opened by :func:`kg.store.disk.open_graph`, or one in memory) and derives its
answer from the triples each time: nothing is cached beside the store, so a
view can never be stale.

- :mod:`kg.views.graph`: ``KnowledgeGraph``, ``FactRow`` and ``load`` (also ``kg.load``)
- :mod:`kg.views.sparql`: ``select``, ``query``, and ``run_query`` (offline, bounded, streaming)
- :mod:`kg.views.queries`: named queries (``run_named``)
- :mod:`kg.views.facts`: ``facts`` (rows of ``facts.csv``)
- :mod:`kg.views.network`: ``to_networkx``
- :mod:`kg.views.stats`, :mod:`kg.views.explain`, :mod:`kg.views.validate`
- :mod:`kg.views.bridge`: ``rdflib_graph`` (rdflib's API over the same store)
- :mod:`kg.views.results`: streaming writers for query results (CSV, JSON, N-Triples)

The layer below, :mod:`kg.store`, knows terms, triples, disk and files; it
never imports this package. ``KnowledgeGraph``, ``FactRow`` and ``load`` load
on first use, so importing a leaf view (``kg.views.offline``) stays cheap.

>>> from kg.views import KnowledgeGraph
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what __getattr__ hands out, for type checkers
    from kg.views.graph import FactRow, KnowledgeGraph, load

__all__ = ["FactRow", "KnowledgeGraph", "load"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from kg.views import graph

        return getattr(graph, name)
    raise AttributeError(f"module 'kg.views' has no attribute {name!r}")
