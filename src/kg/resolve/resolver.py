"""The resolver: mentions of many papers -> one entity per real thing.

Steps, each over papers sorted by id so that the input order never matters:

1. collect each paper's entity mentions (those of its facts included), drop
   generic ones, and give each a node ``(class, key)``; a mention of an
   acronym the paper defines takes its long form's key;
2. join nodes within a class: alias table, then guarded fuzzy matching
   (:mod:`kg.resolve.cluster`);
3. join bare acronyms to their long form where the corpus is unambiguous
   (:mod:`kg.resolve.acronyms`);
4. settle type conflicts: nodes of one name typed Method, Task or Metric in
   different papers join and the entity takes the majority class. Datasets
   are left out of the vote, so a Dataset and a Method with the same name
   (a corpus and the model trained on it) stay two entities;
5. build entities (:mod:`kg.resolve.entities`) and rewrite facts to entity keys.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kg.model import (
    ROLE_TYPED,
    SIGNATURES,
    URL_LABEL,
    EntityType,
    Extraction,
    Fact,
    Mention,
    Paper,
    Relation,
    Resolution,
    ResolvedFact,
    ResolvedResult,
)
from kg.resolve.acronyms import Definition, link_acronyms, local_definitions
from kg.resolve.aliases import alias_of
from kg.resolve.cluster import ANCHOR, Clusters, fuzzy_pairs
from kg.resolve.entities import Occurrence, build_entities
from kg.resolve.generic import is_description, is_generic, is_unnamed_contribution, refers_to_own_method, self_references
from kg.resolve.memo import scope
from kg.resolve.normalise import compact, display, normalise

#: Votes of a mention typed by its role in the sentence ("a paradigm for fine-tuning": a Task),
#: against one for a mention typed by its own words (a head noun, a gazetteer entry).
ROLE_VOTES = 3
#: Classes whose conflicts on one name are settled by a vote.
VOTING_TYPES = frozenset({EntityType.METHOD.value, EntityType.TASK.value, EntityType.METRIC.value})
_TYPES = frozenset(t.value for t in EntityType)
_RELATIONS = {r.value: r for r in Relation}

MentionId = tuple[int, int, str, str]
#: One mention of one paper: the paper's id, then the mention's id (one flat tuple per mention).
Spot = tuple[str, int, int, str, str]
#: (paper id, mention) -> the entity key the mention resolved to, if any.
KeyOf = Callable[[str, Mention], str | None]
#: Key prefix of a paper-scoped node (an unnamed contribution): never joined across papers.
PAPER_SCOPED = "@paper:"
_REBOUND = "generic_subject_rebound"


def _mention_id(mention: Mention) -> MentionId:
    return (mention.start, mention.end, mention.label, mention.text)


def _spot(paper_id: str, mention: Mention) -> Spot:
    return (paper_id, mention.start, mention.end, mention.label, mention.text)


def _fact_order(fact: Fact) -> tuple[object, ...]:
    subject = () if fact.subject is None else _mention_id(fact.subject)
    return (fact.relation, subject, _mention_id(fact.object), fact.sentence, fact.extractor, fact.confidence)


def _inputs(papers: Iterable[Paper], extractions: Iterable[Extraction]) -> list[tuple[Paper, Extraction]]:
    """Papers sorted by id, each with all its extractions merged and sorted."""
    chosen: dict[str, Paper] = {}
    for paper in papers:
        # Two records with one id: keep one, chosen by content, not by position.
        if paper.id not in chosen or repr(paper) < repr(chosen[paper.id]):
            chosen[paper.id] = paper
    parts: dict[str, list[Extraction]] = defaultdict(list)
    for extraction in extractions:
        parts[extraction.paper_id].append(extraction)
    merged = []
    for paper_id in sorted(chosen):
        found = parts.get(paper_id, [])
        merged.append(
            (
                chosen[paper_id],
                Extraction(
                    paper_id=paper_id,
                    # repr breaks ties (one span found by two extractors), so the order never
                    # depends on set iteration, which changes with the hash seed.
                    mentions=tuple(sorted({m for e in found for m in e.mentions}, key=lambda m: (_mention_id(m), repr(m)))),
                    facts=tuple(sorted({f for e in found for f in e.facts}, key=lambda f: (_fact_order(f), repr(f)))),
                    acronyms=tuple(sorted({a for e in found for a in e.acronyms}, key=repr)),
                    sentences=tuple(sorted({s for e in found for s in e.sentences})),
                    results=tuple(sorted({r for e in found for r in e.results}, key=lambda r: (r.start, repr(r)))),
                ),
            )
        )
    return merged


def _entity_mentions(extraction: Extraction) -> list[Mention]:
    """The paper's entity mentions, fact ends included, one per (span, label, text)."""
    found: dict[MentionId, Mention] = {}
    ends = [m for f in extraction.facts for m in (f.subject, f.object) if m is not None]
    for mention in (*extraction.mentions, *ends):
        if mention.label in _TYPES:
            found.setdefault(_mention_id(mention), mention)
    return [found[k] for k in sorted(found)]


