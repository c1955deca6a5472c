"""What runs inside the server's worker processes: open the store, answer one query.

Each worker keeps the store open read-only between queries and reopens it when
the build folder's generation changes (a rebuild or ``--update`` published a new
one). Everything that crosses the process boundary is plain data
(:class:`Job` in, :class:`~kg.serve.results.Answer` out), and every failure
becomes an answer with an HTTP status, so nothing but bytes has to be pickled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import pyoxigraph as ox

from kg.buildfolder import Generation
from kg.errors import KgError, UserError
from kg.serve.results import Answer, render
from kg.store.namespace import PREFIXES
from kg.views.bounded import check_query, evaluate

# Policy refusals are 403, an unknown node 404, a body too large 413, a body of the wrong type 415;
# a query stopped by its timeout or its memory cap, a full queue, an explorer still reading the graph 503;
# other mistakes in the request are 400, and the rest (an unreadable store, a failed evaluation, a worker that died) 500.
_STATUS = {"E304": 403, "E331": 403, "E334": 500, "E374": 404, "E379": 413, "E346": 415, "E344": 503, "E375": 503, "E376": 503, "E377": 503}
_TEXT = "text/plain; charset=utf-8"
_OPEN: dict[str, tuple[Generation, ox.Store]] = {}


@dataclass(frozen=True)
class Job:
    """One SPARQL request, as the worker needs it."""

    store: str
    generation: Generation
    sparql: str
    accept: str | None = None
    fmt: str | None = None
    limit: int = 10_000
    max_bytes: int | None = None
    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()


def open_store(path: str, generation: Generation) -> ox.Store:
    """The store at ``path`` opened read-only, reopened when ``generation`` differs from last time."""
    cached = _OPEN.get(path)
    if cached is None or cached[0] != generation:
        _OPEN.pop(path, None)  # let go of the old generation's files first
        try:
            _OPEN[path] = (generation, ox.Store.read_only(path))
        except OSError as error:
            raise KgError("E348", path=path, reason=" ".join(str(error).split())) from None
    return _OPEN[path][1]


def warm(path: str, generation: Generation) -> None:
    """Open the store in this worker ahead of the first query."""
    open_store(path, generation)


def error_answer(error: KgError) -> Answer:
    """The HTTP answer for a catalogued error, as one line of text (a full queue says when to retry)."""
    status = _STATUS.get(error.code, 400 if isinstance(error, UserError) else 500)
    headers = {"Retry-After": str(error.values["seconds"])} if error.code == "E377" else {}
    return Answer(status, _TEXT, f"{error}\n".encode(), headers)


def _graphs(iris: tuple[str, ...]) -> list[ox.NamedNode] | None:
    return [ox.NamedNode(iri) for iri in iris] or None


def answer(job: Job) -> Answer:
    """Run ``job``'s query through the bounded-query core and serialise its results for the client.

    The core refuses updates and the network before the store opens
    (:func:`kg.views.bounded.check_query`), pre-binds the prefixes and says what
    failed in one line (:func:`kg.views.bounded.evaluate`); :func:`~kg.serve.results.render` cuts the rows (:func:`kg.views.bounded.take`).
    """
    try:
        check_query(job.sparql)  # before the store opens
        store = open_store(job.store, job.generation)
        try:
            default_graph, named_graphs = _graphs(job.default_graphs), _graphs(job.named_graphs)
        except ValueError as error:  # a bad graph IRI in the request
            raise UserError("E303", reason=" ".join(str(error).split())) from None
        result = evaluate(store, job.sparql, default_graph=default_graph, named_graphs=named_graphs, checked=True)
        try:
            return render(result, job.accept, job.fmt, job.limit, job.max_bytes)
        except OSError as error:  # the query failed while its rows were read
            raise KgError("E334", reason=" ".join(str(error).split())) from None
    except KgError as error:
        return error_answer(error)


def select(path: str, generation: Generation, sparql: str, bindings: Mapping[str, str]) -> list[dict[str, Any]]:
    """Rows of a SELECT with IRIs substituted for ``bindings`` (never pasted into the text).

    Each value is ``{"value": str, "iri": bool}`` or ``None`` when unbound.
    """
    store = open_store(path, generation)
    substitutions: dict[ox.Variable, ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple] = {ox.Variable(name): ox.NamedNode(iri) for name, iri in bindings.items()}
    solutions = cast(ox.QuerySolutions, store.query(sparql, prefixes=PREFIXES, substitutions=substitutions))  # a SELECT's answer
    names = [variable.value for variable in solutions.variables]
    return [{name: None if row[name] is None else {"value": row[name].value, "iri": isinstance(row[name], ox.NamedNode)} for name in names} for row in solutions]
