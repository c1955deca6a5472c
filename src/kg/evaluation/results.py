"""Scoring extracted numeric results against annotated abstracts (``kg eval results``).

A results gold file is a JSON list with one record per abstract and a
``results`` list in the format of ``GUIDELINES.md`` ("Numeric results"):
method, dataset, task, metric, value, unit, kind, compared_to, and the evidence
(the sentence verbatim as ``evidence``, or its number under
:mod:`kg.evaluation.sentences` as ``sentence``). A record gives its abstract
as ``abstract``, or as ``source_id`` with a corpus, or, for
``dev_results.json``, by ``id`` from the facts gold file beside it, whose
entities also give the method's aliases.

Definitions (docs/EVALUATION.md, fixed before any tuning):

- **core match**: same paper; the predicted value lies inside the gold
  evidence sentence (both in the cleaned text the build extracts from, see
  :func:`cleaned_span`); equal value as a number (a leading sign, units and
  thousands separators normalised; a range equal as a range); and the
  predicted method matches the gold method or one of its aliases as facts
  match leniently (:func:`kg.evaluation.facts.forms_match`);
- **full match**: a core match whose metric and dataset also match (both
  absent, or matching leniently) and whose kind is the same.

Precision is matched predictions over predictions, recall matched gold
results over gold results, micro-averaged, overall and per gold kind.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kg.errors import UserError
from kg.evaluation.facts import Corpora, Counts, forms_match, gold_error, gold_id, with_abstracts
from kg.evaluation.sentences import split_sentences
from kg.model import normalise_whitespace
from kg.readers import clean_text

__all__ = ["GoldResult", "PredictedResult", "ResultScores", "cleaned_span", "read_results_gold", "score_results", "same_value"]

KINDS = ("absolute", "improvement", "relative")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?|\.\d+")


@dataclass(frozen=True)
class GoldResult:
    method_forms: tuple[str, ...]
    value: str
    kind: str
    metric: str | None
    dataset_forms: tuple[str, ...]
    span: tuple[int, int]  # the evidence sentence in the record's cleaned text


@dataclass(frozen=True)
class GoldResultRecord:
    id: str
    abstract: str  # as given (whitespace-normalised): what the build reads
    text: str  # the abstract as the build cleans it: the coordinates of every span and offset
    results: tuple[GoldResult, ...]


@dataclass(frozen=True)
class PredictedResult:
    """One extracted result, with every label of its method, metric and dataset."""

    paper_id: str
    value: str
    kind: str
    start: int  # the value's offset in the abstract
    method: tuple[str, ...]
    metric: tuple[str, ...] = ()
    dataset: tuple[str, ...] = ()
    evidence: str = ""


@dataclass
class ResultScores:
    core: dict[str, Counts]
    full: dict[str, Counts]
    records: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)


def numbers_of(value: str) -> tuple[float, ...]:
    """The numbers of a value as written, signs and units ignored.

    >>> numbers_of("+3.1"), numbers_of("8-24"), numbers_of("1,024"), numbers_of("20x-200x")
    ((3.1,), (8.0, 24.0), (1024.0,), (20.0, 200.0))
    """
    return tuple(float(n.replace(",", "")) for n in _NUMBER.findall(value))


def same_value(predicted: str, gold: str) -> bool:
    """Whether two values as written are the same number (or the same range).

    >>> same_value("88.0", "88"), same_value("-2.1", "2.1"), same_value("8-24", "8"), same_value("3", "3.5")
    (True, True, False, False)
    """
    left, right = numbers_of(predicted), numbers_of(gold)
    return bool(left) and left == right


def cleaned_span(abstract: str, cleaned: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence ``abstract[start:end]`` lies in ``cleaned``, the abstract as :func:`~kg.readers.clean_text` cleans it.

    The build cleans LaTeX and HTML out of an abstract before it extracts, so a
    predicted result's offset counts characters of the cleaned text, while the
    annotators located their sentences in the text as given. The sentence,
    cleaned alone, is looked up nearest to where its cleaned prefix ends; when
    cleaning it alone gives other text (markup across its ends), the cleaned
    prefixes give both ends.

    >>> abstract = r"We cut cost by 3$\times$ and error by 2\%. X reaches 71.4 F1."
    >>> cleaned = clean_text(abstract)
    >>> at = abstract.index("X reaches")
    >>> start, end = cleaned_span(abstract, cleaned, at, len(abstract))
    >>> cleaned[start:end]
    'X reaches 71.4 F1.'
    """
    piece = clean_text(abstract[start:end])
    hint = len(clean_text(abstract[:start]))
    found = [match.start() for match in re.finditer(re.escape(piece), cleaned)] if piece else []
    if found:
        at = min(found, key=lambda i: abs(i - hint))
        return at, at + len(piece)
    if cleaned[hint : hint + 1] == " ":
        hint += 1
    return hint, max(hint, len(clean_text(abstract[:end])))