@dataclass
class _Collected:
    clusters: Clusters
    occurrences: list[Occurrence]
    where: dict[Spot, int]  # each mention's node
    acronym_labels: dict[int, set[str]]
    long_labels: dict[int, Counter[str]]
    definitions: dict[str, list[Definition]]
    generic: int


def _own_unnamed(extraction: Extraction) -> Mention | None:
    """The paper's own method when it is unnamed: of the proposed methods, the one most
    facts start from (where the extractors attached the paper's claims), if it is a description."""
    proposed = [f.object for f in extraction.facts if f.relation == Relation.PROPOSES.value and f.object.label == EntityType.METHOD.value]
    if not proposed:
        return None
    subjects = Counter(_mention_id(f.subject) for f in extraction.facts if f.subject is not None)
    main = min(proposed, key=lambda m: (-subjects[_mention_id(m)], m.start))
    return main if is_unnamed_contribution(main.extractor) else None


def _own_descriptions(extraction: Extraction, local: dict[str, Definition]) -> set[str]:
    """Keys of what the paper proposes under a description in common words ("a probabilistic model"),
    unless the paper defines an acronym for it or the alias table knows it as a name."""
    defined = {d.long_key for d in local.values()}
    return {
        key
        for f in extraction.facts
        if f.relation == Relation.PROPOSES.value and f.object.label in _TYPES
        and is_description(f.object.text) and not is_generic(f.object.text)
        and (key := compact(f.object.text)) not in defined and not alias_of(key, f.object.label)
    }


def _collect(inputs: list[tuple[Paper, Extraction]]) -> _Collected:
    """Step 1: one occurrence per non-generic entity mention, with its node.

    An unnamed contribution (a description the contribution finder made up), and
    what a paper proposes under a description in common words ("a probabilistic
    model", :func:`~kg.resolve.generic.is_description`), get a paper-scoped node,
    never joined with another paper's: two papers' "graph clustering framework"
    or "probabilistic model" are two methods, while a name ("FooNet") is one thing
    in every paper. It is labelled "<description> (this paper)", and when it is
    the paper's own method the abstract's self-references ("our method") become
    its other labels.
    """
    out = _Collected(Clusters(), [], {}, defaultdict(set), defaultdict(Counter), defaultdict(list), 0)
    for paper, extraction in inputs:
        local = local_definitions(paper.id, extraction)
        own = _own_unnamed(extraction)
        described = _own_descriptions(extraction, local)
        for mention in _entity_mentions(extraction):
            key = compact(mention.text)
            unnamed = is_unnamed_contribution(mention.extractor) or key in described
            if not key or is_generic(mention.text) and not unnamed:
                out.generic += 1
                continue
            if unnamed:
                node = out.clusters.node(mention.label, f"{PAPER_SCOPED}{paper.id}/{key}", f"{normalise(mention.text)} {paper.id}")
                occurrence = Occurrence(paper.id, f"{display(mention.text)} (this paper)", node, mention.label)
                out.occurrences.append(occurrence)
                out.where[_spot(paper.id, mention)] = node
                # The words as written stay an other label: what a reader searches for and a gold name matches.
                out.acronym_labels[node].add(display(mention.text))
                if own is not None and _mention_id(own) == _mention_id(mention):
                    out.acronym_labels[node].update(self_references(paper.abstract))  # other labels, never the label
                continue
            definition = local.get(key)
            if definition is None:
                node = out.clusters.node(mention.label, key, normalise(mention.text))
            else:
                node = out.clusters.node(mention.label, definition.long_key, normalise(definition.long))
            weight = ROLE_VOTES if mention.extractor.endswith(ROLE_TYPED) else 1
            occurrence = Occurrence(paper.id, display(mention.text), node, mention.label, weight)
            out.occurrences.append(occurrence)
            out.where[_spot(paper.id, mention)] = node
        for definition in local.values():
            out.definitions[definition.short_key].append(definition)
    # A definition labels its long form's node in every class that has it: the acronym as
    # an alt label, the long form as a candidate label (it may never be a mention itself).
    for definitions in out.definitions.values():
        for definition in definitions:
            for cls in _TYPES:
                long_node = out.clusters.ids.get((cls, definition.long_key))
                if long_node is not None:
                    out.acronym_labels[long_node].add(definition.short)
                    out.long_labels[long_node][definition.long] += 1
    return out


