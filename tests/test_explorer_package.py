"""kg.explorer as a package: its assets ship in the wheel, and importing it costs nothing.

What the page does is tested in a browser (``test_explorer_browser.py``, ``test_explorer_served.py``);
its text in ``test_export_html.py``.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from kg.explorer.page import explorer_asset

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "kg"


def test_every_file_of_the_explorer_is_package_data_so_a_wheel_carries_it():
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "kg.explorer" in setuptools["packages"]
    shipped = {path for pattern in setuptools["package-data"]["kg"] for path in PACKAGE.glob(pattern) if path.is_file()}
    assets = {path for path in (PACKAGE / "explorer").rglob("*") if path.is_file() and path.suffix not in (".py", ".pyc")}
    assert {path.name for path in assets} >= {"explorer.js", "explorer.css", "explorer.html"}
    assert assets <= shipped, sorted(str(path.relative_to(PACKAGE)) for path in assets - shipped)


def test_the_assets_are_read_from_the_explorer_package():
    for name in ("explorer.js", "explorer.css", "explorer.html"):
        assert explorer_asset(name) == (PACKAGE / "explorer" / "assets" / name).read_text(encoding="utf-8")


def test_importing_the_package_imports_none_of_its_modules():
    code = "import sys, kg.explorer; print(sorted(m for m in sys.modules if m.startswith('kg.explorer.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
