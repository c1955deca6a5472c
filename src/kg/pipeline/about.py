"""What this installation is: versions of kg, spaCy and its model, the shipped models, the extras.

``kg --version`` and ``kg info`` print it, so a bug report can say exactly what
made a graph. Nothing is loaded: versions come from the installed distributions'
metadata and the models' own ``meta.json``.

>>> about = installation()
>>> sorted(about) == ['distribution', 'extractor', 'extras', 'kg', 'models', 'python', 'spacy', 'spacy_model']
True
"""

from __future__ import annotations

import json
import platform
import re
from importlib import metadata
from importlib.resources import files
from typing import Any

__all__ = ["DISTRIBUTION", "distribution_name", "installation", "version"]

# The name kg is published under; the import package and the command stay `kg`
# (PyPI's `kg` is an unrelated project).
DISTRIBUTION = "kg-lit"

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def distribution_name() -> str | None:
    """The installed distribution that provides the ``kg`` package (``kg-lit``; ``kg`` in old checkouts)."""
    names = metadata.packages_distributions().get("kg", [])
    for name in names:
        if _normalise(name) == _normalise(DISTRIBUTION):
            return name
    return names[0] if names else None


def version() -> str:
    """kg's version: the installed distribution's, else the package's own ``__version__``."""
    import kg

    name = distribution_name()
    if name is not None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover - metadata removed under us
            pass
    return kg.__version__


def installation() -> dict[str, Any]:
    """Versions of kg, Python, spaCy, the spaCy model, the shipped models and extractor, and each extra's state."""
    from kg.extract import EXTRACTOR_VERSION
    from kg.pipeline.plan import model_fingerprint

    return {
        "kg": version(),
        "distribution": distribution_name() or "not installed (run from a source tree)",
        "python": platform.python_version(),
        "spacy": _installed("spacy") or "not installed",
        "spacy_model": _spacy_model(),
        "models": _shipped_models(),
        "extractor": {"version": EXTRACTOR_VERSION, "models": model_fingerprint()},
        "extras": _extras(),
    }


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _spacy_model() -> str:
    from kg.errors import UserError
    from kg.extract.loader import resolve_model_name

    try:
        name = resolve_model_name()
    except UserError:
        return "none installed"
    found = _installed(name) or _installed(name.replace("_", "-"))
    return f"{name} {found}" if found else name


def _shipped_models() -> dict[str, str]:
    """Each model shipped inside the package: its format and, for MiniLM, whether it can run here."""
    models = {}
    for name, package, folder in (
        ("default", "kg.extract.scierc", "model"),
        ("minilm", "kg.extract.scierc", "model_minilm"),
        ("mentions", "kg.extract", "model_mentions"),
    ):
        meta_path = files(package).joinpath(folder, "meta.json")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            models[name] = "missing"
            continue
        trained = f"spaCy {meta['spacy']}" if meta.get("spacy") else meta.get("base_encoder", "?")
        line = f"format {meta.get('format', '?')}, trained with {trained}"
        if name == "minilm" and _installed("torch") is None:
            line += " (needs the transformer extra)"
        models[name] = line
    return models


def _extras() -> dict[str, str]:
    """Each extra of the distribution: ``installed``, or the packages it still lacks."""
    name = distribution_name()
    if name is None:
        return {}
    needs: dict[str, list[str]] = {}
    for requirement in metadata.requires(name) or []:
        extra, package = _EXTRA.search(requirement), _NAME.match(requirement)
        if extra is None or package is None:
            continue
        needs.setdefault(extra.group(1), [])
        if _normalise(package.group(1)) not in (_normalise(name), _normalise(DISTRIBUTION)):
            needs[extra.group(1)].append(package.group(1))
    return {extra: _missing(packages) for extra, packages in sorted(needs.items())}


def _missing(packages: list[str]) -> str:
    lacking = sorted({p for p in packages if _installed(p) is None})
    return "installed" if not lacking else "missing " + ", ".join(lacking)
