"""The vocabulary in one table: classes and relations with their label, signature and colour.

Every other place that needs to know the vocabulary takes it from here: the data
model's enums (:mod:`kg.model`), the closed rdflib namespace
(:mod:`kg.store.namespace`), the node types of the NetworkX view, the page's
colours and the stats queries. ``ontologies/kg.ttl`` and ``ontologies/shapes.ttl``
are the published form of the same table; ``tests/test_vocab.py`` fails when they
disagree with it.

>>> RELATIONS[Relation.EVALUATED_ON].label
'evaluated on'
>>> sorted(RELATIONS[Relation.PROPOSES].range)
['Dataset', 'Method']
>>> CLASSES["Task"].colour
'#e69f00'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: Namespace of the vocabulary's terms, and of the nodes a build mints.
VOCAB = "https://w3id.org/kg-lit/vocab#"
DATA = "https://w3id.org/kg-lit/id/"
SCHEMA = "https://schema.org/"

#: The label a mention takes when it is a URL rather than an entity (``hasCode``).
URL_LABEL = "URL"


class EntityType(str, Enum):
    """The classes of scientific things the graph holds (besides papers)."""

    METHOD = "Method"
    TASK = "Task"
    DATASET = "Dataset"
    METRIC = "Metric"


class Relation(str, Enum):
    """Relations between papers and entities; values are the ``kg:`` local names."""

    PROPOSES = "proposes"
    ADDRESSES = "addresses"
    EVALUATED_ON = "evaluatedOn"
    MEASURED_BY = "measuredBy"
    OUTPERFORMS = "outperforms"
    USES = "uses"
    HAS_CODE = "hasCode"
    COMPARED_WITH = "comparedWith"
    SUBTYPE_OF = "subtypeOf"


@dataclass(frozen=True)
class ClassTerm:
    """A node type: its local name, the IRI of its class, a display label and a colour."""

    name: str
    iri: str
    label: str
    colour: str


@dataclass(frozen=True)
class RelationTerm:
    """A relation: its label and the classes its subject and object may have."""

    relation: Relation
    label: str
    domain: frozenset[str]
    range: frozenset[str]

    @property
    def iri(self) -> str:
        return VOCAB + self.relation.value


_ENTITIES = frozenset(t.value for t in EntityType)

#: Node types in legend order; colours are Okabe-Ito, safe for colour-blind readers.
#: ``Code`` is the type of code URLs (``schema:SoftwareSourceCode``).
CLASSES: dict[str, ClassTerm] = {
    term.name: term
    for term in (
        ClassTerm("Paper", VOCAB + "Paper", "paper", "#9a9a9a"),
        ClassTerm("Method", VOCAB + "Method", "method", "#0072b2"),
        ClassTerm("Task", VOCAB + "Task", "task", "#e69f00"),
        ClassTerm("Dataset", VOCAB + "Dataset", "dataset", "#009e73"),
        ClassTerm("Metric", VOCAB + "Metric", "metric", "#cc79a7"),
        ClassTerm("Code", SCHEMA + "SoftwareSourceCode", "code", "#56b4e9"),
    )
}

#: Colour for a node of any other type.
OTHER_COLOUR = "#d55e00"

#: Every relation with its signature; the resolver drops facts outside it.
RELATIONS: dict[Relation, RelationTerm] = {
    term.relation: term
    for term in (
        RelationTerm(Relation.PROPOSES, "proposes", frozenset({"Paper"}), frozenset({"Method", "Dataset"})),
        RelationTerm(Relation.ADDRESSES, "addresses", frozenset({"Method"}), frozenset({"Task"})),
        RelationTerm(Relation.EVALUATED_ON, "evaluated on", frozenset({"Method"}), frozenset({"Dataset"})),
        RelationTerm(Relation.MEASURED_BY, "measured by", frozenset({"Method"}), frozenset({"Metric"})),
        RelationTerm(Relation.OUTPERFORMS, "outperforms", frozenset({"Method"}), frozenset({"Method"})),
        RelationTerm(Relation.USES, "uses", frozenset({"Method"}), frozenset({"Method"})),
        RelationTerm(Relation.HAS_CODE, "has code", frozenset({"Paper"}), frozenset({URL_LABEL})),
        RelationTerm(Relation.COMPARED_WITH, "compared with", frozenset({"Method"}), frozenset({"Method"})),
        RelationTerm(Relation.SUBTYPE_OF, "subtype of", _ENTITIES, _ENTITIES),
    )
}

#: The other terms of the vocabulary: the abstract class, the mention and provenance properties,
#: and the numeric results (not node types of the views: a result hangs off its method and paper).
OTHER_TERMS: tuple[str, ...] = (
    "Entity",
    "mentionedIn",
    "mentionCount",
    "evidence",
    "evidenceStart",
    "evidenceEnd",
    "subjectEvidence",
    "subjectEvidenceStart",
    "subjectEvidenceEnd",
    "confidence",
    "extractor",
    "doi",
    # numeric results (kg:Result, one node per number an abstract reports)
    "Result",
    "method",
    "metric",
    "onDataset",
    "forTask",
    "comparedTo",
    "methodLabel",
    "metricLabel",
    "value",
    "valueText",
    "unit",
    "resultKind",
    "valueStart",
    "valueEnd",
)

#: Subject and object classes each relation admits, as the resolver checks them.
SIGNATURES: dict[Relation, tuple[frozenset[str], frozenset[str]]] = {r: (t.domain, t.range) for r, t in RELATIONS.items()}

#: Class IRI -> node type, for every class whose instances are nodes of the NetworkX view.
NODE_TYPES: dict[str, str] = {term.iri: term.name for term in CLASSES.values()}

#: Node type -> colour, in legend order, ending with ``Other``.
COLOURS: dict[str, str] = {**{name: term.colour for name, term in CLASSES.items()}, "Other": OTHER_COLOUR}


def term_names() -> list[str]:
    """Every local name the ``kg:`` namespace declares, classes first.

    >>> term_names()[:3]
    ['Paper', 'Method', 'Task']
    """
    classes = [term.name for term in CLASSES.values() if term.iri.startswith(VOCAB)]
    return [*classes, *(r.value for r in Relation), *OTHER_TERMS]
