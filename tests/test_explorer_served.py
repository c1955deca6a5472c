"""kg serve's explorer (/explore) in a real browser: search, fetched neighbourhoods, the panel, safety.

A ``kg serve`` process serves the shared seeds build (``seed_build``) on a free
loopback port; Playwright drives Debian's Chromium as in
``test_explorer_browser.py`` (skipped without either). Every request the page
makes is recorded: none may leave the server.
"""

from __future__ import annotations

import importlib.util
import json
import urllib.parse

import pytest

from tests.test_explorer_browser import CHROMIUM, PAYLOAD, SCRIPT_PAYLOAD, Visit, browser  # noqa: F401 (a fixture)
from tests.test_export_support import small_kg

from .serve_build import Server, http, make_build

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(importlib.util.find_spec("playwright") is None, reason="playwright is not installed (the browser extra)"),
    pytest.mark.skipif(importlib.util.find_spec("starlette") is None, reason="the serve extra is not installed"),
]

LORA = "https://w3id.org/kg-lit/id/method/low-rank-adaptation"
# Milliseconds to wait for a page or a fetch: generous, as the tests share a loaded machine.
WAIT = 120_000


def started(folder) -> Server:
    """``kg serve`` on ``folder``, once it answers the explorer (its workers started, one index read)."""
    server = Server(folder)
    assert server.url.startswith("http://127.0.0.1:")  # loopback only, on the free port it was given
    assert http(server.url + "api/explore/overview")[0] == 200
    return server


@pytest.fixture(scope="module")
def server(seed_build):
    server = started(seed_build[0])
    yield server
    code, err = server.stop()
    assert code == 0 and "Traceback" not in err, err


class Explorer(Visit):
    """An explorer page (served, or graph.html) opened in a fresh tab, with its console errors and requests recorded."""

    def __init__(self, browser, url: str) -> None:
        super().__init__(browser, url, timeout=WAIT)

    def choose(self, query: str) -> None:
        """Search for ``query``, take the first suggestion and wait for its neighbourhood."""
        self.page.fill("#search", query)
        self.page.locator("#suggestions [role=option]").first.wait_for()
        self.page.press("#search", "Enter")
        self.fetched(1)

    def fetched(self, count: int) -> None:
        """Wait until the page has drawn its ``count``-th fetched neighbourhood."""
        self.page.wait_for_selector(f"body[data-fetches='{count}']", state="attached", timeout=WAIT)

    def node_requests(self) -> list[dict[str, list[str]]]:
        return [urllib.parse.parse_qs(urllib.parse.urlsplit(url).query) for url in self.requests if "/api/explore/node?" in url]

    def drawn_labels(self) -> list[str]:
        return self.page.evaluate("kgExplorer.nodes.getIds().map((id) => kgExplorer.model.nodes[id].label)")


@pytest.fixture
def explorer(browser, server):
    visit = Explorer(browser, server.url + "explore")
    yield visit
    assert visit.errors == []
    assert [url for url in visit.requests if not url.startswith(server.url)] == []  # nothing leaves the server
    visit.page.close()


def test_the_page_opens_with_an_overview_and_no_errors(explorer, server):
    assert explorer.requests[0] == server.url + "explore"
    assert server.url + "api/explore/overview" in explorer.requests
    assert server.url + "explore/vis-network.min.js" in explorer.requests  # from pyvis, through the server
    status = explorer.page.inner_text("#status")
    assert status.startswith("Showing ") and " loaded of 2," in status and "in the graph" in status
    assert len(explorer.drawn_labels()) > 50


def test_typing_lora_suggests_low_rank_adaptation_first(explorer, server):
    page = explorer.page
    page.fill("#search", "lora")
    options = page.locator("#suggestions [role=option] .name")
    options.first.wait_for()
    assert options.first.inner_text() == "Low-Rank Adaptation (LoRA)"
    assert "LoRAMoE" in options.all_inner_texts()
    assert page.inner_text("#matches").split()[1] == "matches"
    assert server.url + "api/explore/search?q=lora" in explorer.requests


