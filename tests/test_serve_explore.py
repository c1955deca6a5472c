"""The served explorer's JSON: search ranking, neighbourhoods in graph.html's shapes, caps, and bad requests.

The worker functions (:mod:`kg.serve.explore`) are called in-process on small
build folders; the HTTP side (status codes, one-line errors, the page and its
files) goes through a real ``kg serve`` process. What the page does with the
answers in a browser is tested in ``test_explorer_served.py``.
"""

from __future__ import annotations

import importlib.util
import json
import re
import threading
import urllib.parse
from pathlib import Path

import pytest

from kg.buildfolder import BuildFolder
from kg.explorer.page import explorer_asset, generate_html
from kg.explorer.search import COUNT_CAP, Hit, find, name_index
from kg.export.html import mentioned_in, paper_records
from kg.model import Entity, Paper, Resolution, ResolvedFact
from kg.views import KnowledgeGraph
from tests.test_export_support import small_kg

from .serve_build import Server, http, make_build

pytest.importorskip("starlette", reason="the serve extra is not installed")
explore = pytest.importorskip("kg.serve.explore")


def names_graph() -> KnowledgeGraph:
    """Entities whose names test the ranking: exact label > exact other name > prefix > substring, then support."""
    entities = [  # (key, label, other names, papers mentioning it)
        ("method/low-rank-adaptation", "Low-Rank Adaptation", ("LoRA",), 6),
        ("method/loramoe", "LoRAMoE", (), 9),
        ("method/lora-plus", "LoRA+", (), 2),
        ("task/deep-exploration", "deep exploration", (), 20),
        ("task/lora", "Lora", (), 1),
        ("dataset/glue", "GLUE", (), 3),
    ]
    papers = [Paper(id=f"p{i}", abstract=f"Paper {i} uses LoRA on GLUE.", title=f"Title {i}", year=str(2015 + i)) for i in range(20)]
    resolution = Resolution(
        entities=tuple(
            Entity(key=key, type=key.split("/")[0].title(), label=label, alt_labels=alts, papers=tuple(f"p{i}" for i in range(n)), mentions=n)
            for key, label, alts, n in entities
        ),
        facts=tuple(
            ResolvedFact(f"p{i}", "evaluatedOn", key, "dataset/glue", f"Paper {i} uses LoRA on GLUE.", 0, 20, "test", 0.5 + i / 100)
            for i, key in enumerate(["method/low-rank-adaptation", "method/loramoe", "method/lora-plus", "method/low-rank-adaptation"])
        ),
    )
    return KnowledgeGraph.from_resolution(papers, resolution)


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> tuple[str, tuple[int, ...]]:
    folder = make_build(tmp_path_factory.mktemp("names") / "build", names_graph())
    return str(folder / "store"), BuildFolder(folder).generation()


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[str, tuple[int, ...], KnowledgeGraph]:
    kg = small_kg(label="<img src=x onerror=alert(1)>", evidence="We apply <img src=x onerror=alert(1)> to question answering.")
    folder = make_build(tmp_path_factory.mktemp("small") / "build", kg)
    return str(folder / "store"), BuildFolder(folder).generation(), kg


def answer(result) -> dict:
    assert result.status == 200 and result.media_type == "application/json", result.body
    return json.loads(result.body)


def suggestions(found: dict) -> list[tuple[str, int, int]]:
    return [(found["nodes"][hit["node"]]["label"], hit["rank"], hit["via"]) for hit in found["hits"]]


def test_search_ranks_exact_label_then_other_name_then_prefix_then_substring(names):
    found = answer(explore.search(*names, "lora"))
    assert suggestions(found) == [
        ("Lora", 0, 0),  # exact label, though least supported
        ("Low-Rank Adaptation", 1, 1),  # exact other name: shown as "Low-Rank Adaptation (LoRA)"
        ("LoRAMoE", 2, 0),  # prefixes, the better supported first
        ("LoRA+", 2, 0),
        ("deep exploration", 4, 0),  # "exp-lora-tion": a substring
    ]
    assert found["total"] == 5 and found["complete"] is True
    assert found["nodes"][1]["alt"] == ["LoRA"] and found["nodes"][1]["support"] == 6


@pytest.mark.parametrize("query", ["low rank ADAPTATIONS", "Low–rank adaptation", "lowrankadaptation", "  low-rank   adaptation! "])
def test_search_ignores_case_hyphens_spaces_and_plurals(names, query):
    assert suggestions(answer(explore.search(*names, query)))[0] == ("Low-Rank Adaptation", 0, 0)


