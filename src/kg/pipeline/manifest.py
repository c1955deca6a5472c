"""The build folder's manifest: what one generation holds and what made it.

``DIR/manifest.json`` is written last into each generation. It lists the
papers (and their cache keys), the entities' surface forms, the resolver's
report, the models and extractor version the build used, and the files of the
generation; ``--update`` and ``kg remove`` start from it. This module is the
only place that reads or writes it.

Schema versions: 1 is the untyped manifest of kg before this module (no
``schema`` field; read as is), 2 adds ``schema``, ``generation`` and ``files``.

>>> m = Manifest(papers=("p1",), cache_keys=("k1",), extractor_version="v")
>>> Manifest.from_json(m.to_json()) == m
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from kg.errors import UserError
from kg.io import atomic_write

__all__ = ["MANIFEST", "SCHEMA", "Manifest", "read_manifest", "write_manifest"]

MANIFEST = "manifest.json"
#: The manifest schema this kg writes; it reads this one and every older one.
SCHEMA = 2


@dataclass(frozen=True)
class Manifest:
    """One generation of a build folder, as recorded in ``manifest.json``."""

    papers: tuple[str, ...]
    cache_keys: tuple[str, ...]
    extractor_version: str
    spacy_model: str | None = None
    scierc_model: str | None = None
    min_confidence: float = 0.0
    entities: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    resolution: Mapping[str, Any] = field(default_factory=dict)
    stats: Mapping[str, Any] = field(default_factory=dict)
    files: tuple[str, ...] = ()
    generation: int = 1
    schema: int = SCHEMA

    def to_json(self) -> str:
        """The manifest as JSON text (sorted keys, so equal manifests give equal bytes)."""
        data = asdict(self)
        if self.scierc_model is None:
            del data["scierc_model"]  # as kg wrote it before schema 2
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        """Parse a manifest; ``ValueError`` (with the reason) if it is not one."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"a JSON {type(data).__name__}, not an object")
        schema = data.get("schema", 1)
        if not isinstance(schema, int):
            raise ValueError("'schema' is not a number")
        if schema > SCHEMA:
            raise _TooNew(schema)
        for name in ("papers", "cache_keys", "extractor_version"):
            if name not in data:
                raise ValueError(f"no {name!r} field")
        papers, keys = data["papers"], data["cache_keys"]
        if not (_strings(papers) and _strings(keys) and len(papers) == len(keys)):
            raise ValueError("'papers' and 'cache_keys' are not two lists of strings of one length")
        if not isinstance(data["extractor_version"], str):
            raise ValueError("'extractor_version' is not a string")
        entities = data.get("entities") or {}
        if not isinstance(entities, dict) or not all(_strings(forms) for forms in entities.values()):
            raise ValueError("'entities' is not an object of string lists")
        for name, (fits, kind) in _TYPED.items():
            if name in data and not fits(data[name]):
                raise ValueError(f"{name!r} is not {kind}")
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values.update(
            papers=tuple(papers), cache_keys=tuple(keys), files=tuple(data.get("files") or ()), schema=SCHEMA,
            entities={key: tuple(forms) for key, forms in entities.items()},
            min_confidence=float(data.get("min_confidence") or 0.0),
        )
        return cls(**values)


class _TooNew(ValueError):
    def __init__(self, schema: int) -> None:
        self.schema = schema
        super().__init__(f"schema {schema}")


def _strings(value: object) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(item, str) for item in value)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: The optional fields, each with a test of its type and the type in words: a wrong type is named on
#: reading (E317), where it would otherwise be a TypeError deep in a build that cannot repair it.
_TYPED: dict[str, tuple[Any, str]] = {
    "generation": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, "a whole number"),
    "min_confidence": (lambda v: v is None or (_number(v) and 0 <= v <= 1), "a number from 0 to 1"),
    "spacy_model": (lambda v: v is None or isinstance(v, str), "a string"),
    "scierc_model": (lambda v: v is None or isinstance(v, str), "a string"),
    "files": (lambda v: v is None or _strings(v), "a list of strings"),
    "resolution": (lambda v: isinstance(v, dict), "an object"),
    "stats": (lambda v: isinstance(v, dict), "an object"),
}


def read_manifest(folder: Path) -> Manifest:
    """The manifest of a build folder.

    Raises ``UserError`` E307 if there is none, E317 (naming the file and the
    fix) if it is not a manifest, E318 if a newer kg wrote it.
    """
    path = Path(folder) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        raise UserError("E307", path=folder) from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError("E317", path=path, reason=str(error), folder=folder) from None
    try:
        return Manifest.from_json(text)
    except _TooNew as error:
        raise UserError("E318", path=path, found=error.schema, known=SCHEMA) from None
    except (ValueError, TypeError) as error:
        raise UserError("E317", path=path, reason=str(error).splitlines()[0], folder=folder) from None


def write_manifest(folder: Path, manifest: Manifest) -> Path:
    """Write ``folder/manifest.json`` atomically; returns its path."""
    path = Path(folder) / MANIFEST
    with atomic_write(path, "w") as handle:
        handle.write(manifest.to_json())
    return path
