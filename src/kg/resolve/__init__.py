"""The resolver stage: one entity per real thing, facts rewritten to entity keys.

Public surface:

- :func:`resolve` ``(papers, extractions, *, min_confidence=0.0) -> Resolution``;
- :func:`is_generic` and :func:`refers_to_own_method`: the generic-phrase test
  (:mod:`kg.resolve.generic` keeps the stop list);
- :func:`normalise`, :func:`compact` and :func:`slugify`: how names are
  compared and how entity keys are spelled (:mod:`kg.resolve.normalise`);
- :data:`ALIASES`: the table of well-known names (:mod:`kg.resolve.aliases`);
- :mod:`kg.resolve.evaluate`: scoring the resolver on a table of gold pairs.

The result depends only on the set of inputs, never on their order.

Decisions, and where they live:

- case is folded everywhere (``BERT`` = ``Bert``); the classes keep the few
  real clashes apart (``MAP`` the estimator, ``mAP`` the metric)
  (:mod:`~kg.resolve.normalise`);
- resolution is per class; a name typed Method, Task or Metric in different
  papers is one entity of the majority class (reported as a type conflict),
  while a Dataset never joins that vote (:mod:`~kg.resolve.resolver`);
- fuzzy matching is guarded (same numbers, variants, word count and word
  order; no short names) and only ever adds merges that a person would make
  without context (:mod:`~kg.resolve.cluster`);
- an acronym defined two ways in the corpus (or against the alias table) is
  ambiguous: bare uses stay apart (:mod:`~kg.resolve.acronyms`);
- a qualified metric is its own entity ("top-1 accuracy" is not "accuracy"), but
  "classification accuracy" is accuracy (:mod:`~kg.resolve.aliases`); a class word
  after a model-family acronym is kept ("LLM architectures" is not "LLMs", "LLM
  model" is) (:mod:`~kg.resolve.normalise`);
- the generic word lists are shared with extraction (:mod:`kg.lexicon`);
- generic phrases never become entities; a generic subject that names the
  paper's own method is rebound to it (:mod:`~kg.resolve.generic`);
- keys are ``type/slug`` with the slug taken from the cluster alone: its
  alias-table name, else its least normalised form (:mod:`~kg.resolve.entities`).
"""

from __future__ import annotations

from kg.resolve.aliases import ALIASES
from kg.resolve.generic import is_generic, refers_to_own_method
from kg.resolve.normalise import compact, normalise, slugify
from kg.resolve.resolver import VOTING_TYPES, resolve

__all__ = [
    "ALIASES",
    "VOTING_TYPES",
    "compact",
    "is_generic",
    "normalise",
    "refers_to_own_method",
    "resolve",
    "slugify",
]