def test_search_for_nothing_matches_nothing(names):
    assert answer(explore.search(*names, "zzqx")) == {"nodes": [], "hits": [], "total": 0, "complete": True}
    assert answer(explore.search(*names, "--"))["total"] == 0  # no word left after normalising


def test_a_later_words_prefix_ranks_before_a_substring():
    """"lora" finds "QA-LoRA tuning" (a word starts with it) before the better supported "deep exploration" (issue 26)."""
    index = name_index([["deep exploration"], ["QA-LoRA tuning"], ["LoRAMoE"], ["flora"]], [(-9,), (-1,), (-2,), (-5,)])
    assert [(hit.node, hit.rank) for hit in find(index, "lora")[0]] == [(2, 2), (1, 3), (0, 4), (3, 4)]


def test_counting_matches_stops_at_the_cap():
    """A one-letter query matches most of a large graph: the count stops at COUNT_CAP and says it is not exact."""
    index = name_index([[f"method {i}"] for i in range(COUNT_CAP + 100)], [(i,) for i in range(COUNT_CAP + 100)])
    hits, total, complete = find(index, "method")
    assert (total, complete) == (COUNT_CAP, False) and [hit.node for hit in hits] == list(range(12))
    assert find(index, "ethod 2099") == ([Hit(2099, 4, 0)], 1, True)


def test_a_neighbourhood_has_the_shapes_and_values_of_graph_html(small):
    path, gen, kg = small
    bert = "https://w3id.org/kg-lit/id/method/bert"
    piece = answer(explore.neighbourhood(path, gen, bert, 1))
    page = json.loads(_data_block(generate_html(kg.to_networkx(), papers=paper_records(kg), mentions=mentioned_in(kg))))
    centre = piece["nodes"][piece["centre"]]
    assert centre["iri"] == bert and (centre["x"], centre["y"]) == (0, 0)  # offsets from the centre
    assert centre["facts"] == 4 and "more" not in centre  # addresses, evaluatedOn, measuredBy, proposes; nothing left out
    assert [piece["papers"][p]["id"] for p in centre["in"]] == ["p1", "p2"]
    # Every node and fact is the one graph.html shows, field for field (indexes aside).
    assert sorted(node["iri"] for node in piece["nodes"]) == sorted(
        [bert, *(f"https://w3id.org/kg-lit/id/{k}" for k in ("task/qa", "dataset/squad", "metric/f1", "paper/p1"))]
    )
    whole = {node["iri"]: node for node in page["nodes"]}
    for node in piece["nodes"]:
        same = whole[node["iri"]]
        assert {k: node.get(k) for k in ("label", "type", "support", "alt", "kind", "link")} == {k: same.get(k) for k in ("label", "type", "support", "alt", "kind", "link")}

    def facts(data: dict) -> dict:
        iri = [node["iri"] for node in data["nodes"]]
        return {
            (iri[e["from"]], e["rel"], iri[e["to"]]): (e["support"], e["conf"], [(data["papers"][p]["id"], s, spans) for p, s, spans in e["ev"]])
            for e in data["edges"]
        }

    mine, theirs = facts(piece), facts(page)
    assert len(mine) == 4 and all(mine[key] == theirs[key] for key in mine)
    sentence, spans = piece["edges"][0]["ev"][0][1:]
    assert sentence and all(0 <= start < end <= len(sentence) for start, end in spans)
    paper = next(p for p in piece["papers"] if p["id"] == "p1")
    assert paper["title"] == "A paper" and "abstract" in paper  # a paper drawn as a node comes with its abstract
    assert piece["nodes"][paper["node"]]["iri"].endswith("/paper/p1")


def test_hostile_text_is_escaped_in_the_json(small):
    path, gen, _kg = small
    body = explore.neighbourhood(path, gen, "https://w3id.org/kg-lit/id/method/bert", 1).body
    assert b"<" not in body and b">" not in body and b"&" not in body and b"\\u003cimg" in body
    assert any(node["label"] == "<img src=x onerror=alert(1)>" for node in json.loads(body)["nodes"])


