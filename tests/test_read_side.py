"""The read side has one direction: kg.views (the facade, the views, the query core) sits on kg.store."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kg

STORE = Path(kg.__file__).parent / "store"


def _imported(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(STORE.glob("*.py")), ids=lambda p: p.name)
def test_the_store_never_imports_the_views(path):
    assert not {name for name in _imported(path) if name == "kg.views" or name.startswith("kg.views.")}


def test_the_facade_is_a_view_and_kg_load_finds_it():
    from kg.views import KnowledgeGraph, load
    from kg.views.graph import KnowledgeGraph as direct

    assert KnowledgeGraph is direct is kg.KnowledgeGraph and load is kg.load


def test_kg_query_and_kg_serve_cut_and_check_through_one_core():
    from kg.serve import results, worker
    from kg.views import bounded, isolated, sparql

    assert results.take is bounded.take and results.solutions_of is bounded.solutions_of
    assert worker.check_query is isolated.check_query is sparql.check_query is bounded.check_query
    assert worker.evaluate is isolated.evaluate is sparql.evaluate is bounded.evaluate
