"""Train the fact-confidence model of :mod:`kg.extract.pairs` on annotated abstracts (``kg train facts``).

Every candidate pair of an annotated abstract is labelled by the gold format's
own matching rule (:func:`kg.evaluation.facts.forms_match`, lenient): positive
when a triple of that relation joins a form of its subject to a form of its
object. A logistic regression (scikit-learn, the ``train`` extra; deterministic
L-BFGS) learns a weight per feature. Candidates the rules do not state are
trained on too: they show what a pair the annotators link looks like.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kg.evaluation.facts import Corpora, GoldRecord, forms_match, read_gold
from kg.extract.annotations import as_tuple
from kg.extract.pairs import Candidate, PairModel, candidates

#: The regularisation of the shipped model (inverse strength), chosen on annotation rounds A, B and D
#: (and again on the corpus dev split: 0.1 and 0.5 did no better).
C = 0.2
#: The learned model's cuts (``--model learned``), chosen on the corpus dev split: an unstated pair
#: scored at least ADD becomes a fact; a rule's fact scored below DROP is left out. The default
#: model neither adds nor drops.
ADD = 0.5
DROP = 0.2


@dataclass(frozen=True)
class Example:
    """One candidate pair of one annotated abstract and whether the annotator stated it."""

    paper: int
    candidate: Candidate
    label: bool

    @property
    def rule_confidence(self) -> float | None:
        """The confidence the rules gave the fact (None when they did not state it)."""
        return self.candidate.rule_confidence


def label(candidate: Candidate, record: GoldRecord) -> bool:
    """Whether a triple of the record states the candidate's fact (lenient matching, as ``kg eval facts``)."""
    subject_forms, object_forms = candidate.subject.forms, candidate.object.forms
    return any(
        relation == candidate.relation
        and subject in record.entities
        and forms_match(subject_forms, record.entities[subject].forms, True)
        and forms_match(object_forms, record.entities[obj].forms, True)
        for subject, relation, obj in record.triples
    )


def examples(records: Sequence[GoldRecord], nlp, batch_size: int = 16, on_progress: Callable[[int], None] | None = None) -> list[Example]:
    """Every candidate of every record, labelled; ``nlp`` is the extraction pipeline without ``kg_fact_scores``."""
    out = []
    docs = nlp.pipe((r.abstract for r in records), batch_size=batch_size)
    for number, (record, doc) in enumerate(zip(records, docs)):
        found = candidates(doc, as_tuple(doc._.kg_mentions), as_tuple(doc._.kg_facts), as_tuple(doc._.kg_acronyms))
        out += [Example(number, c, label(c, record)) for c in found]
        if on_progress is not None:
            on_progress(number + 1)
    return out


def fit(train: Sequence[Example], c: float = C, version: str = "kg.FactScores.v1", add: float | None = None, drop: float | None = None) -> PairModel:
    """A logistic regression over the candidates' features; weights rounded to 4 places (zeros dropped)."""
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = DictVectorizer()
    x = vectorizer.fit_transform([dict.fromkeys(e.candidate.features, 1) for e in train])
    model = LogisticRegression(C=c, max_iter=5000)
    model.fit(x, [e.label for e in train])
    weights = {name: round(float(w), 4) for name, w in zip(vectorizer.feature_names_, model.coef_[0]) if round(float(w), 4) != 0.0}
    return PairModel(weights, round(float(model.intercept_[0]), 4), version, add, drop)


def auc(scored: Sequence[tuple[float, bool]]) -> float:
    """The probability that a right fact scores above a wrong one (ties count half).

    >>> auc([(0.9, True), (0.2, False), (0.5, True), (0.5, False)])
    0.875
    """
    right = sorted(s for s, ok in scored if ok)
    wrong = sorted(s for s, ok in scored if not ok)
    if not right or not wrong:
        return float("nan")
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return wins / (len(right) * len(wrong))


def save(model: PairModel, path: str | Path) -> None:
    Path(path).write_text(json.dumps(model.to_dict(), indent=0, sort_keys=True) + "\n", encoding="utf-8")


def train_facts(
    annotations: str | Path | Sequence[str | Path],
    out: str | Path,
    *,
    corpus: Corpora = None,
    test: str | Path | None = None,
    c: float = C,
    model_name: str | None = None,
    on_progress: Callable[[str], None] | None = None,
) -> dict:
    """Train the fact-confidence model on ``annotations`` (one gold file or several) and write it to ``out``.

    With ``test``, also rank the rules' facts of those abstracts by the model and by the
    rules' own confidences: the AUC of each (the chance a right fact ranks above a wrong one),
    and the share of the unstated pairs above ``add`` that the annotators state.
    """
    from kg.extract.loader import load_pipeline

    say = on_progress or (lambda line: None)
    files = [annotations] if isinstance(annotations, (str, Path)) else list(annotations)
    records = [r for f in files for r in read_gold(f, corpus)]
    learned = model_name == "learned"
    add, drop = (ADD, DROP) if learned else (None, None)
    nlp = load_pipeline(scores=False, scierc_model=model_name)
    say(f"describing the candidate pairs of {len(records)} abstracts")
    data = examples(records, nlp)
    model = fit(data, c, add=add, drop=drop)
    save(model, out)
    report: dict[str, Any] = {
        "abstracts": len(records),
        "examples": len(data),
        "positives": sum(e.label for e in data),
        "features": len(model.weights),
    }
    if test is not None:
        held = examples(read_gold(test, corpus), nlp)
        ruled = [e for e in held if e.rule_confidence is not None]
        report["test_facts"] = len(ruled)
        report["test_auc"] = auc([(model.score(e.candidate.features), e.label) for e in ruled])
        report["test_auc_rules"] = auc([(e.rule_confidence, e.label) for e in ruled if e.rule_confidence is not None])  # (all of them)
        if add is not None:
            added = [e for e in held if e.rule_confidence is None and model.score(e.candidate.features) >= add]
            report["test_added"], report["test_added_right"] = len(added), sum(e.label for e in added)
    return report
