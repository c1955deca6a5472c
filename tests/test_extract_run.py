"""extract(): streaming, order, long texts, failing components, serialisation; no model unless slow."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest
import spacy
from spacy.tokens import Doc

from kg.extract import EXTRACTOR_VERSION, extract, split_text
from kg.extract.components import AcronymFinder
from kg.extract.loader import COMPONENTS, install_error_handler
from kg.model import Extraction, Mention, Paper, Rule

from .conftest import shared_pipeline

TEXT = "We build Local Support Learning (LSL) on ImageNet. Code: https://github.com/a/lsl."


def blank_pipeline() -> spacy.language.Language:
    """The kg components on a tokenizer and sentencizer: fast, and enough for text-level finds."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    for name in COMPONENTS:
        nlp.add_pipe(name, config={"trained": False} if name in ("kg_mentions", "kg_relations") else {})
    install_error_handler(nlp)
    return nlp


def assert_offsets(paper: Paper, extraction: Extraction) -> None:
    text = paper.abstract
    for mention in extraction.mentions:
        assert text[mention.start : mention.end] == mention.text
    for fact in extraction.facts:
        assert text[fact.object.start : fact.object.end] == fact.object.text
        start, end = fact.sentence
        assert 0 <= start < end <= len(text)
    for acronym in extraction.acronyms:
        assert text[acronym.start : acronym.end] == acronym.long
    for start, end in extraction.sentences:
        assert 0 <= start < end <= len(text)


def test_one_extraction_per_paper_in_order() -> None:
    papers = [Paper(id=f"p{i}", abstract=f"Paper {i} evaluates on CIFAR-10. {TEXT}") for i in range(7)]
    out = list(extract(papers, blank_pipeline(), batch_size=3))
    assert [e.paper_id for e in out] == [p.id for p in papers]
    for paper, extraction in zip(papers, out):
        assert_offsets(paper, extraction)
        assert {m.text for m in extraction.mentions} >= {"CIFAR-10", "ImageNet", "https://github.com/a/lsl"}
        assert ("hasCode", "https://github.com/a/lsl") in {(f.relation, f.object.text) for f in extraction.facts}
        assert [a.short for a in extraction.acronyms] == ["LSL"]


def test_extract_is_lazy() -> None:
    def endless():
        n = 0
        while True:
            n += 1
            yield Paper(id=str(n), abstract=TEXT)

    stream = extract(endless(), blank_pipeline(), batch_size=2)
    assert [next(stream).paper_id for _ in range(3)] == ["1", "2", "3"]


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("para one.\n\npara two is longer.\n\nthree", 20),
        ("One sentence. Another sentence here. And a third one.", 25),
        ("wordwithoutanyspaceatallthatgoesonandon", 10),
        ("short", 100),
        ("", 10),
    ],
)
def test_split_text_covers_the_text_in_short_pieces(text: str, limit: int) -> None:
    pieces = split_text(text, limit)
    assert all(len(piece) <= limit for _, piece in pieces)
    assert all(text[offset : offset + len(piece)] == piece for offset, piece in pieces)
    # Only the whitespace at the cuts is left out.
    assert "".join(piece for _, piece in pieces).replace(" ", "").replace("\n", "") == text.replace(" ", "").replace("\n", "")


def test_split_prefers_paragraphs_then_sentences() -> None:
    assert [p for _, p in split_text("aaa bbb.\n\nccc ddd. eee", 11)] == ["aaa bbb.", "ccc ddd.", "eee"]


def test_texts_longer_than_max_length_are_split_and_shifted_back() -> None:
    nlp = blank_pipeline()
    nlp.max_length = 150
    abstract = "\n\n".join(f"Part {i} reports BLEU on SQuAD. {TEXT}" for i in range(6))
    paper = Paper(id="long", abstract=abstract)
    (extraction,) = extract([paper], nlp)
    assert len(abstract) > 150 * 3
    assert_offsets(paper, extraction)
    assert sum(m.text == "SQuAD" for m in extraction.mentions) == 6
    assert len(extraction.acronyms) == 6
    assert max(end for _, end in extraction.sentences) > 150 * 3


def test_a_failing_component_does_not_stop_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    original = AcronymFinder.find

    def find(self, doc: Doc) -> None:
        if "boom" in doc.text:
            raise ValueError("boom")
        original(self, doc)

    monkeypatch.setattr(AcronymFinder, "find", find)
    papers = [Paper(id="a", abstract=TEXT), Paper(id="b", abstract="boom " + TEXT), Paper(id="c", abstract=TEXT)]
    out = list(extract(papers, blank_pipeline()))
    assert [e.paper_id for e in out] == ["a", "b", "c"]
    assert [len(e.acronyms) for e in out] == [1, 0, 1]
    assert out[1].mentions  # the later components still ran on the failed Doc


def test_without_the_handler_the_error_surfaces(monkeypatch: pytest.MonkeyPatch) -> None:
    def find(self, doc: Doc) -> None:
        raise ValueError("boom")

    monkeypatch.setattr(AcronymFinder, "find", find)
    nlp = blank_pipeline()
    nlp.get_pipe("kg_acronyms").set_error_handler(spacy.util.raise_error)
    with pytest.raises(ValueError, match="boom"):
        list(extract([Paper(id="a", abstract=TEXT)], nlp))


def test_doc_annotations_survive_serialisation() -> None:
    nlp = blank_pipeline()
    doc = nlp(TEXT)
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert tuple(again._.kg_mentions) == doc._.kg_mentions
    assert tuple(again._.kg_facts) == doc._.kg_facts
    assert all(isinstance(m, Mention) for m in again._.kg_mentions)


def test_factories_are_published_as_entry_points() -> None:
    published = {e.name: e.value for e in entry_points(group="spacy_factories")}
    for name in COMPONENTS:
        assert published[name].startswith("kg.extract.components:make_")


def test_extractor_names_carry_the_version_and_the_rule() -> None:
    facts = next(extract([Paper(id="a", abstract=TEXT)], blank_pipeline())).facts
    names = [f.extractor.partition("#") for f in facts]
    assert facts and all(stage.endswith("/" + EXTRACTOR_VERSION) for stage, _, _ in names)
    assert {Rule(rule) for _, _, rule in names}  # every fact says which rule made it


@pytest.mark.slow
def test_two_workers_give_the_same_extractions() -> None:
    nlp = shared_pipeline(trained=False)
    papers = [Paper(id=str(i), abstract=f"We propose FooNet{i}. It beats BERT on GLUE. {TEXT}") for i in range(6)]
    assert list(extract(papers, nlp, workers=2, batch_size=2)) == list(extract(papers, nlp))
