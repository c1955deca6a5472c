"""Run the pipeline over papers: one :class:`~kg.model.Extraction` per paper, streamed.

Texts longer than ``nlp.max_length`` are cut into pieces at paragraph, then
sentence, then word boundaries; every offset is shifted back into the full
text, so nothing is rejected for its length.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import overload

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.annotations import as_tuple
from kg.extract.bounds import MAX_EVIDENCE_CHARS, evidence_window
from kg.model import Acronym, Extraction, Fact, Mention, Paper, Result

logger = logging.getLogger("kg.extract")

_CUTS = (re.compile(r"\n\s*\n"), re.compile(r"(?<=[.!?])\s+"), re.compile(r"\s+"))


def split_text(text: str, max_length: int) -> list[tuple[int, str]]:
    """``(offset, piece)`` pairs covering ``text``, each piece at most ``max_length`` long.

    Cuts at the last paragraph break that fits, else the last sentence end,
    else the last space, else hard at ``max_length``.

    >>> split_text("aaa bbb. ccc ddd", 9)
    [(0, 'aaa bbb.'), (9, 'ccc ddd')]
    """
    pieces = []
    start = 0
    while len(text) - start > max_length:
        window = text[start : start + max_length + 1]
        cut = None
        for pattern in _CUTS:
            ends = [m for m in pattern.finditer(window) if 0 < m.start() <= max_length]
            if ends:
                cut = ends[-1]
                break
        if cut is None:
            pieces.append((start, text[start : start + max_length]))
            start += max_length
        else:
            pieces.append((start, window[: cut.start()]))
            start += cut.end()
    if start < len(text) or not pieces:
        pieces.append((start, text[start:]))
    return pieces


@overload
def _shift_mention(mention: Mention, by: int) -> Mention: ...
@overload
def _shift_mention(mention: None, by: int) -> None: ...
def _shift_mention(mention: Mention | None, by: int) -> Mention | None:
    if mention is None or by == 0:
        return mention
    return replace(mention, start=mention.start + by, end=mention.end + by)


def _shift_fact(fact: Fact, by: int) -> Fact:
    if by == 0:
        return fact
    return replace(
        fact,
        subject=_shift_mention(fact.subject, by),
        object=_shift_mention(fact.object, by),
        sentence=(fact.sentence[0] + by, fact.sentence[1] + by),
    )


def _shift_acronym(acronym: Acronym, by: int) -> Acronym:
    return replace(acronym, start=acronym.start + by, end=acronym.end + by)


def _shift_result(result: Result, by: int) -> Result:
    if by == 0:
        return result
    return replace(
        result, start=result.start + by, end=result.end + by, sentence=(result.sentence[0] + by, result.sentence[1] + by),
        method=_shift_mention(result.method, by), metric=_shift_mention(result.metric, by), dataset=_shift_mention(result.dataset, by),
        task=_shift_mention(result.task, by), compared_to=_shift_mention(result.compared_to, by),
    )


def doc_extraction(paper_id: str, doc: Doc, offset: int = 0) -> Extraction:
    """The plain-data :class:`Extraction` of one processed Doc, offsets moved by ``offset``.

    A fact's evidence longer than :data:`kg.extract.bounds.MAX_EVIDENCE_CHARS` is
    narrowed around its mentions, with a warning naming the paper.
    """
    sentences = tuple((s.start_char + offset, s.end_char + offset) for s in doc.sents) if doc.has_annotation("SENT_START") else ()
    facts = as_tuple(doc._.kg_facts)
    windowed = tuple(evidence_window(f) for f in facts)
    narrowed = sum(a is not b for a, b in zip(facts, windowed))
    if narrowed:
        logger.warning("paper %s: the evidence of %d fact(s) narrowed to %d characters of a longer sentence", paper_id, narrowed, MAX_EVIDENCE_CHARS)
    return Extraction(
        paper_id=paper_id,
        mentions=tuple(_shift_mention(m, offset) for m in as_tuple(doc._.kg_mentions)),
        facts=tuple(_shift_fact(f, offset) for f in windowed),
        acronyms=tuple(_shift_acronym(a, offset) for a in as_tuple(doc._.kg_acronyms)),
        sentences=sentences,
        results=tuple(_shift_result(r, offset) for r in as_tuple(doc._.kg_results)),
    )


def merge(paper_id: str, parts: Iterable[Extraction]) -> Extraction:
    """One Extraction from those of the pieces of a long text (already shifted)."""
    parts = list(parts)
    return Extraction(
        paper_id=paper_id,
        mentions=tuple(m for p in parts for m in p.mentions),
        facts=tuple(f for p in parts for f in p.facts),
        acronyms=tuple(a for p in parts for a in p.acronyms),
        sentences=tuple(s for p in parts for s in p.sentences),
        results=tuple(r for p in parts for r in p.results),
    )


def extract(papers: Iterable[Paper], nlp: Language, *, workers: int = 1, batch_size: int = 32) -> Iterator[Extraction]:
    """One Extraction per paper, in input order, streamed (no Doc is kept).

    Paper ids travel with the texts through ``nlp.pipe(as_tuples=True)``; a
    paper whose Doc a component dropped (spaCy's own components drop Docs they
    fail on, after calling the error handler) still gets an empty Extraction.
    ``workers`` is ``nlp.pipe``'s ``n_process``: Docs come back from the worker
    processes as bytes, with the kg annotations (see :mod:`kg.extract.annotations`).
    """
    ids: dict[int, str] = {}  # papers read but not yet yielded; emptied as they go out

    def pieces() -> Iterator[tuple[str, tuple[int, int]]]:
        for number, paper in enumerate(papers):
            ids[number] = paper.id
            for offset, text in split_text(paper.abstract, nlp.max_length):
                yield text, (number, offset)

    def finish(number: int) -> Extraction:
        return merge(ids.pop(number), pending.pop(number, []))

    pending: dict[int, list[Extraction]] = {}
    next_out = 0
    for doc, (number, offset) in nlp.pipe(pieces(), as_tuples=True, batch_size=batch_size, n_process=workers):
        # Papers before this one that never came back were dropped by the pipeline.
        while next_out < number:
            yield finish(next_out)
            next_out += 1
        pending.setdefault(number, []).append(doc_extraction(ids[number], doc, offset))
    while next_out in ids:
        yield finish(next_out)
        next_out += 1
