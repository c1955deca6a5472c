"""The resolver: acronyms, generic phrases, type votes, facts, identity and order."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.model import ROLE_TYPED, SIGNATURES, Acronym, Extraction, Fact, Mention, Paper, Relation, Resolution
from kg.resolve import is_generic, refers_to_own_method, resolve
from kg.resolve.resolver import ROLE_VOTES


def mention(text: str, phrase: str, label: str, nth: int = 0) -> Mention:
    """The ``nth`` occurrence of ``phrase`` in ``text`` as a mention."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(phrase, start + 1)
    return Mention(start, start + len(phrase), label, phrase)


def sentence_of(text: str, m: Mention) -> tuple[int, int]:
    start = text.rfind(". ", 0, m.start)
    start = 0 if start < 0 else start + 2
    end = text.find(".", m.end)
    return start, len(text) if end < 0 else end + 1


def fact(text: str, relation: Relation, subject: Mention | None, obj: Mention, confidence: float = 0.9,
         extractor: str = "test") -> Fact:
    return Fact(relation.value, subject, obj, sentence_of(text, obj), extractor, confidence)


def paper(pid: str, text: str, names: list[tuple[str, str]], facts: tuple[Fact, ...] = (),
          acronyms: tuple[Acronym, ...] = ()) -> tuple[Paper, Extraction]:
    """A paper whose mentions are the first occurrence of each (phrase, label)."""
    mentions = tuple(mention(text, phrase, label) for phrase, label in names)
    return Paper(pid, text), Extraction(pid, mentions, facts, acronyms)


def run(*docs: tuple[Paper, Extraction], **options: float) -> Resolution:
    return resolve([d[0] for d in docs], [d[1] for d in docs], **options)


def entity_of(resolution: Resolution, label: str):
    """The entity with this label or alt label (case-insensitive); exactly one must exist."""
    found = [e for e in resolution.entities
             if label.casefold() in {x.casefold() for x in (e.label, *e.alt_labels)}]
    assert len(found) == 1, (label, found)
    return found[0]


# --- acronyms ----------------------------------------------------------------------------------

def defining(pid: str, long: str, short: str, label: str = "Method") -> tuple[Paper, Extraction]:
    text = f"We apply {long} ({short}) to robots. {short} helps."
    return paper(pid, text, [(long, label), (short, label)],
                 acronyms=(Acronym(short, long, text.index(long), text.index(long) + len(long)),))


def bare(pid: str, short: str, label: str = "Method") -> tuple[Paper, Extraction]:
    return paper(pid, f"We rely on {short} throughout.", [(short, label)])


def test_acronym_joins_its_long_form_within_the_paper() -> None:
    res = run(defining("p1", "proximal policy optimization", "PPO"))
    assert len(res.entities) == 1
    entity = res.entities[0]
    assert entity.label == "proximal policy optimization"
    assert entity.alt_labels == ("PPO",)
    assert entity.mentions == 2


def test_unambiguous_acronym_joins_across_papers() -> None:
    res = run(defining("p1", "proximal policy optimization", "PPO"), bare("p2", "PPO"))
    entity = entity_of(res, "PPO")
    assert entity.papers == ("p1", "p2")
    assert res.report["ambiguous_acronyms"] == []


def test_acronym_defined_differently_is_ambiguous() -> None:
    res = run(
        defining("p1", "deep equilibrium model", "DEQ"),
        defining("p2", "distributional error quantile", "DEQ"),
        bare("p3", "DEQ"),
    )
    first = entity_of(res, "deep equilibrium model")
    second = entity_of(res, "distributional error quantile")
    assert first.papers == ("p1",) and first.mentions == 2  # p1's own DEQ resolved within p1
    assert second.papers == ("p2",) and second.mentions == 2
    loose = [e for e in res.entities if e.label == "DEQ"]
    assert len(loose) == 1 and loose[0].papers == ("p3",)
    assert loose[0].key not in (first.key, second.key)
    [report] = res.report["ambiguous_acronyms"]
    assert report["acronym"] == "DEQ"
    assert report["long_forms"] == ["deep equilibrium model", "distributional error quantile"]
    assert report["papers"] == ["p1", "p2"]


