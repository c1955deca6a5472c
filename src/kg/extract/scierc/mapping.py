"""The one mapping from SciERC labels to the graph's vocabulary.

Entities (:func:`map_entity`):

===================  ==========================================================
SciERC               graph
===================  ==========================================================
Method               ``Method``
Task                 ``Task``
Metric               ``Metric``
Material             ``Dataset`` only when the text names data (:func:`names_data`)
OtherScientificTerm  nothing (too broad: features, phenomena, constraints)
Generic              nothing ("this method", "it": no name to resolve)
===================  ==========================================================

Relations (:func:`map_relation`), given both arguments' graph types; the
result says whether subject and object swap relative to SciERC's
(head, tail):

==================================  ===============================  =====
SciERC (head, tail)                 graph (subject, object)          swap
==================================  ===============================  =====
USED-FOR(Method, Task)              Method ``addresses`` Task        no
USED-FOR(Method A, Method B)        B ``uses`` A (B is the user)     yes
PART-OF(Method A, Method B)         B ``uses`` A (A is B's part)     yes
EVALUATE-FOR(Dataset, Method)       Method ``evaluatedOn`` Dataset   yes
EVALUATE-FOR(Metric, Method)        Method ``measuredBy`` Metric     yes
COMPARE(Method, Method)             ``comparedWith``                 no
HYPONYM-OF(X, Y), same class        X ``subtypeOf`` Y                no
==================================  ===============================  =====

Anything else (FEATURE-OF, CONJUNCTION, other type pairs) maps to nothing.
The confidence of a mapped fact is the model's score; this module does not
change it.
"""

from __future__ import annotations

from kg.model import EntityType, Relation

#: Head words that make a Material a data set.
DATA_WORDS = frozenset(
    {
        "corpus",
        "corpora",
        "dataset",
        "datasets",
        "data",
        "benchmark",
        "benchmarks",
        "treebank",
        "treebanks",
        "collection",
        "database",
        "databases",
        "lexicon",
        "dictionary",
        "dictionaries",
        "wordnet",
        "bank",
        "challenge",
        "task",  # "the SemEval task", as a source of data
        "suite",
        "set",
        "sets",
    }
)
#: Language names: a capitalised Material that is one of these is text, not data.
LANGUAGES = frozenset(
    "English Chinese Mandarin Japanese German French Arabic Spanish Italian Korean Russian Hindi Czech Dutch"
    " Portuguese Turkish Finnish Swedish Greek Hebrew Persian Urdu Basque Catalan Polish".split()
)
_FUNCTION_WORDS = frozenset({"the", "a", "an", "of", "and", "'s"})
#: Data words that name a resource only together with a name ("TREC-9 data", not "training data").
_GENERIC_DATA = frozenset({"data", "set", "sets", "task", "collection", "challenge", "suite"})


def _is_name(word: str) -> bool:
    # "Penn", "WSJ", "TREC-9", "ImageNet", "2000": starts with a capital or a digit.
    return bool(word) and (word[0].isupper() or word[0].isdigit()) and word not in LANGUAGES


def _is_strong_name(word: str) -> bool:
    # "WSJ", "PropBank", "SENSEVAL2", "TREC-9": a digit or a capital after the first letter.
    # A lone title-case word ("Video", "Web") is too often just the start of a sentence.
    return _is_name(word) and any(c.isdigit() or c.isupper() for c in word[1:])


def names_data(text: str) -> bool:
    """Whether a SciERC Material names a data set rather than a kind of stuff.

    The heuristic, in order:

    1. the last word is a data word (:data:`DATA_WORDS`: corpus, treebank,
       benchmark, dataset, ...): a data set, except that the vague ones
       (data, set, task, collection, ...) need a name beside them
       ("TREC-9 data" is a data set, "training data" is not);
    2. every content word is a name (capitalised or starting with a digit),
       none is a language, and there are two of them or the one has a digit
       or an inner capital: a named resource ("WSJ", "ImageNet", "UCF 101",
       "the Wall Street Journal"). A lone title-case word ("Video",
       "Switchboard") is left out: at the start of a sentence it is usually
       an ordinary noun;
    3. anything else is material, not data ("images", "English", "speech").

    >>> [names_data(t) for t in ("Penn Treebank", "the Brown corpus", "WSJ", "TREC-9 data", "PropBank", "data set")]
    [True, True, True, True, True, True]
    >>> [names_data(t) for t in ("images", "English", "training data", "speech", "English data", "Video")]
    [False, False, False, False, False, False]
    """
    words = text.split()
    content = [w for w in words if w.lower() not in _FUNCTION_WORDS]
    if not content:
        return False
    last = content[-1].lower()
    if last in DATA_WORDS:
        if last in ("set", "sets") and len(content) > 1 and content[-2].lower() == "data":
            return True  # "data set", "the large data set"
        return last not in _GENERIC_DATA or any(_is_name(w) for w in content[:-1])
    if not all(_is_name(w) for w in content):
        return False
    return len(content) >= 2 or _is_strong_name(content[0])


def map_entity(label: str, text: str) -> EntityType | None:
    """The graph class of a SciERC entity, or ``None`` when it has none.

    >>> map_entity("Method", "CRF"), map_entity("Material", "Penn Treebank"), map_entity("Generic", "it")
    (<EntityType.METHOD: 'Method'>, <EntityType.DATASET: 'Dataset'>, None)
    """
    if label == "Material":
        return EntityType.DATASET if names_data(text) else None
    return _DIRECT.get(label)


_DIRECT = {"Method": EntityType.METHOD, "Task": EntityType.TASK, "Metric": EntityType.METRIC}


def _graph_type(label: str, text: str) -> EntityType | None:
    # Arguments may come as SciERC labels or already as graph classes.
    try:
        return EntityType(label)
    except ValueError:
        return map_entity(label, text)


def map_relation(
    label: str, head_type: str, tail_type: str, head_text: str = "", tail_text: str = ""
) -> tuple[Relation, bool] | None:
    """The graph relation of a SciERC relation, and whether subject and object swap.

    ``head_type``/``tail_type`` are SciERC labels or graph classes
    (``"Dataset"``); texts decide whether a SciERC Material is a data set.

    >>> map_relation("EVALUATE-FOR", "Material", "Method", "Penn Treebank", "our parser")
    (<Relation.EVALUATED_ON: 'evaluatedOn'>, True)
    >>> map_relation("USED-FOR", "Method", "Task", "CRF", "tagging")
    (<Relation.ADDRESSES: 'addresses'>, False)
    >>> map_relation("CONJUNCTION", "Method", "Method") is None
    True
    """
    head, tail = _graph_type(head_type, head_text), _graph_type(tail_type, tail_text)
    if head is None or tail is None:
        return None
    method = EntityType.METHOD
    if label == "USED-FOR" and head == method and tail == EntityType.TASK:
        return Relation.ADDRESSES, False
    if label in ("USED-FOR", "PART-OF") and head == method and tail == method:
        return Relation.USES, True
    if label == "EVALUATE-FOR" and tail == method and head == EntityType.DATASET:
        return Relation.EVALUATED_ON, True
    if label == "EVALUATE-FOR" and tail == method and head == EntityType.METRIC:
        return Relation.MEASURED_BY, True
    if label == "COMPARE" and head == method and tail == method:
        return Relation.COMPARED_WITH, False
    if label == "HYPONYM-OF" and head == tail:
        return Relation.SUBTYPE_OF, False
    return None
