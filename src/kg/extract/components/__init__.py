"""The extraction components: thin spaCy factories over the pure functions of ``kg.extract``.

Each component finds something with a pure function and writes plain data on
the Doc. They run in this order (``load_pipeline`` adds them so):

- ``kg_acronyms`` -> ``doc._.kg_acronyms`` (:func:`kg.extract.acronyms.find_acronyms`)
- ``kg_mentions`` -> ``doc._.kg_mentions`` (:func:`kg.extract.mentions.find_mentions` and URLs)
- ``kg_contributions`` -> ``proposes`` facts in ``doc._.kg_facts``
- ``kg_relations`` -> the other facts in ``doc._.kg_facts``
- ``kg_results`` -> numeric results in ``doc._.kg_results`` (:func:`kg.extract.results.find_results`)
- ``kg_fact_scores`` -> the relation facts' confidences, from a learned model (:mod:`kg.extract.pairs`)

A component that raises on one Doc hands the error to the pipeline's error
handler (``nlp.set_error_handler``) from its ``pipe`` method and passes the
Doc on unannotated, so that one odd abstract never stops a batch.

>>> import spacy
>>> nlp = spacy.blank("en")
>>> _ = nlp.add_pipe("kg_acronyms")
>>> nlp("We build Local Support Learning (LSL).")._.kg_acronyms[0].short
'LSL'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc

from kg.extract.acronyms import find_acronyms
from kg.extract.annotations import as_tuple
from kg.extract.bounds import cap_facts, crowd_cap
from kg.extract.contributions import find_contributions
from kg.extract.confidences import Confidences
from kg.extract.cues import ContributionPatterns, HubCues, MentionHeads, RelationCues, RoleCues
from kg.extract.gazetteers import build_gazetteer
from kg.extract.mentions import find_mentions
from kg.extract.pairs import PairModel, rescored
from kg.extract.relations import find_relations
from kg.extract.results import find_results, parse_measures, parse_subjects
from kg.extract.structure import MentionIndex, proposals
from kg.extract.urls import find_urls
from kg.model import Mention

__all__ = [
    "AcronymFinder",
    "ContributionFinder",
    "FactScorer",
    "MentionFinder",
    "RelationFinder",
    "ResultFinder",
    "make_acronym_finder",
    "make_contribution_finder",
    "make_fact_scorer",
    "make_mention_finder",
    "make_relation_finder",
    "make_result_finder",
    "skip_failed_doc",
]

logger = logging.getLogger("kg.extract")

_HEADS = {"@misc": "kg.MentionHeads.v1"}
_PATTERNS = {"@misc": "kg.ContributionPatterns.v1"}
_CUES = {"@misc": "kg.RelationCues.v1"}
_CONFIDENCES = {"@misc": "kg.FactConfidences.v1"}


def skip_failed_doc(proc_name: str, proc: Any, docs: list[Doc], error: Exception) -> None:
    """Pipeline error handler: log the failure and let the batch go on.

    ``load_pipeline`` installs it with ``nlp.set_error_handler``; a Doc a kg
    component failed on keeps the annotations of the components before it.
    """
    logger.warning("component %r failed on %d doc(s): %s: %s", proc_name, len(docs), type(error).__name__, error)


def rule_index(doc: Doc, mentions: Iterable[Mention]) -> MentionIndex:
    """The mentions facts may connect: those the rules found. Trained SciERC spans stay
    mentions (entities for the resolver) but end no fact: on the seed abstracts facts
    built on them were mostly wrong ("geometric problem", "appealing approach")."""
    return MentionIndex(doc, (m for m in mentions if not m.extractor.startswith("kg.scierc")))


def _sentences(doc: Doc) -> list[tuple[int, int]]:
    return [(s.start_char, s.end_char) for s in doc.sents]


def warn_capped(doc: Doc, note: str | None, stage: str) -> None:
    """Log a cap that cut (see :mod:`kg.extract.bounds`), naming the paper by the start of its abstract."""
    if note:
        opening = doc.text[:60] + ("..." if len(doc.text) > 60 else "")
        logger.warning("paper whose abstract starts %r: %s (%s caps)", opening, note, stage)


def _scierc_mapping(name: str) -> Callable | None:
    """``kg.extract.scierc.mapping.<name>`` when the trained SciERC package is installed, else None."""
    try:
        from kg.extract.scierc import mapping
    except ImportError:
        return None
    return getattr(mapping, name, None)


class _Component(Pipe):
    """Shared behaviour: a name, and ``pipe`` that never drops a Doc."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find(self, doc: Doc) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def __call__(self, doc: Doc) -> Doc:
        self.find(doc)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        error_handler = self.get_error_handler()
        for doc in stream:
            try:
                self.find(doc)
            except Exception as error:  # handed to the pipeline's error handler, which decides
                error_handler(self.name, self, [doc], error)
            yield doc