def test_acronym_against_the_alias_table_is_ambiguous() -> None:
    res = run(defining("p1", "representation learning", "RL"), bare("p2", "RL"), bare("p3", "reinforcement learning"))
    assert entity_of(res, "representation learning").papers == ("p1",)
    assert entity_of(res, "reinforcement learning").papers == ("p3",)
    assert [e.papers for e in res.entities if e.label == "RL"] == [("p2",)]


def test_acronym_only_cluster_is_labelled_by_its_definition_or_the_alias_table() -> None:
    text = "We apply proximal policy optimization (PPO) to robots. PPO helps."
    only_short = paper("p1", text, [("PPO", "Method")], acronyms=(Acronym("PPO", "proximal policy optimization", 9, 37),))
    [entity] = run(only_short).entities
    assert (entity.label, entity.alt_labels) == ("proximal policy optimization", ("PPO",))
    [entity] = run(bare("p2", "GANs")).entities
    assert (entity.label, entity.alt_labels) == ("generative adversarial network", ("GANs",))


def test_generic_long_form_defines_nothing() -> None:
    text = "We present our method (OM). OM is fast."
    res = run(paper("p1", text, [("OM", "Method")], acronyms=(Acronym("OM", "our method", 11, 21),)))
    assert [e.label for e in res.entities] == ["OM"]


# --- generic phrases ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text",
    ["our method", "the proposed framework", "this paper", "existing approaches", "state-of-the-art methods",
     "experiments", "our model", "the approach", "baselines", "prior work", "previous methods", "this work",
     "it", "them", "our novel framework", "the proposed approach", "these methods", "several strong baselines",
     "two benchmark datasets", "the performance of our model", "Our Proposed Models"],
)
def test_generic(text: str) -> None:
    assert is_generic(text)


@pytest.mark.parametrize(
    "text",
    ["BERT", "neural machine translation", "graph neural network", "our BERT-based tagger", "accuracy",
     "language model", "ImageNet", "the Transformer", "A* search", "proposal network"],
)
def test_not_generic(text: str) -> None:
    assert not is_generic(text)


def test_generic_mentions_never_become_entities() -> None:
    text = "Our method beats existing approaches on ImageNet in experiments."
    res = run(paper("p1", text, [("Our method", "Method"), ("existing approaches", "Method"),
                                 ("ImageNet", "Dataset"), ("experiments", "Task")]))
    assert [e.label for e in res.entities] == ["ImageNet"]
    assert res.report["dropped_generic"] == 3


def own_method_paper(subject: str, with_proposes: bool = True) -> tuple[Paper, Extraction]:
    text = f"We propose FlashNet for parsing. {subject} is evaluated on WikiText. {subject} outperforms LSTM."
    flash = mention(text, "FlashNet", "Method")
    subj = mention(text, subject, "Method")
    subj2 = mention(text, subject, "Method", nth=1)
    facts = [
        fact(text, Relation.EVALUATED_ON, subj, mention(text, "WikiText", "Dataset")),
        fact(text, Relation.OUTPERFORMS, subj2, mention(text, "LSTM", "Method")),
    ]
    if with_proposes:
        facts.append(fact(text, Relation.PROPOSES, None, flash, confidence=0.8))
    return Paper("p1", text), Extraction("p1", (flash,), tuple(facts))


def test_generic_subject_rebinds_to_the_papers_own_method() -> None:
    res = run(own_method_paper("Our approach"))
    flash = entity_of(res, "FlashNet").key
    relations = {(f.relation, f.subject) for f in res.facts}
    assert ("evaluatedOn", flash) in relations and ("outperforms", flash) in relations
    assert res.report["generic_subjects_rebound"] == 2
    assert all(not is_generic(e.label) for e in res.entities)


def _sentences(text: str) -> tuple[tuple[int, int], ...]:
    spans, start = [], 0
    for end in [i + 1 for i, ch in enumerate(text) if ch == "."]:
        spans.append((start, end))
        start = end + 1
    return tuple(spans)


