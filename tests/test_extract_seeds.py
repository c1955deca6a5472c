"""The extraction bars of the issue, on the seed abstracts (../shared/seeds); slow."""

from __future__ import annotations

import logging
from collections import Counter

import pytest

from kg.model import Paper, content_id
from tests.conftest import SEEDS, needs_seeds, shared_pipeline


def seed_papers() -> list[Paper]:
    """Distinct abstracts of the seed files: a header line, then one abstract per paragraph."""
    texts: dict[str, None] = {}
    for path in SEEDS:
        for paragraph in path.read_text(encoding="utf-8").split("\n\n")[1:]:
            if paragraph.strip():
                texts.setdefault(paragraph.strip())
    return [Paper(id=content_id(text), abstract=text) for text in texts]


@pytest.mark.slow
@needs_seeds
def test_seed_bars_without_component_failures(caplog: pytest.LogCaptureFixture) -> None:
    from kg.extract import extract

    papers = seed_papers()
    with caplog.at_level(logging.WARNING, logger="kg.extract"):
        extractions = list(extract(papers, shared_pipeline(trained=False)))
    assert not caplog.records, caplog.records[0].getMessage()
    counts: Counter[str] = Counter()
    proposing = 0
    for extraction in extractions:
        distinct = {(f.relation, f.subject.text.lower() if f.subject else "", f.object.text.lower()) for f in extraction.facts}
        counts.update(relation for relation, _, _ in distinct)
        proposing += any(relation == "proposes" for relation, _, _ in distinct)
    assert proposing >= 0.8 * len(papers)
    assert counts["addresses"] >= 150
    assert counts["evaluatedOn"] >= 40