def _join_names(clusters: Clusters, defined_shorts: set[str]) -> None:
    """Step 2: alias table and guarded fuzzy matching, within each class."""
    names: dict[str, dict[str, tuple[str, ...]]] = defaultdict(dict)
    for (cls, key), node in sorted(clusters.ids.items()):
        if key.startswith(ANCHOR) or key in defined_shorts or key.startswith(PAPER_SCOPED):
            continue  # a corpus-defined acronym waits for step 3; a paper's unnamed method joins nothing
        label = alias_of(key, cls)
        if label:
            clusters.union(node, clusters.node(cls, ANCHOR + label, normalise(label)))
        names[cls][key] = tuple(min(clusters.forms[node]).split())
    for cls in sorted(names):
        for a, b in fuzzy_pairs(names[cls]):
            clusters.union(clusters.ids[(cls, a)], clusters.ids[(cls, b)])


def _vote_links(clusters: Clusters, cross: list[tuple[int, int]]) -> None:
    """Step 4: join one name's nodes across the voting classes."""
    by_key: dict[str, list[int]] = defaultdict(list)
    for (cls, key), node in sorted(clusters.ids.items()):
        if cls in VOTING_TYPES:
            by_key[key].append(node)
    for nodes in by_key.values():
        for node in nodes[1:]:
            clusters.union(nodes[0], node)
    for a, b in cross:
        clusters.union(a, b)


def _own_methods(
    inputs: list[tuple[Paper, Extraction]],
    key_of: KeyOf,
    types: dict[str, str],
    min_confidence: float,
) -> dict[str, tuple[str, Mention]]:
    """Paper id -> key and mention of its proposed method (its most confident ``proposes`` of a Method)."""
    own: dict[str, tuple[str, Mention]] = {}
    for paper, extraction in inputs:
        candidates = []
        for fact in extraction.facts:
            key = key_of(paper.id, fact.object)
            if (
                fact.relation == Relation.PROPOSES.value
                and fact.confidence >= min_confidence
                and key is not None
                and types[key] == EntityType.METHOD.value
            ):
                candidates.append((-fact.confidence, fact.object.start, key, fact.object))
        if candidates:
            best = min(candidates, key=lambda c: c[:3])
            own[paper.id] = (best[2], best[3])
    return own


def _resolve_facts(
    inputs: list[tuple[Paper, Extraction]],
    key_of: KeyOf,
    types: dict[str, str],
    own: dict[str, tuple[str, Mention]],
    min_confidence: float,
) -> tuple[list[ResolvedFact], dict[str, int], int]:
    """Step 5: facts with entity keys, checked against the signatures, deduplicated.

    Returns the facts, the number dropped for each reason, and the number whose
    generic subject was rebound to the paper's own method.
    """
    dropped: dict[str, int] = defaultdict(int)
    rebound = 0
    best: dict[tuple[str, str, str | None, str], ResolvedFact] = {}
    for paper, extraction in inputs:
        for fact in extraction.facts:
            reason, resolved = _resolve_fact(paper, fact, key_of, types, own.get(paper.id), min_confidence, extraction.sentences)
            if resolved is None:
                dropped[reason] += 1
                continue
            rebound += reason == _REBOUND
            slot = (paper.id, resolved.relation, resolved.subject, resolved.object)
            current = best.get(slot)
            if current is not None:
                dropped["duplicate"] += 1
            if current is None or _fact_rank(resolved) < _fact_rank(current):
                best[slot] = resolved
    ordered = sorted(best.values(), key=lambda f: (f.paper_id, f.relation, f.subject or "", f.object, f.start))
    return ordered, dict(sorted(dropped.items())), rebound