def test_a_subject_named_in_another_sentence_brings_that_sentence() -> None:
    """A fact stated in a sentence about the task carries the sentence that names its method too."""
    text = "Parsing is hard for long inputs. We propose FlashNet. FlashNet is evaluated on WikiText."
    flash, task = mention(text, "FlashNet", "Method"), mention(text, "Parsing", "Task")
    later = mention(text, "FlashNet", "Method", nth=1)
    facts = (fact(text, Relation.ADDRESSES, flash, task), fact(text, Relation.EVALUATED_ON, later, mention(text, "WikiText", "Dataset")))
    res = resolve([Paper("p1", text)], [Extraction("p1", (flash, task), facts, sentences=_sentences(text))])
    by_relation = {f.relation: f for f in res.facts}
    addresses, evaluated = by_relation["addresses"], by_relation["evaluatedOn"]
    assert addresses.evidence == "Parsing is hard for long inputs."
    assert addresses.subject_evidence == "We propose FlashNet." == text[addresses.subject_start : addresses.subject_end]
    # Named in its own sentence: nothing more to carry.
    assert evaluated.subject_evidence == "" and evaluated.subject_start == evaluated.subject_end == -1


def test_a_rebound_generic_subject_brings_the_sentence_proposing_the_method() -> None:
    text = "Parsing is hard. We propose FlashNet. Our approach is evaluated on WikiText."
    flash, ours = mention(text, "FlashNet", "Method"), mention(text, "Our approach", "Method")
    facts = (fact(text, Relation.PROPOSES, None, flash, confidence=0.8), fact(text, Relation.EVALUATED_ON, ours, mention(text, "WikiText", "Dataset")))
    res = resolve([Paper("p1", text)], [Extraction("p1", (flash,), facts, sentences=_sentences(text))])
    evaluated = next(f for f in res.facts if f.relation == "evaluatedOn")
    assert evaluated.subject_evidence == "We propose FlashNet."


def test_generic_subject_without_a_proposed_method_drops_the_fact() -> None:
    res = run(own_method_paper("Our approach", with_proposes=False))
    assert res.facts == ()
    assert res.report["dropped_facts"]["generic_subject"] == 2


def test_generic_subject_not_about_the_paper_drops_the_fact() -> None:
    assert not refers_to_own_method("Existing methods")
    res = run(own_method_paper("Existing methods"))
    assert [f.relation for f in res.facts] == ["proposes"]


def test_own_method_is_the_most_confident_proposed_method() -> None:
    text = "We propose AlphaNet and BetaNet. Our model uses LSTM."
    alpha, beta = mention(text, "AlphaNet", "Method"), mention(text, "BetaNet", "Method")
    facts = (
        fact(text, Relation.PROPOSES, None, alpha, 0.6),
        fact(text, Relation.PROPOSES, None, beta, 0.7),
        fact(text, Relation.USES, mention(text, "Our model", "Method"), mention(text, "LSTM", "Method")),
    )
    res = run((Paper("p1", text), Extraction("p1", (alpha, beta), facts)))
    [uses] = [f for f in res.facts if f.relation == "uses"]
    assert uses.subject == entity_of(res, "BetaNet").key


# --- type votes --------------------------------------------------------------------------------

def test_type_conflict_is_settled_by_vote_and_reported() -> None:
    res = run(
        paper("p1", "We study machine translation.", [("machine translation", "Task")]),
        paper("p2", "Machine translation is hard.", [("Machine translation", "Task")]),
        paper("p3", "We improve machine translation.", [("machine translation", "Method")]),
    )
    [entity] = res.entities
    assert entity.type == "Task" and entity.key.startswith("task/")
    [conflict] = res.report["type_conflicts"]
    assert conflict["votes"] == {"Method": 1, "Task": 2} and conflict["chosen"] == "Task"


