"""The small, explicit data model that travels between the stages.

Readers produce :class:`Paper` (or :class:`Rejection`); extractors produce one
:class:`Extraction` per paper made of :class:`Mention` and :class:`Fact`; the
resolver turns those into :class:`Entity` and :class:`ResolvedFact`; the store
turns those into RDF. Everything here is plain, frozen, JSON-friendly data so
that it can be cached per paper and compared across runs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from typing import Any

# The vocabulary's enums and signatures are defined in kg.vocab (the one table of the
# vocabulary) and re-exported here, since every stage speaks of them as the data model.
from kg.vocab import SIGNATURES, URL_LABEL, EntityType, Relation  # noqa: F401

_SPACE = re.compile(r"\s+")


def normalise_whitespace(text: str) -> str:
    """Collapse every run of whitespace to one space and strip the ends.

    >>> normalise_whitespace("  a\\n\\tb  ")
    'a b'
    """
    return _SPACE.sub(" ", text).strip()


def content_id(abstract: str) -> str:
    """The identifier of a paper that has none: a hash of its normalised abstract.

    The same abstract read from two files gets the same id, so it becomes one Paper.

    >>> content_id("A  b") == content_id("A b\\n")
    True
    """
    digest = hashlib.sha256(normalise_whitespace(abstract).encode("utf-8")).hexdigest()
    return "sha256-" + digest[:24]


@dataclass(frozen=True)
class Paper:
    """One abstract and what is known about its paper.

    ``abstract`` is the cleaned text every character offset refers to;
    ``source`` is ``"path:line"`` (or ``"path:record"``) for messages.
    """

    id: str
    abstract: str
    title: str | None = None
    url: str | None = None
    doi: str | None = None
    year: str | None = None
    authors: tuple[str, ...] = ()
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Rejection:
    """A document a reader could not take in, and why (one line, for people)."""

    source: str  # "path:line" or "path:record N"
    reason: str
    code: str = "E000"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, order=True)
class Mention:
    """A span of the abstract that names a scientific thing.

    Offsets are character offsets into :attr:`Paper.abstract`; ``label`` is an
    :class:`EntityType` value (or :data:`URL_LABEL`).
    """

    start: int
    end: int
    label: str
    text: str
    score: float = 1.0
    extractor: str = ""


@dataclass(frozen=True)
class Fact:
    """A relation stated in one sentence of one abstract.

    ``subject`` is ``None`` when the subject is the paper itself (``proposes``,
    ``hasCode``). ``sentence`` holds the character offsets of the evidence
    sentence in the abstract, so the evidence is always verbatim.
    """

    relation: str
    subject: Mention | None
    object: Mention
    sentence: tuple[int, int]
    extractor: str
    confidence: float


@dataclass(frozen=True)
class Acronym:
    """An acronym defined in the abstract: ``long (short)`` or ``short (long)``."""

    short: str
    long: str
    start: int  # offset of the long form in the abstract
    end: int


@dataclass(frozen=True)
class Extraction:
    """Everything the extractors found in one paper; cached per paper."""

    paper_id: str
    mentions: tuple[Mention, ...] = ()
    facts: tuple[Fact, ...] = ()
    acronyms: tuple[Acronym, ...] = ()
    sentences: tuple[tuple[int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Extraction:
        def mention(m: dict[str, Any] | None) -> Mention | None:
            return None if m is None else Mention(**m)

        return cls(
            paper_id=data["paper_id"],
            mentions=tuple(Mention(**m) for m in data.get("mentions", ())),
            facts=tuple(
                Fact(
                    relation=f["relation"],
                    subject=mention(f["subject"]),
                    object=Mention(**f["object"]),
                    sentence=tuple(f["sentence"]),  # type: ignore[arg-type]
                    extractor=f["extractor"],
                    confidence=f["confidence"],
                )
                for f in data.get("facts", ())
            ),
            acronyms=tuple(Acronym(**a) for a in data.get("acronyms", ())),
            sentences=tuple(tuple(s) for s in data.get("sentences", ())),  # type: ignore[misc]
        )


@dataclass(frozen=True)
class Entity:
    """One real thing after resolution: a node of the graph.

    ``key`` is the stable slug its IRI is made from; ``label`` the canonical
    display name; ``alt_labels`` every other surface form and acronym.
    """

    key: str
    type: str
    label: str
    alt_labels: tuple[str, ...] = ()
    papers: tuple[str, ...] = ()
    mentions: int = 0


@dataclass(frozen=True)
class ResolvedFact:
    """A fact whose ends are resolved entities (or the paper, or a URL).

    ``subject`` is an entity key, or ``None`` for the paper itself;
    ``object`` is an entity key, or the URL for ``hasCode``.
    """

    paper_id: str
    relation: str
    subject: str | None
    object: str
    evidence: str
    start: int  # offsets of the evidence sentence in the abstract
    end: int
    extractor: str
    confidence: float


@dataclass(frozen=True)
class Resolution:
    """The resolver's output for a whole corpus."""

    entities: tuple[Entity, ...]
    facts: tuple[ResolvedFact, ...]
    report: dict[str, Any] = field(default_factory=dict)