def test_choosing_it_fetches_its_neighbourhood_and_opens_the_panel(explorer):
    page = explorer.page
    explorer.choose("lora")
    assert explorer.node_requests()[0] == {"iri": [LORA], "hops": ["1"]}
    panel = page.locator("#details")
    assert panel.is_visible() and panel.locator("h2").inner_text() == "Low-Rank Adaptation"
    assert "Other names: LoRA" in panel.inner_text()
    fact = panel.locator("li.fact").first
    # The paper reads as its abstract's first words (no titles in the seeds), never as its hashed id.
    assert "sha256-" not in fact.locator(".paper").first.inner_text() and "sha256-" not in panel.inner_text()
    evidence = fact.locator("q.evidence").first
    assert len(evidence.inner_text()) > 20 and "LoRA" in evidence.locator("mark").all_inner_texts()
    # The neighbourhood is drawn, in focus.
    neighbour = fact.locator("button.goto").first.inner_text()
    assert {"Low-Rank Adaptation", neighbour} <= set(explorer.drawn_labels())
    assert "Focus: Low-Rank Adaptation" in page.inner_text("#status")
    # The node's page on the server is one click away.
    assert panel.locator("p.iri a").get_attribute("href") == "/entity?iri=" + urllib.parse.quote(LORA, safe="")


def test_expanding_a_neighbour_fetches_more(explorer, server):
    page = explorer.page
    explorer.choose("lora")
    neighbour = page.locator("#details li.fact button.goto").first
    name = neighbour.inner_text()
    neighbour.click()
    explorer.fetched(2)
    assert page.locator("#details h2").inner_text() == name
    asked = explorer.node_requests()[1]
    assert len(explorer.node_requests()) == 2 and asked["iri"] != [LORA] and asked["hops"] == ["1"]
    # Everything the server sent for it is loaded and drawn.
    piece = json.loads(http(server.url + "api/explore/node?" + urllib.parse.urlencode({"iri": asked["iri"][0], "hops": 1}))[2])
    assert len(piece["nodes"]) > 1 and set(n["label"] for n in piece["nodes"]) <= set(explorer.drawn_labels())
    # Two hops fetch again, and load what lies further.
    loaded = page.evaluate("kgExplorer.model.nodes.length")
    page.locator("summary", has_text="Filters").click()
    page.select_option("#hops", "2")
    explorer.fetched(3)
    assert explorer.node_requests()[2] == {"iri": asked["iri"], "hops": ["2"]}
    assert "within 2 hops" in page.inner_text("#status")
    assert page.evaluate("kgExplorer.model.nodes.length") > loaded


def test_search_ranks_as_graph_html_does(browser, server, seed_build):
    """The server's suggestions are the page's own, for names exact, other, prefixed, inside, plural and hyphenated."""
    visit = Explorer(browser, (seed_build[0] / "graph.html").as_uri())
    for query in ("lora", "low rank ADAPTATIONS", "gpt 4", "GPT4", "accuracy", "bert", "question", "a", "rl", "zzqx"):
        local = visit.page.evaluate(
            """(q) => kgExplorer.search(q).slice(0, 12).map((hit) => {
                const node = kgExplorer.model.nodes[hit.node];
                return [node.label, hit.rank, hit.via];
            })""",
            query,
        )
        status, _, body = http(server.url + "api/explore/search?" + urllib.parse.urlencode({"q": query}))
        found = json.loads(body)
        served = [[found["nodes"][h["node"]]["label"], h["rank"], h["via"]] for h in found["hits"]]
        assert status == 200 and served == local, query
        assert found["total"] == visit.page.evaluate("(q) => kgExplorer.search(q).length", query) or not found["complete"]
    visit.page.close()


def test_a_link_from_an_entity_page_opens_on_that_node(browser, server):
    visit = Explorer(browser, server.url + "explore?" + urllib.parse.urlencode({"iri": LORA}))
    visit.fetched(1)
    assert visit.page.locator("#details h2").inner_text() == "Low-Rank Adaptation"
    assert visit.errors == []
    visit.page.close()