def test_a_mention_typed_by_its_role_outvotes_mentions_typed_by_their_words() -> None:
    text = "We propose a paradigm for fine-tuning."
    role_typed = Mention(26, 37, "Task", "fine-tuning", 0.55, "kg.mentions/5" + ROLE_TYPED)
    res = run(
        (Paper("p1", text), Extraction("p1", (role_typed,), (), ())),
        paper("p2", "We apply fine-tuning.", [("fine-tuning", "Method")]),
        paper("p3", "Fine-tuning helps.", [("Fine-tuning", "Method")]),
    )
    [entity] = res.entities
    assert entity.type == "Task"
    [conflict] = res.report["type_conflicts"]
    assert conflict["votes"] == {"Method": 2, "Task": ROLE_VOTES}


def test_type_vote_tie_is_deterministic() -> None:
    docs = [
        paper("p1", "We study image captioning.", [("image captioning", "Task")]),
        paper("p2", "We study image captioning.", [("image captioning", "Method")]),
    ]
    assert run(*docs).entities[0].type == "Method"
    assert run(*reversed(docs)).entities[0].type == "Method"


def test_a_dataset_and_a_method_with_one_name_stay_apart() -> None:
    res = run(
        paper("p1", "We train on ImageNet.", [("ImageNet", "Dataset")]),
        paper("p2", "We use ImageNet.", [("ImageNet", "Method")]),
    )
    assert sorted(e.key for e in res.entities) == ["dataset/imagenet", "method/imagenet"]
    assert res.report["type_conflicts"] == []


def test_retyped_entity_drops_facts_that_break_the_signature() -> None:
    text = "LSTM addresses parsing. Parsing is old. Parsing is also Method-typed here."
    lstm, parsing = mention(text, "LSTM", "Method"), mention(text, "parsing", "Task")
    methods = (mention(text, "Parsing", "Method"), mention(text, "Parsing", "Method", 1))
    res = run((Paper("p1", text), Extraction("p1", methods, (fact(text, Relation.ADDRESSES, lstm, parsing),))))
    assert entity_of(res, "parsing").type == "Method"
    assert res.facts == () and res.report["dropped_facts"]["signature"] == 1


# --- facts -------------------------------------------------------------------------------------

def facts_paper(confidences: tuple[float, ...], extractors: tuple[str, ...] | None = None):
    text = "SparseGPT uses LoRA. We also find SparseGPT uses LoRA again."
    subject, obj = mention(text, "SparseGPT", "Method"), mention(text, "LoRA", "Method")
    subject2, obj2 = mention(text, "SparseGPT", "Method", 1), mention(text, "LoRA", "Method", 1)
    extractors = extractors or ("a",) * len(confidences)
    facts = tuple(
        fact(text, Relation.USES, *(subject, obj) if i % 2 == 0 else (subject2, obj2), confidence=c, extractor=x)
        for i, (c, x) in enumerate(zip(confidences, extractors))
    )
    return Paper("p1", text), Extraction("p1", (), facts)


def test_duplicate_facts_keep_the_most_confident() -> None:
    res = run(facts_paper((0.4, 0.9)))
    [kept] = res.facts
    assert kept.confidence == 0.9
    assert kept.evidence == "We also find SparseGPT uses LoRA again."
    assert res.report["dropped_facts"]["duplicate"] == 1


def test_duplicate_tie_is_broken_deterministically() -> None:
    first = run(facts_paper((0.5, 0.5), ("b", "a"))).facts
    second = run(facts_paper((0.5, 0.5), ("a", "b"))).facts
    assert len(first) == 1 and len(second) == 1
    assert first[0].start == 0 and second[0].start == 0  # the earlier sentence wins a tie


def test_min_confidence_drops_weak_facts() -> None:
    res = run(facts_paper((0.4, 0.6)), min_confidence=0.5)
    assert [f.confidence for f in res.facts] == [0.6]
    res = run(facts_paper((0.4, 0.45)), min_confidence=0.5)
    assert res.facts == () and res.report["dropped_facts"]["below_min_confidence"] == 2
    assert {e.key for e in res.entities} == {"method/sparsegpt", "method/low-rank-adaptation"}  # mentions stay