class AcronymFinder(_Component):
    """Writes ``doc._.kg_acronyms``: Schwartz-Hearst acronym definitions."""

    def find(self, doc: Doc) -> None:
        doc._.kg_acronyms = tuple(find_acronyms(doc.text))


@Language.factory("kg_acronyms", assigns=["doc._.kg_acronyms"], default_config={})
def make_acronym_finder(nlp: Language, name: str) -> AcronymFinder:
    return AcronymFinder(name)


class MentionFinder(_Component):
    """Writes ``doc._.kg_mentions``: methods, tasks, datasets, metrics and URLs."""

    def __init__(
        self, nlp: Language, name: str, heads: MentionHeads, gazetteers: dict[str, Path], trained: bool, roles: RoleCues | None = None
    ) -> None:
        super().__init__(name)
        self.heads = heads
        self.roles = roles
        self.gazetteer = build_gazetteer(nlp.vocab, gazetteers, nlp.make_doc)
        self.map_entity = _scierc_mapping("map_entity") if trained else None

    def find(self, doc: Doc) -> None:
        mentions = find_mentions(doc, self.gazetteer, self.heads, as_tuple(doc._.kg_acronyms), map_entity=self.map_entity, roles=self.roles)
        doc._.kg_mentions = tuple(sorted((*mentions, *find_urls(doc.text))))


@Language.factory(
    "kg_mentions",
    assigns=["doc._.kg_mentions"],
    default_config={"heads": _HEADS, "gazetteers": {"@misc": "kg.Gazetteers.v1"}, "trained": True, "roles": {"@misc": "kg.RoleCues.v1"}},
)
def make_mention_finder(
    nlp: Language, name: str, heads: MentionHeads, gazetteers: dict[str, Path], trained: bool, roles: RoleCues
) -> MentionFinder:
    return MentionFinder(nlp, name, heads, gazetteers, trained, roles)


class ContributionFinder(_Component):
    """Adds the paper's ``proposes`` facts to ``doc._.kg_facts``."""

    def __init__(self, name: str, patterns: ContributionPatterns, heads: MentionHeads, confidences: Confidences | None = None) -> None:
        super().__init__(name)
        self.patterns = patterns
        self.heads = heads
        self.confidences = confidences

    def find(self, doc: Doc) -> None:
        mentions = as_tuple(doc._.kg_mentions)
        facts = find_contributions(doc, rule_index(doc, mentions), self.patterns, self.heads, self.confidences)
        doc._.kg_facts = (*as_tuple(doc._.kg_facts), *facts)
        # Descriptions made up for unnamed contributions become mentions too.
        known = set(mentions)
        added = [f.object for f in facts if f.object not in known]
        if added:
            doc._.kg_mentions = tuple(sorted({*mentions, *added}))


@Language.factory(
    "kg_contributions",
    assigns=["doc._.kg_facts"],
    requires=["doc._.kg_mentions"],
    default_config={"patterns": _PATTERNS, "heads": _HEADS, "confidences": _CONFIDENCES},
)
def make_contribution_finder(
    nlp: Language, name: str, patterns: ContributionPatterns, heads: MentionHeads, confidences: Confidences
) -> ContributionFinder:
    return ContributionFinder(name, patterns, heads, confidences)