def test_a_hostile_label_is_shown_as_text_and_runs_nothing(browser, tmp_path):
    folder = make_build(tmp_path / "build", small_kg(label=PAYLOAD, evidence=f"We apply {PAYLOAD} to question answering. {SCRIPT_PAYLOAD}"))
    server = started(folder)
    try:
        visit = Explorer(browser, server.url + "explore")
        page = visit.page
        page.fill("#search", "img src")
        option = page.locator("#suggestions [role=option] .name").first
        option.wait_for()
        assert option.inner_text() == PAYLOAD
        page.press("#search", "Enter")
        page.wait_for_function("(label) => document.querySelector('#details h2')?.textContent === label", arg=PAYLOAD)
        assert SCRIPT_PAYLOAD in page.locator("#details").inner_text()
        assert page.evaluate("document.querySelectorAll('img').length") == 0
        assert page.evaluate("typeof window.__pwned") == "undefined" and page.title() == "kg explorer · build"
        assert visit.errors == []
        assert [url for url in visit.requests if not url.startswith(server.url)] == []
        visit.page.close()
    finally:
        code, err = server.stop()
    assert code == 0, err


def test_the_entity_page_names_papers_by_their_words_not_their_hash(server):
    status, _, body = http(server.url + "entity?iri=" + urllib.parse.quote(LORA, safe=""))
    page = body.decode("utf-8")
    assert status == 200 and "kg:mentionedIn" in page
    text = " ".join(chunk.split(">", 1)[-1] for chunk in page.split("<"))  # the text between tags, roughly
    assert "sha256-" not in text


def test_the_query_editor_highlights_completes_sorts_and_links_to_the_explorer(browser, server):
    """/query is YASGUI from the installed oxigraph package: highlighting, kg:add -> kg:addresses, sortable results, offline."""
    from kg.serve.yasgui import oxigraph_executable

    if oxigraph_executable() is None:
        pytest.skip("no oxigraph executable (the serve extra installs it)")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors, requests = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(server.url + "query", timeout=WAIT)
    page.wait_for_selector(".CodeMirror", timeout=WAIT)
    assert page.locator(".CodeMirror .cm-keyword").count() >= 1  # the default query, highlighted
    editor = "kgYasgui.getTab().getYasqe()"
    page.evaluate(f"(() => {{ const y = {editor}; y.setValue('SELECT ?m ?t WHERE {{ ?m kg:add'); y.focus(); y.setCursor(0, 1000); }})()")
    page.keyboard.press("Control+Space")
    page.locator(".CodeMirror-hints li", has_text="kg:addresses").first.wait_for(timeout=WAIT)
    page.keyboard.press("Enter")
    assert page.evaluate(f"{editor}.getValue()") == "SELECT ?m ?t WHERE { ?m kg:addresses"
    page.evaluate(f"{editor}.setValue('SELECT ?m ?t WHERE {{ ?m kg:addresses ?t }} LIMIT 40'); {editor}.query()")
    page.wait_for_selector(".yasr table tbody tr", timeout=WAIT)
    def column() -> list[str]:
        return [row.locator("td").nth(2).inner_text() for row in page.locator(".yasr table tbody tr").all()]
    before = column()
    page.locator(".yasr table thead th").nth(2).click()
    ascending = column()
    page.locator(".yasr table thead th").nth(2).click()
    descending = column()
    distinct = lambda values: list(dict.fromkeys(values))  # noqa: E731
    assert ascending != before and len(distinct(ascending)) > 1 and distinct(descending) == distinct(ascending)[::-1]
    explore = page.locator("a.kg-explore").first.get_attribute("href")
    assert explore.startswith("/explore?iri=https%3A%2F%2Fw3id.org%2Fkg-lit%2Fid%2F")
    assert errors == [] and all(url.startswith(server.url) for url in requests)
    page.close()


def test_a_node_in_no_fact_leads_on_when_served(explorer):
    """The served "transformer" (named by papers, in no fact) lists the entities its papers also name, and one opens."""
    page = explorer.page
    explorer.choose("transformer")
    panel = page.locator("#details")
    assert "0 facts" in panel.inner_text()
    named = panel.locator("section.group", has_text="Named with it").locator("button.goto")
    assert named.count() >= 3
    first = named.first.inner_text()
    named.first.click()
    explorer.fetched(2)
    assert page.locator("#details h2").inner_text() == first
