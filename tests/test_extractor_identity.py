"""The cache key follows what extraction runs: its code and word tables, not only a hand-bumped version."""

from __future__ import annotations

import importlib.resources
import os

from kg.pipeline import plan


def test_an_edited_rule_or_word_table_changes_the_fingerprint(tmp_path, monkeypatch):
    package = tmp_path / "extract"
    (package / "data").mkdir(parents=True)
    (package / "rules.py").write_text("CUES = ('propose',)\n")
    (package / "data" / "methods.txt").write_text("transformer\n")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "rules.pyc").write_bytes(b"x")
    monkeypatch.setattr(importlib.resources, "files", lambda name: package)
    first = plan.extractor_code_hash()
    (package / "__pycache__" / "rules.pyc").write_bytes(b"changed")  # compiled caches do not count
    assert plan.extractor_code_hash() == first
    (package / "data" / "methods.txt").write_text("transformer\nmamba\n")
    second = plan.extractor_code_hash()
    assert second != first
    (package / "rules.py").write_text("CUES = ('propose', 'present')\n")
    os.utime(package / "rules.py", ns=(1, 1))
    assert plan.extractor_code_hash() not in (first, second)
