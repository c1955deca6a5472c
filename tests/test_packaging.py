"""What a wheel carries: every package of src/kg is declared, so `pip install .` (not only an editable install) has it."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_under_src_kg_is_declared_in_pyproject():
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT / "src").parts)
        for init in (ROOT / "src" / "kg").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found <= declared, f"packages missing from pyproject.toml: {sorted(found - declared)}"


def test_the_shipped_models_are_package_data():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["kg"]
    for folder in ("extract/scierc/model", "extract/scierc/model_minilm", "extract/model_mentions"):
        assert any(pattern.startswith(folder + "/") for pattern in data), folder
