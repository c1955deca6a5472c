"""What the extraction components write on a Doc, and how it survives serialisation.

The components keep plain data on the Doc (``doc._.kg_mentions``,
``doc._.kg_facts``, ``doc._.kg_acronyms``: tuples of the frozen dataclasses of
:mod:`kg.model`), never ``Span`` objects, so that a Doc can be cached in a
``DocBin`` and sent between processes (``nlp.pipe(n_process=2)`` ships Docs as
msgpack). msgpack knows nothing of dataclasses, so this module registers an
encoder/decoder pair with srsly; tuples come back as lists, which the decoder
turns back into the model's tuples.

>>> from kg.model import Mention
>>> import srsly
>>> m = Mention(0, 4, "Method", "BERT")
>>> srsly.msgpack_loads(srsly.msgpack_dumps({"m": (m,)}))["m"][0] == m
True
"""

from __future__ import annotations

from dataclasses import fields
from collections.abc import Callable
from typing import Any

import srsly
from spacy.tokens import Doc

from kg.model import Acronym, Fact, Mention, Result, Rule

#: Bumped whenever extraction behaviour changes: part of every Fact.extractor
#: ("kg.contributions/2") and of the per-paper cache key.
EXTRACTOR_VERSION = "9"

EXTENSIONS = ("kg_mentions", "kg_facts", "kg_acronyms", "kg_results")

_TAG = "__kg_model__"


def extractor_name(stage: str, rule: Rule | None = None) -> str:
    """The versioned name a fact or mention records as its producer, with the rule when known.

    >>> extractor_name("relations") == f"kg.relations/{EXTRACTOR_VERSION}"
    True
    >>> extractor_name("relations", Rule.HUB_DATASET).split("#")[1]
    'hub.dataset'
    """
    name = f"kg.{stage}/{EXTRACTOR_VERSION}"
    return f"{name}#{rule.value}" if rule is not None else name


def rule_extractor(rule: Rule) -> str:
    """The extractor name of a fact made by ``rule`` (its stage is the rule's prefix).

    >>> rule_extractor(Rule.PROPOSAL_NAMED) == f"kg.contributions/{EXTRACTOR_VERSION}#proposal.named"
    True
    """
    stage = "contributions" if rule.value.startswith("proposal.") else "relations"
    return extractor_name(stage, rule)


def register_extensions() -> None:
    """Declare the Doc extensions once (idempotent; defaults are empty tuples)."""
    for name in EXTENSIONS:
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=())


def _encode(obj: Any, chain: Callable[[Any], Any] | None = None) -> Any:
    if isinstance(obj, Mention):
        return {_TAG: "M", "v": [obj.start, obj.end, obj.label, obj.text, obj.score, obj.extractor]}
    if isinstance(obj, Fact):
        values = [obj.relation, obj.subject, obj.object, list(obj.sentence), obj.extractor, obj.confidence]
        return {_TAG: "F", "v": values}
    if isinstance(obj, Acronym):
        return {_TAG: "A", "v": [obj.short, obj.long, obj.start, obj.end]}
    if isinstance(obj, Result):
        return {_TAG: "R", "v": [getattr(obj, f.name) for f in fields(Result)]}
    return obj if chain is None else chain(obj)


def _decode(obj: Any, chain: Callable[[Any], Any] | None = None) -> Any:
    kind = obj.get(_TAG) if isinstance(obj, dict) else None
    if kind == "M":
        return Mention(*obj["v"])
    if kind == "F":
        relation, subject, object_, sentence, extractor, confidence = obj["v"]
        return Fact(relation, subject, object_, tuple(sentence), extractor, confidence)
    if kind == "A":
        return Acronym(*obj["v"])
    if kind == "R":
        values = dict(zip((f.name for f in fields(Result)), obj["v"]))
        return Result(**{**values, "sentence": tuple(values["sentence"])})
    return obj if chain is None else chain(obj)


def register_codec() -> None:
    """Teach srsly's msgpack (used by ``Doc.to_bytes`` and ``DocBin``) the model types."""
    srsly.msgpack_encoders.register("kg.model", func=_encode)
    srsly.msgpack_decoders.register("kg.model", func=_decode)


def as_tuple(values: Any) -> tuple[Any, ...]:
    """Extension values as a tuple again (msgpack round trips turn tuples into lists)."""
    return tuple(values or ())


register_codec()
register_extensions()
