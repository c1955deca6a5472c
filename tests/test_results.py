"""Numeric results: which numbers are results, what they belong to, how they are stored, ranked and scored."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import srsly

from kg.evaluation.results import PredictedResult, parse_results_gold, read_results_gold, same_value, score_results
from kg.errors import UserError
from kg.extract.numbers import canonical_number, number_candidates
from kg.extract.results import find_results, result_kind
from kg.model import Entity, Extraction, Fact, Mention, Paper, Resolution, ResolvedResult, Result

# -- which numbers may be results ---------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "We train Llama-3.1-70B and ViT-S/8 on CIFAR-10 and IMC 2022.",
        "As shown in 2019, the bound is O(1/T) and Omega(kd).",
        "We use 5-shot prompts, top-5 retrieval and k = 3 neighbours.",
        "The corpus has 1000 images, 2 million examples and 7B parameters on 9 datasets.",
        "See (1) and (2) at https://github.com/a/b-12.",
        "The soft hy(cid:173) phen is not a number.",
    ],
)
def test_numbers_that_are_never_results(sentence):
    assert number_candidates(sentence) == []


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("It reaches 93.2% accuracy.", [("93.2", "%")]),
        ("It reaches 93.2\\% accuracy.", [("93.2", "%")]),
        ("It gains +3.1 points and runs 2.5x faster.", [("3.1", "points"), ("2.5", "x")]),
        ("Gains of 8-24% and 20x-200x fewer parameters.", [("8-24", "%"), ("20x-200x", "x")]),
        ("It scores 0.978 F-measure.", [("0.978", None)]),
    ],
)
def test_numbers_that_may_be_results_keep_value_and_unit(sentence, expected):
    assert [(c.value, c.unit) for c in number_candidates(sentence)] == expected


@pytest.mark.parametrize("value, number", [("1,024", "1024"), ("88.0", "88"), ("8-24", "8"), (".5", "0.5")])
def test_canonical_numbers(value, number):
    assert canonical_number(value) == number


@pytest.mark.parametrize(
    "sentence, kinds",
    [
        ("LynxNet reaches 71.4 exact match on Kestrel-QA.", ["absolute"]),
        ("LynxNet improves F1 by 13% over the baseline.", ["improvement"]),
        ("LynxNet gains +2.0 BLEU.", ["improvement"]),
        ("LynxNet is 3x faster and uses 40% less memory.", ["relative", "relative"]),
        ("LynxNet achieves an accuracy of 93.2% on Reef.", ["absolute"]),
        ("LynxNet yields improvements of 5.1% over prior work.", ["improvement"]),
    ],
)
def test_result_kinds(sentence, kinds):
    assert [result_kind(sentence, c, None) for c in number_candidates(sentence)] == kinds


# -- what a result belongs to -------------------------------------------------------------


def _mention(text: str, whole: str, label: str, after: int = 0) -> Mention:
    start = whole.index(text, after)
    return Mention(start, start + len(text), label, text)


def _sentences(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for piece in text.split(". "):
        end = start + len(piece) + (1 if start + len(piece) < len(text) else 0)
        spans.append((start, min(end, len(text))))
        start = end + 1
    return spans


def test_a_result_gets_method_metric_dataset_and_reference():
    text = "We propose PicoFormer for crop mapping. PicoFormer reaches 71.4% accuracy on CropNet, 2.5x faster than ViT-B."
    own = _mention("PicoFormer", text, "Method")
    mentions = [own, _mention("PicoFormer", text, "Method", 20), _mention("accuracy", text, "Metric"), _mention("CropNet", text, "Dataset"), _mention("ViT-B", text, "Method")]
    facts = [Fact("proposes", None, own, (0, 39), "t", 0.9)]
    found = find_results(text, _sentences(text), mentions, facts)
    assert [(r.value, r.unit, r.kind, r.method.text, r.dataset.text) for r in found] == [
        ("71.4", "%", "absolute", "PicoFormer", "CropNet"),
        ("2.5", "x", "relative", "PicoFormer", "CropNet"),
    ]
    assert found[0].metric_text == "accuracy" and found[0].compared_to is None
    assert found[1].compared_to.text == "ViT-B" and found[1].metric_text == "speedup"


def test_a_reference_that_is_no_entity_is_kept_as_written():
    text = "We propose TideNet. TideNet outperforms state-of-the-art baselines by 4.2% on HarborFlow."
    own = _mention("TideNet", text, "Method")
    mentions = [own, _mention("TideNet", text, "Method", 10), _mention("HarborFlow", text, "Dataset")]
    found = find_results(text, _sentences(text), mentions, [Fact("proposes", None, own, (0, 19), "t", 0.9)])
    assert [(r.value, r.kind, r.compared_to, r.compared_text) for r in found] == [("4.2", "improvement", None, "state-of-the-art baselines")]


def test_from_a_to_b_gives_the_first_value_to_the_reference():
    text = "We propose TideNet. TideNet raises accuracy over ARIMA from 70.1% to 75.3%."
    own = _mention("TideNet", text, "Method")
    mentions = [own, _mention("TideNet", text, "Method", 10), _mention("accuracy", text, "Metric"), _mention("ARIMA", text, "Method")]
    found = find_results(text, _sentences(text), mentions, [Fact("proposes", None, own, (0, 19), "t", 0.9)])
    assert [(r.value, r.method.text) for r in found] == [("70.1", "ARIMA"), ("75.3", "TideNet")]


def test_a_sentence_without_result_words_gives_no_result():
    text = "We propose TideNet. The data span 12.5 years of records."
    own = _mention("TideNet", text, "Method")
    assert find_results(text, _sentences(text), [own], [Fact("proposes", None, own, (0, 19), "t", 0.9)]) == []


def test_results_survive_the_cache_and_the_process_codec():
    text = "We propose A. A reaches 9.5% accuracy."
    method = _mention("A", text, "Method", 10)
    result = Result("9.5", "9.5", "%", "absolute", 24, 27, (14, len(text)), method, None, "accuracy", None, None, None, "kg.results/9", 0.8, "our A")
    extraction = Extraction("p", mentions=(method,), results=(result,))
    assert Extraction.from_dict(json.loads(json.dumps(extraction.to_dict()))) == extraction
    assert srsly.msgpack_loads(srsly.msgpack_dumps({"r": [result]}))["r"][0] == result


# -- the graph, results.csv and leaderboards --------------------------------------------


def _graph():
    from kg.views import KnowledgeGraph

    text = "We propose A. A reaches 12.0 WER on Set and B 14.5 WER."
    papers = [Paper(id="p1", abstract=text), Paper(id="p2", abstract="B reaches 80.0% accuracy on Set.")]
    entities = (
        Entity("method/a", "Method", "A", papers=("p1",), mentions=2),
        Entity("method/b", "Method", "B", papers=("p1", "p2"), mentions=2),
        Entity("dataset/set", "Dataset", "Set", papers=("p1", "p2"), mentions=2),
        Entity("metric/wer", "Metric", "WER", papers=("p1",), mentions=2),
    )

    def result(paper: str, value: str, method: str, start: int, metric: str | None, label: str) -> ResolvedResult:
        body = text if paper == "p1" else papers[1].abstract
        return ResolvedResult(paper, value, value.rstrip("0").rstrip("."), None, "absolute", start, start + len(value), body, 0, len(body),
                              method, None, metric, label, "dataset/set", None, None, "kg.results/9", 0.8)

    results = (result("p1", "12.0", "method/a", 24, "metric/wer", "WER"), result("p1", "14.5", "method/b", 46, "metric/wer", "WER"),
               result("p2", "80.0", "method/b", 10, None, "accuracy"))
    return KnowledgeGraph.from_resolution(papers, Resolution(entities=entities, facts=(), results=results))


def test_results_are_result_nodes_that_pass_the_shapes(tmp_path):
    from kg.views.validate import validate

    graph = _graph()
    rows = graph.results()
    assert [(r.paper_id, r.method_label, r.value, r.value_text, r.metric_label, r.dataset_label) for r in rows] == [
        ("p1", "A", "12", "12.0", "WER", "Set"), ("p1", "B", "14.5", "14.5", "WER", "Set"), ("p2", "B", "80", "80.0", "accuracy", "Set"),
    ]
    conforms, report = validate(graph.store)
    assert conforms, report


def test_results_csv_has_a_row_per_result(tmp_path):
    from kg.export import write_all

    write_all(_graph(), tmp_path, names=["results.csv"])
    with open(tmp_path / "results.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["method_label"], r["value_text"], r["kind"]) for r in rows] == [("A", "12.0", "absolute"), ("B", "14.5", "absolute"), ("B", "80.0", "absolute")]


def test_leaderboards_rank_lower_is_better_metrics_ascending():
    from kg.views.numbers import leaderboard
    from kg.views.queries import run_named

    graph = _graph()
    assert [(r.method_label, r.value_text) for r in leaderboard(graph.store, "set", "wer")] == [("A", "12.0"), ("B", "14.5")]
    with run_named(graph.store, "leaderboard", dataset_label="Set", metric_label="WER") as rows:
        assert [(row["methodName"].value, row["valueText"].value) for row in rows] == [("A", "12.0"), ("B", "14.5")]


def test_the_analysis_table_ranks_each_board():
    pytest.importorskip("pandas")
    from kg.analysis import result_leaderboards

    table = result_leaderboards(_graph())
    assert table[["dataset", "metric", "rank", "method", "direction"]].values.tolist() == [
        ["Set", "WER", 1, "A", "lower"], ["Set", "WER", 2, "B", "lower"], ["Set", "accuracy", 1, "B", "higher"],
    ]


# -- scoring ------------------------------------------------------------------------------

ABSTRACT = "We propose LynxRank. LynxRank reaches 71.4 exact match on Kestrel-QA, 3.2 points above DenseRet."


def _gold(results: list[dict]) -> list:
    record = {"id": "r1", "abstract": ABSTRACT, "entities": [{"name": "LynxRank", "aliases": ["our method"], "type": "Method"}], "results": results}
    return parse_results_gold([record], Path("g.json"))


GOLD = [
    {"method": "LynxRank", "dataset": "Kestrel-QA", "task": None, "metric": "exact match", "value": "71.4", "unit": None, "kind": "absolute", "compared_to": None, "sentence": 1},
    {"method": "LynxRank", "dataset": "Kestrel-QA", "task": None, "metric": "exact match", "value": "3.2", "unit": "points", "kind": "improvement", "compared_to": "DenseRet", "sentence": 1},
]


def test_core_and_full_match():
    at = ABSTRACT.index("71.4"), ABSTRACT.index("3.2")
    predicted = {"r1": [
        PredictedResult("r1", "71.4", "absolute", at[0], ("our method",), ("exact match",), ("Kestrel-QA",)),
        PredictedResult("r1", "+3.20", "absolute", at[1], ("LynxRank",), ("exact match",), ("Kestrel-QA",)),
        PredictedResult("r1", "71.4", "absolute", 0, ("LynxRank",)),  # outside the evidence sentence
    ]}
    scores = score_results(_gold(GOLD), predicted)
    assert (scores.core["all"].correct_predicted, scores.core["all"].predicted, scores.core["all"].matched_gold) == (2, 3, 2)
    assert (scores.full["all"].correct_predicted, scores.full["all"].matched_gold) == (1, 1)  # the kind of 3.2 is wrong
    assert scores.full["improvement"].matched_gold == 0 and scores.core["improvement"].matched_gold == 1


@pytest.mark.parametrize("a, b, same", [("88.0", "88", True), ("-2.1", "+2.1", True), ("8-24", "8-24", True), ("8-24", "8", False), ("3", "3.5", False)])
def test_values_compare_as_numbers(a, b, same):
    assert same_value(a, b) is same


def test_a_results_file_without_abstracts_takes_them_from_the_facts_gold_beside_it(tmp_path):
    (tmp_path / "dev_gold.json").write_text(json.dumps([{"id": "r1", "abstract": ABSTRACT, "entities": []}]))
    gold = tmp_path / "dev_results.json"
    gold.write_text(json.dumps([{"id": "r1", "results": [{**GOLD[0], "evidence": ABSTRACT.split(". ")[1]}]}]))
    records = read_results_gold(gold)
    assert records[0].abstract == ABSTRACT and records[0].results[0].span[0] == ABSTRACT.index("LynxRank reaches")
    (tmp_path / "dev_gold.json").unlink()
    with pytest.raises(UserError, match="E220.*--abstracts"):
        read_results_gold(gold)


# LaTeX before the result's sentence: the build cleans it away, so the number's offset moves left.
LATEX = (
    r"We propose LynxRank, $\mathcal{O}(n \log n)$ in time and 3$\times$ faster \cite{a,b,c} with {\em 20\% less} memory. "
    r"It reaches 71.4 exact match on Kestrel-QA."
)


@pytest.mark.parametrize("where", [{"sentence": 1}, {"evidence": "It reaches 71.4 exact match on Kestrel-QA."}])
def test_the_gold_sentence_and_a_predicted_offset_are_both_in_the_cleaned_text(where):
    from kg.readers import clean_text

    gold = parse_results_gold([{"id": "r1", "abstract": LATEX, "results": [{**GOLD[0], "sentence": None, **where}]}], Path("g.json"))
    cleaned = clean_text(LATEX)
    predicted = {"r1": [PredictedResult("r1", "71.4", "absolute", cleaned.index("71.4"), ("LynxRank",))]}
    assert cleaned.index("71.4") < LATEX.index("It reaches")  # the scorer's old coordinates missed it
    assert score_results(gold, predicted).core["all"].matched_gold == 1
    assert gold[0].text == cleaned and gold[0].text[slice(*gold[0].results[0].span)] == "It reaches 71.4 exact match on Kestrel-QA."


def test_gold_sentences_keep_the_numbering_of_the_text_as_given():
    # As given, "}. {\em" is no sentence boundary (a brace follows); cleaned, it is. The numbering stays the one annotators saw.
    abstract = r"We study {\em Lynx Rank}. {\em Lynx} is fast. Lynx reaches 71.4 exact match."
    gold = parse_results_gold([{"id": "r1", "abstract": abstract, "results": [{**GOLD[0], "sentence": 1}]}], Path("g.json"))
    assert gold[0].text[slice(*gold[0].results[0].span)] == "Lynx reaches 71.4 exact match."


@pytest.mark.parametrize(
    "result, message",
    [({**GOLD[0], "sentence": 9}, "sentence 9 is out of range"), ({**GOLD[0], "kind": "best"}, "kind"), ({**GOLD[0], "evidence": "Not there.", "sentence": None}, "not a sentence")],
)
def test_bad_gold_results_name_the_record(result, message):
    with pytest.raises(UserError, match=message):
        _gold([result])


@pytest.mark.slow
def test_kg_eval_results_scores_a_build_and_prints_json(tmp_path, capsys):
    from kg.cli import main

    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"id": "r1", "abstract": ABSTRACT, "entities": [{"name": "LynxRank", "aliases": [], "type": "Method"}], "results": GOLD}]))
    assert main(["eval", "results", str(gold), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert scores["core"]["all"]["gold"] == 2 and set(scores) == {"core", "full", "gold", "records"}
    assert 0 <= scores["core"]["all"]["precision"] <= 100


def test_the_engine_exports_carry_the_results(tmp_path):
    import networkx as nx

    from kg.export import write_all

    write_all(_graph(), tmp_path, names=["neo4j", "graph.nq", "graph.graphml"])
    with open(tmp_path / "neo4j" / "results.csv", encoding="utf-8", newline="") as handle:
        assert sorted(r["valueText"] for r in csv.DictReader(handle)) == ["12.0", "14.5", "80.0"]
    with open(tmp_path / "neo4j" / "result_links.csv", encoding="utf-8", newline="") as handle:
        links = {(r[":END_ID"].rsplit("/", 1)[-1], r[":TYPE"]) for r in csv.DictReader(handle)}
    assert {("a", "METHOD"), ("wer", "METRIC"), ("set", "ON_DATASET"), ("p1", "REPORTED_IN")} <= links
    quads = (tmp_path / "graph.nq").read_text(encoding="utf-8").splitlines()
    result_quads = [q for q in quads if q.startswith("<https://w3id.org/kg-lit/id/result/")]
    assert result_quads and all(q.rstrip(" .").endswith(("/paper/p1>", "/paper/p2>")) for q in result_quads)
    graph = nx.read_graphml(tmp_path / "graph.graphml")
    assert sorted(a["value_text"] for _, a in graph.nodes(data=True) if a.get("type") == "Result") == ["12.0", "14.5", "80.0"]


def test_the_entity_pages_of_a_method_and_a_dataset_list_their_results(tmp_path):
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    import urllib.parse

    from .serve_build import Server, http, make_build

    server = Server(make_build(tmp_path / "build", _graph()))
    try:
        pages = {}
        for name in ("method/a", "dataset/set"):
            status, _, body = http(server.url + "entity?" + urllib.parse.urlencode({"iri": f"https://w3id.org/kg-lit/id/{name}"}))
            assert status == 200
            pages[name] = body.decode("utf-8")
    finally:
        server.stop()
    assert "Reported results" in pages["method/a"] and "<mark>12.0</mark>" in pages["method/a"] and '<td class="value">14.5' not in pages["method/a"]
    assert all(f'<td class="value">{value}' in pages["dataset/set"] for value in ("12.0", "14.5", "80.0"))


@pytest.mark.browser
def test_the_explorer_panel_lists_a_datasets_reported_results(tmp_path):
    pytest.importorskip("playwright", reason="playwright is not installed (the browser extra)")
    from tests.test_explorer_browser import CHROMIUM, Visit

    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    from kg.export.html import write_html

    write_html(_graph(), tmp_path / "graph.html")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            visit = Visit(browser, tmp_path / "graph.html")
            visit.page.fill("#search", "Set")
            visit.page.press("#search", "Enter")
            panel = visit.page.locator("#details")
            assert panel.locator("h2").inner_text() == "Set"
            assert "Reported results (3)" in panel.inner_text()
            assert "12.0 WER on Set, by A (absolute)" in panel.inner_text()
            assert {"12.0", "14.5", "80.0"} <= set(panel.locator("mark").all_inner_texts())
            assert visit.errors == []
        finally:
            browser.close()


def test_a_result_of_our_method_belongs_to_the_papers_own_method():
    from kg.resolve import resolve

    text = "We propose LynxNet for parsing. Our method reaches 93.2% accuracy."
    lynx = _mention("LynxNet", text, "Method")
    ours = _mention("Our method", text, "Method")
    result = Result("93.2", "93.2", "%", "absolute", text.index("93.2"), text.index("93.2") + 4, (32, len(text)), ours, None, "accuracy", None, None, None, "kg.results/9", 0.8)
    extraction = Extraction("p", mentions=(lynx, ours), facts=(Fact("proposes", None, lynx, (0, 31), "t", 0.9),), results=(result,))
    resolved = resolve([Paper(id="p", abstract=text)], [extraction])
    assert [(r.method, r.value) for r in resolved.results] == [("method/lynxnet", "93.2")]


# -- rules learned from the corpus train split (sentences invented) -------------------------


@pytest.mark.parametrize(
    "sentence, expected",
    [
        # the "d" ending "and" is no setting name: the second score of a pair is a candidate
        ("HeronNet reaches 3.21 FID and 0.6437 Recall.", ["3.21", "0.6437"]),
        # an integer after "on" or "in" counts what was tested
        ("HeronNet improves accuracy on 10 policy models by 4.2%.", ["4.2"]),
        # millimetres are a unit
        ("HeronNet localises with an error of 1.41mm.", ["1.41"]),
        # the base of a power and an identifier are no results
        ("HeronNet runs in time 2^O(k) as shown in arXiv:1306.3727.", []),
        ("HeronNet improves on the O*(2^O(sqrt k)) bound.", []),
    ],
)
def test_number_candidates_learned_from_the_train_split(sentence, expected):
    assert [c.value for c in number_candidates(sentence)] == expected


def _one_sentence(text: str, names: dict[str, str], own: str | None = None) -> list[Result]:
    """find_results over one sentence with the named mentions (text -> label) and ``own`` proposed."""
    mentions = [_mention(name, text, label) for name, label in names.items()]
    facts = [Fact("proposes", None, m, (0, len(text)), "t", 0.9) for m in mentions if m.text == own]
    return find_results(text, [(0, len(text))], mentions, facts)


def test_a_method_after_a_preposition_is_no_actor():
    text = "Experiments on HeronNet and WrenGAN show gains of 4.2% in accuracy for our KiteNet."
    found = _one_sentence(text, {"KiteNet": "Method", "HeronNet": "Method", "WrenGAN": "Method"}, own="KiteNet")
    assert [(r.value, r.method.text) for r in found] == [("4.2", "KiteNet")]


def test_a_method_before_the_clause_of_the_number_is_no_actor():
    text = "HeronNet analysis shows that signal codes reach an error rate of 2.5% at most."
    mentions = [_mention("HeronNet", text, "Method"), _mention("KiteNet", "We propose KiteNet. " + text, "Method")]
    subject = (text.index("signal codes"), text.index("signal codes") + len("signal codes"))
    own = Mention(0, 7, "Method", "KiteNet")
    found = find_results(text, [(0, len(text))], [mentions[0], own], [Fact("proposes", None, own, (0, 7), "t", 0.9)], lambda _: subject)
    assert [(r.value, r.method.text) for r in found] == [("2.5", "KiteNet")]


def test_a_number_achieved_by_a_method_named_after_it_is_that_methods():
    text = "KiteNet reaches 37.1% top-5 error, close to the 34.2% top-5 error achieved by a supervised HeronNet."
    found = _one_sentence(text, {"KiteNet": "Method", "HeronNet": "Method"}, own="KiteNet")
    assert [(r.value, r.method.text) for r in found] == [("37.1", "KiteNet"), ("34.2", "HeronNet")]


def test_a_list_of_numbers_shares_the_kind_its_cue_gives_one_of_them():
    text = "KiteNet achieves 6.56%, 4.76% and 5.82% improvements over HeronNet in accuracy."
    found = _one_sentence(text, {"KiteNet": "Method", "HeronNet": "Method"}, own="KiteNet")
    assert [(r.value, r.kind, r.compared_to and r.compared_to.text) for r in found] == [
        ("6.56", "improvement", "HeronNet"), ("4.76", "improvement", "HeronNet"), ("5.82", "improvement", "HeronNet")]


def test_respectively_pairs_the_lists_in_order():
    text = "KiteNet and WrenNet reach 81.2% and 84.5% accuracy on ReefSet and TideBank, respectively."
    found = _one_sentence(text, {"KiteNet": "Method", "WrenNet": "Method", "ReefSet": "Dataset", "TideBank": "Dataset"}, own="KiteNet")
    assert [(r.value, r.method.text, r.dataset.text) for r in found] == [("81.2", "KiteNet", "ReefSet"), ("84.5", "WrenNet", "TideBank")]


def test_respectively_pairs_the_references_and_leaves_a_base_model_out():
    text = "KiteNet with HeronNet backbone is 24x and 3x more energy efficient than CoreA and CoreB, respectively."
    found = _one_sentence(text, {"KiteNet": "Method", "HeronNet": "Method", "CoreA": "Method", "CoreB": "Method"}, own="KiteNet")
    assert [(r.value, r.method.text, r.compared_to.text) for r in found] == [("24", "KiteNet", "CoreA"), ("3", "KiteNet", "CoreB")]


def test_a_metric_named_by_a_common_word_is_kept_as_written():
    text = "We propose KiteNet, which reaches an F-score of 0.8 on the held-out split."
    found = _one_sentence(text, {"KiteNet": "Method"}, own="KiteNet")
    assert [(r.value, r.metric_text) for r in found] == [("0.8", "F-score")]


def test_respectively_leaves_mentions_that_form_no_list_alone():
    text = "Fine-tuning HeronNet on ReefSet and testing on TideBank, KiteNet reaches 49.36 and 8.8 accuracy, respectively."
    mentions = [_mention(n, text, label) for n, label in (("HeronNet", "Method"), ("KiteNet", "Method"), ("ReefSet", "Dataset"), ("TideBank", "Dataset"))]
    subject = (mentions[1].start, mentions[1].end)  # the parse: KiteNet is the subject of "reaches"
    found = find_results(text, [(0, len(text))], mentions, [Fact("proposes", None, mentions[1], (0, len(text)), "t", 0.9)], lambda _: subject)
    assert [r.method.text for r in found] == ["KiteNet", "KiteNet"]
    assert [r.dataset.text for r in found] != ["ReefSet", "TideBank"]


# -- rules learned from the corpus train split, second round (sentences invented) --------------


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("HeronNet needs between 2.5x and 40x less memory.", [("2.5x and 40", "x")]),
        ("HeronNet cuts the error by amounts ranging from 3% to 9% relative.", [("3% to 9", "%")]),
        ("HeronNet cuts the error rate from 7.1% to 5.3%.", [("7.1", "%"), ("5.3", "%")]),  # a change, not a range
    ],
)
def test_a_range_written_in_words_is_one_candidate(sentence, expected):
    assert [(c.value, c.unit) for c in number_candidates(sentence)] == expected


def test_a_number_after_an_acronym_is_a_setting_unless_the_acronym_names_a_metric():
    text = "KiteNet reaches the best FID in NFE 500 and BLEU 28.4 on WrenSet."
    found = _one_sentence(text, {"KiteNet": "Method", "FID": "Metric", "WrenSet": "Dataset"}, own="KiteNet")
    assert [r.value for r in found] == ["28.4"]


def test_a_number_a_comparison_word_introduces_is_the_references():
    text = "KiteNet samples fool raters 40% of the time, compared to 10% for samples of HeronNet."
    found = _one_sentence(text, {"KiteNet": "Method", "HeronNet": "Method"}, own="KiteNet")
    assert [(r.value, r.method.text) for r in found] == [("40", "KiteNet"), ("10", "HeronNet")]
    # no method named after it: the same method in another setting
    setting = "HeronNet reaches 66.9% accuracy with sparse kernels versus 56.8% with dense kernels on the test."
    assert [(r.value, r.method.text) for r in _one_sentence(setting, {"HeronNet": "Method"}, own="HeronNet")] == [("66.9", "HeronNet"), ("56.8", "HeronNet")]


def test_a_relative_pronoun_gives_the_number_to_its_antecedent():
    text = "KiteNet is contrasted with WrenRank (WR), which achieves a score of 64% on the test."
    at = text.index("which")
    own = _mention("KiteNet", text, "Method")
    mentions = [own, _mention("WrenRank", text, "Method")]
    found = find_results(text, [(0, len(text))], mentions, [Fact("proposes", None, own, (0, len(text)), "t", 0.9)], lambda _: (at, at + 5))
    assert [(r.value, r.method.text) for r in found] == [("64", "WrenRank")]
