"""Types decided by role (kg.extract.roles): what the sentence does with a mention types it.

Docs are built by hand (words, tags, parse and lemmas written in) so no model is loaded.
"""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import Doc

from kg.extract.cues import gazetteers_v1, mention_heads_v1, role_cues_v1
from kg.extract.gazetteers import build_gazetteer
from kg.extract.mentions import find_mentions

HEADS = mention_heads_v1()
ROLES = role_cues_v1()
_LEMMAS = {"improvements": "improvement", "applies": "apply", "applying": "apply", "performs": "perform"}


@pytest.fixture(scope="module")
def nlp() -> spacy.language.Language:
    return spacy.blank("en")


def parsed(nlp, rows: list[tuple[str, str, str, str, int]]) -> Doc:
    """A Doc from (word, POS, tag, dependency, head index) rows."""
    words, pos, tags, deps, heads = (list(column) for column in zip(*rows))
    lemmas = [_LEMMAS.get(w.lower(), w.lower()) for w in words]
    return Doc(nlp.vocab, words=words, pos=pos, tags=tags, deps=deps, heads=heads, lemmas=lemmas)


def labels(doc: Doc, roles=ROLES, gazetteer=None) -> list[tuple[str, str]]:
    return [(m.text, m.label) for m in find_mentions(doc, gazetteer, HEADS, roles=roles)]


def _purpose(nlp, thing: str, tag: str = "NN") -> Doc:
    # "We propose a paradigm for <thing> ."
    return parsed(
        nlp,
        [
            ("We", "PRON", "PRP", "nsubj", 1),
            ("propose", "VERB", "VBP", "ROOT", 1),
            ("a", "DET", "DT", "det", 3),
            ("paradigm", "NOUN", "NN", "dobj", 1),
            ("for", "ADP", "IN", "prep", 3),
            ("knowledge", "NOUN", "NN", "compound", 6),
            (thing, "PROPN" if tag == "NNP" else "NOUN", tag, "pobj", 4),
            (".", "PUNCT", ".", "punct", 1),
        ],
    )


def test_what_a_method_noun_is_for_is_a_task(nlp) -> None:
    doc = _purpose(nlp, "distillation")
    assert ("knowledge distillation", "Method") in labels(doc, roles=None)  # its head noun alone says Method
    assert ("knowledge distillation", "Task") in labels(doc)


def test_a_thing_after_for_keeps_its_type(nlp) -> None:
    # "a paradigm for knowledge model": an artifact head is never what a method is for
    assert ("knowledge model", "Method") in labels(_purpose(nlp, "model"))


def _improvements(nlp, *conjuncts: tuple[str | None, str]) -> Doc:
    """"Results show improvements in <modifier> <noun> [and <modifier> <noun>] ."."""
    rows = [
        ("Results", "NOUN", "NNS", "nsubj", 1),
        ("show", "VERB", "VBP", "ROOT", 1),
        ("improvements", "NOUN", "NNS", "dobj", 1),
        ("in", "ADP", "IN", "prep", 2),
    ]
    first = None
    for modifier, noun in conjuncts:
        if first is not None:
            rows.append(("and", "CCONJ", "CC", "cc", first))
        if modifier is not None:
            rows.append((modifier, "NOUN", "NN", "compound", len(rows) + 1))
        if first is None:
            first = len(rows)
            rows.append((noun, "NOUN", "NN", "pobj", 3))
        else:
            rows.append((noun, "NOUN", "NN", "conj", first))
    rows.append((".", "PUNCT", ".", "punct", 1))
    return parsed(nlp, rows)


def test_what_improves_is_a_metric_one_per_conjunct(nlp) -> None:
    doc = _improvements(nlp, ("layout", "fidelity"), ("view", "plausibility"))
    found = labels(doc)
    assert ("layout fidelity", "Metric") in found and ("view plausibility", "Metric") in found
    assert not any(label == "Metric" for _, label in labels(doc, roles=None))


def test_a_vague_measure_is_not_a_metric(nlp) -> None:
    assert labels(_improvements(nlp, (None, "performance"))) == []
    assert labels(_improvements(nlp, ("instruction", "data"))) == []  # an amount, not a measure


def test_what_is_applied_is_a_method_in_every_sentence(nlp) -> None:
    # "Local pruning performs compression . We apply local pruning ."
    doc = parsed(
        nlp,
        [
            ("Local", "ADJ", "JJ", "amod", 1),
            ("pruning", "NOUN", "NN", "nsubj", 2),
            ("performs", "VERB", "VBZ", "ROOT", 2),
            ("compression", "NOUN", "NN", "dobj", 2),
            (".", "PUNCT", ".", "punct", 2),
            ("We", "PRON", "PRP", "nsubj", 6),
            ("apply", "VERB", "VBP", "ROOT", 6),
            ("local", "ADJ", "JJ", "amod", 8),
            ("pruning", "NOUN", "NN", "dobj", 6),
            (".", "PUNCT", ".", "punct", 6),
        ],
    )
    assert labels(doc, roles=None)[-1] == ("local pruning", "Task")  # "pruning" is a task noun
    found = labels(doc)
    assert ("local pruning", "Method") in found and ("Local pruning", "Method") in found


def test_a_problem_noun_types_its_phrase_over_the_gazetteer(nlp) -> None:
    # "the sparse linear regression problem": "linear regression" is a listed method
    gazetteer = build_gazetteer(nlp.vocab, gazetteers_v1(), nlp.make_doc)
    doc = parsed(
        nlp,
        [
            ("the", "DET", "DT", "det", 4),
            ("sparse", "ADJ", "JJ", "amod", 4),
            ("linear", "ADJ", "JJ", "amod", 3),
            ("regression", "NOUN", "NN", "compound", 4),
            ("problem", "NOUN", "NN", "ROOT", 4),
        ],
    )
    assert ("sparse linear regression", "Task") in labels(doc, roles=None, gazetteer=gazetteer)
