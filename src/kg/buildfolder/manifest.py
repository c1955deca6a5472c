"""The build folder's manifest: what one generation holds and what made it.

A :class:`Manifest` lists the papers (and their cache keys), the entities'
surface forms, the resolver's report, the :class:`BuildSettings` and
extractor version the build used, and the files of the generation;
``--update`` and ``kg remove`` start from it. This module turns it into JSON
and back; :class:`kg.buildfolder.BuildFolder` reads and writes the file.

Schema versions: 1 is the untyped manifest of kg before this module (no
``schema`` field; read as is), 2 adds ``schema``, ``generation`` and ``files``,
3 gathers ``spacy_model``, ``scierc_model`` and ``min_confidence`` into one
``settings`` object. Every older schema is read into the same dataclasses.

>>> m = Manifest(papers=("p1",), cache_keys=("k1",), extractor_version="v", settings=BuildSettings(min_confidence=0.5))
>>> Manifest.from_json(m.to_json()) == m
True
>>> old = '{"papers": [], "cache_keys": [], "extractor_version": "v", "spacy_model": "en", "min_confidence": 0.2}'
>>> Manifest.from_json(old).settings
BuildSettings(spacy_model='en', scierc_model=None, min_confidence=0.2)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from kg.errors import UserError

__all__ = ["SCHEMA", "BuildSettings", "Manifest", "TooNew"]

#: The manifest schema this kg writes; it reads this one and every older one.
SCHEMA = 3


@dataclass(frozen=True)
class BuildSettings:
    """What decides the graph a build folder holds, kept in its manifest for ``--update`` and ``kg remove``.

    ``spacy_model`` and ``scierc_model`` name the models (``None``: the
    defaults); facts scored below ``min_confidence`` are dropped. A field left
    ``None`` is not given: :meth:`over` takes it from the folder's settings.

    >>> BuildSettings(min_confidence=2)
    Traceback (most recent call last):
    ...
    kg.errors.UserError: E311: invalid option: --min-confidence must be between 0 and 1, not 2
    """

    spacy_model: str | None = None
    scierc_model: str | None = None
    min_confidence: float | None = None

    def __post_init__(self) -> None:
        if self.min_confidence is not None and not 0.0 <= self.min_confidence <= 1.0:
            raise UserError("E311", reason=f"--min-confidence must be between 0 and 1, not {self.min_confidence}")

    def over(self, previous: BuildSettings | None) -> BuildSettings:
        """These settings, each one not given taken from ``previous`` (a folder's), and a threshold of 0 if neither gives one.

        >>> BuildSettings(scierc_model="minilm").over(BuildSettings("en", "default", 0.3))
        BuildSettings(spacy_model='en', scierc_model='minilm', min_confidence=0.3)
        >>> BuildSettings().over(None).min_confidence
        0.0
        """
        previous = previous or BuildSettings()
        chosen = {f.name: getattr(self, f.name) for f in fields(self)}
        merged = {name: getattr(previous, name) if value is None else value for name, value in chosen.items()}
        return replace(self, **{**merged, "min_confidence": float(merged["min_confidence"] or 0.0)})


@dataclass(frozen=True)
class Manifest:
    """One generation of a build folder, as recorded in ``manifest.json``."""

    papers: tuple[str, ...]
    cache_keys: tuple[str, ...]
    extractor_version: str
    settings: BuildSettings = BuildSettings(min_confidence=0.0)
    entities: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    resolution: Mapping[str, Any] = field(default_factory=dict)
    stats: Mapping[str, Any] = field(default_factory=dict)
    files: tuple[str, ...] = ()
    generation: int = 1
    schema: int = SCHEMA

    def to_json(self) -> str:
        """The manifest as JSON text (sorted keys, so equal manifests give equal bytes)."""
        return json.dumps(asdict(self), ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Manifest:
        """Parse a manifest of any schema up to :data:`SCHEMA`; ``ValueError`` (with the reason) if it is not one,
        :class:`TooNew` if a newer kg wrote it."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError(f"a JSON {type(data).__name__}, not an object")
        schema = data.get("schema", 1)
        if not isinstance(schema, int):
            raise ValueError("'schema' is not a number")
        if schema > SCHEMA:
            raise TooNew(schema)
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
            settings=_settings(data.get("settings", {}) if schema >= 3 else data),  # schemas 1 and 2 keep them at the top
        )
        return cls(**values)


class TooNew(ValueError):
    """A manifest of a schema newer than this kg reads."""

    def __init__(self, schema: int) -> None:
        self.schema = schema
        super().__init__(f"schema {schema}")


def _settings(data: object) -> BuildSettings:
    if not isinstance(data, dict):
        raise ValueError("'settings' is not an object")
    for name, (fits, kind) in _SETTINGS.items():
        if name in data and not fits(data[name]):
            raise ValueError(f"{name!r} is not {kind}")
    return BuildSettings(data.get("spacy_model"), data.get("scierc_model"), float(data.get("min_confidence") or 0.0))


def _strings(value: object) -> bool:
    return isinstance(value, list | tuple) and all(isinstance(item, str) for item in value)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: The optional fields, each with a test of its type and the type in words: a wrong type is named on
#: reading (E317), where it would otherwise be a TypeError deep in a build that cannot repair it.
_TYPED: dict[str, tuple[Any, str]] = {
    "generation": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, "a whole number"),
    "files": (lambda v: v is None or _strings(v), "a list of strings"),
    "resolution": (lambda v: isinstance(v, dict), "an object"),
    "stats": (lambda v: isinstance(v, dict), "an object"),
}
_SETTINGS: dict[str, tuple[Any, str]] = {
    "min_confidence": (lambda v: v is None or (_number(v) and 0 <= v <= 1), "a number from 0 to 1"),
    "spacy_model": (lambda v: v is None or isinstance(v, str), "a string"),
    "scierc_model": (lambda v: v is None or isinstance(v, str), "a string"),
}
