"""SPARQL mistakes said so a person understands them, and ``kg:`` terms the vocabulary lacks.

Oxigraph's parser reports the set of tokens it could have accepted at the
furthest point it reached: for an unknown prefix that is some 600 characters of
Unicode character classes, and a misspelt ``SELEC`` reads as "expected
CONSTRUCT". :func:`syntax_error` turns such a report into one line: a misspelt
query form with a suggestion, an unknown prefix with the bound ones, or the line,
column and text where the parser stopped (with what it expected when that list
is short and readable).

A misspelt term of our own vocabulary (``kg:adresses``) is no syntax error: it
is a valid IRI that matches nothing. :func:`unknown_terms` finds such terms so
``kg query`` can warn, with the closest term of the vocabulary.

>>> str(syntax_error("SELEC ?x WHERE { ?s ?p ?o }", "error at 1:10: expected CONSTRUCT"))
"E338: SPARQL syntax error: a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE (after any PREFIX and BASE), not 'SELEC' (did you mean SELECT?)"
>>> unknown_terms("SELECT ?m WHERE { ?m kg:adresses ?t }")
[('kg:adresses', 'kg:addresses')]
"""

from __future__ import annotations

import difflib
import re

from kg.errors import UserError
from kg.store.namespace import PREFIXES
from kg.vocab import VOCAB, term_names

__all__ = ["syntax_error", "unknown_terms"]

_FORMS = ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")
_UPDATES = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH")
_KEYWORDS = _FORMS + (
    "WHERE", "FILTER", "OPTIONAL", "UNION", "DISTINCT", "REDUCED", "ORDER", "GROUP", "BY", "LIMIT", "OFFSET",
    "HAVING", "VALUES", "BIND", "MINUS", "GRAPH", "EXISTS", "NOT", "FROM", "NAMED", "PREFIX", "BASE", "ASC", "DESC",
    "COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE", "GROUP_CONCAT", "SEPARATOR", "REGEX", "CONTAINS", "LCASE", "UCASE",
    "STR", "LANG", "STRSTARTS", "STRENDS", "BOUND", "COALESCE", "IF", "IN", "AS", "UNDEF",
)
# What the text holds that is not SPARQL syntax: comments, strings and IRIs (blanked before scanning).
_OPAQUE = re.compile(r"#[^\n]*|\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|<[^<>\"{}|^`\\\s]*>")
_DECLARED = re.compile(r"\bPREFIX\s+([A-Za-z][\w.-]*)?:\s*<([^>]*)>", re.IGNORECASE)
_PNAME = re.compile(r"(?<![\w?$:.<-])([A-Za-z][\w.-]*)?:([A-Za-z_][\w-]*)?")
_WORD = re.compile(r"(?<![\w?$:])[A-Za-z_]+(?![\w:(])")
_POSITION = re.compile(r"at (\d+):(\d+)|line:(\d+), col:(\d+)")
_VOCAB_IRI = re.compile("<" + re.escape(VOCAB) + r"([^>]*)>")


def _blank(text: str) -> str:
    """``text`` with comments, strings and IRIs replaced by spaces (offsets kept)."""
    return _OPAQUE.sub(lambda m: " " * len(m.group(0)), text)


def _declared(sparql: str) -> dict[str, str]:
    """The prefixes the query itself declares, with their IRIs."""
    without_comments = _OPAQUE.sub(lambda m: " " if m.group(0).startswith("#") else m.group(0), sparql)
    return {m.group(1) or "": m.group(2) for m in _DECLARED.finditer(without_comments)}


def _first_word(sparql: str) -> str | None:
    body = _blank(sparql)
    body = re.sub(r"^\s*(?:(?:PREFIX\s+[\w.-]*:\s*|BASE\s*)\s*)*", "", body, flags=re.IGNORECASE)
    found = re.match(r"\s*([A-Za-z]+)", body)
    return found.group(1) if found else None


def _suggest(word: str, choices: tuple[str, ...] | list[str], cutoff: float = 0.7) -> str | None:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=cutoff)
    return close[0] if close else None