def test_evidence_is_verbatim_and_subjects_are_keys() -> None:
    text = "We propose TinyNet. Code is at https://github.com/x/tinynet. TinyNet is evaluated on SQuAD."
    tiny, squad = mention(text, "TinyNet", "Method"), mention(text, "SQuAD", "Dataset")
    url = mention(text, "https://github.com/x/tinynet", "URL")
    facts = (
        fact(text, Relation.PROPOSES, None, tiny),
        fact(text, Relation.HAS_CODE, None, url),
        fact(text, Relation.EVALUATED_ON, mention(text, "TinyNet", "Method", 1), squad),
    )
    res = run((Paper("p1", text), Extraction("p1", (), facts)))
    keys = {e.key for e in res.entities}
    assert keys == {"method/tinynet", "dataset/squad"}
    for f in res.facts:
        assert f.evidence == text[f.start:f.end]
        assert f.subject is None or f.subject in keys
        subject_type = "Paper" if f.subject is None else f.subject.split("/")[0].capitalize()
        assert subject_type in SIGNATURES[Relation(f.relation)][0]
    [code] = [f for f in res.facts if f.relation == "hasCode"]
    assert code.object == "https://github.com/x/tinynet"


def test_signature_violations_are_dropped() -> None:
    text = "SQuAD uses BERT."
    bad = fact(text, Relation.USES, mention(text, "SQuAD", "Dataset"), mention(text, "BERT", "Method"))
    res = run((Paper("p1", text), Extraction("p1", (), (bad,))))
    assert res.facts == () and res.report["dropped_facts"] == {"signature": 1}


def test_self_loops_after_resolution_are_dropped() -> None:
    text = "GANs outperform generative adversarial networks."
    loop = fact(text, Relation.OUTPERFORMS, mention(text, "GANs", "Method"),
                mention(text, "generative adversarial networks", "Method"))
    res = run((Paper("p1", text), Extraction("p1", (), (loop,))))
    assert res.facts == () and len(res.entities) == 1


# --- identity, labels, order -------------------------------------------------------------------

def test_canonical_label_is_the_most_frequent_full_form() -> None:
    res = run(
        paper("p1", "CNN and CNN.", [("CNN", "Method")]),
        paper("p2", "CNNs work.", [("CNNs", "Method")]),
        paper("p3", "A ConvNet works.", [("ConvNet", "Method")]),
        paper("p4", "Convolutional neural networks work.", [("Convolutional neural networks", "Method")]),
        paper("p5", "We use convolutional neural networks.", [("convolutional neural networks", "Method")]),
    )
    [entity] = res.entities
    assert entity.label == "Convolutional neural networks" or entity.label == "convolutional neural networks"
    assert entity.key == "method/convolutional-neural-network"
    assert {"CNN", "CNNs", "ConvNet"} <= set(entity.alt_labels)
    assert entity.papers == ("p1", "p2", "p3", "p4", "p5")


def test_key_depends_on_the_cluster_not_on_which_spelling_comes_first() -> None:
    a = run(paper("p1", "We use Flash-Attention.", [("Flash-Attention", "Method")]),
            paper("p2", "We use flash attention.", [("flash attention", "Method")]))
    b = run(paper("p1", "We use flash attention.", [("flash attention", "Method")]),
            paper("p2", "We use Flash-Attention.", [("Flash-Attention", "Method")]))
    assert [e.key for e in a.entities] == [e.key for e in b.entities] == ["method/flash-attention"]


def test_keys_are_unique_and_url_safe() -> None:
    docs = [paper(f"p{i}", f"We use {n} now.", [(n, t)]) for i, (n, t) in enumerate(
        [("RL", "Method"), ("reinforcement learning", "Method"), ("β-VAE", "Method"), ("C++ parser", "Method"),
         ("RL", "Task"), ("ImageNet", "Dataset"), ("ImageNet", "Method")])]
    res = run(*docs)
    keys = [e.key for e in res.entities]
    assert len(keys) == len(set(keys))
    for key in keys:
        kind, slug = key.split("/")
        assert kind in {"method", "task", "dataset", "metric"}
        assert set(slug) <= set("abcdefghijklmnopqrstuvwxyz0123456789-._~%ABCDEF")