def test_two_hops_reach_further_and_caps_say_what_they_leave_out(names):
    glue = "https://w3id.org/kg-lit/id/dataset/glue"
    one = answer(explore.neighbourhood(*names, "https://w3id.org/kg-lit/id/method/loramoe", 1))
    two = answer(explore.neighbourhood(*names, "https://w3id.org/kg-lit/id/method/loramoe", 2))
    assert {n["label"] for n in one["nodes"]} == {"LoRAMoE", "GLUE"}
    assert {n["label"] for n in two["nodes"]} == {"LoRAMoE", "GLUE", "Low-Rank Adaptation", "LoRA+"}
    capped = answer(explore.neighbourhood(*names, glue, 1, 3))  # a --limit of 3 rows: the centre and two neighbours
    centre = capped["nodes"][capped["centre"]]
    assert [n["label"] for n in capped["nodes"] if n["iri"] != glue] == ["LoRAMoE", "Low-Rank Adaptation"]  # the best supported
    assert centre["more"] == 1 and centre["facts"] == 3 and len(capped["edges"]) == 2


def test_the_overview_holds_the_most_supported_nodes_in_facts_and_the_whole_graphs_counts(names):
    path, gen = names
    data = answer(explore.overview(path, gen, 3))
    assert [n["label"] for n in sorted(data["nodes"], key=lambda n: -n["support"])] == ["LoRAMoE", "Low-Rank Adaptation", "GLUE"]
    assert data["counts"]["types"] == {"Method": 3, "Task": 2, "Dataset": 1, "Paper": 20}
    assert data["counts"]["relations"] == {"evaluatedOn": 3} and data["total"] == {"nodes": 26, "edges": 3}
    assert data["years"] == [2015, 2034] and data["types"] == ["Paper", "Method", "Task", "Dataset"]
    assert data["cap"] >= len(data["nodes"])  # a served page draws all it has loaded


def test_an_unknown_node_is_a_one_line_404(names):
    result = explore.neighbourhood(*names, "https://w3id.org/kg-lit/id/method/nothing", 1)
    assert result.status == 404 and result.body.decode().count("\n") == 1 and result.body.startswith(b"E374: ")


def test_a_rebuilt_store_is_read_again(tmp_path):
    folder = make_build(tmp_path / "build", names_graph())
    assert answer(explore.search(str(folder / "store"), BuildFolder(folder).generation(), "glue"))["total"] == 1
    papers, resolution = [Paper(id="q", abstract="A benchmark suite of language tasks.")], Resolution(
        entities=(Entity(key="dataset/superglue", type="Dataset", label="SuperGLUE", papers=("q",), mentions=1),), facts=()
    )
    import shutil

    shutil.rmtree(folder)
    make_build(folder, KnowledgeGraph.from_resolution(papers, resolution))
    found = answer(explore.search(str(folder / "store"), BuildFolder(folder).generation(), "glue"))
    assert suggestions(found) == [("SuperGLUE", 4, 0)]


def held_reading(tmp_path, monkeypatch) -> tuple[str, tuple[int, ...], threading.Event, list[int]]:
    """A small build whose index reading waits at a gate: (store path, generation, gate, one entry per reading)."""
    from kg.serve import graph_index

    folder = make_build(tmp_path / "build", names_graph())
    gate, readings = threading.Event(), []
    real = graph_index.read_index

    def slow(store):
        readings.append(1)
        gate.wait(30)
        return real(store)

    monkeypatch.setattr(graph_index, "read_index", slow)
    return str(folder / "store"), BuildFolder(folder).generation(), gate, readings


def test_a_slow_first_reading_answers_503_until_the_index_is_ready(tmp_path, monkeypatch):
    """A large graph's index is read in a thread of the worker: requests meanwhile get a one-line 503 to retry."""
    path, gen, gate, readings = held_reading(tmp_path, monkeypatch)
    first = explore.search(path, gen, "glue", wait=0.05)
    assert first.status == 503 and first.headers == {"Retry-After": "1"}
    assert first.body.startswith(b"E375: ") and first.body.count(b"\n") == 1
    assert explore.overview(path, gen, wait=0.05).status == 503 and readings == [1]  # one reading, not one per request
    gate.set()
    assert answer(explore.search(path, gen, "glue", wait=30))["total"] == 1 and readings == [1]


def test_start_reading_begins_the_index_without_waiting_for_it(tmp_path, monkeypatch):
    """What kg serve runs in each worker at start: the reading begins, the call returns at once,
    and the first request then finds the index instead of starting a reading of its own."""
    from kg.serve import graph_index

    path, gen, gate, readings = held_reading(tmp_path, monkeypatch)
    graph_index.start_reading(path, gen)
    # it returned while the reading is held at the gate: under way, not done
    assert path in graph_index._READING and path not in graph_index._READY
    gate.set()
    assert answer(explore.search(path, gen, "glue", wait=30))["total"] == 1 and readings == [1]


