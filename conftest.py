"""Repository-wide pytest settings: skip the doctests of modules whose extra is not installed."""

from __future__ import annotations

import importlib.util

#: Modules that import torch and transformers (the ``transformer`` extra) at import time.
_NEEDS_TRANSFORMER = ["src/kg/extract/scierc/encoder.py", "src/kg/training/encoder_train.py"]

collect_ignore = [] if all(importlib.util.find_spec(m) for m in ("torch", "transformers")) else _NEEDS_TRANSFORMER

#: Modules that import Starlette, uvicorn or pebble (the ``serve`` extra) at import time.
_NEEDS_SERVE = ["src/kg/serve/app.py", "src/kg/serve/server.py", "src/kg/serve/pool.py"]

if not all(importlib.util.find_spec(m) for m in ("starlette", "uvicorn", "pebble", "jinja2")):
    collect_ignore += _NEEDS_SERVE
