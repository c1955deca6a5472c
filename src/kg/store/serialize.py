"""A store's triples as bytes: Turtle, N-Triples (sorted, byte-stable) or JSON-LD."""

from __future__ import annotations

from typing import cast

import pyoxigraph as ox

from kg.errors import UserError
from kg.store.namespace import PREFIXES
from kg.store.ntriples import sorted_lines, store_triples

__all__ = ["FORMATS", "serialize", "sorted_triples"]

FORMATS: dict[str, ox.RdfFormat] = {
    "turtle": ox.RdfFormat.TURTLE,
    "ntriples": ox.RdfFormat.N_TRIPLES,
    "jsonld": ox.RdfFormat.JSON_LD,
}


def sorted_triples(store: ox.Store) -> list[ox.Triple]:
    """The default graph's triples, sorted by their N-Triples form (a deterministic order)."""
    triples = list(store_triples(store))
    triples.sort(key=str)
    return triples


def serialize(store: ox.Store, fmt: str = "turtle", triples: list[ox.Triple] | None = None) -> bytes:
    """Serialise the default graph as ``turtle``, ``ntriples`` (sorted lines) or ``jsonld``.

    ``triples`` passes :func:`sorted_triples` when the caller already has them.

    >>> store = ox.Store()
    >>> store.add(ox.Quad(ox.NamedNode("http://a/x"), ox.NamedNode("http://a/p"), ox.Literal("1")))
    >>> serialize(store, "ntriples")
    b'<http://a/x> <http://a/p> "1" .\\n'
    """
    if fmt not in FORMATS:
        raise UserError("E305", name=fmt, choices=", ".join(FORMATS))
    if fmt == "ntriples":
        # Oxigraph writes canonical N-Triples; sorting the lines makes the file byte-stable.
        return b"".join(sorted_lines(store_triples(store) if triples is None else triples))
    triples = sorted_triples(store) if triples is None else triples
    # kgid: would only turn our IRIs into escaped local names (kgid:method\/x); full IRIs read better.
    prefixes = {k: v for k, v in PREFIXES.items() if k != "kgid"} if fmt == "turtle" else None
    return cast(bytes, ox.serialize(triples, format=FORMATS[fmt], prefixes=prefixes))
