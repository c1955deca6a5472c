"""Check a graph against the project's SHACL shapes (``ontologies/shapes.ttl``).

pySHACL works on rdflib graphs, so the triples are copied into a plain
in-memory rdflib graph first (faster for pySHACL's many small lookups than
going through the Oxigraph bridge). The vocabulary (``ontologies/kg.ttl``) is
loaded as the ontology graph so that subclass reasoning follows it.
"""

from __future__ import annotations

from importlib.resources import files
from typing import TYPE_CHECKING

from kg.store.serialize import serialize

if TYPE_CHECKING:
    import pyoxigraph as ox
    import rdflib

__all__ = ["ontology_text", "validate"]


def ontology_text(name: str) -> str:
    """The text of a shipped ontology file, such as ``"kg.ttl"`` or ``"shapes.ttl"``."""
    return files("kg.ontologies").joinpath(name).read_text(encoding="utf-8")


def _rdflib_graph(text: str, fmt: str) -> rdflib.Graph:
    import rdflib

    return rdflib.Graph().parse(data=text, format=fmt)


def validate(store: ox.Store) -> tuple[bool, str]:
    """Validate the graph in ``store`` against the shapes; return ``(conforms, report text)``."""
    from pyshacl import validate as shacl_validate

    data = _rdflib_graph(serialize(store, "ntriples").decode("utf-8"), "nt")
    conforms, _, text = shacl_validate(
        data,
        shacl_graph=_rdflib_graph(ontology_text("shapes.ttl"), "turtle"),
        ont_graph=_rdflib_graph(ontology_text("kg.ttl"), "turtle"),
        inference="none",
        advanced=True,
    )
    return bool(conforms), str(text)
