"""Named plugins, imported only when used: input formats, exporters and extraction engines.

One pattern for the three kinds, after rdflib's plugin registry (``rdflib.plugin``):
a :class:`Registry` maps a name to a ``"module:object"`` string, and the module is
imported the first time that name is looked up (``registry[name]``), so listing
or checking names imports nothing, and an optional plugin's dependencies (dask,
say) cost nothing unless it is used. Other packages add names of their own
through an entry-point group per kind, e.g. in their ``pyproject.toml``::

    [project.entry-points."kg.exporters"]
    "graph.gexf" = "kg_gexf:write_gexf"

======================  ================  ===================================================
registry                group             the object a name stands for
======================  ================  ===================================================
:data:`READERS`         ``kg.readers``    a :class:`kg.readers.Format` (parser, extensions)
:data:`EXPORTERS`       ``kg.exporters``  ``writer(kg, path)``, for an output file or folder
:data:`ENGINES`         ``kg.engines``    ``make_executor(*, workers, scheduler, partitions,
                                          on_message)`` (:mod:`kg.engines`)
======================  ================  ===================================================

A format added this way is used for the extensions it claims and by
``--format NAME``; an engine by ``--engine NAME``; an exporter is written when
named (``kg export DIR NAME --out FOLDER``), never by default, so the files of a
build do not depend on what else is installed.

kg's own names are listed here rather than as entry points of kg's own
distribution: entry points are read from the installed metadata, which an
editable install refreshes only when it is reinstalled, so a name added in a
checkout would be missing until then. A built-in name wins over an entry point
of the same name. Entry points are looked up (a scan of the installed
distributions, some 30 ms) only when a name is not a built-in, or when all
names are listed.

>>> "jsonl" in READERS, "graph.nt" in EXPORTERS, "dask" in ENGINES, "spark" in ENGINES
(True, True, True, False)
>>> ENGINES.spec("dask")
'kg.engines.dask_engine:make_executor'
"""

from __future__ import annotations

import importlib.metadata
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any

from kg.buildfolder import folder

__all__ = ["ENGINES", "EXPORTERS", "READERS", "Registry"]


class Registry(Mapping[str, Any]):
    """Names of one kind of plugin, each standing for a ``"module:object"`` imported when looked up.

    A read-only mapping ``name -> object``: ``name in registry`` and
    ``list(registry)`` import nothing; ``registry[name]`` imports the one module.
    Names are kg's own (:attr:`specs`, in the order given) and then those of the
    entry-point group :attr:`group`, sorted.
    """

    def __init__(self, group: str, specs: Mapping[str, str]) -> None:
        self.group = group
        #: Names registered in this process, ``name -> "module:object"``: kg's own and any added by :meth:`register`.
        self.specs: dict[str, str] = dict(specs)

    def register(self, name: str, spec: str) -> None:
        """Make ``name`` stand for ``spec`` (``"module:object"``) in this process, before any entry point."""
        self.specs[name] = spec

    def entry_points(self) -> dict[str, str]:
        """The names installed packages add through :attr:`group`, ``name -> "module:object"``, sorted.

        A name registered here already is left out: the built-in wins.
        """
        found = importlib.metadata.entry_points(group=self.group)
        return {point.name: point.value for point in sorted(found, key=lambda point: point.name) if point.name not in self.specs}

    def spec(self, name: str) -> str | None:
        """The ``"module:object"`` that ``name`` stands for, or ``None`` for an unknown name."""
        return self.specs.get(name) or self.entry_points().get(name)

    def __getitem__(self, name: str) -> Any:
        spec = self.spec(name)
        if spec is None:
            raise KeyError(name)
        return pkgutil.resolve_name(spec)  # ImportError when the module (or one it needs) is not installed

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.spec(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter([*self.specs, *self.entry_points()])

    def __len__(self) -> int:
        return len(self.specs) + len(self.entry_points())

    def __repr__(self) -> str:
        return f"Registry({self.group!r}, {self.specs!r})"


#: Input formats: name (``--format``) -> a :class:`kg.readers.Format`.
READERS = Registry("kg.readers", {
    "text": "kg.readers.text:TEXT",
    "jsonl": "kg.readers.jsonl:JSONL",
    "arxiv": "kg.readers.arxiv:ARXIV",
    "csv": "kg.readers.tabular:CSV",
    "tsv": "kg.readers.tabular:TSV",
    "atom": "kg.readers.atom:ATOM",
})

#: Exports: output file (or folder) name (as :mod:`kg.buildfolder` names them) -> ``writer(kg, path)``,
#: in the order a build writes them.
EXPORTERS = Registry("kg.exporters", {
    folder.TURTLE: "kg.export.rdf:write_turtle",
    folder.NTRIPLES: "kg.export.rdf:write_ntriples",
    folder.STORE: "kg.export.store:write_store",
    folder.JSONLD: "kg.export.rdf:write_jsonld",
    folder.GRAPHML: "kg.export.graphml:write_graphml",
    folder.FACTS: "kg.export.csv:write_facts_csv",
    folder.RESULTS: "kg.export.csv:write_results_csv",
    folder.PAGE: "kg.export.html:write_html",
    folder.NQUADS: "kg.export.nquads:write_nquads",
    folder.TRIG: "kg.export.nquads:write_trig",
    folder.NEO4J: "kg.export.neo4j:write_neo4j",
})

#: Extraction engines: name (``--engine``) -> ``make_executor(...)``.
ENGINES = Registry("kg.engines", {
    "local": "kg.engines.local:make_executor",
    "dask": "kg.engines.dask_engine:make_executor",
})
