"""Content negotiation and serialisation of query results, with a cap on their size.

SELECT and ASK answer in the SPARQL 1.1 result formats (JSON, XML, CSV, TSV);
CONSTRUCT and DESCRIBE in Turtle, N-Triples or JSON-LD. pyoxigraph writes every
format; this module picks one from the ``Accept`` header (or a ``format``
parameter, for browsers and ``curl``) and cuts the results at a row limit.

Limits and dangers
------------------
- pyoxigraph serialises a result set from where its iterator stands to the end,
  with no way to stop early. To write only the first ``limit`` rows in every
  format, the rows are copied into a scratch in-memory store and selected back
  in order (:func:`kg.views.bounded.first_solutions`, the bounded-query core that
  ``kg query`` shares); the bytes are exactly what pyoxigraph
  writes for the same rows. The copy is Python work per row: for a
  1,000-row answer it about doubles the serialisation time (some 30 ms on a
  loaded 2-core machine), and it is bounded by the limit.
- Results are cut at a byte cap as at a row cap: the rows kept are those whose
  terms, written as N-Triples terms, add up to at most ``max_bytes``. The cap is
  on what is kept, before serialisation: the formats add their own markup (a
  JSON answer is about two to three times the terms' bytes).
- A cut is reported by the ``X-Kg-Truncated`` response header (the number of
  rows kept) and ``X-Kg-Truncated-By`` (``rows`` or ``bytes``), not inside the
  results: the SPARQL result formats have no place for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import pyoxigraph as ox

from kg.store.namespace import PREFIXES
from kg.views.bounded import Cut, solutions_of, take

#: Media types for SELECT/ASK results, preferred first.
SOLUTION_TYPES: dict[str, ox.QueryResultsFormat] = {
    "application/sparql-results+json": ox.QueryResultsFormat.JSON,
    "application/sparql-results+xml": ox.QueryResultsFormat.XML,
    "text/csv": ox.QueryResultsFormat.CSV,
    "text/tab-separated-values": ox.QueryResultsFormat.TSV,
    "application/json": ox.QueryResultsFormat.JSON,
    "application/xml": ox.QueryResultsFormat.XML,
    "text/xml": ox.QueryResultsFormat.XML,
}

#: Media types for CONSTRUCT/DESCRIBE results, preferred first.
GRAPH_TYPES: dict[str, ox.RdfFormat] = {
    "text/turtle": ox.RdfFormat.TURTLE,
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "application/ld+json": ox.RdfFormat.JSON_LD,
    "text/plain": ox.RdfFormat.N_TRIPLES,
}

#: Short names for the ``format`` parameter -> media type, for each kind of result.
FORMAT_NAMES: dict[str, str] = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
    "turtle": "text/turtle",
    "ttl": "text/turtle",
    "ntriples": "application/n-triples",
    "nt": "application/n-triples",
    "jsonld": "application/ld+json",
}


@dataclass(frozen=True)
class Answer:
    """An HTTP answer made in a worker process: plain, picklable data."""

    status: int
    media_type: str
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)


def _ranges(accept: str) -> list[tuple[float, int, str]]:
    """``(q, -position, media range)`` for each entry of an Accept header."""
    ranges = []
    for position, item in enumerate(accept.split(",")):
        media, *params = (part.strip() for part in item.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if media:
            ranges.append((quality, -position, media.lower()))
    return ranges


def negotiate(accept: str | None, offered: list[str]) -> str | None:
    """The offered media type the client prefers, or ``None`` when it accepts none.

    Higher ``q`` wins, then the more specific range, then the earlier entry in
    the header; a wildcard gets the first offered type. No header means the
    first offered type.

    >>> negotiate("text/csv;q=0.5, application/sparql-results+xml", list(SOLUTION_TYPES))
    'application/sparql-results+xml'
    >>> negotiate("text/*", ["application/n-triples", "text/turtle"])
    'text/turtle'
    >>> negotiate("image/png", list(GRAPH_TYPES)) is None
    True
    """
    if not accept or not accept.strip():
        return offered[0]
    best: tuple[float, int, int] | None = None
    chosen = None
    for quality, position, media in _ranges(accept):
        if quality <= 0:
            continue
        kind, _, sub = media.partition("/")
        for candidate in offered:
            ckind = candidate.partition("/")[0]
            if media == candidate:
                specificity = 2
            elif sub == "*" and kind in ("*", ckind):
                specificity = 0 if kind == "*" else 1
            else:
                continue
            rank = (quality, specificity, position)
            if best is None or rank > best:
                best, chosen = rank, candidate
            break
    return chosen


def render(result: ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples, accept: str | None, fmt: str | None, limit: int, max_bytes: int | None = None) -> Answer:
    """Serialise a query result for the client's ``Accept`` header (or ``format`` name), cut at ``limit`` rows or ``max_bytes``.

    Returns a 406 :class:`Answer` (message E347) when no format fits.
    """
    from kg.errors import UserError

    offered = list(GRAPH_TYPES if isinstance(result, ox.QueryTriples) else SOLUTION_TYPES)
    wanted = FORMAT_NAMES.get((fmt or "").lower())
    media = (wanted if wanted in offered else None) if fmt else negotiate(accept, offered)
    if media is None:
        choices = ", ".join(dict.fromkeys(offered))
        message = UserError("E347", accept=fmt or accept, choices=choices)
        return Answer(406, "text/plain; charset=utf-8", f"{message}\n".encode())
    headers: dict[str, str] = {}
    cut: Cut = False
    if isinstance(result, ox.QueryTriples):
        triples, cut = take(result, limit, max_bytes)
        rdf_format = GRAPH_TYPES[media]
        prefixes = {k: v for k, v in PREFIXES.items() if k != "kgid"} if rdf_format == ox.RdfFormat.TURTLE else None
        body = ox.serialize(triples, format=rdf_format, prefixes=prefixes)
        kept = len(triples)
    elif isinstance(result, ox.QuerySolutions):
        rows, cut = take(result, limit, max_bytes)
        body = solutions_of(list(result.variables), rows).serialize(format=SOLUTION_TYPES[media])
        kept = len(rows)
    else:
        body = result.serialize(format=SOLUTION_TYPES[media])
    if cut:
        headers["X-Kg-Truncated"] = str(kept)
        headers["X-Kg-Truncated-By"] = cut
    charset = "; charset=utf-8" if media.startswith("text/") else ""
    return Answer(200, media + charset, cast(bytes, body), headers)  # serialize() without an output returns bytes; pyoxigraph's stub says bytes | None
