"""graph.html: offline, escaped, deterministic, fast, with a legend and tooltips."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser

import networkx as nx
import pytest

from kg.export.html import COLOURS, MAX_EVIDENCE, MAX_TEXT, generate_html, write_html
from tests.test_export_support import small_kg, synthetic_view

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


def test_page_loads_nothing_from_the_network(page):
    assert not REMOTE.search(page)
    markup = parse(page)
    assert not [(tag, attrs) for tag, attrs in markup.tags if {"src", "href"} & set(attrs)]
    assert not [tag for tag, _ in markup.tags if tag in ("link", "iframe", "img", "object", "embed", "base")]
    scripts = [text for tag, attrs, text in markup.raw if tag == "script" and "type" not in attrs]
    assert len(scripts) == 2 and "vis.Network" in scripts[1] and len(scripts[0]) > 100_000  # vis-network inlined


def test_hostile_text_is_shown_not_run(page):
    for text in (XSS_LABEL, XSS_EVIDENCE, '"onmouseover=', "<img", "T&C <i>"):
        assert text not in page
    tips = [line[1] for item in data_block(page)["nodes"] + data_block(page)["edges"] for line in item["tip"]]
    assert XSS_LABEL in tips  # the node's tooltip heading, decoded exactly
    assert XSS_EVIDENCE in tips  # an edge's evidence sentence
    assert page.count("</script>") == 3  # vis-network, the data, our script: nothing closes early
    assert "innerHTML" not in re.sub(r"<script>.{100000,}?</script>", "", page, flags=re.S)


def test_legend_lists_each_present_type_with_its_colour(page):
    legend = re.search(r'<ul id="legend">(.*?)</ul>', page).group(1)
    for kind in ("Paper", "Method", "Task", "Dataset", "Metric", "Code"):
        assert f"background:{COLOURS[kind]}" in legend and f"{kind} (" in legend
    assert "Other" not in legend


def test_nodes_have_positions_sizes_and_physics_is_off(page):
    data = data_block(page)
    assert all(isinstance(n["x"], int) and isinstance(n["y"], int) for n in data["nodes"])
    sizes = {n["tip"][0][1]: n["size"] for n in data["nodes"]}
    assert sizes[XSS_LABEL] > sizes["question answering"]  # BERT is in two papers, QA in one
    assert "physics: false" in page
    assert "unlinked nodes (1) sit in rows below" in page  # paper p2 has no relation of its own


def test_same_graph_gives_the_same_bytes_whatever_the_insertion_order():
    view = synthetic_view(300, 450, seed=2)
    shuffled = nx.MultiDiGraph()
    shuffled.add_nodes_from(reversed(list(view.nodes(data=True))))
    shuffled.add_edges_from(reversed(list(view.edges(keys=True, data=True))))
    assert generate_html(view) == generate_html(shuffled)
    assert generate_html(view, seed=1) != generate_html(view)


def test_edge_tooltips_cap_evidence_and_length():
    g = nx.MultiDiGraph()
    g.add_node("a", type="Method", label="A")
    g.add_node("b", type="Task", label="B")
    g.add_edge("a", "b", key="addresses", relation="addresses", support=5,
               evidence=["x" * 1000] + [f"sentence {i}" for i in range(4)])
    g.add_edge("a", "b", key="uses", relation="uses")
    edges = data_block(generate_html(g))["edges"]
    tip = edges[0]["tip"]
    assert tip[0] == ["h", "A addresses B"]
    evidence = [text for kind, text in tip if kind == "e"]
    assert len(evidence) == MAX_EVIDENCE and len(evidence[0]) == MAX_TEXT and evidence[0].endswith("…")
    assert tip[-1] == ["m", "(+2 more sentences)"]
    assert [e["bend"] for e in edges] == [0, 0.15]  # the second edge of a pair is drawn bent


def test_unknown_types_and_missing_attributes_are_tolerated():
    g = nx.DiGraph()
    g.add_edge(1, 2)
    g.add_node(3, type="Gadget")
    data = data_block(generate_html(g))
    assert [n["type"] for n in data["nodes"]] == ["Other", "Other", "Other"]
    assert data["nodes"][2]["tip"][1] == ["m", "Gadget · 1 paper"]


def test_write_html_writes_the_page_atomically(tmp_path):
    kg = small_kg()
    path = tmp_path / "graph.html"
    path.write_text("old")
    write_html(kg, path)
    view = kg.to_networkx()
    linked = view.subgraph(n for n in view if view.degree(n) > 0)
    omitted = view.number_of_nodes() - linked.number_of_nodes()
    assert path.read_text(encoding="utf-8") == generate_html(linked, omitted=omitted)
    assert [p.name for p in tmp_path.iterdir()] == ["graph.html"]


def test_a_seed_sized_graph_makes_a_page_of_bounded_size(tmp_path):
    # Its speed is measured by benchmarks/update.py (the export stage), not asserted here.
    view = synthetic_view(2000, 3000)
    page = generate_html(view)
    assert page.count('"from":') == 3000
    assert len(page.encode("utf-8")) < 4_000_000


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium to render the page with (optional)")
def test_chromium_draws_the_page_offline_and_runs_no_injected_code(page, tmp_path):
    probe = '<script>window.alert = function (m) { document.title = "ALERT " + m; };</script>'
    report = (
        '<script>setTimeout(function () { document.body.setAttribute("data-canvases",'
        ' document.querySelectorAll("#graph canvas").length); }, 300);</script></body>'
    )
    path = tmp_path / "graph.html"
    path.write_text(page.replace("<head>\n", "<head>\n" + probe, 1).replace("</body>", report), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--virtual-time-budget=3000"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", path.as_uri()], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert 'data-canvases="1"' in dom  # vis-network ran and drew, with no network at hand
    assert "<title>Knowledge graph</title>" in dom  # the probe would have retitled it on any alert()


def test_an_empty_graph_gives_a_working_page():
    page = generate_html(nx.MultiDiGraph())
    assert data_block(page) == {"nodes": [], "edges": [], "colours": COLOURS}
    assert "0 nodes, 0 edges" in page


def test_written_page_leaves_out_entities_in_no_fact(tmp_path):
    from kg.model import Entity, Resolution
    from kg.store import KnowledgeGraph

    from .conftest import tiny_resolution

    papers, resolution = tiny_resolution()
    lonely = Entity(key="method/lonelynet", type="Method", label="LonelyNet", papers=("p1",), mentions=1)
    graph = KnowledgeGraph.from_resolution(papers, Resolution(resolution.entities + (lonely,), resolution.facts))
    path = tmp_path / "graph.html"
    write_html(graph, path)
    page = path.read_text(encoding="utf-8")
    assert "LonelyNet" not in page and "FooNet" in page
    assert "2 nodes in no fact (entities only mentioned, papers without facts) left out" in page