def _data_block(page: str) -> str:
    start = page.index('<script type="application/json" id="kg-data">') + len('<script type="application/json" id="kg-data">')
    return page[start : page.index("</script>", start)]


# -- over HTTP ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = make_build(tmp_path_factory.mktemp("served") / "build", names_graph())
    server = Server(folder, "--limit", "50")
    yield server
    code, err = server.stop()
    assert code == 0 and "Traceback" not in err, err


def get(server: Server, path: str, **params: str | list[str]) -> tuple[int, dict[str, str], bytes]:
    return http(server.url + path + ("?" + urllib.parse.urlencode(params, doseq=True) if params else ""))


def test_the_endpoints_answer_json(served):
    status, headers, body = get(served, "api/explore/search", q="lora")
    assert status == 200 and headers["content-type"] == "application/json"
    assert suggestions(json.loads(body))[1] == ("Low-Rank Adaptation", 1, 1)
    status, _, body = get(served, "api/explore/node", iri="https://w3id.org/kg-lit/id/dataset/glue", hops="2")
    assert status == 200 and len(json.loads(body)["nodes"]) == 4  # GLUE and the three methods evaluated on it
    status, _, body = get(served, "api/explore/overview")
    assert status == 200 and json.loads(body)["total"]["nodes"] == 26


@pytest.mark.parametrize(
    "path,params,status,code",
    [
        ("api/explore/search", {}, 400, "E373"),
        ("api/explore/search", {"q": "   "}, 400, "E373"),
        ("api/explore/search", {"q": ["a", "b"]}, 400, "E371"),
        ("api/explore/search", {"q": "x" * 201}, 400, "E373"),
        ("api/explore/node", {}, 400, "E373"),
        ("api/explore/node", {"iri": "not an iri"}, 400, "E373"),
        ("api/explore/node", {"iri": "https://w3id.org/kg-lit/id/dataset/glue", "hops": "3"}, 400, "E373"),
        ("api/explore/node", {"iri": "https://w3id.org/kg-lit/id/dataset/glue", "hops": ["1", "2"]}, 400, "E371"),
        ("api/explore/node", {"iri": "https://w3id.org/kg-lit/id/nothing"}, 404, "E374"),
    ],
)
def test_bad_requests_get_one_clear_line(served, path, params, status, code):
    got, headers, body = get(served, path, **params)
    text = body.decode("utf-8")
    assert got == status and headers["content-type"].startswith("text/plain")
    assert text.startswith(code + ": ") and text.count("\n") == 1, text


def test_the_page_links_its_script_styles_and_vis_network_from_the_server(served):
    status, headers, body = get(served, "explore")
    page = body.decode("utf-8")
    assert status == 200 and "script-src 'self'" in headers["content-security-policy"]
    # The page carries its own policy too, as graph.html does: nothing but this server, nothing inline.
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page)
    assert meta and "default-src 'none'" in meta.group(1) and "script-src 'self';" in meta.group(1) and "unsafe" not in meta.group(1)
    assert '<script src="/static/explore.js"></script>\n<script src="/explore/explorer.js"></script>' in page
    assert "<script>" not in page and "<style>" not in page and "kg-data" not in page  # nothing inline, nothing embedded
    # One copy of the explorer: the server sends the package's files, and pyvis's vis-network.
    assert get(served, "explore/explorer.js")[2].decode("utf-8") == explorer_asset("explorer.js")
    assert get(served, "explore/explorer.css")[2].decode("utf-8") == explorer_asset("explorer.css")
    pyvis = Path(importlib.util.find_spec("pyvis").submodule_search_locations[0]) / "lib" / "vis-9.1.2" / "vis-network.min.js"
    status, headers, vis = get(served, "explore/vis-network.min.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript") and len(vis) > 400_000
    text = vis.decode("utf-8").replace("<\\/script", "</script").replace("<\\!--", "<!--")
    assert text == pyvis.read_text(encoding="utf-8")  # as read by graph.html (made safe to inline)
    assert get(served, "explore/other.js")[0] == 404


def test_the_query_and_entity_pages_link_to_the_explorer(served):
    assert 'href="/explore"' in get(served, "")[2].decode("utf-8")
    entity = get(served, "entity", iri="https://w3id.org/kg-lit/id/dataset/glue")[2].decode("utf-8")
    assert 'href="/explore?iri=https%3A//w3id.org/kg-lit/id/dataset/glue"' in entity
