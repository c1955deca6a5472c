"""The hub rules, the confidence table and the cue files (invented sentences, none from a gold set)."""

from __future__ import annotations

import json

import pytest

from kg.extract.confidences import DATA_DIR, fact_confidences_v1, read_confidences
from kg.extract.cues import hub_cues_v1
from kg.model import Fact, Rule

from .conftest import shared_pipeline


def triples(facts: tuple[Fact, ...]) -> set[tuple[str, str | None, str]]:
    return {(f.relation, f.subject.text if f.subject else None, f.object.text) for f in facts}


def rules(facts: tuple[Fact, ...]) -> dict[tuple[str, str | None, str], str]:
    return {(f.relation, f.subject.text if f.subject else None, f.object.text): f.extractor.partition("#")[2] for f in facts}


def test_every_rule_has_a_confidence_in_the_table() -> None:
    table = fact_confidences_v1()
    assert {r for r in Rule} == set(table.table) and all(0 <= v <= 1 for v in table.table.values())
    assert table[Rule.PROPOSAL_NAMED] > table[Rule.PROPOSAL_DESCRIBED]


def test_a_table_missing_a_rule_is_refused(tmp_path) -> None:
    raw = json.loads((DATA_DIR / "confidences.v1.json").read_text(encoding="utf-8"))
    del raw["rules"][Rule.HUB_DATASET.value]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(ValueError, match="hub.dataset"):
        read_confidences(path, "test")


def test_hub_cues_are_lower_case_words() -> None:
    cues = hub_cues_v1()
    words = [w for name in cues.__dataclass_fields__ for w in getattr(cues, name) if isinstance(w, str)]
    assert words and all(w == w.lower() for w in words)
    assert "leverage" in cues.uses and ("in", "terms", "of") in cues.metric_phrases


