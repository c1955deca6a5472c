"""Importing spaCy without torch, which only kg's MiniLM model needs.

thinc, the machine-learning library under spaCy, imports torch whenever torch is
installed (the ``transformer`` extra), to offer its torch layers: about 280 MB and
seconds on a cold cache, paid by every build. kg's default pipeline uses none of
thinc's torch layers, and the MiniLM model (``--model minilm``) imports torch
itself, not through thinc. So :func:`import_spacy` hides torch while spaCy, and
with it thinc, is first imported, and torch loads only when MiniLM asks for it.
Importing this module does it: ``kg.extract`` imports it before anything else.

The cost: in a process where kg imported spaCy first, thinc has no torch layers,
so a pipeline built on them (``en_core_web_trf``) cannot run beside kg's. Import
torch before kg's extraction to keep them: torch already imported is left alone.
"""

from __future__ import annotations

import sys

__all__ = ["import_spacy"]


def import_spacy() -> None:
    """Import spaCy, hiding torch from thinc unless torch or thinc is already imported."""
    if "torch" in sys.modules or "thinc" in sys.modules:
        return
    sys.modules["torch"] = None  # type: ignore[assignment]  # while it is None, `import torch` raises ImportError
    try:
        import spacy  # noqa: F401
    finally:
        if sys.modules.get("torch", False) is None:
            del sys.modules["torch"]


import_spacy()