def _position(message: str) -> tuple[int, int] | None:
    found = _POSITION.search(message)
    if found is None:
        return None
    line, column = (found.group(1), found.group(2)) if found.group(1) else (found.group(3), found.group(4))
    return int(line), int(column)


def _expected(message: str) -> str | None:
    """What the parser expected, when that is a short list of readable tokens; else ``None``."""
    found = re.search(r"expected (?:one of )?(.*)$", message, flags=re.DOTALL)
    if found is None:
        return None
    items = [item.strip() for item in re.split(r",\s*(?=[\"'A-Za-z\[])", found.group(1))]
    # A character class ([_], ['a'..='z']) means a name or a variable would do too: the list of
    # keywords beside it is then no guide, and is left out.
    if any(item.startswith("[") or " " in item for item in items) or len(items) > 6:
        return None
    return " or ".join(items)


def syntax_error(sparql: str, message: str) -> UserError:
    """The one-line error for a SPARQL syntax error that a parser reported as ``message``."""
    first = _first_word(sparql)
    if first is not None and first.upper() not in _FORMS + _UPDATES:
        close = _suggest(first.upper(), _FORMS)
        return UserError("E338", word=first, hint=f" (did you mean {close}?)" if close else "")
    declared = _declared(sparql)
    position = _position(message)
    where = f"line {position[0]}, column {position[1]}" if position else "its start"
    if "Prefix not found" in message or "Unknown namespace prefix" in message:
        unknown = [m.group(1) or "" for m in _PNAME.finditer(_blank(sparql)) if (m.group(1) or "") not in PREFIXES and (m.group(1) or "") not in declared]
        if unknown:
            bound = ", ".join(f"{name}:" for name in sorted({*PREFIXES, *declared}))
            return UserError("E337", prefix=f"{unknown[0]}:", where=where, bound=bound)
    near = ""
    if position is not None:
        lines = sparql.splitlines() or [""]
        line = lines[min(position[0], len(lines)) - 1]
        before = line[: position[1] - 1].split()
        snippet = " ".join([*before[-4:], *line[position[1] - 1 :].split()[:1]])[-40:]
        near = f" near {snippet!r}" if snippet else " at the end of the line"
        typo = [w for w in _WORD.findall(_blank(line)[: position[1]]) if w.upper() not in _KEYWORDS and w not in ("a", "true", "false")]
        close = _suggest(typo[-1].upper(), _KEYWORDS, 0.75) if typo else None
        if close:
            near += f" (did you mean {close}?)"
    expected = _expected(message)
    return UserError("E303", reason=f"at {where}{near}" + (f": expected {expected}" if expected else ""))


def unknown_terms(sparql: str) -> list[tuple[str, str | None]]:
    """Each ``kg:`` term of the query that the vocabulary lacks, with the closest term (or ``None``).

    Only prefixed names whose prefix means our vocabulary count (``kg:`` unless the
    query binds it elsewhere, and any prefix the query binds to it), and full IRIs
    in our vocabulary's namespace.
    """
    known = term_names()
    ours = {name for name, iri in {**PREFIXES, **_declared(sparql)}.items() if iri == VOCAB}
    blanked = _blank(sparql)
    found: list[str] = []
    for match in _PNAME.finditer(blanked):
        prefix, local = match.group(1) or "", match.group(2)
        if prefix in ours and local and local not in known and blanked[: match.start()].rstrip()[-6:].upper() != "PREFIX":
            found.append(f"{prefix}:{local}")
    found += [f"<{VOCAB}{m.group(1)}>" for m in _VOCAB_IRI.finditer(sparql) if m.group(1) and m.group(1) not in known]
    unknown = []
    for term in dict.fromkeys(found):
        local = term.rsplit(":", 1)[-1] if not term.startswith("<") else term[len(VOCAB) + 1 : -1]
        close = _suggest(local, known, 0.6)
        if close is not None:
            close = f"kg:{close}" if not term.startswith("<") else f"<{VOCAB}{close}>"
            close = close if term.startswith("<") else f"{term.rsplit(':', 1)[0]}:{close.split(':', 1)[1]}"
        unknown.append((term, close))
    return unknown
