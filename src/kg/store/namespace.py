"""The ``kg`` vocabulary as a closed rdflib namespace, and the IRIs of our nodes.

``KG`` is a :class:`rdflib.namespace.DefinedNamespace` with ``_fail = True``:
a typo such as ``KG.adresses`` raises instead of minting a new predicate. A
test keeps it in agreement with ``ontologies/kg.ttl``.

>>> from kg.store.namespace import KG
>>> str(KG.addresses)
'https://w3id.org/kg-lit/vocab#addresses'
>>> paper_iri("arXiv:2101.00001")
'https://w3id.org/kg-lit/id/paper/arXiv%3A2101.00001'
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import quote

from kg.vocab import DATA, VOCAB, term_names


def _closed_namespace() -> Any:
    """The ``KG`` namespace class, made from the vocabulary table.

    The class body comes from the table, so the namespace can never declare a
    term the table lacks (rdflib reads the annotations to decide what exists).
    """
    from rdflib import URIRef
    from rdflib.namespace import DefinedNamespace, DefinedNamespaceMeta, Namespace

    return DefinedNamespaceMeta(
        "KG",
        (DefinedNamespace,),
        {
            "__doc__": "Classes and properties of the kg vocabulary (see ontologies/kg.ttl and kg.vocab).",
            "__annotations__": dict.fromkeys(term_names(), URIRef),
            "_NS": Namespace(VOCAB),
            "_fail": True,
        },
    )


def __getattr__(name: str) -> Any:
    # ``KG`` is made on first use: importing rdflib takes about a quarter of a second,
    # and the commands that only query the store (kg query, kg stats) need just PREFIXES.
    if name == "KG":
        namespace = globals()["KG"] = _closed_namespace()
        return namespace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Prefixes bound in every Turtle file and pre-bound in every SPARQL query.
PREFIXES: dict[str, str] = {
    "kg": VOCAB,
    "kgid": DATA,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "dcterms": "http://purl.org/dc/terms/",
    "prov": "http://www.w3.org/ns/prov#",
    "schema": "https://schema.org/",
}

# Everything but unreserved characters is percent-encoded, so no text reaches an IRI raw.
_SAFE = "-._~"
_ENCODED = re.compile(r"(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})+")


def encode_segment(text: str) -> str:
    """Percent-encode ``text`` for use as one IRI path segment.

    >>> encode_segment('a b/<c>')
    'a%20b%2F%3Cc%3E'
    """
    return quote(text, safe=_SAFE)


def paper_iri(paper_id: str) -> str:
    """The IRI of a paper, from its identifier."""
    return f"{DATA}paper/{encode_segment(paper_id)}"


def entity_iri(key: str) -> str:
    """The IRI of an entity from its resolver key ``"type/slug"``.

    A slug that is already a valid encoded segment is kept; anything else is encoded.

    >>> entity_iri("dataset/cifar-100")
    'https://w3id.org/kg-lit/id/dataset/cifar-100'
    >>> entity_iri("method/a b")
    'https://w3id.org/kg-lit/id/method/a%20b'
    """
    kind, _, slug = key.partition("/")
    if not _ENCODED.fullmatch(slug):
        slug = encode_segment(slug)
    return f"{DATA}{encode_segment(kind)}/{slug}"


def result_iri(paper_id: str, start: int) -> str:
    """A stable IRI for the numeric result whose value starts at ``start`` in the paper's abstract."""
    digest = hashlib.sha256(f"{paper_id}\x1f{start}".encode())
    return f"{DATA}result/{digest.hexdigest()[:24]}"


def statement_iri(paper_id: str, subject: str, relation: str, obj: str) -> str:
    """A stable IRI for the statement of one fact in one paper."""
    digest = hashlib.sha256("\x1f".join((paper_id, subject, relation, obj)).encode("utf-8"))
    return f"{DATA}fact/{digest.hexdigest()[:24]}"