class RelationFinder(_Component):
    """Adds relation facts (addresses, evaluatedOn, measuredBy, outperforms, uses, hasCode)."""

    def __init__(
        self,
        name: str,
        cues: RelationCues,
        heads: MentionHeads,
        patterns: ContributionPatterns,
        trained: bool,
        hub_cues: HubCues | None = None,
        confidences: Confidences | None = None,
    ) -> None:
        super().__init__(name)
        self.cues = cues
        self.heads = heads
        self.patterns = patterns
        self.map_relation = _scierc_mapping("map_relation") if trained else None
        self.hub_cues = hub_cues
        self.confidences = confidences

    def find(self, doc: Doc) -> None:
        facts = as_tuple(doc._.kg_facts)
        mentions, note = crowd_cap(_sentences(doc), as_tuple(doc._.kg_mentions))
        warn_capped(doc, note, "kg_relations")
        index = rule_index(doc, mentions)
        hub = (MentionIndex(doc, mentions), self.hub_cues) if self.hub_cues is not None else None
        found = find_relations(
            doc, index, proposals(facts), self.cues, self.heads, self.patterns, self.map_relation,
            as_tuple(doc._.kg_acronyms), hub, self.confidences,
            releases_data=any(f.relation == "proposes" and f.object.label == "Dataset" for f in facts),
        )
        doc._.kg_facts, note = cap_facts((*facts, *found))
        warn_capped(doc, note, "kg_relations")


@Language.factory(
    "kg_relations",
    assigns=["doc._.kg_facts"],
    requires=["doc._.kg_mentions"],
    default_config={
        "cues": _CUES, "heads": _HEADS, "patterns": _PATTERNS, "trained": True,
        "hub_cues": {"@misc": "kg.HubCues.v1"}, "confidences": _CONFIDENCES,
    },
)
def make_relation_finder(
    nlp: Language,
    name: str,
    cues: RelationCues,
    heads: MentionHeads,
    patterns: ContributionPatterns,
    trained: bool,
    hub_cues: HubCues,
    confidences: Confidences,
) -> RelationFinder:
    return RelationFinder(name, cues, heads, patterns, trained, hub_cues, confidences)


class ResultFinder(_Component):
    """Writes ``doc._.kg_results``: the numbers the abstract reports as results, and what they belong to."""

    def find(self, doc: Doc) -> None:
        sentences = [(s.start_char, s.end_char) for s in doc.sents] if doc.has_annotation("SENT_START") else [(0, len(doc.text))]
        parsed = doc.has_annotation("DEP")
        found = find_results(
            doc.text, sentences, as_tuple(doc._.kg_mentions), as_tuple(doc._.kg_facts),
            parse_subjects(doc) if parsed else None, parse_measures(doc) if parsed else None,
        )
        doc._.kg_results = tuple(found)


@Language.factory("kg_results", assigns=["doc._.kg_results"], requires=["doc._.kg_mentions", "doc._.kg_facts"], default_config={})
def make_result_finder(nlp: Language, name: str) -> ResultFinder:
    return ResultFinder(name)


class FactScorer(_Component):
    """Sets each relation fact's confidence to the learned model's score (:mod:`kg.extract.pairs`)."""

    def __init__(self, name: str, model: PairModel) -> None:
        super().__init__(name)
        self.model = model

    def find(self, doc: Doc) -> None:
        facts = as_tuple(doc._.kg_facts)
        doc._.kg_facts = tuple(rescored(doc, as_tuple(doc._.kg_mentions), facts, as_tuple(doc._.kg_acronyms), self.model))


@Language.factory(
    "kg_fact_scores",
    assigns=["doc._.kg_facts"],
    requires=["doc._.kg_facts", "doc._.kg_mentions"],
    default_config={"model": {"@misc": "kg.FactScores.v1"}},
)
def make_fact_scorer(nlp: Language, name: str, model: PairModel) -> FactScorer:
    return FactScorer(name, model)
