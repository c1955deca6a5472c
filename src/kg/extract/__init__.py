"""Extraction: from a Paper's abstract to mentions, acronyms and facts (spaCy components).

Public surface:

- :func:`load_pipeline` - an installed small English model without NER, plus the
  ``kg_*`` components (and the trained SciERC ones when available);
- :func:`extract` - one :class:`~kg.model.Extraction` per paper, streamed, in order;
- :data:`EXTRACTOR_VERSION` - part of every ``Fact.extractor`` and of the cache key.
"""

from __future__ import annotations

# First, before the modules below import spaCy: it imports spaCy without torch.
import kg.extract.spacy_import  # noqa: F401
from kg.extract.annotations import EXTRACTOR_VERSION
from kg.extract.loader import load_pipeline
from kg.extract.run import extract, split_text

__all__ = ["EXTRACTOR_VERSION", "extract", "load_pipeline", "split_text"]
