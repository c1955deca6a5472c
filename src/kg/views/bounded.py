"""The one bounded-query core: how a query someone typed is checked, evaluated and cut.

Three runners answer typed queries, each with the process model its caller
needs, and all three go through these functions:

- ``kg query``: a forked, sandboxed process per query (:mod:`kg.views.isolated`);
- ``kg serve``: a pool of sandboxed worker processes (:mod:`kg.serve.worker`);
- the library (``run_query``, ``run_named``): a thread (:mod:`kg.views.sparql`).

What they share, and so cannot drift apart:

- :func:`check_query` refuses ``SERVICE``/``LOAD`` (E331, through the parse tree:
  :func:`kg.views.offline.refuse_network`) and other updates (E304) before a
  store sees the text;
- :func:`check_bounds` refuses a negative timeout or row limit (E311);
- :func:`evaluate` runs the query with the usual prefixes pre-bound and the
  bindings substituted by Oxigraph (never pasted into the text), and turns what
  pyoxigraph raises into one catalogued line (:func:`user_error`: E303 said
  plainly for a syntax error, E334 for a failed evaluation);
- :func:`take` keeps the first rows within a row cap and a byte cap and says why
  it stopped (``"rows"`` or ``"bytes"``); :func:`solutions_of` makes the kept
  rows a result set again, so pyoxigraph's own serialisers
  (:meth:`pyoxigraph.QuerySolutions.serialize`) write every result format.

>>> import pyoxigraph as ox
>>> store = ox.Store()
>>> store.extend([ox.Quad(ox.NamedNode(f"http://a/{i}"), ox.NamedNode("http://a/p"), ox.Literal(str(i))) for i in range(5)])
>>> rows, cut = take(evaluate(store, "SELECT ?s ?o WHERE { ?s ?p ?o } ORDER BY ?o"), 2)
>>> solutions_of([ox.Variable("s"), ox.Variable("o")], rows).serialize(format=ox.QueryResultsFormat.TSV), cut
(b'?s\\t?o\\n<http://a/0>\\t"0"\\n<http://a/1>\\t"1"\\n', 'rows')
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypeVar, cast

import pyoxigraph as ox

from kg.errors import UserError
from kg.store.namespace import PREFIXES
from kg.views.offline import refuse_network
from kg.views.syntax import syntax_error

__all__ = [
    "DEFAULT_LIMIT",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_TIMEOUT",
    "QUERY_ERRORS",
    "Cut",
    "check_bounds",
    "check_query",
    "evaluate",
    "first_solutions",
    "is_update",
    "solutions_of",
    "substitutions",
    "take",
    "user_error",
]

#: Seconds a typed query may run before it is stopped (``kg query --timeout``).
DEFAULT_TIMEOUT = 30.0
#: Rows (or triples) a typed query returns at most (``kg query --limit``).
DEFAULT_LIMIT = 10_000
#: Bytes of results a typed query returns at most (``kg query --max-mb``).
DEFAULT_MAX_BYTES = 256 * 1024 * 1024

#: What pyoxigraph raises for a bad query (SyntaxError) or a failed evaluation (the others).
QUERY_ERRORS = (SyntaxError, OSError, RuntimeError, ValueError)

#: Why :func:`take` stopped early: not at all, at the row cap, or at the byte cap.
Cut = Literal[False, "rows", "bytes"]

Term = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple
_Item = TypeVar("_Item")

# The first keyword of a SPARQL request after its prologue and comments.
_COMMENT = re.compile(r"#[^\n]*")
_PROLOGUE = re.compile(r"^\s*(?:(?:PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)\s*)*", re.IGNORECASE)
_UPDATE_KEYWORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"}


def is_update(sparql: str) -> bool:
    """Whether a SPARQL request is an update rather than a read-only query.

    >>> is_update("PREFIX a: <http://a/> INSERT DATA { a:x a:y a:z }")
    True
    >>> is_update("# find\\nSELECT * WHERE { ?s ?p ?o }")
    False
    """
    body = _PROLOGUE.sub("", _COMMENT.sub(" ", sparql), count=1)
    first = re.match(r"\s*([A-Za-z]+)", body)
    return first is not None and first.group(1).upper() in _UPDATE_KEYWORDS


def check_query(sparql: str) -> None:
    """Raise E331 for ``SERVICE`` or ``LOAD`` and E304 for another update; pass a read-only, offline query."""
    refuse_network(sparql)
    if is_update(sparql):
        raise UserError("E304")


def check_bounds(timeout: float | None, limit: int | None) -> None:
    """Raise E311 for a negative timeout or row limit (``None`` and 0 mean no bound)."""
    if (timeout is not None and timeout < 0) or (limit is not None and limit < 0):
        raise UserError("E311", reason="the timeout and the row limit must not be negative")


def substitutions(bindings: Mapping[str, Any] | None) -> dict[ox.Variable, Term] | None:
    """Oxigraph substitutions for ``bindings``: terms as they are, other values as literals."""
    if not bindings:
        return None
    return {ox.Variable(k): v if isinstance(v, (ox.NamedNode, ox.Literal, ox.BlankNode, ox.Triple)) else ox.Literal(v) for k, v in bindings.items()}


def user_error(error: Exception, sparql: str) -> UserError:
    """The one-line error for what pyoxigraph raised: a syntax error said plainly (:mod:`kg.views.syntax`), or E334."""
    if isinstance(error, SyntaxError):
        return syntax_error(sparql, str(error))
    return UserError("E334", reason=" ".join(str(error).split()))


def evaluate(
    store: ox.Store,
    sparql: str,
    *,
    bindings: Mapping[str, Any] | None = None,
    default_graph: Sequence[ox.NamedNode] | None = None,
    named_graphs: Sequence[ox.NamedNode] | None = None,
    checked: bool = False,
) -> Any:
    """Run a checked, read-only query with the usual prefixes pre-bound; pyoxigraph's result object.

    Raises :class:`~kg.errors.UserError` E331/E304 before the store sees the
    text (:func:`check_query`; ``checked=True`` when the caller has just done
    so, as a runner does before it starts a thread or a process), and E303/E334 for what the evaluation raised
    (:func:`user_error`). Rows still come lazily: an error met while iterating
    them is pyoxigraph's own (one of :data:`QUERY_ERRORS`).
    """
    if not checked:
        check_query(sparql)
    try:
        return store.query(
            sparql,
            prefixes=PREFIXES,
            substitutions=substitutions(bindings),
            default_graph=list(default_graph) if default_graph else None,
            named_graphs=list(named_graphs) if named_graphs else None,
        )
    except QUERY_ERRORS as error:
        raise user_error(error, sparql) from None


def take(items: Iterable[_Item], limit: int | None, max_bytes: int | None = None) -> tuple[list[_Item], Cut]:
    """The first items within ``limit`` and ``max_bytes`` (each item's terms as N-Triples text), and why they stop.

    >>> take(["ab", "cd", "ef"], 5)
    (['ab', 'cd', 'ef'], False)
    >>> take(["ab", "cd", "ef"], 2)
    (['ab', 'cd'], 'rows')
    >>> take(["ab", "cd", "ef"], 5, max_bytes=5)
    (['ab', 'cd'], 'bytes')
    """
    kept: list[_Item] = []
    size = 0
    for item in items:
        if limit is not None and len(kept) >= limit:
            return kept, "rows"
        if max_bytes is not None:
            size += _size(item)
            if size > max_bytes:
                return kept, "bytes"
        kept.append(item)
    return kept, False


def _size(item: Any) -> int:
    """Characters of a row's terms (or a triple's, or a string's) as N-Triples text."""
    if isinstance(item, ox.QuerySolution):
        return sum(len(str(term)) for term in item if term is not None)
    return len(str(item))


def first_solutions(solutions: ox.QuerySolutions, limit: int | None, max_bytes: int | None = None) -> tuple[ox.QuerySolutions, Cut]:
    """The first rows of ``solutions`` within ``limit`` and ``max_bytes``, as a result set pyoxigraph can serialise.

    Returns the new result set and why rows were cut (``False``, ``"rows"`` or ``"bytes"``).

    >>> store = ox.Store()
    >>> store.extend([ox.Quad(ox.NamedNode(f"http://a/{i}"), ox.NamedNode("http://a/p"), ox.Literal(str(i))) for i in range(5)])
    >>> rows, cut = first_solutions(store.query("SELECT ?s ?o WHERE { ?s ?p ?o } ORDER BY ?o"), 2)
    >>> [row["o"].value for row in rows], cut
    (['0', '1'], 'rows')
    """
    rows, cut = take(solutions, limit, max_bytes)
    return solutions_of(list(solutions.variables), rows), cut


def solutions_of(variables: list[ox.Variable], rows: Sequence[ox.QuerySolution | Sequence[Any]]) -> ox.QuerySolutions:
    """``rows`` (of a result set over ``variables``, each a solution or a tuple of terms) as a result set of their own, in order.

    pyoxigraph serialises a result set from where its iterator stands to the
    end, with no way to stop early; so the kept rows are copied into a scratch
    in-memory store and selected back in order, and the bytes are exactly what
    pyoxigraph writes for them.
    """
    scratch = ox.Store()
    row_type = ox.NamedNode("urn:kg-serve:row")
    predicates = [ox.NamedNode(f"urn:kg-serve:var:{variable.value}") for variable in variables]
    unbound: set[int] = set()
    quads = []
    for index, row in enumerate(rows):
        node = ox.NamedNode(f"urn:kg-serve:row:{index:012d}")
        quads.append(ox.Quad(node, row_type, node))
        for column, (predicate, value) in enumerate(zip(predicates, row)):  # a solution iterates in variable order
            if value is None:
                unbound.add(column)
            else:
                quads.append(ox.Quad(node, predicate, value))
    scratch.extend(quads)
    if not variables:  # rows without columns (SELECT * WHERE {}): VALUES () makes as many
        return cast(ox.QuerySolutions, scratch.query("SELECT * WHERE { VALUES () { " + "() " * len(rows) + "} }"))
    # Only variable names (checked by the SPARQL parser) and fixed IRIs go into this text.
    names = {variable.value for variable in variables}
    row_var = next(f"?row{n}" for n in itertools.count() if f"row{n}" not in names)
    # A plain pattern for a variable bound in every row, OPTIONAL only where some row leaves it unbound.
    patterns = [f"{row_var} <{p.value}> {v} ." for v, p in zip(variables, predicates)]
    body = " ".join(f"OPTIONAL {{ {p} }}" if column in unbound else p for column, p in enumerate(patterns))
    projection = " ".join(str(v) for v in variables)
    selected = scratch.query(f"SELECT {projection} WHERE {{ {row_var} <urn:kg-serve:row> {row_var} . {body} }} ORDER BY {row_var}")
    return cast(ox.QuerySolutions, selected)
