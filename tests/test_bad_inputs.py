"""Bad input gets a clear Rejection, output is always valid, and nothing is lost.

The corpus in ``tests/data/bad_inputs`` (made by its ``make_cases.py``) has one
file per case and the expected outcome of each in ``cases.json``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import MESSAGES
from kg.model import Paper, Rejection
from kg.readers import FORMATS, read_inputs
from kg.readers._decode import decode

CORPUS = Path(__file__).parent / "data" / "bad_inputs"
CASES = json.loads((CORPUS / "cases.json").read_text(encoding="utf-8"))
SOURCE = re.compile(r"^(?P<path>.+?)(?::(?P<line>\d+)|:entry (?P<entry>\d+))?$")


def _fuzz_module():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "fuzz_readers.py"
    spec = importlib.util.spec_from_file_location("fuzz_readers", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


FUZZ = _fuzz_module()


def test_corpus_is_large_enough():
    assert len(CASES) >= 30
    assert {file.name for file in CORPUS.iterdir()} >= {case["file"] for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=[case["file"] for case in CASES])
def test_bad_input_case(case: dict):
    path = CORPUS / case["file"]
    warnings: list[str] = []
    items = list(read_inputs([path], on_warning=warnings.append))
    papers = [item for item in items if isinstance(item, Paper)]
    rejected = [item for item in items if isinstance(item, Rejection)]
    assert len(items) == len(papers) + len(rejected), "only Papers and Rejections come out"
    assert len(papers) == case["papers"], case["why"]
    assert dict(Counter(item.code for item in rejected)) == case["rejections"], case["why"]
    assert bool(warnings) == case["warns"], warnings
    assert all(str(path) in warning and "decoded as" in warning for warning in warnings)
    abstracts = " ".join(paper.abstract for paper in papers)
    for wanted in case["contains"]:
        assert wanted in abstracts
    for unwanted in case["excludes"]:
        assert unwanted not in abstracts
    for item in items:
        match = SOURCE.match(item.source)
        assert match and match["path"] == str(path), item.source
    for item in rejected:
        assert item.code in MESSAGES and "\n" not in item.reason
        assert item.reason.startswith(item.source) or str(path) in item.reason


@pytest.mark.parametrize("case", [case for case in CASES if case["file"].endswith(".jsonl")], ids=lambda c: c["file"])
def test_every_json_line_is_accounted_for(case: dict):
    """Nothing is lost: each non-blank line is one Paper or one Rejection."""
    text, _ = decode((CORPUS / case["file"]).read_bytes())
    lines = sum(1 for line in text.split("\n") if line.strip())
    if lines:
        assert lines == case["papers"] + sum(case["rejections"].values())


def test_bad_file_among_good_ones_becomes_a_rejection(tmp_path: Path):
    good = tmp_path / "good.txt"
    good.write_text("Header\n\nA perfectly good abstract.\n")
    broken_link = tmp_path / "gone.jsonl"
    broken_link.symlink_to(tmp_path / "nowhere.jsonl")
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    items = list(read_inputs([broken_link, fifo, good]))
    assert [type(item).__name__ for item in items] == ["Rejection", "Rejection", "Paper"]
    assert [item.code for item in items[:2]] == ["E102", "E102"]
    assert items[0].source == str(broken_link) and items[1].source == str(fifo)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
def test_permission_denied_is_a_rejection(tmp_path: Path):
    locked = tmp_path / "locked.jsonl"
    locked.write_text('{"abstract": "x"}\n')
    locked.chmod(0)
    try:
        (item,) = read_inputs([locked])
    finally:
        locked.chmod(0o600)
    assert item.code == "E102" and "ermission" in item.reason


def test_read_error_is_a_rejection_even_as_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    target = tmp_path / "a.jsonl"
    target.write_text('{"abstract": "x"}\n')

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "open", refuse)
    (item,) = read_inputs([target])
    assert (item.code, item.source) == ("E102", str(target)) and "Permission denied" in item.reason


def test_whole_corpus_at_once_adds_up():
    """Read as one folder (cases.json, itself a .json file, aside), every case still counts."""
    items = [item for item in read_inputs([CORPUS]) if not item.source.startswith(str(CORPUS / "cases.json"))]
    expected = sum(case["papers"] + sum(case["rejections"].values()) for case in CASES)
    assert len(items) == expected


@pytest.mark.parametrize("name", sorted(FORMATS))
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_parsers_never_raise(name: str, data: st.DataObject):
    """Each parse_<fmt> only yields valid Papers and one-line Rejections, whatever it is fed."""
    kind = data.draw(st.sampled_from(sorted(FUZZ.INPUTS)))
    FUZZ.check(name, data.draw(FUZZ.INPUTS[kind](name)))


def test_documented_outcomes_match_the_cases():
    """docs/INPUTS.md lists every case with the outcome the tests check."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "INPUTS.md").read_text(encoding="utf-8")
    cases = json.loads((root / "tests" / "data" / "bad_inputs" / "cases.json").read_text(encoding="utf-8"))
    for case in cases:
        rejections = ", ".join(f"{n}× {code}" for code, n in sorted(case["rejections"].items())) or "—"
        assert f"| `{case['file']}` | {case['papers']} | {rejections} |" in doc, case["file"]