def test_ambiguous_acronym_named_like_an_alias_keeps_keys_unique() -> None:
    res = run(defining("p1", "bidirectional lexical evaluation", "BLEU", "Metric"), bare("p2", "BLEU", "Metric"),
              paper("p3", "We use bilingual evaluation understudy.", [("bilingual evaluation understudy", "Metric")]))
    keys = [e.key for e in res.entities]
    assert len(keys) == len(set(keys)) == 3
    assert entity_of(res, "bilingual evaluation understudy").papers == ("p3",)


def corpus() -> list[tuple[Paper, Extraction]]:
    docs = [
        defining("p1", "reinforcement learning", "RL"),
        defining("p2", "representation learning", "RL"),
        bare("p3", "RL"),
        bare("p4", "LLMs"),
        paper("p5", "Large language models beat GPT-3 and GPT-4.", [("Large language models", "Method"),
                                                                    ("GPT-3", "Method"), ("GPT-4", "Method")]),
        paper("p6", "We study machine translation.", [("machine translation", "Task")]),
        paper("p7", "Our MT system.", [("MT", "Method")]),
        own_method_paper("Our approach"),
        facts_paper((0.3, 0.8, 0.8)),
    ]
    return [(Paper(f"{p.id}-{i}", p.abstract), Extraction(f"{p.id}-{i}", e.mentions, e.facts, e.acronyms))
            for i, (p, e) in enumerate(docs)]


def test_shuffled_inputs_give_an_identical_resolution() -> None:
    docs = corpus()
    expected = run(*docs)
    rng = random.Random(7)
    for _ in range(5):
        shuffled = [
            (p, Extraction(e.paper_id, tuple(rng.sample(e.mentions, len(e.mentions))),
                           tuple(rng.sample(e.facts, len(e.facts))), tuple(rng.sample(e.acronyms, len(e.acronyms)))))
            for p, e in rng.sample(docs, len(docs))
        ]
        papers = [p for p, _ in shuffled]
        extractions = rng.sample([e for _, e in shuffled], len(shuffled))
        assert resolve(papers, extractions) == expected


# Few names, many spellings of each: ties in counts and votes are frequent, as they must be here.
_POOL = [("ResNet-50", "Method"), ("ResNet50", "Method"), ("resnet 50", "Method"), ("ResNet-101", "Method"),
         ("GANs", "Method"), ("GAN", "Task"), ("generative adversarial networks", "Method"), ("RL", "Method"),
         ("RL", "Task"), ("reinforcement learning", "Task"), ("our method", "Method"), ("ImageNet", "Dataset"),
         ("ImageNet", "Method"), ("DEQ", "Method")]
_DEFINITIONS = [("RL", "representation learning"), ("RL", "reinforcement learning"), ("DEQ", "deep equilibrium"),
                ("DEQ", "dual energy quantile"), ("CNN", "convolutional neural network")]


@st.composite
def corpora(draw: st.DrawFn) -> list[tuple[Paper, Extraction]]:
    docs = []
    for i in range(draw(st.integers(1, 6))):
        names = draw(st.lists(st.sampled_from(_POOL), min_size=1, max_size=4))
        definitions = draw(st.lists(st.sampled_from(_DEFINITIONS), max_size=2))
        text = " ".join(f"We use {n}." for n, _ in names) + "".join(f" See {lf} ({sf})." for sf, lf in definitions)
        mentions = tuple(mention(text, n, t) for n, t in dict(names).items())
        acronyms = tuple(Acronym(sf, lf, text.index(lf), text.index(lf) + len(lf)) for sf, lf in definitions)
        facts = tuple(
            fact(text, relation, a, b, confidence=draw(st.sampled_from([0.2, 0.5, 0.9])))
            for a, b in zip(mentions, mentions[1:])
            for relation in [draw(st.sampled_from([Relation.USES, Relation.OUTPERFORMS, Relation.EVALUATED_ON]))]
        )
        docs.append((Paper(f"p{i}", text), Extraction(f"p{i}", mentions, facts, acronyms)))
    return docs


