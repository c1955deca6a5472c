"""``kg report``: every plot has data, the page loads nothing remote, the SPARQL shown reproduces it."""

from __future__ import annotations

import html
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

from kg.analysis import cooccurrence, tiny_graph  # noqa: E402
from kg.analysis.queries import COOCCURRENCE, frame  # noqa: E402
from kg.analysis.sample import tiny_build as tiny_build_folder  # noqa: E402
from kg.cli import main  # noqa: E402

PLOTS = {
    "top-tasks": "Most mentioned tasks",
    "top-datasets": "Most mentioned datasets",
    "top-metrics": "Most mentioned metrics",
    "method-dataset": "Methods × datasets for the top tasks",
    "communities": "Communities of entities",
    "trends": "Tasks over the years",
    "support": "Support per fact",
    "confidence": "Confidence of the extracted facts",
}
# Attributes through which a page would fetch something.
_FETCHING = {"src", "href", "xlink:href", "poster", "srcset", "action", "data", "formaction", "background"}


class _Page(HTMLParser):
    """What a test needs of a report page: its figures, tables, queries and every fetching attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.figures: dict[str, dict[str, str]] = {}
        self.tables: dict[str, dict[str, str]] = {}
        self.links: list[str] = []
        self.tags: set[str] = set()
        self.styles: list[str] = []
        self.queries: dict[str, str] = {}
        self._in: list[str] = []
        self._section = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.tags.add(tag)
        self.links += [v for k, v in values.items() if k in _FETCHING]
        self.styles.append(values.get("style", ""))
        if "data-plot" in values:
            self.figures[values["data-plot"]] = values
            self._section = values["data-plot"]
        if "data-table" in values:
            self.tables[values["data-table"]] = values
            self._section = values["data-table"]
        self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._in and self._in[-1] == tag:
            self._in.pop()

    def handle_data(self, data: str) -> None:
        if self._in and self._in[-1] == "style":
            self.styles.append(data)
        if self._in[-2:] == ["pre", "code"]:
            self.queries[self._section] = self.queries.get(self._section, "") + data


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _assert_offline(page: _Page) -> None:
    # The one script is inline (sorting and filtering the tables): any src would be caught below.
    assert not page.tags & {"link", "iframe", "object", "embed", "img", "video", "audio"}
    remote = [v for v in page.links if not (v.startswith("#") or v.startswith("data:"))]
    assert remote == []
    assert not any("url(" in s or "@import" in s for s in page.styles)


@pytest.fixture(scope="module")
def tiny_build(tmp_path_factory):
    folder = tiny_build_folder(tmp_path_factory.mktemp("tiny"))  # graph.nt and a manifest
    rejected = [{"source": "in.jsonl:3", "reason": "no abstract", "code": "E106"}, {"source": "in.jsonl:9", "reason": "malformed JSON", "code": "E104"}]
    (folder / "rejected.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rejected), encoding="utf-8")
    return folder


def test_every_plot_of_a_dated_graph_has_data(tiny_build, tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["report", str(tiny_build), "--out", str(out)]) == 0
    page = _parse(out)
    assert {name: f["data-title"] for name, f in page.figures.items()} == PLOTS
    assert {name: int(f["data-marks"]) > 0 for name, f in page.figures.items()} == dict.fromkeys(PLOTS, True)
    assert int(page.tables["rejected"]["data-rows"]) == 2
    assert int(page.tables["leaderboard"]["data-rows"]) > 0 and int(page.tables["bridges"]["data-rows"]) > 0
    _assert_offline(page)


def test_the_sparql_shown_reproduces_each_plot(tiny_build, tmp_path):
    out = tmp_path / "report.html"
    main(["report", str(tiny_build), "--out", str(out)])
    page = _parse(out)
    graph = tiny_graph()
    for name in PLOTS:
        assert graph.select(html.unescape(page.queries[name])), name
    tasks = graph.select(page.queries["top-tasks"])
    assert [r["label"] for r in tasks if r["type"].endswith("#Task")] == ["question answering", "image classification"]


def test_cooccurrence_agrees_with_its_sparql():
    graph = tiny_graph()
    pandas_pairs = cooccurrence(graph)[["a", "b", "papers"]].sort_values(["a", "b"]).values.tolist()
    sparql_pairs = frame(graph, COOCCURRENCE, ["a", "b", "papers"]).sort_values(["a", "b"]).values.tolist()
    assert pandas_pairs == sparql_pairs and pandas_pairs


def test_report_writes_gexf_and_graphml_with_communities(tiny_build, tmp_path):
    import networkx as nx

    args = ["report", str(tiny_build), "--out", str(tmp_path / "r.html"), "--gexf", str(tmp_path / "e.gexf"), "--graphml", str(tmp_path / "e.graphml")]
    assert main(args) == 0
    for G in (nx.read_gexf(tmp_path / "e.gexf"), nx.read_graphml(tmp_path / "e.graphml")):
        assert {d["community"] for _, d in G.nodes(data=True)} == {0, 1}


@pytest.mark.parametrize(
    "args,code",
    [
        (["report", "{empty}", "--out", "{tmp}/r.html"], "E307"),
        (["report", "{build}", "--out", "{tmp}/no/such/folder/r.html"], "E391"),
        (["report", "{build}", "--out", "{tmp}/r.html", "--gexf", "{tmp}/nope/e.gexf"], "E391"),
        (["report", "{tmp}/missing", "--out", "{tmp}/r.html"], "E301"),
    ],
)
def test_report_mistakes_are_one_line_and_write_nothing(args, code, tiny_build, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    filled = [a.format(tmp=tmp_path, build=tiny_build, empty=empty) for a in args]
    assert main(filled) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith(f"kg: error: {code}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]
    assert list(empty.iterdir()) == []


def test_report_without_the_analysis_extra_says_what_to_install(tiny_build, tmp_path, capsys, monkeypatch):
    import kg.analysis.report as report

    monkeypatch.setattr(report, "REPORT_MODULES", ("json", "kg_no_such_plotting_module"))
    assert main(["report", str(tiny_build), "--out", str(tmp_path / "r.html")]) == 2
    assert "pip install 'kg-lit[analysis]'" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.slow
def test_report_of_the_seed_build(seed_build, tmp_path):
    out = tmp_path / "report.html"
    assert main(["report", str(seed_build[0]), "--out", str(out)]) == 0
    page = _parse(out)
    marks = {name: int(f["data-marks"]) for name, f in page.figures.items()}
    assert set(marks) == set(PLOTS)
    # The example corpus has no dates: the trend plot says so instead of drawing.
    assert marks.pop("trends") == 0 and page.figures["trends"]["data-empty"].startswith("no paper has a date")
    assert all(m > 0 for m in marks.values()), marks
    _assert_offline(page)


def test_a_heat_map_of_counts_has_a_discrete_scale():
    """Counts get one colour each (bands past ten) and a colour bar labelled with counts, never 0.0-1.0."""
    import pandas as pd

    from kg.analysis.plots import heat_map

    small = heat_map(pd.DataFrame([[0, 1], [2, 1]], index=["a", "b"], columns=["x", "y"]), "t")
    assert [t.get_text() for t in small.axes[1].get_yticklabels()] == ["0", "1", "2"]
    big = heat_map(pd.DataFrame([[0, 25]], index=["a"], columns=["x", "y"]), "t")
    labels = [t.get_text() for t in big.axes[1].get_yticklabels()]
    assert labels[0] == "0" and labels[-1].endswith("27") and all("." not in label for label in labels)


@pytest.mark.slow
@pytest.mark.browser
def test_report_tables_sort_and_filter(tiny_build, tmp_path):
    """Click a header to sort a table (numbers as numbers), type to filter its rows."""
    import importlib.util

    if not Path("/usr/bin/chromium").exists() or importlib.util.find_spec("playwright") is None:
        pytest.skip("needs /usr/bin/chromium and playwright (the browser extra)")
    from playwright.sync_api import sync_playwright

    out = tmp_path / "report.html"
    assert main(["report", str(tiny_build), "--out", str(out)]) == 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        page.set_default_timeout(120_000)  # a bound on waiting on a loaded machine, not a speed check
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(out.as_uri())
        section = page.locator("section.table", has=page.locator("tbody tr")).first
        heads = [h.inner_text() for h in section.locator("th").all()]
        numeric = next(i for i, h in enumerate(heads) if h in ("papers", "methods", "facts", "count", "support"))
        def column() -> list[str]:
            return [row.locator("td").nth(numeric).inner_text() for row in section.locator("tbody tr").all()]
        section.locator("th").nth(numeric).click()
        up = column()
        section.locator("th").nth(numeric).click()
        assert [float(v) for v in up] == sorted(float(v) for v in up) and column() == up[::-1]
        first = section.locator("tbody tr").first.locator("td").first.inner_text()
        section.locator("input.filter").fill(first)
        visible = [row for row in section.locator("tbody tr").all() if row.is_visible()]
        assert visible and all(first.lower() in row.inner_text().lower() for row in visible)
        browser.close()
    assert errors == []
