"""The notebooks run end to end against a real build, and are committed without outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_the_three_notebooks_are_there():
    assert [p.stem for p in NOTEBOOKS] == ["01-build-and-query", "02-analysis", "03-extending-the-extractor"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_committed_without_outputs(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert code
    assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)


def _outputs(cell: dict) -> str:
    """The text of everything a cell showed (plain text, HTML tables, stream output)."""
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", "") if output["output_type"] == "stream" else "")
        data = output.get("data", {})
        parts.append(data.get("text/plain", "") + data.get("text/html", ""))
    return "".join("".join(p) if isinstance(p, list) else p for p in parts)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, seed_build, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    monkeypatch.setenv("KG_BUILD", str(seed_build[0]))
    book = nbformat.read(path, as_version=4)
    # Raises CellExecutionError, with the failing cell and its traceback, if any cell fails.
    nbclient.NotebookClient(book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    code = [c for c in book.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code)
    shown = [_outputs(c) for c in code]
    assert all(shown[1:]), "every code cell after the setup shows a result"
    if path.stem == "02-analysis":
        figures = sum("image/png" in o.get("data", {}) for c in code for o in c.outputs)
        assert figures >= 5
        assert "entities.gexf" in shown[-1]
    if path.stem == "03-extending-the-extractor":
        assert "Stripes" not in shown[1] and "('evaluatedOn', 'Stripes')" in shown[2]
        before, after = eval(shown[3])  # noqa: S307 - our notebook printed two lists of ints
        assert after[1] < before[1] and after[0] == before[0]
        assert "Stripes" in shown[-1]
