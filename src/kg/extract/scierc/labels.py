"""SciERC's label sets and the plain annotation type the runtime components and training share.

DyGIE conventions: every index is a token index into the whole document and
every end is *inclusive*, unlike spaCy's exclusive ends; :class:`Annotations`
keeps that convention so that gold files, prediction files and the scorer all
speak the same language.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The six SciERC entity labels, in a fixed order (the model's label order).
ENTITY_LABELS = ("Task", "Method", "Metric", "Material", "OtherScientificTerm", "Generic")
#: The seven SciERC relation labels, in a fixed order.
RELATION_LABELS = (
    "USED-FOR",
    "FEATURE-OF",
    "HYPONYM-OF",
    "PART-OF",
    "COMPARE",
    "CONJUNCTION",
    "EVALUATE-FOR",
)
#: ``doc.spans`` key of the trained entity component (and of gold spans in training).
SPANS_KEY = "scierc"

#: ``(start, end, label)``, document-level token indices, end inclusive.
EntityTuple = tuple[int, int, str]
#: ``(h_start, h_end, t_start, t_end, label)``, end inclusive.
RelationTuple = tuple[int, int, int, int, str]


@dataclass(frozen=True)
class Annotations:
    """Entities and relations of one document, DyGIE conventions (ends inclusive)."""

    entities: frozenset[EntityTuple] = frozenset()
    relations: frozenset[RelationTuple] = frozenset()
