"""What a build did (:class:`BuildReport`, returned by the build) and how it reports progress (:data:`Progress`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.model import Rejection

__all__ = ["BuildReport", "Progress", "Warn", "no_progress", "no_warning"]

#: Called as ``progress(stage, done, total)`` while a build works; ``total`` may be None.
Progress = Callable[[str, int, "int | None"], None]
#: Receives one line per non-fatal note (a file skipped, papers re-extracted).
Warn = Callable[[str], None]


@dataclass(frozen=True)
class BuildReport:
    """What a build did: the counts add up as ``read == built + duplicates + rejected``.

    Made once, when the build (or removal) is done, from what each step returned.
    """

    out: Path
    read: int = 0
    built: int = 0
    duplicates: int = 0
    rejected: int = 0
    papers: int = 0
    extracted: int = 0
    from_cache: int = 0
    removed: int = 0
    entities: int = 0
    triples: int = 0
    stats: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    resolution: Mapping[str, Any] = field(default_factory=dict)
    iri_changes: tuple[Mapping[str, str], ...] = ()
    rejections: tuple[Rejection, ...] = ()
    files: tuple[Path, ...] = ()
    seconds: Mapping[str, float] = field(default_factory=dict)


def no_progress(stage: str, done: int, total: int | None) -> None:
    return None


def no_warning(message: str) -> None:
    return None
