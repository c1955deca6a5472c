"""facts.csv: one row per fact and paper, exact text through csv and pandas."""

from __future__ import annotations

import csv
import io

import pytest

from kg.export.csv import FIELDS, read_facts, read_facts_frame, write_facts_csv, write_rows
from kg.views import FactRow
from tests.test_export_support import small_kg

TRICKY = 'He said "no", then\r\nleft; NA, null, =1+1, 007'


@pytest.fixture(scope="module")
def kg():
    return small_kg(label="Ber,T \"x\"", evidence=TRICKY)


def test_columns_are_the_fact_row_fields():
    assert FIELDS == FactRow._fields


def test_one_row_per_fact_and_paper_exactly(kg, tmp_path):
    path = tmp_path / "facts.csv"
    write_facts_csv(kg, path)
    assert read_facts(path) == [row._asdict() for row in kg.facts()]
    assert any(row["evidence"] == TRICKY for row in read_facts(path))


def test_file_is_utf8_with_crlf_rows_and_no_bom(kg, tmp_path):
    path = tmp_path / "facts.csv"
    write_facts_csv(kg, path)
    data = path.read_bytes()
    assert data.startswith(b"paper_id,subject,")
    assert data.split(b"\r\n", 1)[0] == ",".join(FIELDS).encode()


def test_pandas_loads_it_straight_and_exactly(kg, tmp_path):
    pd = pytest.importorskip("pandas")
    path = tmp_path / "facts.csv"
    write_facts_csv(kg, path)
    plain = pd.read_csv(path)  # "loads straight into pandas", with pandas' own guesses
    assert list(plain.columns) == list(FIELDS) and len(plain) == len(list(kg.facts()))
    frame = read_facts_frame(path)
    assert frame.to_dict("records") == [row._asdict() for row in kg.facts()]


def test_rows_of_the_wrong_width_are_refused():
    with pytest.raises(ValueError):
        write_rows([("only", "three", "fields")], io.StringIO(newline=""))


def test_floats_are_written_exactly():
    out = io.StringIO(newline="")
    row = ("p", "s", "", "", "r", "o", "", "", "", 0.1 + 0.2, "x", "")
    write_rows([row], out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue(), newline="")))
    assert float(rows[0]["confidence"]) == 0.1 + 0.2 and rows[0]["subject_label"] == ""
