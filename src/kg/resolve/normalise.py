"""Surface forms to comparable keys, and keys to URL-safe slugs.

Two mentions name the same thing when their *keys* are equal. The key folds
away what does not change the meaning of a technical name:

- case: ``BERT``, ``Bert`` and ``bert`` are one name. We fold case everywhere
  rather than keep "meaningful" case distinctions, because abstracts capitalise
  freely (titles, sentence starts) and the few real clashes (``MAP`` the
  estimator vs ``mAP`` the metric) are kept apart by the entity class, since
  resolution is per class;
- Unicode: compatibility forms, accents (``naïve`` = ``naive``), the dozen
  Unicode dashes and curly quotes;
- separators: hyphens, underscores, slashes and spaces, and the boundary
  between letters and digits (``ResNet50`` = ``ResNet-50`` = ``ResNet 50``);
  but not the symbols that make another name: ``C``, ``C++``, ``C#`` and
  ``C--`` are four names, ``.NET`` is not ``NET``, and Greek letters stay
  (``α-Net``, ``β-VAE``);
- plurals and possessives (``LLMs`` = ``LLM``, ``GANs`` = ``GAN``,
  ``transformer's`` = ``transformer``, ``networks`` = ``network``);
- a leading article (a separate word: ``a-Net`` keeps its ``a``) and a trailing class word after a proper name
  (``the ImageNet dataset`` = ``ImageNet``, ``BERT model`` = ``BERT``), but not
  after the acronym of a whole model family (:data:`kg.lexicon.MODEL_FAMILY_ACRONYMS`):
  ``LLM architectures`` or an ``LLM framework`` is something built around LLMs,
  not the family itself, so only ``LLM model`` = ``LLM``;
- a trailing parenthesised acronym (``large language models (LLMs)``).

:func:`tokens` gives the normalised words, :func:`normalise` the readable form
(words joined by spaces, used for slugs) and :func:`compact` the matching key
(words joined with nothing, so ``pre-trained`` = ``pretrained``).
"""

from __future__ import annotations

import re
import unicodedata

from kg.lexicon import MODEL_FAMILY_ACRONYMS
from kg.resolve.memo import memoised

