"""Moved to :mod:`kg.views.validate`; this name is kept for code written against a ``KnowledgeGraph``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg.views import validate as view
from kg.views.validate import ontology_text

if TYPE_CHECKING:
    from kg.store.graph import KnowledgeGraph

__all__ = ["ontology_text", "validate"]


def validate(graph: KnowledgeGraph) -> tuple[bool, str]:
    """:func:`kg.views.validate.validate` over ``graph.store``."""
    return view.validate(graph.store)
