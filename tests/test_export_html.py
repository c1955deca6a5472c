"""graph.html as text: offline, escaped, policed by CSP, deterministic, with the data the explorer needs.

What the page *does* in a browser is tested in ``test_explorer_browser.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser

import networkx as nx
import pytest

from kg.explorer.page import generate_html
from kg.explorer.payload import COLOURS, MAX_EVIDENCE, MAX_TEXT, mention_spans
from kg.export.html import mentioned_in, paper_records, write_html
from kg.model import Paper
from tests.test_export_support import small_kg, small_papers_and_resolution, synthetic_view

XSS_LABEL = "<script>alert(1)</script>"
XSS_EVIDENCE = '"onmouseover="alert(2)" <img src=x onerror=alert(3)> & co'

# Any load of a resource from elsewhere: src/href to a URL (or protocol-relative), @import, url(http...).
REMOTE = re.compile(
    r"""(?:\b(?:src|href|srcset|action|poster|data)\s*=\s*["']?\s*(?:https?:)?//)"""
    r"""|@import|url\(\s*["']?\s*(?:https?:)?//""",
    re.IGNORECASE,
)


class Markup(HTMLParser):
    """Collects tags with their attributes, and the text of script and style elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.raw: list[tuple[str, dict[str, str | None], str]] = []
        self._open: tuple[str, dict[str, str | None]] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._open = (tag, dict(attrs)) if tag in ("script", "style") else None

    def handle_data(self, data):
        if self._open:
            self.raw.append((*self._open, data))

    def handle_endtag(self, tag):
        self._open = None


def parse(page: str) -> Markup:
    markup = Markup()
    markup.feed(page)
    markup.close()
    return markup


def data_block(page: str) -> dict:
    blocks = [text for tag, attrs, text in parse(page).raw if attrs.get("type") == "application/json"]
    assert len(blocks) == 1
    return json.loads(blocks[0])


@pytest.fixture(scope="module")
def page():
    return generate_html(small_kg(label=XSS_LABEL, evidence=XSS_EVIDENCE, title="T&C <i>").to_networkx())


def scripts(page: str) -> list[str]:
    return [text for tag, attrs, text in parse(page).raw if tag == "script" and "type" not in attrs]


def policy(page: str) -> dict[str, list[str]]:
    metas = [a for tag, a in parse(page).tags if tag == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert len(metas) == 1
    return {part.split()[0]: part.split()[1:] for part in metas[0]["content"].split(";") if part.strip()}


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_page_loads_nothing_from_the_network(page):
    assert not REMOTE.search(page)
    markup = parse(page)
    assert not [(tag, attrs) for tag, attrs in markup.tags if {"src", "href"} & set(attrs)]
    assert not [tag for tag, _ in markup.tags if tag in ("link", "iframe", "img", "object", "embed", "base")]
    found = scripts(page)
    assert len(found) == 2 and "vis.Network" in found[1] and len(found[0]) > 100_000  # vis-network inlined


def test_the_policy_allows_only_the_pages_own_scripts_and_styles(page):
    rules = policy(page)
    assert rules["default-src"] == ["'none'"]
    assert sorted(rules["script-src"]) == sorted(sha256(text) for text in scripts(page))
    styles = [text for tag, _, text in parse(page).raw if tag == "style"]
    assert rules["style-src"] == [sha256(styles[0])]
    assert not [value for values in rules.values() for value in values if "unsafe" in value or "http" in value]
    # No inline handler or style attribute anywhere: the policy would block them anyway.
    assert not [(tag, name) for tag, attrs in parse(page).tags for name in attrs if name.startswith("on") or name == "style"]


def test_hostile_text_is_shown_not_run(page):
    for text in (XSS_LABEL, XSS_EVIDENCE, '"onmouseover=', "<img", "T&C <i>"):
        assert text not in page
    data = data_block(page)
    assert XSS_LABEL in [node["label"] for node in data["nodes"]]  # decoded exactly
    assert XSS_EVIDENCE in [sentence for edge in data["edges"] for _, sentence, _ in edge["ev"]]
    assert page.count("</script>") == 3  # vis-network, the data, our script: nothing closes early
    assert "innerHTML" not in scripts(page)[1] and "insertAdjacentHTML" not in scripts(page)[1]
    assert "<title>T&amp;C &lt;i&gt;</title>" in generate_html(nx.MultiDiGraph(), title="T&C <i>")


def test_types_relations_and_colours_are_listed_for_the_legend_and_filters(page):
    data = data_block(page)
    assert data["types"] == ["Paper", "Method", "Task", "Dataset", "Metric", "Code"]  # legend order, no Other
    assert data["relations"] == ["addresses", "evaluatedOn", "hasCode", "measuredBy", "proposes"]
    assert data["colours"] == COLOURS


def test_nodes_have_positions_support_and_names(page):
    data = data_block(page)
    assert all(isinstance(n["x"], int) and isinstance(n["y"], int) for n in data["nodes"])
    bert = next(n for n in data["nodes"] if n["label"] == XSS_LABEL)
    assert bert["type"] == "Method" and bert["support"] == 2 and bert["alt"] == ["B.E.R.T.", "bert-base"]
    assert bert["iri"] == "https://w3id.org/kg-lit/id/method/bert"
    code = next(n for n in data["nodes"] if n["type"] == "Code")
    assert code["link"] == "https://github.com/example/bert"
    assert "physics: false" in page
    assert "1 node in no fact (entities only mentioned, papers without facts) can be found but are not drawn" in page  # p2


def test_edges_name_their_papers_and_highlight_both_mentions():
    papers, _ = small_papers_and_resolution()
    kg = small_kg()
    data = data_block(generate_html(kg.to_networkx(), papers=paper_records(kg)))
    label = {i: n["label"] for i, n in enumerate(data["nodes"])}
    edge = next(e for e in data["edges"] if e["rel"] == "addresses")
    assert (label[edge["from"]], label[edge["to"]]) == ("BERT", "question answering")
    [(paper, sentence, marks)] = edge["ev"]
    assert data["papers"][paper]["id"] == "p1" and data["papers"][paper]["title"] == "A paper"
    assert [sentence[a:b] for a, b in marks] == ["BERT", "question answering"]
    assert edge["support"] == 1 and edge["conf"] == 0.9
    p2 = next(p for p in data["papers"] if p["id"] == "p2")
    assert p2["abstract"] == papers[1].abstract and data["nodes"][p2["node"]]["paper"] == data["papers"].index(p2)


def test_paper_records_give_title_year_authors_and_a_safe_link():
    from kg.views import KnowledgeGraph

    _, resolution = small_papers_and_resolution()
    papers = [
        Paper(id="p1", abstract="One.", title="T1", year="2019-05", authors=("Zoe", "Ada"), doi="10.1/x"),
        Paper(id="p2", abstract="Two.", url="https://example.org/p2", doi="10.1/y"),
        Paper(id="p3", abstract="Three.", url="javascript:alert(1)"),
    ]
    records = paper_records(KnowledgeGraph.from_resolution(papers, resolution))
    assert records["p1"]["title"] == "T1" and records["p1"]["year"] == 2019 and records["p1"]["authors"] == ["Ada", "Zoe"]
    assert records["p1"]["link"] == "https://doi.org/10.1/x"
    assert records["p2"]["link"] == "https://example.org/p2"  # a URL is preferred to the DOI
    assert records["p3"]["link"] is None and records["p3"]["abstract"] == "Three."


@pytest.mark.parametrize(
    ("sentence", "names", "expected"),
    [
        ("We tune LoRA on GLUE.", (["Low-Rank Adaptation", "LoRA"], ["GLUE"]), ["LoRA", "GLUE"]),
        ("bert-base beats BERTology.", (["BERT", "bert-base"],), ["bert-base"]),  # longest name, whole words
        ("Nothing to see.", (["BERT"], ["GLUE"]), []),
        ("ResNet and ResNet", (["ResNet"], ["ResNet"]), ["ResNet"]),  # overlapping spans are dropped
    ],
)
def test_mention_spans_find_each_end_once(sentence, names, expected):
    assert [sentence[a:b] for a, b in mention_spans(sentence, *names)] == expected


def test_mention_spans_count_utf16_units_as_javascript_does():
    sentence = "😀 We use BERT."
    [[start, end]] = mention_spans(sentence, ["BERT"])
    assert sentence.encode("utf-16-le")[2 * start : 2 * end].decode("utf-16-le") == "BERT"
    assert start == sentence.index("BERT") + 1  # the emoji is two UTF-16 units


def test_same_graph_gives_the_same_bytes_whatever_the_insertion_order():
    view = synthetic_view(300, 450, seed=2)
    shuffled = nx.MultiDiGraph()
    shuffled.add_nodes_from(reversed(list(view.nodes(data=True))))
    shuffled.add_edges_from(reversed(list(view.edges(keys=True, data=True))))
    assert generate_html(view) == generate_html(shuffled)
    assert generate_html(view, seed=1) != generate_html(view)


def test_edges_cap_evidence_and_length():
    g = nx.MultiDiGraph()
    g.add_node("a", type="Method", label="A")
    g.add_node("b", type="Task", label="B")
    count = MAX_EVIDENCE + 2
    g.add_edge("a", "b", key="addresses", relation="addresses", support=count,
               papers=[f"p{i}" for i in range(count)], evidence=["x" * 1000] + [f"sentence {i}" for i in range(count - 1)])
    g.add_edge("a", "b", key="uses", relation="uses")
    edges = data_block(generate_html(g))["edges"]
    sources = edges[0]["ev"]
    assert len(sources) == MAX_EVIDENCE and edges[0]["support"] == count
    assert len(sources[0][1]) == MAX_TEXT and sources[0][1].endswith("…")
    assert "bend" not in edges[0] and edges[1]["bend"] == 0.15  # the second edge of a pair is drawn bent
    assert edges[1]["ev"] == [] and edges[1]["conf"] == 1.0


def test_unknown_types_and_missing_attributes_are_tolerated():
    g = nx.DiGraph()
    g.add_edge(1, 2)
    g.add_node(3, type="Gadget")
    nodes = data_block(generate_html(g))["nodes"]
    assert [n["type"] for n in nodes] == ["Other", "Other", "Other"]
    assert nodes[2]["kind"] == "Gadget" and nodes[2]["support"] == 1


def test_write_html_writes_the_page_atomically(tmp_path):
    kg = small_kg()
    path = tmp_path / "graph.html"
    path.write_text("old")
    write_html(kg, path)
    expected = generate_html(kg.to_networkx(), papers=paper_records(kg), mentions=mentioned_in(kg))
    assert path.read_text(encoding="utf-8") == expected
    assert [p.name for p in tmp_path.iterdir()] == ["graph.html"]


def test_a_seed_sized_graph_makes_a_page_of_bounded_size():
    # Its speed in a browser is measured by benchmarks/page.py, not asserted here.
    page = generate_html(synthetic_view(2000, 3000))
    assert len(data_block(page)["edges"]) == 3000
    assert len(page.encode("utf-8")) < 4_000_000


def test_an_empty_graph_gives_a_working_page():
    data = data_block(generate_html(nx.MultiDiGraph()))
    assert (data["nodes"], data["edges"], data["papers"], data["types"]) == ([], [], [], [])
    assert "0 nodes, 0 edges" in generate_html(nx.MultiDiGraph())


def test_written_page_keeps_entities_in_no_fact_for_search_with_their_papers(tmp_path):
    from kg.model import Entity, Resolution
    from kg.views import KnowledgeGraph

    from .conftest import tiny_resolution

    papers, resolution = tiny_resolution()
    lonely = Entity(key="method/lonelynet", type="Method", label="LonelyNet", papers=("p1",), mentions=1)
    graph = KnowledgeGraph.from_resolution(papers, Resolution(resolution.entities + (lonely,), resolution.facts))
    path = tmp_path / "graph.html"
    write_html(graph, path)
    page = path.read_text(encoding="utf-8")
    data = data_block(page)
    node = next(n for n in data["nodes"] if n["label"] == "LonelyNet")
    assert [data["papers"][i]["id"] for i in node["in"]] == ["p1"]
    foonet = next(n for n in data["nodes"] if n["label"] == "FooNet")
    assert sorted(data["papers"][i]["id"] for i in foonet["in"]) == ["p 2", "p1"]
    assert "2 nodes in no fact (entities only mentioned, papers without facts) can be found but are not drawn" in page


# --- a graph too large for one page ---------------------------------------------------------------


def test_a_page_of_a_large_graph_keeps_the_most_supported_linked_nodes_and_says_so(tmp_path):
    from kg.export.html import page_nodes

    graph = synthetic_view(600, 900)
    keep = page_nodes(graph, 100)
    assert keep is not None and len(keep) == 100
    supports = sorted((int(graph.nodes[n].get("support", 1)) for n in graph if any(True for _ in graph.neighbors(n))), reverse=True)
    assert min(int(graph.nodes[n].get("support", 1)) for n in keep) == supports[99]
    data = data_block(generate_html(graph.subgraph(keep), omitted=500))
    assert len(data["nodes"]) == 100
    assert page_nodes(graph, 600) is None  # a graph within the limit is paged whole


def test_write_html_cuts_a_graph_over_the_limit_and_the_page_says_how_many_are_left_out(tmp_path):
    kg = small_kg()
    whole = kg.to_networkx().number_of_nodes()
    path = tmp_path / "graph.html"
    write_html(kg, path, limit=2)
    page = path.read_text(encoding="utf-8")
    data = data_block(page)
    assert len(data["nodes"]) == 2
    assert f"{whole - 2} other nodes left out" in page and "kg serve" in page
