"""The build folder has one home: kg.buildfolder names its files, reads its manifest and stamps its generation."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import kg
from kg.buildfolder import (
    CACHE_NAMES,
    EXPORTS,
    OWN_NAMES,
    BuildFolder,
    BuildSettings,
    Manifest,
    is_build_folder,
)
from kg.errors import UserError

SRC = Path(kg.__file__).parent
HOME = SRC / "buildfolder" / "folder.py"
#: The names of a build folder's files, and what else may spell one of them (the file names inside
#: the neo4j export folder, which Neo4j's import tool expects, are not the build folder's).
NAMES = OWN_NAMES | set(EXPORTS) | CACHE_NAMES
ELSEWHERE = {("export/neo4j.py", "facts.csv"), ("export/neo4j.py", "results.csv")}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def names_spelled(path: Path) -> list[tuple[int, str]]:
    """The build folder's names that ``path`` spells as string literals (docstrings, prose to read, aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in NAMES and id(node) not in skip]


def test_only_the_build_folder_module_names_the_build_folders_files():
    spelled = [
        f"{path.relative_to(SRC)}:{line}: {name!r}"
        for path in sorted(SRC.rglob("*.py")) if path != HOME
        for line, name in names_spelled(path) if (path.relative_to(SRC).as_posix(), name) not in ELSEWHERE
    ]
    assert spelled == [], "ask kg.buildfolder.BuildFolder for these paths:\n" + "\n".join(spelled)


def test_the_check_sees_a_name_in_code_and_not_in_a_docstring(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""Reads manifest.json."""\n\ndef f(d):\n    """The "store"."""\n    return d / "manifest.json"\n')
    assert names_spelled(module) == [(5, "manifest.json")]


def test_one_test_of_a_build_folder(tmp_path):
    assert not is_build_folder(tmp_path)
    (tmp_path / "graph.nt").write_text("")
    assert not is_build_folder(tmp_path)  # exports alone are not a build
    BuildFolder(tmp_path).lock.write_text("")
    assert is_build_folder(tmp_path)  # a build is writing it
    other = tmp_path / "other"
    other.mkdir()
    BuildFolder(other).write_manifest(Manifest(papers=(), cache_keys=(), extractor_version="v"))
    assert is_build_folder(other) and BuildFolder.open(other).read_manifest().papers == ()
    with pytest.raises(UserError, match="E307"):
        BuildFolder.open(tmp_path / "nothing")


def test_the_generation_changes_when_a_manifest_is_published(tmp_path):
    folder = BuildFolder(tmp_path)
    empty = folder.generation()
    folder.write_manifest(Manifest(papers=(), cache_keys=(), extractor_version="v"))
    first = folder.generation()
    folder.write_manifest(Manifest(papers=(), cache_keys=(), extractor_version="v", generation=2))
    assert len({empty, first, folder.generation()}) == 3


def test_settings_are_stored_in_the_manifest_and_read_back(tmp_path):
    folder = BuildFolder(tmp_path)
    settings = BuildSettings(spacy_model="en_core_web_sm", scierc_model="minilm", min_confidence=0.4)
    folder.write_manifest(Manifest(papers=("p",), cache_keys=("k",), extractor_version="v", settings=settings))
    data = json.loads(folder.manifest_path.read_text(encoding="utf-8"))
    assert data["schema"] == 3 and data["settings"] == {"spacy_model": "en_core_web_sm", "scierc_model": "minilm", "min_confidence": 0.4}
    assert folder.read_manifest().settings == settings


@pytest.mark.parametrize("schema", [None, 2])
def test_old_manifests_open_with_their_settings(tmp_path, schema):
    """Schemas 1 (no schema field) and 2 kept the settings at the top of the manifest."""
    old = {"papers": ["p"], "cache_keys": ["k"], "extractor_version": "v", "spacy_model": "en", "min_confidence": 0.25}
    if schema is not None:
        old |= {"schema": schema, "scierc_model": "default", "generation": 4, "files": ["graph.nt"]}
    (tmp_path / "manifest.json").write_text(json.dumps(old), encoding="utf-8")
    manifest = BuildFolder(tmp_path).read_manifest()
    assert manifest.settings == BuildSettings("en", "default" if schema else None, 0.25)
    assert manifest.generation == (4 if schema else 1) and manifest.schema == 3


def test_a_setting_of_the_wrong_type_is_named(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"schema": 3, "papers": [], "cache_keys": [], "extractor_version": "v", "settings": {"min_confidence": "high"}}))
    with pytest.raises(UserError, match="E317.*'min_confidence' is not a number from 0 to 1"):
        BuildFolder(tmp_path).read_manifest()


def test_settings_not_given_come_from_the_folder():
    folder = BuildSettings("en", "default", 0.3)
    assert BuildSettings(min_confidence=0.5).over(folder) == BuildSettings("en", "default", 0.5)
    assert BuildSettings().over(None) == BuildSettings(None, None, 0.0)
    with pytest.raises(UserError, match="E311"):
        BuildSettings(min_confidence=1.5)
