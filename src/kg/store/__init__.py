"""The graph store: RDF in Oxigraph, opened read-only from a build's ``store/``.

``KnowledgeGraph``, ``FactRow`` and ``load`` are loaded on first use, so
importing a leaf module such as :mod:`kg.store.namespace` (as :mod:`kg.views`
does) never pulls in the facade, which itself imports :mod:`kg.views`.

>>> from kg.store import KnowledgeGraph
"""

from __future__ import annotations

from typing import Any

__all__ = ["FactRow", "KnowledgeGraph", "load"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from kg.store import graph

        return getattr(graph, name)
    raise AttributeError(f"module 'kg.store' has no attribute {name!r}")