@pytest.fixture(scope="module")
def pipeline():
    return shared_pipeline(trained=False)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "fact", "rule"),
    [
        # the main method's components, also named in another sentence ("it", "this framework")
        (
            "We propose QuillNet, a framework for handwriting recognition. QuillNet leverages ResNet-50 and BERT.",
            ("uses", "QuillNet", "BERT"),
            "hub.uses-cue",
        ),
        (
            "We propose QuillNet for handwriting recognition. This framework is built on ResNet-50.",
            ("uses", "QuillNet", "ResNet-50"),
            None,
        ),
        # the paper's other proposals are components of the main one
        (
            "We propose QuillNet for handwriting recognition. QuillNet aligns strokes and glyphs. "
            "We further introduce StrokeLoss, a loss for stroke order. QuillNet runs on phones.",
            ("uses", "QuillNet", "StrokeLoss"),
            "hub.component",
        ),
        # a name made from another method's name extends it
        ("We present MV-TideNet, which extends TideNet to many stations.", ("uses", "MV-TideNet", "TideNet"), None),
        (
            "We present MV-TideNet for flood forecasting. MV-TideNet needs one hour, while TideNet needs three.",
            ("uses", "MV-TideNet", "TideNet"),
            "hub.name-extends",
        ),
        # comparatives and "worse than"
        ("We propose QuillNet. QuillNet is more accurate than GlyphCNN on CROHME.", ("outperforms", "QuillNet", "GlyphCNN"), "hub.comparative"),
        ("In our study, GlyphCNN performs worse than InkRNN on long lines.", ("outperforms", "InkRNN", "GlyphCNN"), "hub.worse-than"),
        # a metric with a value, a name results are reported on is a dataset
        ("We propose QuillNet. QuillNet improves over InkRNN by +3.2 CER on IAM-Lines.", ("evaluatedOn", "QuillNet", "IAM-Lines"), None),
        # "we formulate X as Y and propose Z": the authors speak before the component's name
        (
            "We propose QuillNet for handwriting recognition. QuillNet is fast. "
            "We formulate stroke ordering as a GlyphFlow process and propose a novel StrokeLoss.",
            ("uses", "QuillNet", "GlyphFlow"),
            "hub.uses-cue",
        ),
        # a relative clause after the name is no apposition: what it employs is a part
        (
            "We propose QuillNet, which employs BERT to encode strokes.",
            ("uses", "QuillNet", "BERT"),
            "hub.uses-cue",
        ),
        # an analysis paper: the method "we benchmark" takes the main method's place
        (
            "Handwriting recognition is hard. We benchmark GlyphCNN on handwriting. "
            "Our findings on the IAM-Lines dataset reveal that most errors come from ligatures.",
            ("evaluatedOn", "GlyphCNN", "IAM-Lines"),
            "hub.dataset",
        ),
    ],
)
def test_hub_facts(pipeline, text: str, fact: tuple[str, str, str], rule: str | None) -> None:
    found = rules(pipeline(text)._.kg_facts)
    assert fact in found
    if rule is not None:
        assert found[fact] == rule


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "absent"),
    [
        # hedged comparisons and classes of methods give no outperforms
        ("We propose QuillNet. QuillNet is competitive with and better than GlyphCNN.", ("outperforms", "QuillNet", "GlyphCNN")),
        ("We propose QuillNet. QuillNet outperforms BERT baselines on IAM.", ("outperforms", "QuillNet", "BERT")),
        # negation stops a uses cue
        ("We propose QuillNet. QuillNet does not require ResNet-50 features.", ("uses", "QuillNet", "ResNet-50")),
        # what the method is, said in apposition, is not a part of it; a negated comparison is no win
        ("We introduce QuillNet, a masked autoencoding approach for handwriting.", ("uses", "QuillNet", "masked autoencoding approach")),
        ("However, GlyphCNN may not outperform simple InkRNN models.", ("outperforms", "GlyphCNN", "InkRNN")),
        # "extend X to Y": Y is where the method goes, not a part of it
        ("We propose QuillNet for handwriting recognition. Finally, we extend the ideas of QuillNet to GlyphCNN.", ("uses", "QuillNet", "GlyphCNN")),
        # background sentences about other work do not attach to the main method
        ("Existing methods such as GlyphCNN rely on BERT. We propose QuillNet for handwriting recognition.", ("uses", "QuillNet", "BERT")),
    ],
)
def test_no_hub_fact(pipeline, text: str, absent: tuple[str, str, str]) -> None:
    assert absent not in triples(pipeline(text)._.kg_facts)


@pytest.mark.slow
def test_a_name_after_a_signed_score_is_a_metric_everywhere(pipeline) -> None:
    doc = pipeline("We propose QuillNet. QuillNet gains +3.2 QRS on IAM-Lines. A higher QRS rewards stroke order.")
    assert [m.label for m in doc._.kg_mentions if m.text == "QRS"] == ["Metric", "Metric"]
    assert ("measuredBy", "QuillNet", "QRS") in triples(doc._.kg_facts)


@pytest.mark.slow
def test_no_studied_method_in_a_paper_that_proposes_one(pipeline) -> None:
    facts = triples(pipeline("We benchmark GlyphCNN. We propose QuillNet. Our findings on the IAM-Lines dataset favour QuillNet.")._.kg_facts)
    assert ("evaluatedOn", "QuillNet", "IAM-Lines") in facts
    assert not any(f[1] == "GlyphCNN" for f in facts)


@pytest.mark.slow
def test_a_family_of_models_is_no_studied_method(pipeline) -> None:
    text = (
        "LLMs often fail at arithmetic. We probe LLMs with counting puzzles. "
        "Results on the CountBench dataset show a large accuracy gap for LLMs. Larger LLMs do not help."
    )
    assert not any(f[1] == "LLMs" for f in triples(pipeline(text)._.kg_facts))


