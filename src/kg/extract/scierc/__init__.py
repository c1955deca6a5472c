"""Trained SciERC components: entities (six types, nested) and relations (seven labels).

Public surface:

* :func:`add_trained_components` (``nlp, model_dir=None``): add the entity
  component (``scierc_spans``, spaCy ``spancat_singlelabel``) and the relation
  component (factory ``kg_scierc_relations``) to a pipeline;
* :mod:`kg.extract.scierc.mapping` (SciERC labels to the graph's vocabulary),
  :mod:`kg.extract.scierc.labels` (the label sets).

Training, scoring and ``kg train``/``kg eval`` live in :mod:`kg.training`, which
nothing here imports.

Output on each Doc: ``doc.spans["scierc"]`` (scores in
``.attrs["scores"]``) and ``doc._.scierc_relations``, tuples
``(head_start, head_end, tail_start, tail_end, label, score)`` with token
offsets and exclusive ends. Importing this package loads no model.
"""

from __future__ import annotations

from typing import Any

__all__ = ["add_trained_components"]


def add_trained_components(nlp: Any, model_dir: Any = None, **kwargs: Any) -> Any:
    """Add the trained SciERC components to ``nlp``; see :func:`kg.extract.scierc.components.add_trained_components`."""
    from kg.extract.scierc.components import add_trained_components as add

    return add(nlp, model_dir, **kwargs)