def _sentence_span(abstract: str, cleaned: str, raw: Mapping[str, Any], where: str, path: Path) -> tuple[int, int]:
    if isinstance(raw.get("evidence"), str):
        evidence = normalise_whitespace(raw["evidence"])
        at = abstract.find(evidence)
        if at < 0:
            raise gold_error(path, where, "its evidence is not a sentence of the abstract")
        return cleaned_span(abstract, cleaned, at, at + len(evidence))
    if isinstance(raw.get("sentence"), int):
        # The numbering is the annotation format's: fixed on the text as given, not on the cleaned text.
        spans = split_sentences(abstract)
        if not 0 <= raw["sentence"] < len(spans):
            raise gold_error(path, where, f"sentence {raw['sentence']} is out of range")
        start, end, _ = spans[raw["sentence"]]
        return cleaned_span(abstract, cleaned, start, end)
    raise gold_error(path, where, "a result needs 'evidence' or 'sentence'")


def _forms(name: Any, entities: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
    if not isinstance(name, str) or not name:
        return ()
    return (name, *entities.get(name, ()))


def parse_results_gold(data: Any, path: Path) -> list[GoldResultRecord]:
    """Records with their abstract (already filled in) and results; E220 names what is wrong."""
    if not isinstance(data, list):
        raise gold_error(path, "the file", "must hold a JSON list of records")
    records = []
    for number, raw in enumerate(data, 1):
        where = f"record {number}"
        if not isinstance(raw, dict) or not isinstance(raw.get("abstract"), str) or not isinstance(raw.get("results"), list):
            raise gold_error(path, where, "needs 'abstract' (or 'source_id') and a 'results' list")
        abstract = normalise_whitespace(raw["abstract"])
        cleaned = clean_text(abstract)
        entities = {e["name"]: tuple(e.get("aliases", ())) for e in raw.get("entities", []) if isinstance(e, dict) and "name" in e}
        results = []
        for index, result in enumerate(raw["results"], 1):
            spot = f"{where}, result {index}"
            if not isinstance(result, dict) or not isinstance(result.get("value"), str) or result.get("kind") not in KINDS:
                raise gold_error(path, spot, f"needs a 'value' string and a 'kind' in {', '.join(KINDS)}")
            results.append(
                GoldResult(
                    method_forms=_forms(result.get("method"), entities),
                    value=result["value"],
                    kind=result["kind"],
                    metric=result.get("metric"),
                    dataset_forms=_forms(result.get("dataset"), entities),
                    span=_sentence_span(abstract, cleaned, result, spot, path),
                )
            )
        records.append(GoldResultRecord(raw.get("id") or gold_id(abstract), abstract, cleaned, tuple(results)))
    return records


def read_results_gold(path: str | Path, corpus: Corpora = None, abstracts: str | Path | None = None) -> list[GoldResultRecord]:
    """Read a results gold file, filling in abstracts (and entities) from ``abstracts`` or ``corpus``.

    ``abstracts`` is a facts gold file whose records share the ids; by default a
    ``dev_gold.json`` beside a file whose records carry neither an abstract nor a
    ``source_id`` (as ``dev_results.json`` does).
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UserError("E221", path=path, reason=error.strerror or str(error)) from None
    except json.JSONDecodeError as error:
        raise gold_error(path, f"line {error.lineno}", "not valid JSON") from None
    if isinstance(data, list) and data and all(isinstance(r, dict) and "abstract" not in r and "source_id" not in r for r in data):
        beside = Path(abstracts) if abstracts is not None else path.with_name("dev_gold.json")
        if not beside.is_file():
            raise gold_error(path, "its records", f"carry no abstract; pass --abstracts with the facts gold file ({beside} not found)")
        by_id = {r.get("id"): r for r in json.loads(beside.read_text(encoding="utf-8")) if isinstance(r, dict)}
        missing = [r.get("id") for r in data if r.get("id") not in by_id]
        if missing:
            raise gold_error(path, f"record id {missing[0]!r}", f"is not in {beside}")
        data = [{**by_id[r["id"]], **r} for r in data]
    elif isinstance(data, list) and any(isinstance(r, dict) and "abstract" not in r for r in data):
        data = with_abstracts(data, path, corpus)
    return parse_results_gold(data, path)


def _optional_match(predicted: Sequence[str], gold: Sequence[str]) -> bool:
    if not gold:
        return not predicted
    return bool(predicted) and forms_match(predicted, gold, True)


def _core(pred: PredictedResult, gold: GoldResult) -> bool:
    return gold.span[0] <= pred.start < gold.span[1] and same_value(pred.value, gold.value) and forms_match(pred.method, gold.method_forms, True)


def _full(pred: PredictedResult, gold: GoldResult) -> bool:
    metric = (gold.metric,) if gold.metric else ()
    return _core(pred, gold) and pred.kind == gold.kind and _optional_match(pred.metric, metric) and _optional_match(pred.dataset, gold.dataset_forms)


def score_results(records: Sequence[GoldResultRecord], predicted: Mapping[str, Sequence[PredictedResult]]) -> ResultScores:
    """Core and full precision and recall, overall (``"all"``) and per gold kind.

    A prediction's kind is its own for precision; recall is counted by the gold
    result's kind.
    """
    scores = ResultScores({k: Counts() for k in (*KINDS, "all")}, {k: Counts() for k in (*KINDS, "all")}, records=len(records))
    for record in records:
        preds = list(predicted.get(record.id, ()))
        for name, match, table in (("core", _core, scores.core), ("full", _full, scores.full)):
            hit = [False] * len(record.results)
            for pred in preds:
                found = [i for i, gold in enumerate(record.results) if match(pred, gold)]
                for i in found:
                    hit[i] = True
                for key in {pred.kind if pred.kind in KINDS else "absolute", "all"}:
                    table[key].predicted += 1
                    table[key].correct_predicted += bool(found)
                if name == "core" and not found:
                    scores.errors.append({"kind": "false_positive", "paper": record.id, "value": pred.value, "method": pred.method[:1], "evidence": pred.evidence})
            for gold, matched in zip(record.results, hit):
                for key in (gold.kind, "all"):
                    table[key].gold += 1
                    table[key].matched_gold += matched
                if name == "core" and not matched:
                    scores.errors.append({"kind": "miss", "paper": record.id, "value": gold.value, "method": gold.method_forms[:1], "evidence": record.text[gold.span[0]:gold.span[1]]})
    return scores


# -- reading a graph ------------------------------------------------------------------

_RESULTS = """
SELECT ?id ?r ?value ?kind ?start ?method ?methodLabel ?metric ?metricLabel ?dataset ?evidence WHERE {
  ?r a kg:Result ; kg:valueText ?value ; kg:resultKind ?kind ; kg:valueStart ?start ; kg:method ?method ;
     kg:evidence ?evidence ; prov:wasDerivedFrom ?paper .
  ?paper dcterms:identifier ?id .
  OPTIONAL { ?r kg:metric ?metric } OPTIONAL { ?r kg:metricLabel ?metricLabel } OPTIONAL { ?r kg:onDataset ?dataset }
  OPTIONAL { ?r kg:methodLabel ?methodLabel }
}"""
_LABELS = "SELECT ?n ?label WHERE { { ?n rdfs:label ?label } UNION { ?n skos:altLabel ?label } }"


def graph_results(graph: Any) -> dict[str, list[PredictedResult]]:
    """The numeric results of a :class:`~kg.views.KnowledgeGraph` by paper id, each end with all its labels."""
    labels: dict[str, list[str]] = {}
    for row in graph.select(_LABELS):
        labels.setdefault(row["n"], []).append(str(row["label"]))

    def forms(iri: Any) -> tuple[str, ...]:
        found = labels.get(iri, [])
        return tuple(found[:1] + sorted(found[1:]))

    predicted: dict[str, list[PredictedResult]] = {}
    for row in graph.select(_RESULTS):
        metric = forms(row.get("metric")) if row.get("metric") else ()
        if row.get("metricLabel"):
            metric = (str(row["metricLabel"]), *metric)
        predicted.setdefault(str(row["id"]), []).append(
            PredictedResult(
                str(row["id"]), str(row["value"]), str(row["kind"]), int(row["start"]),
                forms(row["method"]) + ((str(row["methodLabel"]),) if row.get("methodLabel") else ()),
                metric, forms(row.get("dataset")) if row.get("dataset") else (), str(row["evidence"]),
            )
        )
    for results in predicted.values():
        results.sort(key=lambda r: r.start)
    return predicted


def evaluate_results(
    gold: str | Path,
    *,
    scierc_model: str | None = None,
    workdir: str | Path | None = None,
    corpus: Corpora = None,
    abstracts: str | Path | None = None,
) -> ResultScores:
    """Build the gold file's abstracts as ``kg build`` does and score the graph's numeric results."""
    import tempfile

    from kg.buildfolder import NTRIPLES, BuildFolder, BuildSettings
    from kg.pipeline import build
    from kg.views import KnowledgeGraph

    records = read_results_gold(gold, corpus, abstracts)
    with tempfile.TemporaryDirectory(prefix="kg-eval-results-") as tmp:
        folder = Path(workdir) if workdir is not None else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        inputs = folder / "gold-abstracts.jsonl"
        with inputs.open("w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps({"id": record.id, "abstract": record.abstract}, ensure_ascii=False) + "\n")
        out = folder / "build"
        build([inputs], out, BuildSettings(scierc_model=scierc_model), formats=[NTRIPLES])
        predicted = graph_results(KnowledgeGraph.load(BuildFolder(out).ntriples))
    return score_results(records, predicted)
