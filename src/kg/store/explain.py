"""Moved to :mod:`kg.views.explain`; this name is kept for code written against a ``KnowledgeGraph``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.views import explain as view

if TYPE_CHECKING:
    from kg.store.graph import KnowledgeGraph

__all__ = ["explain"]


def explain(graph: KnowledgeGraph, label: str, source: str | Path = "the graph") -> list[dict[str, Any]]:
    """:func:`kg.views.explain.explain` over ``graph.store``."""
    return view.explain(graph.store, label, source)
