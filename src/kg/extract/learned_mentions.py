"""The learned mention model: a span categoriser trained on kg's own annotated corpus.

``kg train mentions`` (:mod:`kg.training.mentions`) trains it on the corpus's
located entity forms; the shipped model lives in ``kg/extract/model_mentions``.
:func:`add_mention_model` puts it in a pipeline before ``kg_mentions``, which
reads ``doc.spans["kg_learned"]`` as one more candidate source
(:func:`kg.extract.mentions.find_mentions`). Importing this module loads no model.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

#: The ``doc.spans`` key the model writes, and the pipe's name.
MENTIONS_KEY = "kg_learned"
MENTION_PIPE = "kg_learned_mentions"


def default_model_dir() -> Path:
    """The shipped model's folder (it may be absent in a source checkout that never trained one)."""
    return Path(str(files("kg.extract").joinpath("model_mentions")))


def add_mention_model(nlp: Any, model_dir: Path | None = None, *, before: str | None = None) -> bool:
    """Add the learned mention component to ``nlp`` when its model is there; say whether it was."""
    folder = model_dir or default_model_dir()
    meta_path = folder / "meta.json"
    if not meta_path.is_file():
        return False
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    import kg.extract.scierc.entities  # noqa: F401  (registers the span suggester the config names)

    pipe = nlp.add_pipe(meta["entity_factory"], name=MENTION_PIPE, config=meta["entity_config"], before=before)
    pipe.from_disk(folder / MENTION_PIPE, exclude=["vocab"])
    pipe.cfg["threshold"] = meta.get("entity_threshold")
    return True
