"""rdflib's API over an Oxigraph store, through oxrdflib (no copy of the triples)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg.store.namespace import PREFIXES

if TYPE_CHECKING:
    import pyoxigraph as ox
    import rdflib

__all__ = ["rdflib_graph"]


def rdflib_graph(store: ox.Store) -> rdflib.Graph:
    """An rdflib ``Graph`` over the default graph of ``store``, with the usual prefixes bound."""
    import rdflib
    from oxrdflib.store import OxigraphStore
    from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

    # Our triples live in the default graph; rdflib would otherwise look in a fresh named graph.
    graph = rdflib.Graph(store=OxigraphStore(store=store), identifier=DATASET_DEFAULT_GRAPH_ID)
    for prefix, namespace in PREFIXES.items():
        graph.bind(prefix, namespace, override=True)
    return graph
