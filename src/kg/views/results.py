"""Write query results as they stream: SPARQL CSV, SPARQL JSON, N-Triples.

Each writer takes a stream of results (:class:`~kg.views.sparql.QueryStream`,
or ``kg query``'s :class:`~kg.views.isolated.ProcessQueryStream`) and an open text
handle and writes row by row, so neither the rows nor the text are ever held
whole (pyoxigraph's own result serialisers need the result object itself,
which stays in the query thread). The CSV follows SPARQL 1.1 Query Results
CSV, except that rows end with ``\\n`` (what terminals and ``tail`` expect);
the JSON follows SPARQL 1.1 Query Results JSON.

>>> import io, pyoxigraph as ox
>>> from kg.views.sparql import run_query
>>> store = ox.Store()
>>> store.add(ox.Quad(ox.NamedNode("http://a/x"), ox.NamedNode("http://a/p"), ox.Literal("a, b")))
>>> text = io.StringIO()
>>> write_csv(run_query(store, "SELECT ?s ?o WHERE { ?s ?p ?o }"), text)
>>> text.getvalue()
's,o\\nhttp://a/x,"a, b"\\n'
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import IO, Any, Protocol, cast

import pyoxigraph as ox

from kg.store.namespace import PREFIXES

__all__ = ["json_term", "text_value", "write_csv", "write_json", "write_ntriples"]

_XSD_STRING = PREFIXES["xsd"] + "string"


def text_value(term: Any) -> str:
    """A term as one CSV cell: an IRI or literal's text, ``_:id`` for a blank node, ``""`` if unbound."""
    if term is None:
        return ""
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, ox.Triple):
        return str(term)
    return term.value


def json_term(term: Any) -> dict[str, Any]:
    """A term as a SPARQL JSON results binding.

    >>> json_term(ox.Literal("3", language="en"))
    {'type': 'literal', 'value': '3', 'xml:lang': 'en'}
    """
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Triple):
        return {"type": "triple", "value": {"subject": json_term(term.subject), "predicate": json_term(term.predicate), "object": json_term(term.object)}}
    binding = {"type": "literal", "value": term.value}
    if term.language:
        binding["xml:lang"] = term.language
    elif term.datatype.value != _XSD_STRING:
        binding["datatype"] = term.datatype.value
    return binding


class ResultStream(Protocol):
    """What the writers read of a streaming result: its kind, an ASK's answer, a SELECT's names, its rows."""

    @property
    def kind(self) -> str: ...
    @property
    def boolean(self) -> bool | None: ...
    @property
    def variables(self) -> tuple[str, ...]: ...
    def __iter__(self) -> Iterator[Any]: ...


def write_csv(result: ResultStream, handle: IO[str]) -> None:
    """Write a SELECT's rows as CSV, header first (an ASK writes ``true`` or ``false``)."""
    if result.kind == "ask":
        handle.write("true\n" if result.boolean else "false\n")
        return
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(result.variables)
    for row in result:
        writer.writerow([text_value(row[name]) for name in result.variables])


def write_json(result: ResultStream, handle: IO[str]) -> None:
    """Write SPARQL JSON results, one binding a line."""
    if result.kind == "ask":
        handle.write(json.dumps({"head": {}, "boolean": bool(result.boolean)}) + "\n")
        return
    handle.write(json.dumps({"head": {"vars": list(result.variables)}})[:-1] + ', "results": {"bindings": [')
    separator = "\n"
    for row in result:
        binding = {name: json_term(row[name]) for name in result.variables if row[name] is not None}
        handle.write(separator + json.dumps(binding, ensure_ascii=False))
        separator = ",\n"
    handle.write("\n]}}\n")


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def write_ntriples(result: ResultStream, handle: IO[str]) -> None:
    """Write the triples of a CONSTRUCT or DESCRIBE as N-Triples, a few hundred at a time."""
    for chunk in _chunks(result, 256):
        handle.write(cast(bytes, ox.serialize(chunk, format=ox.RdfFormat.N_TRIPLES)).decode("utf-8"))  # serialize() without an output returns bytes; pyoxigraph's stub says bytes | None
