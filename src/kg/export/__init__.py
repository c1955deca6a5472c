"""Exporters: files made from a :class:`~kg.store.KnowledgeGraph`.

:data:`EXPORTERS` maps an output file name to its writer ``writer(kg, path)``;
:func:`write_all` writes some or all of them into a folder: by default all but
the :data:`OPTIONAL` ones (exports for other engines, written when asked for,
e.g. ``kg export DIR graph.nq --out FOLDER``). Every writer goes
through :func:`kg.export.atomic.atomic_write`: a temporary file in the same
folder, checked (RDF and GraphML are parsed back), then renamed into place, so
a crash never leaves a half-written file where the old one was. ``store`` is a
folder: the graph as an on-disk Oxigraph store that read commands open
read-only (:mod:`kg.export.store`), written beside and renamed the same way.

>>> sorted(set(EXPORTERS) - OPTIONAL)
['facts.csv', 'graph.graphml', 'graph.html', 'graph.jsonld', 'graph.nt', 'graph.ttl', 'results.csv', 'store']
>>> sorted(OPTIONAL)
['graph.nq', 'graph.trig', 'neo4j']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from kg.errors import UserError
from kg.export.atomic import atomic_write
from kg.export.csv import write_facts_csv, write_results_csv
from kg.export.graphml import write_graphml
from kg.export.html import write_html
from kg.export.neo4j import write_neo4j
from kg.export.nquads import write_nquads, write_trig
from kg.export.rdf import rdf_writer
from kg.export.store import write_store

if TYPE_CHECKING:
    from kg.store.graph import KnowledgeGraph

__all__ = ["EXPORTERS", "OPTIONAL", "atomic_write", "write_all"]

#: Output file (or folder) name -> writer(kg, path). Order is the order :func:`write_all` writes in.
EXPORTERS: dict[str, Callable[[KnowledgeGraph, Path], None]] = {
    "graph.ttl": rdf_writer("turtle"),
    "graph.nt": rdf_writer("ntriples"),
    "store": write_store,
    "graph.jsonld": rdf_writer("jsonld"),
    "graph.graphml": write_graphml,
    "facts.csv": write_facts_csv,
    "results.csv": write_results_csv,
    "graph.html": write_html,
    "graph.nq": write_nquads,
    "graph.trig": write_trig,
    "neo4j": write_neo4j,
}

#: Exports written only when asked for by name: datasets for quad stores, CSV for Neo4j.
OPTIONAL: frozenset[str] = frozenset({"graph.nq", "graph.trig", "neo4j"})


def write_all(kg: KnowledgeGraph, out_dir: str | Path, names: Iterable[str] | None = None) -> list[Path]:
    """Write the exports ``names`` (all of :data:`EXPORTERS` but :data:`OPTIONAL` by default) into ``out_dir``.

    The folder is created if needed. Names are checked before anything is
    written, so a typo writes nothing.

    Parameters
    ----------
    kg
        The graph to export.
    out_dir
        The folder to write into.
    names
        File names from :data:`EXPORTERS`; each is written once, in registry order.

    Returns
    -------
    list of Path
        The files written, in the order written.

    Raises
    ------
    UserError
        ``E305`` for a name that is not in :data:`EXPORTERS`.
    """
    wanted = [n for n in EXPORTERS if n not in OPTIONAL] if names is None else list(dict.fromkeys(names))
    unknown = [name for name in wanted if name not in EXPORTERS]
    if unknown:
        raise UserError("E305", name=unknown[0], choices=", ".join(EXPORTERS))
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    frozen = kg.frozen()  # the files share one computation of each view; nothing edits the graph meanwhile
    for name in EXPORTERS:
        if name in wanted:
            path = folder / name
            EXPORTERS[name](frozen, path)
            written.append(path)
    return written
