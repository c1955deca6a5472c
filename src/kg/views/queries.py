"""Named queries: the questions people ask of a literature graph, with their parameters.

Each :class:`NamedQuery` is fixed SPARQL text plus the names of the variables
a caller binds; :func:`run_named` binds them through Oxigraph's substitutions
(never by pasting text) and runs the query through :func:`run_query`, so it is
offline and bounded like any typed query. Top-k questions have no ``LIMIT``
in their text: the caller's ``limit`` is the k. Counts are plain ``COUNT``:
a direct triple such as ``?method kg:evaluatedOn ?dataset`` is stored once
however many papers state it, so no ``DISTINCT`` is needed.

>>> sorted(NAMED)
['datasets-per-method', 'fact-provenance', 'leaderboard', 'methods-for-task', 'related-methods', 'top-datasets']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyoxigraph as ox

from kg.errors import UserError
from kg.views.numbers import LEADERBOARD_QUERY
from kg.views.bounded import DEFAULT_LIMIT, DEFAULT_TIMEOUT
from kg.views.sparql import QueryStream, run_query

__all__ = ["NAMED", "NamedQuery", "run_named"]


@dataclass(frozen=True)
class NamedQuery:
    """A query with parameters: ``iris`` are bound as IRIs, ``texts`` as string literals."""

    description: str
    sparql: str
    iris: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()


NAMED: dict[str, NamedQuery] = {
    "methods-for-task": NamedQuery(
        "Methods that address the task labelled ?task, by label.",
        """SELECT ?method ?label ?task WHERE {
             ?t a kg:Task ; rdfs:label ?task .
             ?method kg:addresses ?t ; rdfs:label ?label .
           } ORDER BY ?label""",
        texts=("task",),
    ),
    "datasets-per-method": NamedQuery(
        "Every method with the number of datasets it was evaluated on, most first.",
        """SELECT ?method ?label (COUNT(?dataset) AS ?datasets) WHERE {
             ?method kg:evaluatedOn ?dataset ; rdfs:label ?label .
           } GROUP BY ?method ?label ORDER BY DESC(?datasets) ?label""",
    ),
    "related-methods": NamedQuery(
        "Methods sharing a task with the method labelled ?method_label (method -> task -> method).",
        """SELECT ?other ?label (COUNT(?task) AS ?tasks) ?method_label WHERE {
             ?method a kg:Method ; rdfs:label ?method_label ; kg:addresses ?task .
             ?other kg:addresses ?task ; rdfs:label ?label .
             FILTER(?other != ?method)
           } GROUP BY ?other ?label ?method_label ORDER BY DESC(?tasks) ?label""",
        texts=("method_label",),
    ),
    "top-datasets": NamedQuery(
        "Datasets by the number of methods evaluated on them, most first (the limit is the k).",
        """SELECT ?dataset ?label (COUNT(?method) AS ?methods) WHERE {
             ?method kg:evaluatedOn ?dataset .
             ?dataset rdfs:label ?label .
           } GROUP BY ?dataset ?label ORDER BY DESC(?methods) ?label""",
    ),
    "leaderboard": NamedQuery(
        "Reported results on the dataset labelled ?dataset_label by the metric labelled ?metric_label, best first, with paper and evidence.",
        LEADERBOARD_QUERY,
        texts=("dataset_label", "metric_label"),
    ),
    "fact-provenance": NamedQuery(
        "The papers, evidence sentences, confidences and extractors behind the fact ?s ?p ?o.",
        """SELECT ?id ?evidence ?confidence ?extractor ?s ?p ?o WHERE {
             ?st rdf:subject ?s ; rdf:predicate ?p ; rdf:object ?o ; prov:wasDerivedFrom ?paper ;
                 kg:evidence ?evidence ; kg:confidence ?confidence ; kg:extractor ?extractor .
             ?paper dcterms:identifier ?id .
           } ORDER BY ?id""",
        iris=("s", "p", "o"),
    ),
}


def run_named(
    store: ox.Store,
    name: str,
    /,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    limit: int | None = DEFAULT_LIMIT,
    **values: str,
) -> QueryStream:
    """Run the named query ``name`` with its parameters bound to ``values``.

    Raises
    ------
    UserError
        E311 for an unknown name or missing or unexpected parameters; and
        whatever :func:`kg.views.sparql.run_query` raises.
    """
    if name not in NAMED:
        raise UserError("E311", reason=f"no named query {name!r}; choose one of {', '.join(NAMED)}")
    named = NAMED[name]
    wanted = set(named.iris) | set(named.texts)
    if set(values) != wanted:
        raise UserError("E311", reason=f"the query {name!r} takes {', '.join(sorted(wanted)) or 'no parameters'}")
    bindings: dict[str, Any] = {k: ox.NamedNode(values[k]) for k in named.iris}
    bindings.update({k: ox.Literal(values[k]) for k in named.texts})
    return run_query(store, named.sparql, timeout=timeout, limit=limit, bindings=bindings)
