"""RDF files: Turtle, N-Triples and JSON-LD, written atomically and re-parsed first.

The store serialises (:meth:`KnowledgeGraph.serialize`); this module only makes
the writing safe: the bytes go to a temporary file, Oxigraph parses that file
back completely, and only a file that parses is renamed into place.

Limits and dangers
------------------
- The check proves the file is well-formed RDF of its format, not that it holds
  the same triples as the store (comparing would cost a second full load).
- JSON-LD is written in expanded form without a ``@context`` of our own, so it
  is long; Turtle is the file for people, N-Triples (sorted, one triple a line,
  byte-stable) the one for ``diff`` and for reloading.
- Turtle and JSON-LD are made whole in memory once; fine for graphs of many
  thousands of papers, not for millions (a large build skips them,
  :mod:`kg.export.scale`). N-Triples streams: sorted in bounded chunks,
  spilled beside the file and merged (:func:`kg.store.ntriples.sorted_lines`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox

from kg.errors import KgError
from kg.io import atomic_write
from kg.store.ntriples import sorted_lines, store_triples

if TYPE_CHECKING:
    from kg.views.graph import KnowledgeGraph

__all__ = ["RDF_FORMATS", "check_rdf", "rdf_writer", "write_jsonld", "write_ntriples", "write_rdf", "write_turtle"]

#: Our format names (those of :meth:`KnowledgeGraph.serialize`) and Oxigraph's parsers.
RDF_FORMATS: dict[str, ox.RdfFormat] = {
    "turtle": ox.RdfFormat.TURTLE,
    "ntriples": ox.RdfFormat.N_TRIPLES,
    "jsonld": ox.RdfFormat.JSON_LD,
}


def check_rdf(path: Path, fmt: str) -> int:
    """Parse the RDF file at ``path`` completely; return its number of triples.

    Raises
    ------
    KgError
        ``E350`` when the file does not parse.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "g.nt"
    >>> _ = path.write_bytes(b'<http://a/x> <http://a/p> "1" .\\n')
    >>> check_rdf(path, "ntriples")
    1
    >>> _ = path.write_bytes(b'<http://a/x> <http://a/p> .\\n')
    >>> check_rdf(path, "ntriples")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kg.errors.KgError: E350: ...
    """
    try:
        return sum(1 for _ in ox.parse(path=str(path), format=RDF_FORMATS[fmt]))
    except (SyntaxError, ValueError) as error:
        reason = " ".join(str(error).split())
        raise KgError("E350", path=path, reason=f"not valid {fmt}: {reason}") from None


def write_rdf(kg: KnowledgeGraph, path: str | Path, fmt: str) -> None:
    """Write ``kg`` as ``fmt`` (``turtle``, ``ntriples`` or ``jsonld``) to ``path``.

    The file is replaced only once the new content has parsed back; see
    :func:`check_rdf`.
    """
    data = kg.serialize(fmt)
    with atomic_write(path, "wb", check=lambda tmp: check_rdf(tmp, fmt)) as handle:
        handle.write(data)


def rdf_writer(fmt: str) -> Callable[[KnowledgeGraph, Path], None]:
    """A writer ``(kg, path) -> None`` for one RDF format, for the exporter registry.

    >>> rdf_writer("turtle").__name__
    'write_turtle'
    """
    if fmt not in RDF_FORMATS:
        raise ValueError(f"unknown RDF format {fmt!r}; choose one of {', '.join(RDF_FORMATS)}")

    def writer(kg: KnowledgeGraph, path: Path) -> None:
        write_rdf(kg, path, fmt)

    writer.__name__ = writer.__qualname__ = f"write_{fmt}"
    writer.__doc__ = f"Write the graph as {fmt} to ``path``, atomically and re-parsed first."
    return writer


def write_ntriples(kg: KnowledgeGraph, path: str | Path) -> None:
    """Write ``kg`` as sorted N-Triples to ``path``, streamed from its store and re-parsed first.

    The same bytes as ``kg.serialize("ntriples")``, without holding them: the
    sort spills its runs into the file's own folder (:func:`sorted_lines`).
    """
    with atomic_write(path, "wb", check=lambda tmp: check_rdf(tmp, "ntriples")) as handle:
        handle.writelines(sorted_lines(store_triples(kg.store), spill=Path(path).parent))


#: The exporters of graph.ttl, graph.nt and graph.jsonld (:data:`kg.registry.EXPORTERS`).
write_turtle = rdf_writer("turtle")
write_jsonld = rdf_writer("jsonld")
