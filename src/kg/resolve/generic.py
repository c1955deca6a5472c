"""Generic phrases: mentions that name no particular thing.

"our method", "the proposed framework", "existing approaches", "experiments"
or "it" are picked up by extractors but must never become graph nodes: every
paper has one, and merging them would join unrelated papers. A phrase is
generic when it is

- a pronoun or a phrase from :data:`GENERIC_PHRASES`, or
- determiners/quantifiers and generic modifiers followed by a generic head
  noun ("our novel framework", "the proposed approach", "these methods",
  "two benchmark datasets", "state-of-the-art methods"), or
- generic parts joined by "of" ("the performance of our model").

A generic *subject* that points at the paper's own contribution ("our
method", "the proposed model", "this framework") can be rebound to the
paper's proposed method: :func:`refers_to_own_method` says when.
"""

from __future__ import annotations

import re

from kg import lexicon
from kg.resolve.memo import memoised
from kg.resolve.normalise import fold, singular

PRONOUNS = frozenset(
    """it its they them their this that these those we us our ours which who itself
    themselves one ones here there former latter""".split()
)
#: The shared determiners (:data:`kg.lexicon.DETERMINERS`) and the quantifiers that
#: only the resolver counts: alone they name nothing, though "few-shot" starts a name.
DETERMINERS = lexicon.DETERMINERS | frozenset(
    """any no another each every all both some few most much multiple numerous six seven
    eight nine ten dozen""".split()
)
#: The shared generic modifiers (:data:`kg.lexicon.GENERIC_MODIFIERS`) and the ones
#: that only matter for whole phrases ("publicly available datasets", "the above method").
GENERIC_MODIFIERS = lexicon.GENERIC_MODIFIERS | frozenset(
    """present presented above following similar related competing stronger strongest
    well known widely used commonly previously recently newly mentioned aforementioned
    certain given downstream major better best superior benchmark widespread public
    publicly available real world diverse challenging""".split()
)
GENERIC_HEADS = frozenset(
    """method approach framework model system technique algorithm architecture paper work
    study experiment result task problem baseline solution scheme strategy procedure pipeline
    network dataset benchmark data metric measure tool idea analysis evaluation setting one
    variant module component mechanism formulation implementation version design process
    methodology paradigm concept application performance improvement finding contribution
    competitor counterpart alternative sota literature research effort attempt direction
    setup configuration art technology way manner means thing aspect issue challenge
    experimentation simulation test trial corpus database resource representation formalism
    domain extension device program theory principle factor assumption criterion information
    feature detector tracker recognizer classifier learner estimator predictor""".split()
)
#: Heads that name a method, so "our <head>" can stand for the paper's own method.
METHOD_HEADS = frozenset(
    """method approach framework model system technique algorithm architecture network scheme
    solution pipeline strategy procedure methodology module mechanism variant formulation
    implementation design""".split()
)
GENERIC_PHRASES = frozenset(
    {
        "state of the art",
        "prior work",
        "previous work",
        "related work",
        "this paper",
        "this work",
        "the literature",
        "our knowledge",
        "the art",
        "the best of our knowledge",
        "extensive experiments",
    }
)

_WORD = re.compile(r"[a-z0-9]+")
_SOTA = re.compile(r"\bstate[\s-]+of[\s-]+the[\s-]+art\b")


@memoised(maxsize=1 << 14)
def _words(text: str) -> tuple[str, ...]:
    lowered = _SOTA.sub("sota", fold(text).lower())
    return tuple(singular(w) for w in _WORD.findall(lowered))


def _generic_words(words: tuple[str, ...]) -> bool:
    if not words:
        return True
    if all(w in PRONOUNS or w in DETERMINERS for w in words):
        return True
    *front, head = words
    return head in GENERIC_HEADS and all(
        w in DETERMINERS or w in GENERIC_MODIFIERS or w.isdigit() for w in front
    )


