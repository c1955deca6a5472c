"""Which exports a large build leaves out: those nobody can use at that size.

Above :func:`large_graph` triples (:data:`LARGE_GRAPH`, a graph of some 15,000
to 30,000 papers) a build that was not told which files to write skips Turtle,
JSON-LD and GraphML, and ``graph.html`` when the page could hold only part of
the graph (more nodes than :data:`kg.export.html.PAGE_LIMIT`). Each of these is
made whole in memory, and at millions of triples is hundreds of MB that no tool
reads better than ``graph.nt`` (streamed) or ``store/`` (the 66,239-paper build
of ``docs/SCALE.md``: Turtle 267 MB, JSON-LD 451 MB, GraphML 149 MB, a page of
186 MB). They are written when named (``formats=`` of :func:`kg.pipeline.build`),
and ``kg export DIR graph.ttl --out FOLDER`` writes any of them from the build
afterwards. The build says what it skipped in one line (:func:`skip_note`).

The environment variable ``KG_LARGE_GRAPH`` (a number of triples) overrides
:data:`LARGE_GRAPH`; the tests set it to try the policy on a small graph.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from kg.buildfolder import GRAPHML, JSONLD, PAGE, TURTLE
from kg.errors import UserError

__all__ = ["AT_SCALE", "ENVIRONMENT", "LARGE_GRAPH", "large_graph", "skip_note", "skipped"]

#: Triples above which a build leaves out :data:`AT_SCALE` (and a page that cannot hold the whole graph).
LARGE_GRAPH = 1_000_000
#: The environment variable that overrides :data:`LARGE_GRAPH`.
ENVIRONMENT = "KG_LARGE_GRAPH"
#: Exports that a build above the limit leaves out, whatever their size.
AT_SCALE: tuple[str, ...] = (TURTLE, JSONLD, GRAPHML)


def large_graph() -> int:
    """The number of triples above which a build skips exports: ``KG_LARGE_GRAPH``, else :data:`LARGE_GRAPH`.

    Raises
    ------
    UserError
        ``E311`` when ``KG_LARGE_GRAPH`` is not a whole number.
    """
    value = os.environ.get(ENVIRONMENT, "").strip()
    if not value:
        return LARGE_GRAPH
    try:
        return int(value.replace("_", ""))
    except ValueError:
        raise UserError("E311", reason=f"{ENVIRONMENT}={value!r} is not a whole number of triples") from None


def skipped(names: Sequence[str], *, triples: int, nodes: int, limit: int, page_limit: int) -> list[str]:
    """The exports of ``names`` that a graph of ``triples`` triples and ``nodes`` nodes leaves out.

    >>> skipped(["graph.nt", "graph.ttl", "graph.html"], triples=10, nodes=5, limit=9, page_limit=4)
    ['graph.ttl', 'graph.html']
    >>> skipped(["graph.nt", "graph.ttl", "graph.html"], triples=10, nodes=5, limit=9, page_limit=5)
    ['graph.ttl']
    >>> skipped(["graph.ttl"], triples=9, nodes=5, limit=9, page_limit=4)
    []
    """
    if triples <= limit:
        return []
    return [name for name in names if name in AT_SCALE or (name == PAGE and nodes > page_limit)]


def skip_note(names: Sequence[str], *, triples: int, limit: int) -> str:
    """The one line a build says when it leaves ``names`` out.

    >>> skip_note(["graph.ttl", "graph.jsonld"], triples=2_000_000, limit=1_000_000)  # doctest: +NORMALIZE_WHITESPACE
    'the graph has 2,000,000 triples (more than 1,000,000): graph.ttl and graph.jsonld were not written, being
    of no use at this size; use graph.nt or the store, or write them with `kg export DIR NAME --out FOLDER`'
    """
    listed = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    return (f"the graph has {triples:,} triples (more than {limit:,}): {listed} "
            f"{'were' if len(names) > 1 else 'was'} not written, being of no use at this size; "
            "use graph.nt or the store, or write them with `kg export DIR NAME --out FOLDER`")
