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
from enum import Enum
from typing import Any

# The vocabulary's enums and signatures are defined in kg.vocab (the one table of the
# vocabulary) and re-exported here, since every stage speaks of them as the data model.
from kg.vocab import SIGNATURES, URL_LABEL, EntityType, Relation  # noqa: F401


class Rule(str, Enum):
    """Which rule (or model) produced a fact: its provenance, kept apart from its confidence.

    A fact records it in ``Fact.extractor`` as ``"<stage>/<version>#<rule>"``
    (:func:`kg.extract.annotations.extractor_name`); its confidence comes from
    the registered table ``kg.FactConfidences.v1``, one value per rule.
    """

    # the paper's own contributions (kg.extract.contributions)
    PROPOSAL_NAMED = "proposal.named"  # "we propose X" (a name)
    PROPOSAL_TYPED = "proposal.typed"  # "we propose a graph clustering algorithm"
    PROPOSAL_DESCRIBED = "proposal.described"  # an unnamed contribution, described
    PROPOSAL_WORD_ORDER = "proposal.word-order"  # "We present(ADJ) PRESTO": parse missed
    PROPOSAL_WORD_ORDER_TYPED = "proposal.word-order-typed"
    PROPOSAL_PASSIVE = "proposal.passive"  # "X is proposed in this paper"
    PROPOSAL_APPOSITION = "proposal.apposition"  # "X, a novel framework"
    PROPOSAL_MODIFIER = "proposal.modifier"  # "our proposed X"
    PROPOSAL_NAMED_LATER = "proposal.named-later"  # "propose our solution -- long form (LF)"
    PROPOSAL_CALLED = "proposal.called"  # "a new model, named X"
    PROPOSAL_COINED = "proposal.coined"  # "Local Support Learning (LSL)" in a "we" sentence
    # dependency and word-order rules (kg.extract.relations)
    OUTPERFORMS_VERB = "outperforms.verb"  # "Z outperforms / surpasses X"
    USES_VERB = "uses.verb"  # "Z builds on / leverages X"
    FOR_NAMED = "addresses.for-named"  # "X for Y", X named
    FOR_DESCRIBED = "addresses.for-described"  # "a framework designed for Y"
    FOR_PROPOSED = "addresses.for-proposed"  # "we propose X for Y"
    FOR_APPLIED = "addresses.for-applied"  # "we apply X for Y"
    FOR_APPOSITION = "addresses.for-apposition"  # "Z, a framework for Y"
    FOR_OBJECT = "addresses.for-object"  # "we propose a framework for Y" (Z the paper's method)
    TASK_RESULT = "addresses.result-in"  # "Z achieves ... on / in Y"
    TASK_VERB = "addresses.verb"  # "Z tackles / solves Y"
    TASK_STUDY = "addresses.study"  # "we study Y"
    PURPOSE_NEAR = "addresses.purpose-near"  # proposal sentence, "for Y" right before Y
    PURPOSE = "addresses.purpose"  # proposal sentence, "to solve ... Y"
    PURPOSE_IN = "addresses.purpose-in"  # proposal sentence, "... in / on Y"
    DESCRIBED_TASK = "addresses.in-description"  # "Z, an LLM compression framework"
    TOPIC_TASK = "addresses.topic"  # the tasks the abstract is about
    EVALUATED_ON_VERB = "evaluatedOn.verb"  # "Z achieves ... on X", "we evaluate Z on X"
    MEASURED_BY_VERB = "measuredBy.verb"  # "Z improves BLEU"
    RESULT_DATASET = "evaluatedOn.result-sentence"  # result sentence, "on / across X"
    RESULT_DATASET_NOUN = "evaluatedOn.result-noun"  # "datasets: A, B", "ImageNet experiments"
    RESULT_TASK = "addresses.result-sentence"  # "our method ... on / for Y tasks"
    SCIERC_RELATION = "scierc.relation"  # the trained SciERC relation classifier, mapped
    CODE_URL = "code.url"  # a URL in the text
    # the hub: sentences about the paper's main method (kg.extract.hub)
    HUB_TASK_NAMED = "hub.task-named"
    HUB_TASK_REFERRED = "hub.task-referred"
    HUB_TASK_TRAINED = "hub.task-trained"  # a trained span right after "for": kept only when the learned model agrees
    HUB_DATASET = "hub.dataset"
    HUB_METRIC = "hub.metric"
    HUB_USES_CUE = "hub.uses-cue"
    HUB_COMPONENT = "hub.component"
    HUB_COMPONENT_PROPOSED = "proposal.component"  # "Z introduces (1) a RCA module ..."
    HUB_NAME_EXTENDS = "hub.name-extends"  # "MV-SAM3D" uses "SAM3D"
    HUB_COMPARATIVE = "hub.comparative"
    HUB_WORSE_THAN = "hub.worse-than"
    # the learned pair model (kg.extract.pairs): a pair no rule states, scored high enough to stand
    PAIRS_LEARNED = "pairs.learned"



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

    @property
    def label(self) -> str:
        """What a person reads for this paper: its title, else the first words of its abstract."""
        return paper_label(self.title, self.abstract, self.id)


