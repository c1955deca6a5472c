"""Property tests of the exporters: any text survives GraphML and CSV, and never breaks out of HTML."""

from __future__ import annotations

import csv
import io
import json
import re

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.explorer.page import generate_html, json_for_html
from kg.export.csv import FIELDS, read_facts_frame, write_rows
from kg.export.graphml import generate_graphml, parse_list, xml_safe

# Any text at all: control characters, quotes, backslashes, line breaks of every kind, markup,
# braces; hypothesis leaves out lone surrogates, which no UTF-8 file (nor the store) can hold.
TEXT = st.text()
# Text rich in the characters each format has to treat specially.
SPECIAL = list("<>&\"'\\{}[]/=,;|\r\n\t\x00\x01\x0b\x1f\x85\u2028\u2029\ufffe é")
AWKWARD = st.text(alphabet=st.sampled_from(SPECIAL) | st.characters(codec="utf-8"), max_size=30)
SOME_TEXT = TEXT | AWKWARD
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(label=SOME_TEXT, alts=st.lists(SOME_TEXT, max_size=4), evidence=st.lists(SOME_TEXT, max_size=3),
       key=SOME_TEXT, node=SOME_TEXT)
def test_graphml_round_trips_every_string_but_what_xml_cannot_hold(label, alts, evidence, key, node):
    graph = nx.MultiDiGraph()
    node_id = "n:" + node
    graph.add_node(node_id, label=label, alt_labels=alts, support=1)
    graph.add_edge(node_id, "m", key="k:" + key, evidence=evidence, confidence=0.5)
    back = nx.read_graphml(io.BytesIO(generate_graphml(graph).encode("utf-8")), force_multigraph=True)
    got = back.nodes[xml_safe(node_id)]
    # Documented rule: characters outside XML 1.0 are removed; an empty string reads back as missing.
    assert got.get("label", "") == xml_safe(label)
    assert parse_list(got["alt_labels"]) == [xml_safe(a) for a in alts]
    edge = back.edges[xml_safe(node_id), "m", xml_safe("k:" + key)]
    assert parse_list(edge["evidence"]) == [xml_safe(e) for e in evidence]
    assert edge["confidence"] == 0.5


ROW = st.tuples(*[FLOATS if name == "confidence" else SOME_TEXT for name in FIELDS])


@SETTINGS
@given(rows=st.lists(ROW, min_size=1, max_size=4))
def test_csv_round_trips_every_string_with_the_csv_module(rows):
    out = io.StringIO(newline="")
    write_rows(rows, out)
    back = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert back[0] == list(FIELDS)
    expected = [[repr(v) if isinstance(v, float) else v for v in row] for row in rows]
    assert back[1:] == expected
    assert [float(r[FIELDS.index("confidence")]) for r in back[1:]] == [row[FIELDS.index("confidence")] for row in rows]


@SETTINGS
@given(rows=st.lists(ROW, min_size=1, max_size=4))
def test_csv_round_trips_every_string_with_pandas(tmp_path_factory, rows):
    pytest.importorskip("pandas")
    path = tmp_path_factory.mktemp("csv") / "facts.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        write_rows(rows, handle)
    frame = read_facts_frame(path)
    assert frame.to_dict("records") == [dict(zip(FIELDS, row)) for row in rows]


SENTINEL = "kq7Zx"  # never in vis-network's code, so sentinel+text can only come from our data
UNSAFE = re.compile(r"[<>&\"']")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(label=SOME_TEXT, alt=SOME_TEXT, evidence=SOME_TEXT, kind=SOME_TEXT)
def test_html_never_holds_generated_text_raw_and_shows_it_exactly(label, alt, evidence, kind):
    graph = nx.MultiDiGraph()
    graph.add_node("a", type=kind, label=SENTINEL + label + SENTINEL, alt_labels=[SENTINEL + alt + SENTINEL], support=2)
    graph.add_node("b", type="Task", label="b")
    graph.add_edge("a", "b", key="uses", relation="uses", papers=["p"], evidence=[SENTINEL + evidence + SENTINEL], support=1)
    page = generate_html(graph)
    for text in (label, alt, evidence):
        if UNSAFE.search(text):
            # Sentinels on both sides: only the raw string itself could match, never a JSON delimiter.
            assert SENTINEL + text + SENTINEL not in page
    assert len(re.findall(r"</script", page, flags=re.IGNORECASE)) == 3  # nothing closes a script early
    assert len(re.findall(r"<!--", page)) == 0
    data = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', page, flags=re.S).group(1)
    assert not re.search(r"[<>&']", data)
    decoded = json.loads(data)
    node = next(n for n in decoded["nodes"] if n["label"].startswith(SENTINEL))
    assert node["label"] == SENTINEL + label + SENTINEL
    assert node.get("alt", []) == ([] if alt == label else [SENTINEL + alt + SENTINEL]) and node["support"] == 2  # a name equal to the label is not repeated
    sentences = [sentence for edge in decoded["edges"] for _, sentence, _ in edge["ev"]]
    assert any(SENTINEL + evidence in text for text in sentences) or len(SENTINEL + evidence) > 600
    assert node.get("kind", node["type"]) == (kind or "Other")


JSONABLE = st.recursive(
    st.none() | st.booleans() | st.integers() | FLOATS | SOME_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(SOME_TEXT, inner, max_size=4),
    max_leaves=20,
)


@SETTINGS
@given(value=JSONABLE)
def test_json_for_html_decodes_to_the_value_and_has_no_markup_characters(value):
    text = json_for_html(value)
    assert json.loads(text) == value
    assert not re.search(r"[<>&'\u2028\u2029]", text)
    # A double quote inside a string is written \u0022, so every raw quote is JSON syntax.
    assert '\\"' not in re.findall(r"\\.", text)
