"""kg: knowledge graphs of the scientific literature, built offline from abstracts.

Readers -> extractors (spaCy components) -> resolver -> RDF store -> exporters.
Importing this package does no work; heavy modules load on first use.

>>> import kg
>>> sorted(n for n in kg.__all__)
['BuildSettings', 'KnowledgeGraph', 'build', 'load']
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"
__all__ = ["BuildSettings", "KnowledgeGraph", "build", "load"]


def __getattr__(name: str) -> Any:
    # Lazy exports keep `import kg` cheap: spaCy and rdflib load only when used.
    if name == "build":
        from kg.pipeline import build

        return build
    if name == "BuildSettings":
        from kg.buildfolder import BuildSettings

        return BuildSettings
    if name in ("KnowledgeGraph", "load"):
        from kg.views import graph

        return graph.KnowledgeGraph if name == "KnowledgeGraph" else graph.load
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