_DASHES = "\u00ad\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_QUOTES = "\u2018\u2019\u201a\u201b\u2032\u00b4`\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"
_FOLD = str.maketrans({**{c: "-" for c in _DASHES}, **{c: "'" for c in _QUOTES}, '"': "'"})

_PARENTHESISED_TAIL = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")
_POSSESSIVE = re.compile(r"(?<=\w)'s\b|(?<=s)'(?=\W|$)", re.IGNORECASE)
_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
# Words, numbers, and the symbols that tell names apart: "+" (C++), "#" after a letter
# (C#, F#; not the number sign of "Friedman #2"), a run of hyphens ending a word (C--),
# a dot opening one (.NET; not the dot of ASP.NET).
_TOKEN = re.compile(
    r"\d+(?:\.\d+)*|[^\W\d_]+|\+|(?<=[^\W\d_])#|(?<=\w)-{2,}(?![\w-])|(?<![\w.])\.(?=[^\W\d_])"
)
# A leading article is a separate word: the "a" of "a-Net" is part of the name.
_ARTICLE = re.compile(r"(?:the|The|a|an|An)\s")
# An acronym in the plural: capitals then a lowercase s (LLMs, GANs, ViTs).
_ACRONYM_PLURAL = re.compile(r"^(?=(?:.*[A-Z]){2})[A-Za-z]*[A-Z]s$")

#: Words ending in s that are not plurals.
_NOT_PLURAL = frozenset(
    """analysis basis axis bias corpus status consensus focus bonus virus genus radius campus
    census thesis hypothesis synthesis diagnosis emphasis news series species gas lens this
    thus various previous famous numerous continuous ambiguous autonomous heterogeneous
    homogeneous analogous simultaneous physics mathematics statistics linguistics robotics
    dynamics semantics kinematics economics genomics proteomics graphics ethics optics
    electronics pragmatics mechanics acoustics diagnostics analytics informatics atlas alias
    canvas chaos pathos whereas across plus minus versus less""".split()
)
_IRREGULAR = {
    "analyses": "analysis",
    "hypotheses": "hypothesis",
    "indices": "index",
    "matrices": "matrix",
    "vertices": "vertex",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "corpora": "corpus",
    "automata": "automaton",
    "axes": "axis",
    "children": "child",
}
_ARTICLES = frozenset({"the", "a", "an"})
#: Class words dropped after a proper name: "ImageNet dataset" is ImageNet.
_CLASS_WORDS = frozenset(
    """dataset benchmark corpus model architecture framework algorithm method approach score
    metric measure toolkit library suite""".split()
)
#: Tokens that name a variant: two names differing in them are different things.
VARIANT_WORDS = frozenset(
    """base large small tiny mini medium huge giant xl xxl xs lite nano micro pro ultra turbo
    instruct chat uncased cased distilled""".split()
)


@memoised(maxsize=1 << 16)
def fold(text: str) -> str:
    """Unicode-fold ``text``: compatibility forms, accents, dashes, quotes, spaces.

    Case is kept: callers that need it (acronym detection) look at it.

    >>> fold("na\\u00efve  Bayes \\u2013 \\u201cbig\\u201d")
    "naive Bayes - 'big'"
    """
    if not text.isascii():
        decomposed = unicodedata.normalize("NFKD", text)
        stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
        text = unicodedata.normalize("NFKC", stripped)
    return " ".join(text.translate(_FOLD).split())


def singular(word: str) -> str:
    """The singular of a lowercase English (technical) noun, by rule.

    Only regular plurals and a handful of Latin/Greek ones; words that merely
    end in *s* (``analysis``, ``corpus``, ``robotics``) are left alone.

    >>> [singular(w) for w in ["networks", "queries", "approaches", "losses", "analyses", "corpus"]]
    ['network', 'query', 'approach', 'loss', 'analysis', 'corpus']
    """
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) < 4 or word in _NOT_PLURAL or not word.endswith("s"):
        return word
    if word.endswith("ies") and word not in ("series", "species"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is", "ous")):
        return word
    return word[:-1]


def _word(raw: str) -> str:
    """Lowercase and singularise one raw token, using its case as evidence."""
    if _ACRONYM_PLURAL.match(raw):
        return raw[:-1].lower()
    if raw.isupper() or not raw.isalpha():
        return raw.lower()  # an all-caps acronym (ADAS) or a number is never a plural
    return singular(raw.lower())


def _is_name(raw: str) -> bool:
    """Whether a raw token looks like part of a proper technical name (BERT, ImageNet)."""
    return sum(c.isupper() for c in raw) >= 2 or any(c.isupper() for c in raw[1:])


@memoised(maxsize=1 << 16)
def tokens(text: str) -> tuple[str, ...]:
    """The normalised words of a surface form (see the module docstring).

    >>> tokens("the ResNet50 model's")
    ('resnet', '50')
    >>> tokens("Large Language Models (LLMs)")
    ('large', 'language', 'model')
    >>> tokens("GPT\\u20113.5")
    ('gpt', '3.5')
    >>> tokens("LLM architectures"), tokens("LLM models")
    (('llm', 'architecture'), ('llm',))
    >>> [compact(name) for name in ("C", "C#", "C--", "C++", ".NET", "a-Net", "the Net")]
    ['c', 'c#', 'c--', 'c++', '.net', 'anet', 'net']
    """
    text = fold(text)
    without_tail = _PARENTHESISED_TAIL.sub("", text)
    text = without_tail if without_tail.strip() else text
    text = _POSSESSIVE.sub("", text).replace("'", "")
    raw = _TOKEN.findall(_LETTER_DIGIT.sub(" ", text))
    words = [_word(r) for r in raw]
    # "The" opens sentences; a capital "A" is more often a name ("A* search").
    while len(words) > 1 and words[0] in _ARTICLES and _ARTICLE.match(text):
        raw, words = raw[1:], words[1:]
        text = text.split(None, 1)[1]
    if len(words) > 1 and words[-1] in _CLASS_WORDS and any(_is_name(r) for r in raw[:-1]) and (
        words[-1] == "model" or not all(r.lower() in MODEL_FAMILY_ACRONYMS for r in raw[:-1])
    ):
        words = words[:-1]
    if len(words) > 2 and words[-2:] == ["data", "set"] and any(_is_name(r) for r in raw[:-2]):
        words = words[:-2]
    return tuple(words)


@memoised(maxsize=1 << 14)
def display(text: str) -> str:
    """A surface form cleaned for showing: folded, without a leading article or a
    trailing parenthesised acronym, case kept.

    >>> display("the  Large Language Models (LLMs)")
    'Large Language Models'
    >>> display("\u201cAmorph\u201d"), display(".NET.")
    ('Amorph', '.NET')
    """
    text = fold(text).lstrip(" ,;:!?'").rstrip(" ,;:.!?'")  # a leading dot is a name's (.NET)
    without_tail = _PARENTHESISED_TAIL.sub("", text)
    text = without_tail if without_tail.strip() else text
    first, _, rest = text.partition(" ")
    return rest if rest and first in ("the", "The", "a", "an", "An") else text


def normalise(text: str) -> str:
    """The readable normalised form: normalised words joined by single spaces.

    >>> normalise("Generative-Adversarial  Networks")
    'generative adversarial network'
    >>> normalise("BERT") == normalise("Bert")
    True
    """
    return " ".join(tokens(text))


def compact(text: str) -> str:
    """The matching key: normalised words joined with nothing.

    Separators never distinguish names, so ``pre-trained``, ``pre trained``
    and ``pretrained`` share one key.

    >>> compact("Pre-trained LMs") == compact("pretrained LM")
    True
    """
    return "".join(tokens(text))


def numbers(words: tuple[str, ...]) -> tuple[str, ...]:
    """The number tokens of a normalised form, which must agree for a fuzzy match.

    >>> numbers(tokens("CIFAR-100")), numbers(tokens("Llama 2 70B"))
    (('100',), ('2', '70'))
    """
    return tuple(w for w in words if w[0].isdigit())


def variants(words: tuple[str, ...]) -> tuple[str, ...]:
    """The variant tokens (``base``, ``large``, ``xl`` ...) of a normalised form.

    >>> variants(tokens("BERT-Large uncased"))
    ('large', 'uncased')
    """
    return tuple(w for w in words if w in VARIANT_WORDS)


@memoised(maxsize=1 << 14)
def looks_like_acronym(surface: str) -> bool:
    """Whether a surface form is written as an acronym (``BERT``, ``LLMs``, ``mAP``).

    One word, at least two capitals, and capitals make at least half its letters.

    >>> [looks_like_acronym(s) for s in ["BERT", "LLMs", "mAP", "ImageNet", "F1", "deep RL"]]
    [True, True, True, False, False, False]
    """
    surface = fold(surface)
    capitals = sum(map(str.isupper, surface))
    return " " not in surface and capitals >= 2 and 2 * capitals >= sum(map(str.isalpha, surface))


_SLUG_SAFE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-._~")


def slugify(text: str) -> str:
    """A URL-safe slug: lowercase, spaces to ``-``, everything else percent-encoded.

    Only ``[a-z0-9-._~]`` stays as it is; every other character is written as
    its UTF-8 bytes in ``%XX`` form, so different texts give different slugs.

    >>> slugify("resnet 50")
    'resnet-50'
    >>> slugify("GPT 3.5  Turbo")
    'gpt-3.5-turbo'
    >>> slugify("c++ / beta_1")
    'c%2B%2B-%2F-beta_1'
    >>> slugify("\\u03b2 vae")
    '%CE%B2-vae'
    """
    text = "-".join(text.lower().split())
    return "".join(c if c in _SLUG_SAFE else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in text)