#: Words of the abstract that name a paper without a title.
LABEL_WORDS = 8
LABEL_CHARS = 60


def paper_label(title: str | None, abstract: str | None, paper_id: str = "") -> str:
    """A paper's display name: its title, else its abstract's first words ("…" when cut), else its id.

    Identifiers stay as they are (``dcterms:identifier``, the IRI); this is only
    what pages, tables and plots show, so a paper without a title is not a hash.

    >>> paper_label("FooNet: a net", "We propose FooNet.")
    'FooNet: a net'
    >>> paper_label(None, "Federated learning suffers from heterogeneous clients, so we propose a fix.")
    'Federated learning suffers from heterogeneous clients, so we…'
    >>> paper_label("", "", "sha256-00")
    'sha256-00'
    """
    if title and title.strip():
        return " ".join(title.split())
    words = (abstract or "").split()
    if not words:
        return paper_id
    text = " ".join(words[:LABEL_WORDS])
    if len(text) > LABEL_CHARS:
        text = text[: LABEL_CHARS - 1].rsplit(" ", 1)[0]
    return text if text == " ".join(words) else text.rstrip(",;:.") + "…"


@dataclass(frozen=True)
class Rejection:
    """A document a reader could not take in, and why (one line, for people)."""

    source: str  # "path:line" or "path:record N"
    reason: str
    code: str = "E000"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


#: Ends a mention's extractor name when its type was decided by its role in the sentence
#: (``kg.extract.roles``): the resolver's type vote counts such a mention more.
ROLE_TYPED = "+role"


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
    sentence in the abstract, so the evidence is always verbatim. ``extractor``
    is the provenance, ``"<stage>/<version>#<rule>"`` (a :class:`Rule` value);
    ``confidence`` is that rule's entry in the confidence table.
    """

    relation: str
    subject: Mention | None
    object: Mention
    sentence: tuple[int, int]
    extractor: str
    confidence: float


@dataclass(frozen=True)
class Result:
    """A numeric result stated in one sentence (``GUIDELINES.md``, "Numeric results").

    ``value`` is the number as written ("93.2", "8-24", "20x-200x"); ``number``
    its first number as a canonical decimal, for sorting and typed literals.
    ``kind`` is ``absolute``, ``improvement`` or ``relative``. ``start``/``end``
    are the value's offsets in the abstract, ``sentence`` the evidence
    sentence's. The method, metric, dataset, task and reference are mentions
    of the same abstract (``None`` when the text gives none); ``metric_text``
    is the metric as written, also when it is no mention ("speedup").
    """

    value: str
    number: str
    unit: str | None
    kind: str
    start: int
    end: int
    sentence: tuple[int, int]
    method: Mention | None
    metric: Mention | None
    metric_text: str | None
    dataset: Mention | None
    task: Mention | None
    compared_to: Mention | None
    extractor: str
    confidence: float
    method_text: str | None = None  # the method as the sentence names it ("our estimator"), when not its mention
    compared_text: str | None = None  # the reference as written ("state-of-the-art baselines"), also when no mention


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
    results: tuple[Result, ...] = ()

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
            results=tuple(result_from_dict(r) for r in data.get("results", ())),
        )


def result_from_dict(data: dict[str, Any]) -> Result:
    """A :class:`Result` from its :func:`dataclasses.asdict` form (a cache entry)."""
    ends = {k: None if data.get(k) is None else Mention(**data[k]) for k in ("method", "metric", "dataset", "task", "compared_to")}
    rest = {k: v for k, v in data.items() if k not in ends}
    return Result(**{**rest, **ends, "sentence": tuple(data["sentence"])})


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
    ``object`` is an entity key, or the URL for ``hasCode``. When the evidence
    sentence does not hold the subject's mention (a sentence about the task,
    whose method is named in "We propose X"), ``subject_evidence`` is the
    sentence that names the subject, with its offsets; else it is empty and
    the offsets are -1, so a reader can check the fact from what it carries.
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
    subject_evidence: str = ""
    subject_start: int = -1  # offsets of the sentence naming the subject, or -1
    subject_end: int = -1


@dataclass(frozen=True)
class ResolvedResult:
    """A numeric result whose method, metric, dataset, task and reference are entity keys.

    ``metric``, ``dataset``, ``task`` and ``compared_to`` are ``None`` where the
    abstract names none (or names something that resolved to no entity of the
    right type); ``metric_text`` keeps the metric as written, ``method_text``
    the words the sentence names the method with ("our estimator").
    """

    paper_id: str
    value: str
    number: str
    unit: str | None
    kind: str
    start: int  # offsets of the value in the abstract
    end: int
    evidence: str
    evidence_start: int
    evidence_end: int
    method: str
    method_text: str | None
    metric: str | None
    metric_text: str | None
    dataset: str | None
    task: str | None
    compared_to: str | None
    extractor: str
    confidence: float
    compared_text: str | None = None


@dataclass(frozen=True)
class Resolution:
    """The resolver's output for a whole corpus."""

    entities: tuple[Entity, ...]
    facts: tuple[ResolvedFact, ...]
    report: dict[str, Any] = field(default_factory=dict)
    results: tuple[ResolvedResult, ...] = ()
