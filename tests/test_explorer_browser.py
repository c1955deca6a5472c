"""graph.html in a real browser: what a person sees and can do with it.

Playwright for Python drives Debian's Chromium (``apt-get install chromium``;
the ``browser`` extra installs Playwright; no browser is ever downloaded).
The tests skip when either is missing. The seeds page is the one the shared
``seed_build`` fixture writes; hostile and large pages are made here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from kg.explorer.page import generate_html
from kg.export.html import write_html
from tests.test_export_support import small_kg, synthetic_view

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(importlib.util.find_spec("playwright") is None, reason="playwright is not installed (the browser extra)"),
]

PAYLOAD = "<img src=x onerror=\"window.__pwned = 1; document.title = 'PWNED'\">"
SCRIPT_PAYLOAD = "<script>window.__pwned = 2</script>"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield browser
        browser.close()


#: How long a page may take to load or to answer: generous, since the suite's other workers share
#: the machine (a 1.5 MB page once took over 30 s to load on a loaded 2-core machine). A bound on
#: waiting, not a speed check.
PATIENCE_MS = 120_000


class Visit:
    """A page (a file, or a URL) opened in a fresh tab, with its console messages, errors and requests recorded."""

    def __init__(self, browser, path: Path | str, timeout: float = PATIENCE_MS) -> None:
        self.page = browser.new_page(viewport={"width": 1280, "height": 800})
        self.page.set_default_timeout(timeout)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.url = path if isinstance(path, str) else path.as_uri()
        self.page.goto(self.url, timeout=timeout)
        self.page.wait_for_selector("body[data-drawn]", state="attached", timeout=timeout)

    def shown(self, script: str):
        """Evaluate ``script`` over the drawn nodes: ``(ids, model) => ...``."""
        return self.page.evaluate(f"(() => {{ const ids = kgExplorer.nodes.getIds(); const model = kgExplorer.model; return ({script})(ids, model); }})()")


@pytest.fixture
def seeds(browser, seed_build):
    visit = Visit(browser, seed_build[0] / "graph.html")
    yield visit
    visit.page.close()


def test_the_seeds_page_opens_offline_without_errors(seeds):
    assert seeds.errors == []
    assert seeds.requests == [seeds.url]  # nothing but the page itself, not even a favicon
    status = seeds.page.inner_text("#status")
    assert status.startswith("Showing ") and " edges" in status
    assert seeds.shown("(ids) => ids.length") > 100


def test_typing_lora_suggests_low_rank_adaptation_first(seeds):
    seeds.page.fill("#search", "lora")
    options = seeds.page.locator("#suggestions [role=option] .name")
    # The graph labels it "Low-Rank Adaptation" with the other name "LoRA"; a match
    # through another name is shown as "label (name)".
    assert options.first.inner_text() == "Low-Rank Adaptation (LoRA)"
    assert "LoRAMoE" in options.all_inner_texts()  # a prefix match ranks after the exact other name
    assert seeds.page.inner_text("#matches").split()[1] == "matches"


def test_search_ignores_case_hyphens_and_plurals_and_says_not_found(seeds):
    seeds.page.fill("#search", "low rank ADAPTATIONS")
    assert seeds.page.locator("#suggestions [role=option] .name").first.inner_text() == "Low-Rank Adaptation"
    seeds.page.fill("#search", "zzqx no such thing")
    assert seeds.page.inner_text("#matches").startswith("Not found")
    assert seeds.page.locator("#suggestions").is_hidden()


def test_choosing_a_suggestion_opens_the_panel_with_facts_papers_and_evidence(seeds):
    page = seeds.page
    page.fill("#search", "lora")
    page.press("#search", "Enter")
    panel = page.locator("#details")
    assert panel.is_visible()
    assert panel.locator("h2").inner_text() == "Low-Rank Adaptation"
    assert "Other names: LoRA" in panel.inner_text()
    facts = panel.locator("li.fact")
    assert facts.count() >= 1
    first = facts.first
    # No titles in the seed corpus: a paper reads as its abstract's first words, never as its hashed id.
    paper = first.locator(".paper").first
    assert paper.inner_text().split("…")[0] and "sha256-" not in paper.inner_text()
    assert paper.get_attribute("title").startswith("sha256-")  # the id is still there, as the tooltip
    evidence = first.locator("q.evidence").first
    assert len(evidence.inner_text()) > 20
    assert "LoRA" in evidence.locator("mark").all_inner_texts()
    # The panel holds plain, selectable text.
    assert panel.evaluate("el => getComputedStyle(el).userSelect") != "none"


def test_the_panel_is_reached_and_closed_from_the_keyboard(seeds):
    page = seeds.page
    page.focus("#search")
    page.keyboard.type("accuracy")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute("#search", "aria-activedescendant") == "suggestion-0"
    page.keyboard.press("Enter")
    assert page.locator("#details h2").inner_text().lower() == "accuracy"
    page.focus("#details-toggle")
    page.keyboard.press("Enter")
    assert page.locator("#details").is_hidden()
    assert page.get_attribute("#details-toggle", "aria-expanded") == "false"


def test_the_legend_hides_every_task_node(seeds):
    count = "(ids, model) => ids.filter((id) => model.nodes[id].type === 'Task').length"
    assert seeds.shown(count) > 0
    seeds.page.locator("#legend label", has_text="Task").locator("input").uncheck()
    assert seeds.shown(count) == 0
    assert seeds.shown("(ids) => ids.length") > 0
    seeds.page.click("#reset")
    assert seeds.shown(count) > 0


def test_focus_dims_everything_but_the_neighbours(seeds):
    page = seeds.page
    page.fill("#search", "accuracy")
    page.press("#search", "Enter")
    colours = page.evaluate(
        """() => {
        const chosen = kgExplorer.state.focus, model = kgExplorer.model, near = new Set([chosen]);
        model.adjacency[chosen].forEach((e) => { near.add(model.edges[e].from); near.add(model.edges[e].to); });
        const split = {near: new Set(), far: new Set()};
        kgExplorer.nodes.get().forEach((n) => split[near.has(n.id) ? "near" : "far"].add(n.color.background));
        return {near: [...split.near], far: [...split.far], neighbours: near.size - 1};
    }"""
    )
    assert colours["neighbours"] > 1
    assert colours["far"] and len(colours["far"]) == 1 and colours["far"][0].startswith("rgba")  # all dimmed alike
    assert not [c for c in colours["near"] if c.startswith("rgba")]  # the neighbourhood keeps its colours
    assert "dimmed" in page.inner_text("#status")
    page.click("#clear-focus")
    assert "dimmed" not in page.inner_text("#status")


def test_filters_by_confidence_and_support_narrow_the_drawing(seeds):
    page = seeds.page
    before = seeds.shown("(ids) => ids.length")
    page.locator("summary", has_text="Filters").click()
    page.fill("#min-support", "3")
    page.dispatch_event("#min-support", "change")
    low = seeds.shown("(ids, model) => ids.filter((id) => model.nodes[id].support < 3).length")
    assert low == 0 and 0 < seeds.shown("(ids) => ids.length") < before


def test_a_hostile_label_is_shown_as_text_and_runs_nothing(browser, tmp_path):
    path = tmp_path / "graph.html"
    write_html(small_kg(label=PAYLOAD, evidence=f"We apply {PAYLOAD} to question answering. {SCRIPT_PAYLOAD}"), path)
    visit = Visit(browser, path)
    page = visit.page
    page.fill("#search", "img src")
    assert page.locator("#suggestions [role=option] .name").first.inner_text() == PAYLOAD
    page.press("#search", "Enter")
    assert page.locator("#details h2").inner_text() == PAYLOAD
    assert SCRIPT_PAYLOAD in page.locator("#details").inner_text()
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert page.evaluate("typeof window.__pwned") == "undefined" and page.title() == "Knowledge graph"
    assert visit.requests == [visit.url]  # the <img src=x> was never an element, so never fetched
    assert visit.errors == []
    visit.page.close()


def test_a_large_graph_draws_the_cap_and_shows_more_on_request(browser, tmp_path):
    path = tmp_path / "graph.html"
    path.write_text(generate_html(synthetic_view(600, 900), cap=100), encoding="utf-8")
    visit = Visit(browser, path)
    assert visit.shown("(ids) => ids.length") == 100
    supports = visit.shown("(ids, model) => ids.map((id) => model.nodes[id].support)")
    hidden_best = visit.page.evaluate(
        "Math.max(...kgExplorer.model.nodes.filter((n, i) => kgExplorer.model.adjacency[i].length && !kgExplorer.nodes.get(i))"
        ".map((n) => n.support))"
    )
    assert min(supports) >= hidden_best  # the most supported are the ones drawn
    visit.page.click("#show-more")
    assert visit.shown("(ids) => ids.length") == 200
    visit.page.close()


def test_years_relations_and_hops_filter_a_small_graph(browser, tmp_path):
    kg = small_kg()
    papers = {"p1": {"iri": "https://w3id.org/kg-lit/id/paper/p1", "year": 2019, "title": "First"},
              "p2": {"iri": "https://w3id.org/kg-lit/id/paper/p2", "year": 2021}}
    path = tmp_path / "graph.html"
    path.write_text(generate_html(kg.to_networkx(), papers=papers), encoding="utf-8")
    visit = Visit(browser, path)
    page = visit.page
    labels = "(ids, model) => ids.map((id) => model.nodes[id].label).sort()"
    page.locator("summary", has_text="Filters").click()
    page.fill("#year-from", "2020")
    page.dispatch_event("#year-from", "change")
    assert visit.shown(labels) == ["BERT", "F1", "SQuAD"]  # only facts from the 2021 paper are left
    page.locator("#relations label", has_text="evaluatedOn").locator("input").uncheck()
    assert visit.shown(labels) == ["BERT", "F1"]
    page.click("#reset")
    page.fill("#search", "QA")
    page.press("#search", "Enter")
    focus = """() => kgExplorer.nodes.get().filter((n) => !n.color.background.startsWith('rgba'))
                 .map((n) => kgExplorer.model.nodes[n.id].label).sort()"""
    one = page.evaluate(focus)
    page.select_option("#hops", "2")
    two = page.evaluate(focus)
    assert one == ["BERT", "question answering"]
    assert two == ["A paper", "BERT", "F1", "SQuAD", "question answering"]  # the paper proposing BERT, not its code
    assert visit.errors == []
    page.close()


def test_a_paper_opens_from_a_fact_with_its_abstract_and_facts(seeds):
    page = seeds.page
    page.fill("#search", "lora")
    page.press("#search", "Enter")
    source = page.locator("#details li.fact .paper").first
    name = source.locator("a, span").first.inner_text()
    source.locator("button", has_text="paper").click()
    panel = page.locator("#details")
    # Untitled in the seed corpus: named by its abstract's first words; the hashed id is not shown.
    assert panel.locator("h2").inner_text() == name and name.endswith("…")
    assert "sha256-" not in panel.inner_text()
    assert "LoFiT" in panel.locator("p.abstract").inner_text()
    facts = panel.locator("section.group", has_text="Facts from this paper").locator("li.fact")
    assert facts.count() >= 1 and facts.first.locator("q.evidence").count() >= 1


def test_paper_links_open_in_a_new_tab_and_only_over_http(browser, tmp_path):
    kg = small_kg()
    papers = {"p1": {"iri": "https://w3id.org/kg-lit/id/paper/p1", "title": "First", "link": "https://doi.org/10.1/x"},
              "p2": {"iri": "https://w3id.org/kg-lit/id/paper/p2", "link": "javascript:alert(1)"}}
    path = tmp_path / "graph.html"
    path.write_text(generate_html(kg.to_networkx(), papers=papers), encoding="utf-8")
    visit = Visit(browser, path)
    page = visit.page
    page.fill("#search", "squad")
    page.press("#search", "Enter")
    assert page.locator("#details a").count() == 0  # p2's javascript: URL is not a link
    page.fill("#search", "question answering")
    page.press("#search", "Enter")
    anchor = page.locator("#details a", has_text="First")
    assert anchor.get_attribute("href") == "https://doi.org/10.1/x"
    assert anchor.get_attribute("target") == "_blank" and "noopener" in anchor.get_attribute("rel")
    assert visit.requests == [visit.url]
    page.close()


def test_an_entity_in_no_fact_is_found_and_shows_the_papers_naming_it(seeds):
    page = seeds.page
    drawn = "(ids, model) => ids.some((id) => model.nodes[id].label === 'GPT-4')"
    assert not seeds.shown(drawn)  # only mentioned: not drawn at first
    for query in ("gpt 4", "GPT4"):  # hyphens and spaces ignored
        page.fill("#search", query)
        assert page.locator("#suggestions [role=option] .name").first.inner_text() == "GPT-4"
    page.press("#search", "Enter")
    panel = page.locator("#details")
    assert panel.locator("h2").inner_text() == "GPT-4"
    mentioned = panel.locator("section.group", has_text="Mentioned in").locator(".paper")
    assert mentioned.count() == 2 and "sha256-" not in mentioned.first.inner_text()
    assert seeds.shown(drawn)  # drawn once chosen


def test_escape_closes_the_panel_and_the_controls_fold_away(seeds):
    page = seeds.page
    page.fill("#search", "accuracy")
    page.press("#search", "Enter")
    page.locator("#details button.goto").first.focus()
    page.keyboard.press("Escape")
    assert page.locator("#details").is_hidden()
    assert page.evaluate("document.activeElement.id") == "details-toggle"
    page.click("#controls-toggle")
    assert page.locator("#search").is_hidden() and page.get_attribute("#controls-toggle", "aria-expanded") == "false"
    page.click("#controls-toggle")
    assert page.locator("#search").is_visible()


def test_a_fact_whose_subject_is_named_elsewhere_shows_both_sentences(seeds):
    """FlexPainter addresses 3D modeling, stated in a sentence about 3D modeling: the one naming FlexPainter shows too."""
    page = seeds.page
    page.fill("#search", "FlexPainter")
    page.press("#search", "Enter")
    fact = page.locator("#details li.fact", has_text="3D modeling").first
    naming, stating = fact.locator("q.evidence.naming").first, fact.locator("q.evidence:not(.naming)").first
    assert "FlexPainter" in naming.locator("mark").all_inner_texts()
    assert "3D modeling" in stating.locator("mark").all_inner_texts() and "FlexPainter" not in stating.inner_text()


def test_no_visible_text_is_a_hashed_paper_id(seeds):
    """Papers without a title read as their abstract's first words: in the panel, the suggestions and the node labels."""
    page = seeds.page
    assert seeds.shown("(ids, model) => model.nodes.filter((n) => /sha256-/.test(n.label)).length") == 0
    for query in ("FlexPainter", "lora", "weight selection this paper", "Texture map production is an important"):
        page.fill("#search", query)
        assert "sha256-" not in page.inner_text("#suggestions")
        page.press("#search", "Enter")
        assert "sha256-" not in page.inner_text("body"), query
    # The last one is a paper: its panel shows its abstract's words as the name, and no Id row.
    assert page.locator("#details h2").inner_text().startswith("Texture map production")


def test_a_node_in_no_fact_leads_on_to_its_papers_and_the_entities_named_with_it(seeds):
    """"transformer" is named by papers but in no fact: its panel still offers somewhere to go, and the counts add up."""
    import re

    page = seeds.page
    page.fill("#search", "transformer")
    page.press("#search", "Enter")
    panel = page.locator("#details")
    assert "0 facts" in panel.inner_text()
    assert panel.locator("section.group", has_text="Mentioned in").locator("button.goto").count() >= 1
    named = panel.locator("section.group", has_text="Named with it").locator("button.goto")
    assert named.count() >= 3
    first = named.first.inner_text()
    named.first.click()
    assert page.locator("#details h2").inner_text() == first
    shown, total = (int(n.replace(",", "")) for n in re.match(r"Showing ([\d,]+) nodes? of ([\d,]+)", page.inner_text("#status")).groups())
    assert shown <= total
