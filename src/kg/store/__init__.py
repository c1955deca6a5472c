"""The graph store: RDF in Oxigraph, rdflib's API, a NetworkX view.

>>> from kg.store import KnowledgeGraph
"""

from kg.store.graph import FactRow, KnowledgeGraph, load

__all__ = ["FactRow", "KnowledgeGraph", "load"]