@settings(max_examples=60, deadline=None)
@given(corpora(), st.randoms(use_true_random=False))
def test_any_order_gives_the_same_resolution(docs: list[tuple[Paper, Extraction]], rng: random.Random) -> None:
    expected = run(*docs)
    shuffled = rng.sample(docs, len(docs))
    again = resolve([p for p, _ in shuffled], [
        Extraction(e.paper_id, tuple(rng.sample(e.mentions, len(e.mentions))), tuple(rng.sample(e.facts, len(e.facts))),
                   tuple(rng.sample(e.acronyms, len(e.acronyms))))
        for _, e in rng.sample(docs, len(docs))
    ])
    assert again == expected
    keys = [e.key for e in expected.entities]
    assert len(keys) == len(set(keys))
    assert {f.subject for f in expected.facts if f.subject} <= set(keys)


def test_an_update_equals_a_full_build() -> None:
    docs = corpus()
    assert run(*docs) == run(*docs[:4], *docs[4:])
    # Splitting one paper's extraction in two changes nothing either.
    p, e = docs[4]
    halves = [Extraction(e.paper_id, e.mentions[:1]), Extraction(e.paper_id, e.mentions[1:], e.facts, e.acronyms)]
    assert resolve([d[0] for d in docs], [d[1] for d in docs[:4]] + halves + [d[1] for d in docs[5:]]) == run(*docs)


def test_report() -> None:
    res = run(*corpus())
    report = res.report
    assert report["entities"] == len(res.entities)
    assert report["mentions"] == sum(e.mentions for e in res.entities)
    assert {"largest_merges", "type_conflicts", "ambiguous_acronyms", "dropped_generic"} <= set(report)
    merges = report["largest_merges"]
    assert 0 < len(merges) <= 10
    assert [m["forms"] for m in merges] == sorted((m["forms"] for m in merges), reverse=True)
    top = merges[0]
    assert top["forms"] == len(top["surface_forms"]) >= 2
    assert [a["acronym"] for a in report["ambiguous_acronyms"]] == ["RL"]


def test_extraction_without_a_paper_is_ignored() -> None:
    p, e = bare("p1", "BERT")
    res = resolve([p], [e, Extraction("ghost", (Mention(0, 4, "Method", "XLNet"),))])
    assert [x.label for x in res.entities] == ["BERT"]


def test_three_thousand_mentions_all_resolve() -> None:
    """A seed-sized load; its speed is measured by benchmarks/resolution.py, not asserted here."""
    words = "graph neural attention sparse temporal latent diffusion retrieval token visual causal".split()
    rng = random.Random(3)
    docs = []
    for i in range(215):
        names = [" ".join(rng.sample(words, 3)) for _ in range(14)]
        text = " ".join(f"We use {n}." for n in names)
        mentions, offset = [], 0
        for n in names:
            offset = text.index(n, offset)
            mentions.append(Mention(offset, offset + len(n), "Method", n))
            offset += len(n)
        docs.append((Paper(f"p{i}", text), Extraction(f"p{i}", tuple(mentions))))
    res = run(*docs)
    assert res.report["mentions"] == 215 * 14
    assert sum(e.mentions for e in res.entities) == 215 * 14


# --- unnamed contributions ---------------------------------------------------------------------

def unnamed_paper(
    pid: str,
    text: str = "We propose a graph clustering framework for parsing. Our framework is evaluated on WikiText.",
    description: str = "graph clustering framework",
) -> tuple[Paper, Extraction]:
    """A paper whose method has no name: a description made by the contribution finder, evaluated on WikiText."""
    start = text.index(description)
    own = Mention(start, start + len(description), "Method", description, 0.4, "kg.contributions/3")
    wiki = mention(text, "WikiText", "Dataset")
    facts = (
        fact(text, Relation.PROPOSES, None, own, extractor="kg.contributions/3#proposal.described"),
        fact(text, Relation.EVALUATED_ON, own, wiki, extractor="kg.relations/3#hub.dataset"),
    )
    return Paper(pid, text), Extraction(pid, (own, wiki), facts)


