"""The word lists the rule-based extractors rely on, as versioned registered sets.

Each set is a registered function with a versioned name (``kg.MentionHeads.v1``,
``kg.ContributionPatterns.v1``, ``kg.RelationCues.v1``, ``kg.RoleCues.v1``, ``kg.Gazetteers.v1``) so
that a component's config says exactly which list it used; a behaviour change
adds a ``v2`` instead of silently editing ``v1``. The lists are lower-case
lemmas or words, kept small and precise: these extractors favour precision.

>>> heads = mention_heads_v1()
>>> "framework" in heads.method and "segmentation" in heads.task
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spacy.util import registry

from kg.lexicon import DETERMINERS, GENERIC_MODIFIERS, MODEL_FAMILY_ACRONYMS

DATA_DIR = Path(__file__).parent / "data"


@dataclass(frozen=True)
class MentionHeads:
    """Head nouns and modifiers that type a noun chunk, and names never worth a node."""

    method: frozenset[str]
    task: frozenset[str]
    dataset: frozenset[str]
    #: modifiers that add no content ("a novel framework" names nothing)
    generic: frozenset[str]
    #: all-caps or camel-case words that are not names of methods ("LLM", "GPU")
    not_names: frozenset[str]
    #: phrases shaped like tasks that name a field or a setting, not a task
    not_tasks: frozenset[str]


@dataclass(frozen=True)
class ContributionPatterns:
    """What marks the paper's own contribution: verbs, self-references, naming words."""

    verbs: frozenset[str]
    self_subjects: frozenset[str]
    self_nouns: frozenset[str]
    naming: frozenset[str]


@dataclass(frozen=True)
class RelationCues:
    """Lemmas that signal each relation between a method and another mention."""

    outperforms: frozenset[str]
    uses: frozenset[str]
    uses_preps: frozenset[str]
    addresses: frozenset[str]
    evaluation: frozenset[str]
    results: frozenset[str]
    locative: frozenset[str]
    studies: frozenset[str]
    training: frozenset[str]


@dataclass(frozen=True)
class HubCues:
    """Cue words of the hub rules (:mod:`kg.extract.hub`), read from a versioned data file."""

    self_pronouns: frozenset[str]
    self_determiners: frozenset[str]
    others: frozenset[str]
    contrast: frozenset[str]
    results: frozenset[str]
    training: frozenset[str]
    metric_phrases: tuple[tuple[str, ...], ...]
    uses: frozenset[str]
    uses_phrases: tuple[tuple[str, ...], ...]
    uses_stop: frozenset[str]
    part_nouns: frozenset[str]
    outperforms: frozenset[str]
    comparative_phrases: tuple[tuple[str, ...], ...]
    compare_stop: frozenset[str]
    better: frozenset[str]
    worse: frozenset[str]
    directions: frozenset[str]
    gain_nouns: frozenset[str]
    hedges: frozenset[str]
    task_cues: frozenset[str]
    vague_heads: frozenset[str]
    class_nouns: frozenset[str]
    list_words: frozenset[str]
    made: frozenset[str]
    novel: frozenset[str]
    listing: frozenset[str]
    negations: frozenset[str]
    studies: frozenset[str]


@dataclass(frozen=True)
class RoleCues:
    """Cue words that type a mention by its role (:mod:`kg.extract.roles`), from a versioned data file."""

    #: nouns whose "of X" names a task: "in the context of X", "the problem of X"
    task_governors: frozenset[str]
    #: verbs whose object is a task: "to tackle X"
    task_verbs: frozenset[str]
    #: prepositions after a method noun that give its purpose: "a paradigm for X"
    purpose_preps: frozenset[str]
    #: head nouns of things, never of what a method is for ("a framework for a transformer model")
    artifact_heads: frozenset[str]
    #: nouns whose "in X" names a metric: "improvements in X"
    metric_governors: frozenset[str]
    #: one-word measures too vague to be a metric ("improvements in performance")
    vague_metrics: frozenset[str]
    #: head nouns of amounts and manners, never a measure ("increases in instruction data")
    not_metric_heads: frozenset[str]
    #: verbs whose object is a method: "by applying X"
    method_verbs: frozenset[str]


def _read_cues(path: Path) -> dict[str, Any]:
    """A ``*_cues.vN.json`` file's lists: word lists become sets, ``*_phrases`` lists tuples."""
    raw = {k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if not k.startswith("_")}
    return {
        name: tuple(tuple(p) for p in words) if name.endswith("_phrases") else frozenset(words)
        for name, words in raw.items()
    }


