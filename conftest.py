"""Repository-wide pytest settings: skip the doctests of modules whose extra is not installed."""

from __future__ import annotations

import importlib.util

#: Modules that import torch and transformers (the ``transformer`` extra) at import time.
_NEEDS_TRANSFORMER = ["src/kg/scierc/encoder.py", "src/kg/scierc/encoder_train.py"]

collect_ignore = [] if all(importlib.util.find_spec(m) for m in ("torch", "transformers")) else _NEEDS_TRANSFORMER