def _fact_rank(fact: ResolvedFact) -> tuple[object, ...]:
    """The order that picks the fact kept among duplicates: most confident, then a fixed order."""
    return (-fact.confidence, fact.start, fact.end, fact.extractor, fact.evidence)


def _resolve_fact(
    paper: Paper,
    fact: Fact,
    key_of: KeyOf,
    types: dict[str, str],
    own_method: tuple[str, Mention] | None,
    min_confidence: float,
    sentences: Sequence[tuple[int, int]] = (),
) -> tuple[str, ResolvedFact | None]:
    """One fact rewritten to entity keys (with ``""`` or :data:`_REBOUND`), or why it is dropped."""
    relation = _RELATIONS.get(fact.relation)
    if relation is None:
        return "unknown_relation", None
    if fact.confidence < min_confidence:
        return "below_min_confidence", None
    start, end = fact.sentence
    if not 0 <= start <= end <= len(paper.abstract):
        return "bad_offsets", None
    note = ""
    subject_type, subject, named = "Paper", None, fact.subject
    if fact.subject is not None:
        subject = key_of(paper.id, fact.subject)
        if subject is None and fact.subject.label in _TYPES and refers_to_own_method(fact.subject.text):
            subject, named = own_method if own_method is not None else (None, None)
            note = _REBOUND
        if subject is None:
            return "generic_subject" if is_generic(fact.subject.text) else "unresolved_subject", None
        subject_type = types[subject]
    if fact.object.label == URL_LABEL:
        object_type, obj = URL_LABEL, fact.object.text.strip()
    else:
        found = key_of(paper.id, fact.object)
        if found is None:
            return "generic_object" if is_generic(fact.object.text) else "unresolved_object", None
        object_type, obj = types[found], found
    allowed_subjects, allowed_objects = SIGNATURES[relation]
    if subject_type not in allowed_subjects or object_type not in allowed_objects:
        return "signature", None
    if subject == obj:
        return "self_loop", None
    named_start, named_end = _naming_sentence(named, (start, end), sentences)
    resolved = ResolvedFact(
        paper_id=paper.id,
        relation=relation.value,
        subject=subject,
        object=obj,
        evidence=paper.abstract[start:end],
        start=start,
        end=end,
        extractor=fact.extractor,
        confidence=fact.confidence,
        subject_evidence=paper.abstract[named_start:named_end] if named_start >= 0 else "",
        subject_start=named_start,
        subject_end=named_end,
    )
    return note, resolved


