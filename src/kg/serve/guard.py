"""The one check every request passes before it reaches the store.

Kept in a single function, :func:`check_query`, so that a shared guard (the
store's) can replace it in one place.

>>> check_query("SELECT * WHERE { ?s ?p ?o }")
>>> check_query('SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }')
Traceback (most recent call last):
...
kg.errors.UserError: E343: SERVICE is refused: this endpoint never queries other endpoints
>>> check_query("SELECT ?service WHERE { ?service ?p 'SERVICE' } # SERVICE")
"""

from __future__ import annotations

import re

from kg.errors import UserError
from kg.store.graph import is_update

# Comments, strings and IRIs are blanked out before looking for the keyword, so
# "SERVICE" inside a literal or a comment is not a SERVICE clause.
_OPAQUE = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'(?:[^'\\\n]|\\.)*'"
    r'|<[^<>\s"{}|^`\\]*>'
    r"|#[^\n]*",
    re.DOTALL,
)
_SERVICE = re.compile(r"(?<![\w:?$])SERVICE\b", re.IGNORECASE)


def check_query(sparql: str) -> None:
    """Refuse updates (E304) and federated queries (E343); return ``None`` otherwise.

    Syntax errors are left to the query engine, which reports them with a position.
    """
    if is_update(sparql):
        raise UserError("E304")
    if _SERVICE.search(_OPAQUE.sub(" ", sparql)):
        raise UserError("E343")