def test_unnamed_contributions_are_scoped_to_their_paper() -> None:
    res = run(unnamed_paper("p1"), unnamed_paper("p2"))
    own = [e for e in res.entities if e.type == "Method"]
    assert len(own) == 2 and {e.papers for e in own} == {("p1",), ("p2",)}  # two papers' frameworks: two things
    assert all(e.label == "graph clustering framework (this paper)" for e in own)
    assert all("Our framework" in e.alt_labels for e in own)  # how the abstract refers to it
    wiki = entity_of(res, "WikiText")
    assert wiki.papers == ("p1", "p2")  # named things still join across papers
    assert {(f.paper_id, f.relation) for f in res.facts} >= {("p1", "evaluatedOn"), ("p2", "evaluatedOn")}


_SEED_SCRIPT = """
from kg.model import Extraction, Fact, Mention, Paper
from kg.resolve import resolve
text = "We propose a weighted convolution. The weighted convolution works."
made_up = Mention(13, 33, "Method", "weighted convolution", 0.5, "kg.contributions/3")
found = Mention(13, 33, "Method", "weighted convolution", 0.8, "kg.scierc/3")
other = Mention(39, 59, "Method", "weighted convolution", 0.8, "kg.scierc/3")
ext = Extraction("p", mentions=(found, made_up, other),
                 facts=(Fact("proposes", None, made_up, (0, 34), "kg.contributions/3#proposal.described", 0.5),))
print(sorted((e.key, e.label) for e in resolve([Paper(id="p", abstract=text)], [ext]).entities))
"""


def test_resolution_does_not_depend_on_the_hash_seed():
    """One span found by two extractors: which one counts must not follow set iteration order."""
    import os

    outputs = set()
    for seed in range(6):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        done = subprocess.run([sys.executable, "-c", _SEED_SCRIPT], env=env, capture_output=True, text=True, check=True)
        outputs.add(done.stdout)
    assert len(outputs) == 1, outputs


def test_an_unnamed_method_only_referred_to_keeps_its_facts() -> None:
    """"our proposed method" is generic as a name, but as the paper's own unnamed method it is a paper-scoped node."""
    res = run(unnamed_paper("p1", "We show that our proposed method is faster on WikiText.", "our proposed method"))
    [node] = [e for e in res.entities if e.type == "Method"]
    assert node.label == "our proposed method (this paper)" and node.papers == ("p1",)
    assert {f.relation for f in res.facts} == {"proposes", "evaluatedOn"}


def _proposing(pid: str, name: str, also: str = "") -> tuple[Paper, Extraction]:
    text = f"We propose a {name} for parsing. {also}".strip()
    proposed = mention(text, name, "Method")
    return Paper(pid, text), Extraction(pid, (proposed,), (fact(text, Relation.PROPOSES, None, proposed),))


def test_a_proposed_description_is_paper_scoped_and_a_name_is_not() -> None:
    """Two papers' "probabilistic model" are two methods; two papers' FooNet is one (issue 26)."""
    res = run(_proposing("p1", "probabilistic model"), _proposing("p2", "probabilistic model"), _proposing("p3", "FooNet"), _proposing("p4", "FooNet"))
    described = [e for e in res.entities if e.label.startswith("probabilistic model")]
    assert sorted(e.papers for e in described) == [("p1",), ("p2",)]
    assert all(e.label == "probabilistic model (this paper)" for e in described)
    # the words as written stay an other label (searchable; what a gold name matches: a drop of the
    # corpus dev split's lenient precision 57.7 -> 55.2 came from losing them)
    assert all("probabilistic model" in e.alt_labels for e in described)
    assert entity_of(res, "FooNet").papers == ("p3", "p4")
    proposes = {(f.paper_id, f.object) for f in res.facts if f.relation == "proposes"}
    assert len({obj for pid, obj in proposes if pid in ("p1", "p2")}) == 2


def test_a_description_a_paper_only_uses_stays_corpus_wide() -> None:
    text = "A probabilistic model helps parsing. We rely on a probabilistic model too."
    user = paper("p9", text, [("probabilistic model", "Method")])
    other = paper("p8", "The probabilistic model is old.", [("probabilistic model", "Method")])
    res = run(_proposing("p1", "probabilistic model"), user, other)
    shared = [e for e in res.entities if e.label == "probabilistic model"]
    assert len(shared) == 1 and shared[0].papers == ("p8", "p9")
