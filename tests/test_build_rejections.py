"""A build over bad inputs: every document accounted for, rejections reported, --strict fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kg
from kg.cli import main
from kg.errors import UserError

pytestmark = pytest.mark.slow

BAD = Path(__file__).resolve().parent / "data" / "bad_inputs"
MIXTURE = ["latin1_mixture.csv", "malformed_lines.jsonl", "empty_abstracts.jsonl", "html.jsonl", "latex.jsonl", "empty.txt", "atom_broken_entry.xml", "huge_field.jsonl"]


def test_counts_add_up_and_rejections_are_written(tmp_path):
    out = tmp_path / "out"
    report = kg.build([str(BAD / name) for name in MIXTURE], out)
    assert report.rejected > 0 and report.built > 0
    assert report.read == report.built + report.duplicates + report.rejected
    rows = [json.loads(line) for line in (out / "rejected.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == report.rejected
    for row in rows:
        assert row["source"].split(":")[0].endswith(tuple(MIXTURE)) and row["reason"] and row["code"].startswith("E1")
    papers = kg.load(out).select("SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }")[0]["n"]
    assert papers == report.papers == report.built


def test_cli_reports_each_rejection_on_stderr(tmp_path, capsys):
    code = main(["build", str(BAD / "malformed_lines.jsonl"), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 0
    rejected = [line for line in err.splitlines() if line.startswith("kg: rejected: ")]
    assert rejected and all("malformed_lines.jsonl:" in line for line in rejected)


def test_strict_fails_and_leaves_previous_outputs(tmp_path):
    out = tmp_path / "out"
    kg.build([str(BAD / "html.jsonl")], out)
    before = (out / "graph.nt").read_bytes()
    with pytest.raises(UserError, match="E309"):
        kg.build([str(BAD / "malformed_lines.jsonl")], out, strict=True)
    assert (out / "graph.nt").read_bytes() == before
    assert (out / "rejected.jsonl").read_text(encoding="utf-8").strip()
