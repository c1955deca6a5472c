"""Exporters: files made from a :class:`~kg.views.KnowledgeGraph`.

:data:`EXPORTERS` (:data:`kg.registry.EXPORTERS`) maps an output file name to
its writer ``writer(kg, path)``, whose module is imported when it is written;
:func:`write_all` writes some or all of them into a folder: by default kg's own
but the :data:`OPTIONAL` ones (exports for other engines, written when asked for,
e.g. ``kg export DIR graph.nq --out FOLDER``). An exporter another package adds
(the ``kg.exporters`` entry points) is written only when named. Every writer goes
through :func:`kg.io.atomic_write`: a temporary file in the same
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

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from kg.buildfolder import NEO4J, NQUADS, TRIG
from kg.errors import UserError
from kg.registry import EXPORTERS

if TYPE_CHECKING:
    from kg.views.graph import KnowledgeGraph

__all__ = ["EXPORTERS", "OPTIONAL", "export_names", "write_all"]

#: Exports written only when asked for by name: datasets for quad stores, CSV for Neo4j.
OPTIONAL: frozenset[str] = frozenset({NQUADS, TRIG, NEO4J})


def export_names(names: Iterable[str] | None = None) -> list[str]:
    """The exports ``names`` stands for, each once, in the order they are written: kg's own but
    :data:`OPTIONAL` by default, kg's own in registry order, then other packages' in the order named.

    Raises
    ------
    UserError
        ``E305`` for a name that is not in :data:`EXPORTERS`.

    >>> export_names(["facts.csv", "graph.nt", "facts.csv"])
    ['graph.nt', 'facts.csv']
    """
    wanted = [n for n in EXPORTERS.specs if n not in OPTIONAL] if names is None else list(dict.fromkeys(names))
    unknown = [name for name in wanted if name not in EXPORTERS]
    if unknown:
        raise UserError("E305", name=unknown[0], choices=", ".join(EXPORTERS))
    return [name for name in EXPORTERS.specs if name in wanted] + [name for name in wanted if name not in EXPORTERS.specs]


def write_all(kg: KnowledgeGraph, out_dir: str | Path, names: Iterable[str] | None = None) -> list[Path]:
    """Write the exports ``names`` (kg's own but :data:`OPTIONAL` by default) into ``out_dir``.

    The folder is created if needed. Names are checked before anything is
    written, so a typo writes nothing.

    Parameters
    ----------
    kg
        The graph to export.
    out_dir
        The folder to write into.
    names
        File names from :data:`EXPORTERS`; each is written once, kg's own in
        registry order, then other packages' in the order named.

    Returns
    -------
    list of Path
        The files written, in the order written.

    Raises
    ------
    UserError
        ``E305`` for a name that is not in :data:`EXPORTERS`.
    """
    order = export_names(names)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    frozen = kg.frozen()  # the files share one computation of each view; nothing edits the graph meanwhile
    for name in order:
        path = folder / name
        EXPORTERS[name](frozen, path)
        written.append(path)
    return written
