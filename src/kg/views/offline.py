"""Proving a typed SPARQL query offline: the query is parsed, never scanned for keywords.

pyoxigraph evaluates ``SERVICE`` by calling the remote endpoint over HTTP, and
it has no switch to turn that off. A keyword scan of the text cannot be made
safe: ``?p 1.SERVICE <…>`` reads as one number to a scanner and as ``1 .
SERVICE`` to the engine. So the query is parsed by a real SPARQL 1.1 parser
(rdflib's), and the parse tree is searched for a ``SERVICE`` pattern, and for
``LOAD`` and every other update form; the spelling, case, ``\\u`` escapes,
comments, prefixes and base IRI are the parser's business, not ours.

Parsing costs about half a second the first time (rdflib builds its grammar), so
a cheap test comes first: a query whose text, with escapes undone, Unicode
compatibility forms folded and case ignored, holds neither ``service`` nor
``load`` cannot name either keyword, and is passed without parsing. A query that
does hold them and that the parser rejects is refused as a syntax error, since
it cannot be shown offline.

This is the first guard. The second is the process that evaluates a typed
query: :func:`kg.views.sandbox.forbid_network` takes away its ability to open an
internet socket at all, so a query the parser misread still reaches nothing.

>>> refuse_network("SELECT ?service WHERE { ?service <http://x/SERVICE> 'SERVICE' }")
>>> refuse_network("SELECT * WHERE { ?s ?p 1.SERVICE <http://127.0.0.1:1/x> { ?a ?b ?c } }")
Traceback (most recent call last):
...
kg.errors.UserError: E331: SPARQL SERVICE is refused: kg queries only the local graph and never reaches the network
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from kg.errors import UserError

__all__ = ["might_name_network", "network_keyword", "refuse_network"]

_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")
_WORDS = ("service", "load")
#: Parse-tree node names that reach the network (SERVICE) or are updates (all of SPARQL Update).
_NETWORK_NODES = {"ServiceGraphPattern": "SERVICE", "Load": "LOAD"}


def _unescape(text: str) -> str:
    # SPARQL undoes \uXXXX and \UXXXXXXXX escapes in the whole text before reading tokens (19.2).
    def char(match: re.Match[str]) -> str:
        code = int(match.group(1) or match.group(2), 16)
        return chr(code) if code <= 0x10FFFF else match.group(0)

    return _ESCAPE.sub(char, text)


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def might_name_network(sparql: str) -> bool:
    """Whether the text could spell ``SERVICE`` or ``LOAD`` in any way an engine might read.

    >>> might_name_network("SELECT * WHERE { ?s ?p ?o }")
    False
    >>> might_name_network("SELECT * WHERE { \\\\u0053ervice <http://x/> {} }")
    True
    """
    forms = {_folded(sparql), _folded(_unescape(sparql)), _folded(_unescape(_unescape(sparql)))}
    return any(word in form for form in forms for word in _WORDS)


def _nodes(tree: Any) -> Iterator[str]:
    """The names of every node of an rdflib parse tree (CompValue and ParseResults, nested)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        name = getattr(node, "name", None)
        if isinstance(name, str):
            yield name
        if isinstance(node, dict):
            stack.extend(node.values())
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif hasattr(node, "asList") and not isinstance(node, (str, bytes)):
            stack.extend(list(node))


def network_keyword(sparql: str) -> str | None:
    """``"SERVICE"`` or ``"LOAD"`` if the parsed request uses one, ``"UPDATE"`` for another update, else ``None``.

    Raises :class:`~kg.errors.UserError` E303 when the text is neither a query
    nor an update that the parser can read.
    """
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    try:
        tree = parseQuery(sparql)
    except ParseException as query_error:
        try:
            update = parseUpdate(sparql)
        except ParseException:
            reason = " ".join(str(query_error).split())
            raise UserError("E303", reason=f"{reason} (the query names SERVICE or LOAD and could not be shown offline)") from None
        names = set(_nodes(update))
        return "LOAD" if "Load" in names else "SERVICE" if "ServiceGraphPattern" in names else "UPDATE"
    for name in _nodes(tree):
        if name in _NETWORK_NODES:
            return _NETWORK_NODES[name]
    return None


def refuse_network(sparql: str) -> None:
    """Raise E331 if the parsed ``sparql`` uses ``SERVICE`` or ``LOAD`` (E304 for another update).

    A query whose text cannot name either keyword passes without being parsed.
    """
    if not might_name_network(sparql):
        return
    keyword = network_keyword(sparql)
    if keyword == "UPDATE":
        raise UserError("E304")
    if keyword is not None:
        raise UserError("E331", keyword=keyword)
