"""Turn papers and a :class:`~kg.model.Resolution` into RDF triples.

The graph holds, for every fact, the direct triple (``?method kg:addresses
?task``) and one ``rdf:Statement`` per supporting paper carrying the evidence
sentence, its offsets, the extractor and the confidence, with
``prov:wasDerivedFrom`` the paper. IRIs are built from identifiers and slugs,
never from raw text; the text goes in literals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from urllib.parse import quote

import pyoxigraph as ox

from kg.model import Entity, Paper, Resolution, ResolvedFact, ResolvedResult
from kg.store.namespace import KG, PREFIXES, entity_iri, paper_iri, result_iri, statement_iri

_RDF = PREFIXES["rdf"]
_RDFS = PREFIXES["rdfs"]
_XSD = PREFIXES["xsd"]
_SKOS = PREFIXES["skos"]
_DCT = PREFIXES["dcterms"]
_PROV = PREFIXES["prov"]
_SCHEMA = PREFIXES["schema"]

RDF_TYPE = ox.NamedNode(_RDF + "type")
RDFS_LABEL = ox.NamedNode(_RDFS + "label")
SKOS_ALT = ox.NamedNode(_SKOS + "altLabel")
CODE_CLASS = ox.NamedNode(_SCHEMA + "SoftwareSourceCode")

_INTEGER = ox.NamedNode(_XSD + "integer")
_DECIMAL = ox.NamedNode(_XSD + "decimal")
_GYEAR = ox.NamedNode(_XSD + "gYear")
_YEAR = re.compile(r"(\d{4})")
_SURROGATES = re.compile("[\ud800-\udfff]")
# Characters that may stand in an IRI as they are; everything else is percent-encoded.
_URL_SAFE = ":/?#[]@!$&'()*+,;=%-._~"


def _n(iri: str) -> ox.NamedNode:
    return ox.NamedNode(iri)


def _kg(name: str) -> ox.NamedNode:
    return ox.NamedNode(str(getattr(KG, name)))


def text_literal(text: str) -> ox.Literal:
    """A plain string literal; lone surrogates (invalid in RDF) become U+FFFD."""
    return ox.Literal(_SURROGATES.sub("\ufffd", text))


def url_node(url: str) -> ox.NamedNode | None:
    """A NamedNode for a URL found in text, percent-encoding what an IRI cannot hold.

    >>> url_node("https://github.com/a/b%20c").value
    'https://github.com/a/b%20c'
    >>> url_node("https://github.com/a/{b}").value
    'https://github.com/a/%7Bb%7D'
    >>> url_node("not a url") is None
    True
    """
    if not re.match(r"^https?://[^\s/$.?#][^\s]*$", url.strip()):
        return None
    try:
        return ox.NamedNode(quote(url.strip(), safe=_URL_SAFE))
    except ValueError:
        return None


def confidence_literal(value: float) -> ox.Literal:
    """Confidence as an ``xsd:decimal`` with four places, so output is deterministic."""
    return ox.Literal(f"{min(1.0, max(0.0, value)):.4f}", datatype=_DECIMAL)


def paper_triples(paper: Paper) -> Iterator[ox.Triple]:
    """The triples describing one paper (type, identifier, abstract, metadata)."""
    node = _n(paper_iri(paper.id))
    yield ox.Triple(node, RDF_TYPE, _kg("Paper"))
    yield ox.Triple(node, _n(_DCT + "identifier"), text_literal(paper.id))
    yield ox.Triple(node, _n(_DCT + "abstract"), text_literal(paper.abstract))
    if paper.title:
        yield ox.Triple(node, _n(_DCT + "title"), text_literal(paper.title))
    # A title, else the abstract's first words: what people read; the id stays in dcterms:identifier.
    yield ox.Triple(node, RDFS_LABEL, text_literal(paper.title or paper.label))
    if paper.year and (match := _YEAR.search(paper.year)):
        yield ox.Triple(node, _n(_DCT + "date"), ox.Literal(match.group(1), datatype=_GYEAR))
    if paper.doi:
        yield ox.Triple(node, _kg("doi"), text_literal(paper.doi))
    if paper.url and (link := url_node(paper.url)) is not None:
        yield ox.Triple(node, _n(_SCHEMA + "url"), link)
    for author in paper.authors:
        yield ox.Triple(node, _n(_DCT + "creator"), text_literal(author))


def entity_triples(entity: Entity) -> Iterator[ox.Triple]:
    """The triples describing one resolved entity: type, labels, mentions."""
    node = _n(entity_iri(entity.key))
    yield ox.Triple(node, RDF_TYPE, _kg(entity.type))
    yield ox.Triple(node, RDFS_LABEL, text_literal(entity.label))
    for alt in entity.alt_labels:
        yield ox.Triple(node, SKOS_ALT, text_literal(alt))
    for paper_id in entity.papers:
        yield ox.Triple(node, _kg("mentionedIn"), _n(paper_iri(paper_id)))
    yield ox.Triple(node, _kg("mentionCount"), ox.Literal(str(entity.mentions), datatype=_INTEGER))


def _end(value: str | None, paper_id: str, relation: str) -> ox.NamedNode | None:
    if value is None:
        return _n(paper_iri(paper_id))
    if relation == "hasCode":
        return url_node(value)
    return _n(entity_iri(value))


def fact_triples(fact: ResolvedFact) -> Iterator[ox.Triple]:
    """The direct triple of a fact and its ``rdf:Statement`` with the evidence."""
    subject = _end(fact.subject, fact.paper_id, fact.relation)
    obj = _end(fact.object, fact.paper_id, fact.relation)
    if subject is None or obj is None:
        return
    predicate = _kg(fact.relation)
    yield ox.Triple(subject, predicate, obj)
    if fact.relation == "hasCode":
        yield ox.Triple(obj, RDF_TYPE, CODE_CLASS)
    statement = _n(statement_iri(fact.paper_id, subject.value, fact.relation, obj.value))
    yield ox.Triple(statement, RDF_TYPE, _n(_RDF + "Statement"))
    yield ox.Triple(statement, _n(_RDF + "subject"), subject)
    yield ox.Triple(statement, _n(_RDF + "predicate"), predicate)
    yield ox.Triple(statement, _n(_RDF + "object"), obj)
    yield ox.Triple(statement, _n(_PROV + "wasDerivedFrom"), _n(paper_iri(fact.paper_id)))
    yield ox.Triple(statement, _kg("evidence"), text_literal(fact.evidence))
    yield ox.Triple(statement, _kg("evidenceStart"), ox.Literal(str(fact.start), datatype=_INTEGER))
    yield ox.Triple(statement, _kg("evidenceEnd"), ox.Literal(str(fact.end), datatype=_INTEGER))
    if fact.subject_evidence:
        yield ox.Triple(statement, _kg("subjectEvidence"), text_literal(fact.subject_evidence))
        yield ox.Triple(statement, _kg("subjectEvidenceStart"), ox.Literal(str(fact.subject_start), datatype=_INTEGER))
        yield ox.Triple(statement, _kg("subjectEvidenceEnd"), ox.Literal(str(fact.subject_end), datatype=_INTEGER))
    yield ox.Triple(statement, _kg("confidence"), confidence_literal(fact.confidence))
    yield ox.Triple(statement, _kg("extractor"), text_literal(fact.extractor))


def result_triples(result: ResolvedResult) -> Iterator[ox.Triple]:
    """A numeric result as a ``kg:Result`` node: its value, what it belongs to, and its evidence."""
    node = _n(result_iri(result.paper_id, result.start))
    yield ox.Triple(node, RDF_TYPE, _kg("Result"))
    yield ox.Triple(node, _kg("method"), _n(entity_iri(result.method)))
    for name, key in (("metric", result.metric), ("onDataset", result.dataset), ("forTask", result.task), ("comparedTo", result.compared_to)):
        if key is not None:
            yield ox.Triple(node, _kg(name), _n(entity_iri(key)))
    if result.method_text:
        yield ox.Triple(node, _kg("methodLabel"), text_literal(result.method_text))
    if result.metric_text:
        yield ox.Triple(node, _kg("metricLabel"), text_literal(result.metric_text))
    if result.compared_text:
        yield ox.Triple(node, _kg("comparedToLabel"), text_literal(result.compared_text))
    yield ox.Triple(node, _kg("value"), ox.Literal(result.number, datatype=_DECIMAL))
    yield ox.Triple(node, _kg("valueText"), text_literal(result.value))
    if result.unit:
        yield ox.Triple(node, _kg("unit"), text_literal(result.unit))
    yield ox.Triple(node, _kg("resultKind"), text_literal(result.kind))
    yield ox.Triple(node, _n(_PROV + "wasDerivedFrom"), _n(paper_iri(result.paper_id)))
    yield ox.Triple(node, _kg("evidence"), text_literal(result.evidence))
    yield ox.Triple(node, _kg("evidenceStart"), ox.Literal(str(result.evidence_start), datatype=_INTEGER))
    yield ox.Triple(node, _kg("evidenceEnd"), ox.Literal(str(result.evidence_end), datatype=_INTEGER))
    yield ox.Triple(node, _kg("valueStart"), ox.Literal(str(result.start), datatype=_INTEGER))
    yield ox.Triple(node, _kg("valueEnd"), ox.Literal(str(result.end), datatype=_INTEGER))
    yield ox.Triple(node, _kg("confidence"), confidence_literal(result.confidence))
    yield ox.Triple(node, _kg("extractor"), text_literal(result.extractor))


def graph_triples(papers: Sequence[Paper], resolution: Resolution) -> Iterable[ox.Triple]:
    """Every triple of the graph built from ``papers`` and their ``resolution``."""
    for paper in papers:
        yield from paper_triples(paper)
    for entity in resolution.entities:
        yield from entity_triples(entity)
    for fact in resolution.facts:
        yield from fact_triples(fact)
    for result in resolution.results:
        yield from result_triples(result)