def _naming_sentence(named: Mention | None, evidence: tuple[int, int], sentences: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The offsets of the sentence holding the subject's mention when the evidence sentence does not; else (-1, -1).

    >>> _naming_sentence(Mention(30, 35, "Method", "FooNet"), (0, 20), [(0, 20), (21, 40)])
    (21, 40)
    >>> _naming_sentence(Mention(3, 9, "Method", "FooNet"), (0, 20), [(0, 20), (21, 40)])
    (-1, -1)
    """
    if named is None or evidence[0] <= named.start < evidence[1]:
        return -1, -1
    for start, end in sentences:
        if start <= named.start < end:
            return start, end
    return -1, -1


def resolve(
    papers: Sequence[Paper],
    extractions: Sequence[Extraction],
    *,
    min_confidence: float = 0.0,
) -> Resolution:
    """Resolve the mentions of a corpus to entities and its facts to entity keys.

    Parameters
    ----------
    papers, extractions
        The corpus and one extraction per paper (in any order; several for one
        paper are merged; an extraction of an unknown paper is ignored).
    min_confidence
        Facts less confident than this are dropped.

    Returns
    -------
    Resolution
        Entities sorted by key; facts sorted by paper, relation, subject and
        object; and a ``report`` dict: ``mentions`` (resolved), ``entities``,
        ``largest_merges`` (up to ten: ``key``, ``label``, ``forms``,
        ``surface_forms``, ``papers``), ``type_conflicts`` (``key``, ``label``,
        ``votes``, ``chosen``), ``ambiguous_acronyms`` (``acronym``,
        ``long_forms``, ``papers``), ``dropped_generic`` (mentions),
        ``generic_subjects_rebound``, ``dropped_facts`` (reason -> count) and
        ``facts``. The result depends only on the set of inputs, never on
        their order.

    Examples
    --------
    >>> from kg.model import Acronym
    >>> text = "We apply reinforcement learning (RL). RL works."
    >>> paper = Paper(id="p1", abstract=text)
    >>> ext = Extraction("p1", mentions=(Mention(9, 31, "Method", "reinforcement learning"),
    ...                                   Mention(38, 40, "Method", "RL")),
    ...                  acronyms=(Acronym("RL", "reinforcement learning", 9, 31),))
    >>> [(e.key, e.label, e.alt_labels, e.mentions) for e in resolve([paper], [ext]).entities]
    [('method/reinforcement-learning', 'reinforcement learning', ('RL',), 2)]
    """
    with scope():  # each distinct name is normalised once per call, and forgotten after it
        return _resolve(papers, extractions, min_confidence)


def _resolve(papers: Sequence[Paper], extractions: Sequence[Extraction], min_confidence: float) -> Resolution:
    inputs = _inputs(papers, extractions)
    collected = _collect(inputs)
    clusters = collected.clusters
    _join_names(clusters, set(collected.definitions))
    ambiguous, cross = link_acronyms(clusters, collected.definitions, VOTING_TYPES)
    _vote_links(clusters, cross)
    entities, key_by_root, report = build_entities(
        clusters,
        collected.occurrences,
        collected.acronym_labels,
        collected.long_labels,
        set(collected.definitions),
    )
    where = collected.where

    def key_of(paper_id: str, mention: Mention) -> str | None:
        # Looked up on demand rather than tabled: a second table of every mention would raise the peak.
        node = where.get(_spot(paper_id, mention))
        return None if node is None else key_by_root[clusters.find(node)]

    types = {entity.key: entity.type for entity in entities}
    own = _own_methods(inputs, key_of, types, min_confidence)
    facts, dropped, rebound = _resolve_facts(inputs, key_of, types, own, min_confidence)
    results = _resolve_results(inputs, key_of, types, own, min_confidence)
    report.update(
        ambiguous_acronyms=ambiguous,
        dropped_generic=collected.generic,
        generic_subjects_rebound=rebound,
        dropped_facts=dropped,
        facts=len(facts),
        results=len(results),
    )
    return Resolution(entities=tuple(entities), facts=tuple(facts), report=report, results=tuple(results))


def _resolve_results(
    inputs: list[tuple[Paper, Extraction]],
    key_of: KeyOf,
    types: dict[str, str],
    own: dict[str, tuple[str, Mention]],
    min_confidence: float,
) -> list[ResolvedResult]:
    """Step 6: numeric results with entity keys; a result whose method resolves to no Method is dropped.

    A generic method ("our method") stands for the paper's own method, as a fact's
    subject does; an optional end of the wrong type is left out.
    """

    def end(paper_id: str, mention: Mention | None, wanted: str) -> str | None:
        key = None if mention is None else key_of(paper_id, mention)
        return key if key is not None and types.get(key) == wanted else None

    resolved: dict[tuple[str, int], ResolvedResult] = {}
    for paper, extraction in inputs:
        for result in extraction.results:
            start, stop = result.sentence
            if result.confidence < min_confidence or not 0 <= start <= result.start < result.end <= stop <= len(paper.abstract):
                continue
            method = end(paper.id, result.method, "Method")
            if method is None and result.method is not None and refers_to_own_method(result.method.text) and paper.id in own:
                method = own[paper.id][0]
            if method is None:
                continue
            reference = end(paper.id, result.compared_to, "Method")
            resolved[(paper.id, result.start)] = ResolvedResult(
                paper_id=paper.id,
                value=result.value,
                number=result.number,
                unit=result.unit,
                kind=result.kind,
                start=result.start,
                end=result.end,
                evidence=paper.abstract[start:stop],
                evidence_start=start,
                evidence_end=stop,
                method=method,
                method_text=result.method_text,
                metric=end(paper.id, result.metric, "Metric"),
                metric_text=result.metric_text,
                dataset=end(paper.id, result.dataset, "Dataset"),
                task=end(paper.id, result.task, "Task"),
                compared_to=None if reference == method else reference,
                extractor=result.extractor,
                confidence=result.confidence,
                compared_text=result.compared_text,
            )
    return [resolved[key] for key in sorted(resolved)]