def is_generic(text: str) -> bool:
    """Whether a mention's text is a generic phrase that must not become an entity.

    >>> [is_generic(t) for t in ["our method", "The proposed framework", "these methods",
    ...                          "state-of-the-art methods", "it", "Experiments"]]
    [True, True, True, True, True, True]
    >>> [is_generic(t) for t in ["BERT", "neural network", "our BERT-based tagger",
    ...                          "language model", "accuracy"]]
    [False, False, False, False, False]
    """
    words = _words(text)
    if " ".join(words) in GENERIC_PHRASES or _generic_words(words):
        return True
    if "of" in words:
        parts = " ".join(words).split(" of ")
        return all(_generic_words(tuple(p.split())) for p in parts)
    return False


def refers_to_own_method(text: str) -> bool:
    """Whether a generic phrase stands for the paper's own proposed method.

    It must be generic, start with "our", "this" or "the proposed/presented/new/
    novel", and end in a method-like head noun.

    >>> [refers_to_own_method(t) for t in ["our method", "the proposed approach",
    ...                                    "This framework", "our novel models"]]
    [True, True, True, True]
    >>> [refers_to_own_method(t) for t in ["existing methods", "our experiments",
    ...                                    "the method", "BERT"]]
    [False, False, False, False]
    """
    words = _words(text)
    if len(words) < 2 or words[-1] not in METHOD_HEADS or not is_generic(text):
        return False
    first, second = words[0], words[1]
    own_the = first == "the" and second in ("proposed", "presented", "present", "new", "novel")
    return first in ("our", "this") or own_the or first == "proposed"


#: How an abstract refers to its own contribution: "our method", "the proposed approach".
_SELF_REFERENCE = re.compile(
    r"\b(?:our|the proposed|this)(?:\s+(?:proposed|novel|new))?\s+"
    r"(?:method|approach|framework|model|algorithm|technique|scheme|pipeline|strategy|system|architecture)s?\b",
    re.IGNORECASE,
)


def self_references(text: str) -> list[str]:
    """The phrases by which an abstract refers to its own method, as written, each once.

    >>> self_references("We propose a method. Our method beats X; the proposed approach is fast. Our method wins.")
    ['Our method', 'the proposed approach']
    """
    found: dict[str, str] = {}
    for match in _SELF_REFERENCE.finditer(text):
        found.setdefault(match.group(0).lower(), match.group(0))
    return list(found.values())


_DESCRIPTION = re.compile(r"[a-z]+(?:-[a-z]+)*(?:\s+[a-z]+(?:-[a-z]+)*)+")


def is_description(text: str) -> bool:
    """Whether a mention describes a thing in common words rather than naming it.

    A description is two or more lowercase words (no capital, digit or symbol that
    would make a coined name) ending in a generic head noun: "probabilistic model",
    "automatic method", "trainable approach". Proposed by a paper, it describes that
    paper's own method, and two papers' "probabilistic model" are two methods; a
    name ("FooNet", "BERT-based tagger", "Transformer") is one thing in every paper.

    >>> [is_description(t) for t in ["probabilistic model", "automatic method", "trainable approaches", "new benchmark dataset"]]
    [True, True, True, True]
    >>> [is_description(t) for t in ["FooNet", "Transformer model", "model", "GPT-4 model", "dropout", "beam search"]]
    [False, False, False, False, False, False]
    """
    text = " ".join(text.split())
    return bool(_DESCRIPTION.fullmatch(text)) and _words(text)[-1] in GENERIC_HEADS


def is_unnamed_contribution(mention_extractor: str) -> bool:
    """Whether a mention is a description the contribution finder made up for an unnamed
    contribution ("method to realize seamless adaptation"): its extractor is the contribution
    stage itself, where every other mention comes from the mention finder.

    >>> is_unnamed_contribution("kg.contributions/3"), is_unnamed_contribution("kg.mentions/3")
    (True, False)
    """
    return mention_extractor.startswith("kg.contributions/")