@pytest.mark.slow
def test_no_studied_method_in_a_paper_that_releases_a_dataset(pipeline) -> None:
    text = (
        "We release GlyphBench, a dataset of 9,000 handwritten forms. GlyphCNN reads printed forms well. "
        "Results on the IAM-Lines dataset show a large accuracy gap for GlyphCNN. GlyphCNN improves with more data."
    )
    assert not any(f[1] == "GlyphCNN" for f in triples(pipeline(text)._.kg_facts))


@pytest.mark.slow
def test_an_unnamed_method_only_referred_to_is_the_main_method(pipeline) -> None:
    doc = pipeline(
        "Handwriting recognition is hard for rare scripts. In this work, we build on QuillNet to read strokes. "
        "We show that our proposed method reads faster than GlyphCNN on the IAM-Lines dataset."
    )
    facts = triples(doc._.kg_facts)
    assert ("proposes", None, "our proposed method") in facts
    assert ("uses", "our proposed method", "QuillNet") in facts
    assert rules(doc._.kg_facts)[("proposes", None, "our proposed method")] == Rule.PROPOSAL_DESCRIBED.value


@pytest.mark.slow
def test_a_studied_method_beats_a_bare_our_approach(pipeline) -> None:
    text = (
        "Reading rare scripts is costly. We study the application of GlyphCNN to stroke recognition. "
        "We evaluate our approach on the IAM-Lines dataset and show that it is more accurate than QuillNet."
    )
    facts = triples(pipeline(text)._.kg_facts)
    assert ("outperforms", "GlyphCNN", "QuillNet") in facts
    assert not any(f[1] == "our approach" for f in facts)


@pytest.mark.slow
def test_a_trained_task_span_right_after_for_is_a_gated_candidate() -> None:
    doc = shared_pipeline(scores=False)("We propose QuillNet. In this paper, we use QuillNet for covariate balancing of archives.")
    found = {(f.relation, f.object.text): f for f in doc._.kg_facts if f.subject is not None}
    fact = found[("addresses", "covariate balancing of archives")]
    assert fact.extractor.endswith("#" + Rule.HUB_TASK_TRAINED.value) and fact.confidence == fact_confidences_v1()[Rule.HUB_TASK_TRAINED]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "parts", "proposed"),
    [
        (
            "We propose QuillNet for handwriting recognition. QuillNet is mainly composed of two crucial components: "
            "Stroke Condensing and Glyph-Specific Prompt.",
            {"Stroke Condensing", "Glyph-Specific Prompt"},
            False,
        ),
        (
            "We propose QuillNet for handwriting recognition. Specifically, we design two types of techniques termed as "
            "Local Stroke Regularization (LSR) and Dual-view Glyph Alignment (DGA).",
            {"Local Stroke Regularization", "Dual-view Glyph Alignment"},
            True,
        ),
    ],
)
def test_each_member_of_a_counted_list_of_parts_is_a_part(pipeline, text: str, parts: set[str], proposed: bool) -> None:
    facts = triples(pipeline(text)._.kg_facts)
    assert {o for r, s, o in facts if r == "uses" and s == "QuillNet"} >= parts
    assert not any(o.endswith(("components", "techniques")) for _, _, o in facts)  # the parts, not "two components"
    assert ({("proposes", None, p) for p in parts} <= facts) is proposed


@pytest.mark.slow
def test_rivals_counted_after_a_comparison_are_no_parts(pipeline) -> None:
    facts = triples(pipeline("We propose QuillNet. QuillNet outperforms two stroke models, a GlyphCNN based and an InkRNN based model.")._.kg_facts)
    assert not any(r == "uses" for r, _, _ in facts)


@pytest.mark.slow
def test_a_listed_dataset_before_a_method_noun_stays_a_dataset(pipeline) -> None:
    doc = pipeline("We evaluate QuillNet on CIFAR-10 models and compare it with BERT models.")
    labels = {m.text: m.label for m in doc._.kg_mentions}
    assert labels["CIFAR-10"] == "Dataset" and labels["BERT"] == "Method"