def read_hub_cues(path: Path) -> HubCues:
    """The cues of a ``hub_cues.vN.json`` file."""
    return HubCues(**_read_cues(path))


@registry.misc("kg.RoleCues.v1")
def role_cues_v1() -> RoleCues:
    return RoleCues(**_read_cues(DATA_DIR / "role_cues.v1.json"))


@registry.misc("kg.HubCues.v1")
def hub_cues_v1() -> HubCues:
    return read_hub_cues(DATA_DIR / "hub_cues.v1.json")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


@registry.misc("kg.MentionHeads.v1")
def mention_heads_v1() -> MentionHeads:
    return MentionHeads(
        method=_words(
            "model framework method approach algorithm architecture network transformer "
            "technique scheme pipeline system paradigm strategy mechanism module estimator "
            "encoder decoder agent policy optimizer learner classifier detector tokenizer "
            "retriever regularizer loss objective procedure solver toolkit library training tuning "
            "learning normalization regularization distillation augmentation layer operation operator rule "
            "criterion measure tool protocol recipe heuristic test"
        ),
        task=_words(
            "classification detection segmentation translation generation recognition retrieval "
            "reasoning answering summarization prediction estimation forecasting parsing tracking "
            "captioning synthesis recommendation extraction localization tagging labeling "
            "completion verification inpainting denoising editing planning navigation "
            "manipulation grounding registration reconstruction identification diagnosis understanding "
            "adaptation unlearning discovery pruning compression quantization merging "
            "ranking regression imputation attribution exploration control counting modeling modelling "
            "answering interpretability explainability reduction initialization analytics "
            "selection calibration matching clustering"
        ),
        dataset=_words("dataset datasets benchmark benchmarks corpus corpora suite testbed zoo zoos"),
        # The words every stage treats as generic (kg.lexicon), and a few only extraction needs.
        generic=DETERMINERS
        | GENERIC_MODIFIERS
        | _words(
            "third lightweight whole principled practical fewer less state-of-the-art art of-the-art "
            "baselines -based based well-known widely-used so-called"
        ),
        not_names=MODEL_FAMILY_ACRONYMS
        | _words(
            "ai agi nlp cv ml dl rl gpu gpus cpu cpus tpu "
            "api apis sota us uk eu ii iii iv pdf html json xml url urls id ids iid ood faq "
            "cnn-based it ok vs etc fps gb tb mb kb 2d 3d 4d rgb io llm-based kl elbo"
        ),
        not_tasks=frozenset(
            {"deep learning", "machine learning", "low-resource", "high-resource", "training", "learning",
             "downstream", "real-world", "benchmark", "efficiency", "performance", "generalization"}
        ),
    )


@registry.misc("kg.ContributionPatterns.v1")
def contribution_patterns_v1() -> ContributionPatterns:
    return ContributionPatterns(
        verbs=_words(
            "propose introduce present develop design build devise construct create release "
            "formulate curate collect give provide derive"
        ),
        self_subjects=_words("we i"),
        self_nouns=_words("paper work study article letter report"),
        naming=_words("call name dub term coin"),
    )


@registry.misc("kg.RelationCues.v1")
def relation_cues_v1() -> RelationCues:
    return RelationCues(
        outperforms=_words("outperform surpass beat exceed outstrip outclass"),
        uses=_words(
            "use leverage employ adopt utilize utilise incorporate integrate exploit extend "
            "build base combine augment"
        ),
        uses_preps=_words("on upon"),
        addresses=_words("address tackle solve handle target alleviate"),
        evaluation=_words(
            "experiment evaluation evaluate test validate benchmark assess result study analysis"
        ),
        results=_words(
            "achieve attain obtain reach yield set improve outperform surpass beat exceed "
            "perform show demonstrate score boost deliver outstrip match establish"
        ),
        locative=_words("on across over"),
        studies=_words("study investigate explore consider focus examine tackle revisit"),
        training=_words("train pretrain pre-train finetune fine-tune tune learn fit collect derive"),
    )


@registry.misc("kg.Gazetteers.v1")
def gazetteers_v1() -> dict[str, Path]:
    """The bundled gazetteer files, by the entity label their entries take."""
    return {
        "Dataset": DATA_DIR / "datasets.txt",
        "Metric": DATA_DIR / "metrics.txt",
        "Method": DATA_DIR / "methods.txt",
        "Task": DATA_DIR / "tasks.txt",
    }
