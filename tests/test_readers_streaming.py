"""Readers stream: a file is read line by line, records too long to hold and abstracts too long to extract are rejected.

Memory itself is measured by ``benchmarks/readers_memory.py``, not asserted here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.model import Paper, Rejection
from kg.readers import MAX_ABSTRACT_CHARS, parse_csv, parse_jsonl, parse_text, read_inputs
from kg.readers import _decode, jsonl, tabular, text

A1 = "We propose FooNet, a network for image classification."
A2 = "BarNet outperforms FooNet on CIFAR-10 by 2 points."
LIMIT = 200


@pytest.fixture
def small_records(monkeypatch: pytest.MonkeyPatch) -> int:
    """A record limit of ``LIMIT`` characters everywhere the readers look it up."""
    for module in (_decode, jsonl, tabular, text):
        monkeypatch.setattr(module, "MAX_RECORD_CHARS", LIMIT)
    return LIMIT


def outcomes(items: object) -> list[tuple[str, str]]:
    return [(item.source, item.code if isinstance(item, Rejection) else "paper") for item in items]  # type: ignore[attr-defined]


def test_lines_are_read_lazily(tmp_path: Path):
    """Records come out before the file is read to its end."""
    path = tmp_path / "many.jsonl"
    path.write_text("".join(json.dumps({"id": str(i), "abstract": A1}) + "\n" for i in range(5000)))
    items = read_inputs([path])
    first = next(items)
    assert isinstance(first, Paper) and first.id == "0"
    loaded = _decode.load_lines(path)
    assert not isinstance(loaded, Rejection)
    assert loaded[0] == json.dumps({"id": "0", "abstract": A1})
    loaded[1].close()


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_file_and_text_read_the_same(tmp_path: Path, ending: str):
    rows = ["", "  ", json.dumps({"abstract": A1}), "{broken", json.dumps({"abstract": A2}), ""]
    path = tmp_path / "x.jsonl"
    path.write_bytes(ending.join(rows).encode("utf-8"))
    from_file = [(item.source.rsplit(":", 1)[1], getattr(item, "code", "paper")) for item in read_inputs([path])]
    from_text = [(item.source.rsplit(":", 1)[1], getattr(item, "code", "paper")) for item in parse_jsonl("\n".join(rows), "x")]
    assert from_file == from_text == [("3", "paper"), ("4", "E104"), ("5", "paper")]


def test_non_utf8_past_the_sample_is_still_detected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The guess looks past the file's head, at its first non-UTF-8 byte."""
    monkeypatch.setattr(_decode, "SAMPLE_BYTES", 256)
    path = tmp_path / "late.jsonl"
    ascii_rows = "".join(json.dumps({"abstract": f"{A1} {i}"}) + "\n" for i in range(20))
    late = json.dumps({"abstract": "Les réseaux profonds sont très utilisés."}, ensure_ascii=False)
    path.write_bytes(ascii_rows.encode() + late.encode("cp1252") + b"\n")
    warnings: list[str] = []
    items = list(read_inputs([path], on_warning=warnings.append))
    assert items[-1].abstract == "Les réseaux profonds sont très utilisés."  # type: ignore[union-attr]
    assert len(warnings) == 1 and "cp1252" in warnings[0]


def test_long_json_line_is_rejected_and_reading_goes_on(tmp_path: Path, small_records: int):
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"abstract": A1}) + "\n" + json.dumps({"abstract": "x " * small_records}) + "\n"
                    + json.dumps({"abstract": A2}) + "\n")
    assert outcomes(read_inputs([path])) == [(f"{path}:1", "paper"), (f"{path}:2", "E116"), (f"{path}:3", "paper")]


def test_long_array_element_is_rejected_and_reading_resumes(small_records: int):
    elements = [{"abstract": A1}, {"abstract": "y " * small_records}, {"abstract": A2}]
    text_ = json.dumps(elements, indent=1)
    result = outcomes(parse_jsonl(text_, "a.json"))
    assert [code for _, code in result] == ["paper", "E116", "paper"]


def test_array_elements_over_many_lines_stream(tmp_path: Path):
    """A pretty-printed array is read element by element, with each element's first line."""
    path = tmp_path / "pretty.json"
    path.write_text(json.dumps([{"id": str(i), "abstract": f"{A1} {i}"} for i in range(300)], indent=2))
    items = list(read_inputs([path]))
    assert [item.id for item in items] == [str(i) for i in range(300)]  # type: ignore[union-attr]
    assert items[1].source == f"{path}:6"  # "[", then four lines per element


def test_unclosed_csv_quote_past_the_limit_is_rejected_alone(small_records: int):
    rows = 'id,abstract\n1,"never closed\n' + "".join(f"{i},Row {i} reads.\n" for i in range(2, 40))
    result = outcomes(parse_csv(rows, "c.csv"))
    assert result[0] == ("c.csv:2", "E116")
    assert result[1:] == [(f"c.csv:{i + 1}", "paper") for i in range(2, 40)]


def test_long_paragraph_is_rejected_and_the_next_reads(small_records: int):
    long_paragraph = "\n".join(["A long line of words here."] * 20)
    result = outcomes(parse_text(f"Header\n\n{A1}\n\n{long_paragraph}\n\n{A2}\n", "t.txt"))
    assert result == [("t.txt:3", "paper"), ("t.txt:5", "E116"), ("t.txt:26", "paper")]


def test_overlong_line_is_cut_while_read(tmp_path: Path, small_records: int):
    path = tmp_path / "wide.txt"
    path.write_text("Header\n\n" + "w" * (small_records * 50) + "\n\n" + A1 + "\n")
    loaded = _decode.load_lines(path)
    assert not isinstance(loaded, Rejection)
    assert max(map(len, loaded[1])) == small_records + 1
    assert outcomes(read_inputs([path])) == [(f"{path}:3", "E116"), (f"{path}:5", "paper")]


def test_abstract_over_the_limit_is_rejected_naming_the_paper(tmp_path: Path):
    path = tmp_path / "full_text.jsonl"
    long_abstract = "Words of a full text. " * (MAX_ABSTRACT_CHARS // 20)
    path.write_text(json.dumps({"id": "p-long", "abstract": long_abstract}) + "\n" + json.dumps({"abstract": A1}) + "\n")
    long_one, short_one = read_inputs([path])
    assert isinstance(long_one, Rejection) and long_one.code == "E115"
    assert long_one.source == f"{path}:1" and "p-long" in long_one.reason and str(MAX_ABSTRACT_CHARS) in long_one.reason
    assert isinstance(short_one, Paper)
    (kept, _) = read_inputs([path], max_abstract_chars=None)
    assert isinstance(kept, Paper) and kept.id == "p-long"


def test_abstract_exactly_at_the_limit_is_kept(tmp_path: Path):
    path = tmp_path / "edge.jsonl"
    path.write_text(json.dumps({"abstract": "a" * 50}) + "\n")
    assert isinstance(next(read_inputs([path], max_abstract_chars=50)), Paper)
    assert next(read_inputs([path], max_abstract_chars=49)).code == "E115"  # type: ignore[union-attr]
