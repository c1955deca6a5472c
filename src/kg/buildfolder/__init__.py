"""The build folder: its layout, its generation stamp and its typed manifest, known here and nowhere else.

:class:`BuildFolder` says where each file of ``kg build --out DIR`` lives,
reads and writes the :class:`Manifest` (with the :class:`BuildSettings` that
``--update`` and ``kg remove`` reuse) and stamps the generation a server
watches. It sits just above :mod:`kg.io`, :mod:`kg.model` and
:mod:`kg.errors`, so the pipeline, the store, the server, the analyses and
the CLI all use it without an import running up.
"""

from kg.buildfolder.folder import (
    CACHE,
    CACHE_NAMES,
    EXPORTS,
    FACTS,
    GRAPHML,
    IRI_CHANGES,
    JSONLD,
    LOCK,
    MANIFEST,
    NEO4J,
    NQUADS,
    NTRIPLES,
    OWN_NAMES,
    PAGE,
    PARTITION,
    PARTITIONS,
    RECORD,
    RECORDED,
    REJECTED,
    RESULTS,
    STORE,
    TRIG,
    TURTLE,
    BuildFolder,
    Generation,
    is_build_folder,
)
from kg.buildfolder.manifest import SCHEMA, BuildSettings, Manifest

__all__ = ["CACHE", "CACHE_NAMES", "EXPORTS", "FACTS", "GRAPHML", "IRI_CHANGES", "JSONLD", "LOCK", "MANIFEST", "NEO4J", "NQUADS",
           "NTRIPLES", "OWN_NAMES", "PAGE", "PARTITION", "PARTITIONS", "RECORD", "RECORDED", "REJECTED", "RESULTS", "SCHEMA", "STORE", "TRIG", "TURTLE", "BuildFolder",
           "BuildSettings", "Generation", "Manifest", "is_build_folder"]
