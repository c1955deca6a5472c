"""graph.graphml: the NetworkX view, lists as JSON arrays, read back by NetworkX."""

from __future__ import annotations

import io

import networkx as nx
import pytest

from kg.errors import KgError
from kg.export import graphml
from kg.export.graphml import generate_graphml, parse_list, write_graphml, xml_safe
from tests.test_export_support import small_kg


def read_back(text: str) -> nx.MultiDiGraph:
    return nx.read_graphml(io.BytesIO(text.encode("utf-8")), force_multigraph=True)


@pytest.fixture(scope="module")
def kg():
    return small_kg(label='BERT "<large>" & {co}', evidence="We apply BERT\\n to QA; see a|b.")


def test_real_graph_round_trips(kg, tmp_path):
    path = tmp_path / "graph.graphml"
    write_graphml(kg, path)
    view, back = kg.to_networkx(), nx.read_graphml(path, force_multigraph=True)
    assert set(back.nodes) == set(view.nodes)
    for node, attrs in view.nodes(data=True):
        got = back.nodes[node]
        assert (got["type"], got["label"], got["support"]) == (attrs["type"], attrs["label"], attrs["support"])
        assert parse_list(got.get("alt_labels")) == attrs["alt_labels"]
    assert set(back.edges(keys=True)) == set(view.edges(keys=True))
    for u, v, key, attrs in view.edges(keys=True, data=True):
        got = back.edges[u, v, key]
        assert got["relation"] == attrs["relation"] and got["confidence"] == attrs["confidence"]
        assert parse_list(got["evidence"]) == attrs["evidence"]
        assert parse_list(got["papers"]) == attrs["papers"]


def test_control_characters_are_stripped_everywhere():
    g = nx.MultiDiGraph()
    g.add_node("n\x01", label="a\x00b\x1fc", alt_labels=["x\x02", "ok\t"])
    g.add_edge("n\x01", "m", key="k\x03", evidence=["e\x0b"])
    back = read_back(generate_graphml(g))
    assert back.nodes["n"]["label"] == "abc"
    assert parse_list(back.nodes["n"]["alt_labels"]) == ["x", "ok\t"]
    assert parse_list(back.edges["n", "m", "k"]["evidence"]) == ["e"]


@pytest.mark.parametrize("text", ["line\r\nbreak", "lone\rcr", "sep\u2028para\u2029", "form\x85feed", "tab\tend "])
def test_line_breaks_of_every_kind_survive(text):
    g = nx.MultiDiGraph()
    g.add_node("n", label=text)
    assert read_back(generate_graphml(g)).nodes["n"]["label"] == text


def test_types_and_none_values():
    g = nx.MultiDiGraph()
    g.add_node("n", support=3, confidence=0.1, flag=True, title=None, extra={"a": 1})
    got = read_back(generate_graphml(g)).nodes["n"]
    assert got == {"support": 3, "confidence": 0.1, "flag": True, "extra": '{"a": 1}'}


def test_xml_safe_keeps_what_xml_can_hold():
    kept = "\t\n\r <>&\"'\\{}é\u2028\ud7ff\ue000\ufffd\U0001f600"
    assert xml_safe(kept) == kept
    assert xml_safe("\x00\x08\x0b\x0c\x1f\ufffe\uffff") == ""


def test_a_file_that_does_not_parse_keeps_the_old_one(kg, tmp_path, monkeypatch):
    path = tmp_path / "graph.graphml"
    path.write_text("old")
    monkeypatch.setattr(graphml, "generate_graphml", lambda graph: "<graphml><unclosed>")
    with pytest.raises(KgError) as error:
        write_graphml(kg, path)
    assert error.value.code == "E350"
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["graph.graphml"]
