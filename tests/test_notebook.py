"""The example notebook's code runs against a real build."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "explore.ipynb"


def test_notebook_cells_run(seed_build, monkeypatch):
    pytest.importorskip("pandas")
    monkeypatch.setenv("KG_BUILD", str(seed_build[0]))
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    namespace: dict = {}
    for cell in cells:
        if cell["cell_type"] == "code":
            exec("".join(cell["source"]), namespace)  # noqa: S102 - our own notebook
    assert len(namespace["facts"]) > 0
    assert set(namespace["facts"].columns) >= {"paper_id", "relation", "evidence", "confidence"}
    assert namespace["hubs"]
