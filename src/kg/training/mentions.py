"""Train a mention model on the annotated corpus: ``train_mentions(train, dev, out_dir)``.

The corpus (``benchmarks/gold/corpus``) gives each abstract's entities by name,
aliases and type, not by offsets; :func:`project` locates every form in the
text (case-insensitive, on word boundaries) and :func:`mention_examples` turns
the located forms into spaCy training examples over the host pipeline's own
parse, so that the model sees at training time the tokens, tags and sentences
it sees in a build. The model is the SciERC entity component's span
categoriser (:mod:`kg.extract.scierc.entities`) with the guideline's four
labels; the best dev epoch is kept (dev is the tuning set; the test split is
never read here).

Only entities that take part in a fact are annotated, so the model learns the
mentions that matter for the graph, not every noun phrase a type could fit.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.training import Example

from kg.evaluation.facts import GoldRecord
from kg.extract.scierc.entities import entity_config
from kg.extract.scierc.labels import Annotations
from kg.training.train import Progress, TrainReport, train_entities, tune_entities

#: Name of the learned mention component and the ``doc.spans`` key it writes.
MENTION_PIPE = "kg_learned_mentions"
MENTIONS_KEY = "kg_learned"
#: The guideline's entity types, the labels the model predicts.
LABELS = ("Method", "Task", "Dataset", "Metric")
#: Longest mention (in tokens) the model proposes; longer gold mentions are not learned.
MAX_SPAN = 12
#: Epochs of training; the best dev epoch is kept.
EPOCHS = 12


def _form_pattern(form: str) -> re.Pattern[str]:
    # Word boundaries that also hold next to punctuation inside a form ("F1-score", "(CNN)").
    return re.compile(r"(?<![\w])" + re.escape(form) + r"(?![\w])", re.IGNORECASE)


def project(abstract: str, entities: Iterable[tuple[str, Sequence[str]]]) -> list[tuple[int, int, str]]:
    """Character spans ``(start, end, type)`` of every located form of every entity.

    A longer form wins over a shorter one it contains for the same type ("graph
    neural network" over "graph"), and a span already taken by one entity is not
    given a second type. Forms that do not occur are skipped.

    >>> project("We train a GNN (graph neural network) on Cora.", [("Method", ["graph neural network", "GNN"]), ("Dataset", ["Cora"])])
    [(11, 14, 'Method'), (16, 36, 'Method'), (41, 45, 'Dataset')]
    """
    found: dict[tuple[int, int], str] = {}
    located: list[tuple[int, int, str]] = []
    for label, forms in entities:
        for form in sorted({f.strip() for f in forms if f.strip()}, key=len, reverse=True):
            for match in _form_pattern(form).finditer(abstract):
                located.append((match.start(), match.end(), label))
    for start, end, label in sorted(located, key=lambda s: (s[0] - s[1], s[0])):
        if (start, end) in found:
            continue
        if any(s <= start and end <= e and t == label for (s, e), t in found.items()):
            continue
        found[(start, end)] = label
    return sorted((s, e, t) for (s, e), t in found.items())


def record_spans(record: GoldRecord) -> list[tuple[int, int, str]]:
    """The located mentions of one annotated record."""
    return project(record.abstract, ((e.type, e.forms) for e in record.entities.values() if e.type in LABELS))


def token_annotations(doc: Doc, spans: Iterable[tuple[int, int, str]], max_span: int = MAX_SPAN) -> Annotations:
    """Character spans as the component's token annotations (inclusive end), inside one sentence each."""
    entities = set()
    for start, end, label in spans:
        span = doc.char_span(start, end, alignment_mode="expand")
        if span is None or len(span) > max_span:
            continue
        if span.sent.start > span.start or span.sent.end < span.end:
            continue
        entities.add((span.start, span.end - 1, label))
    return Annotations(frozenset(entities))


def _gold_doc(doc: Doc, annotations: Annotations, key: str) -> Doc:
    gold = Doc(doc.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
    gold.spans[key] = [Span(gold, s, e + 1, label=label) for s, e, label in sorted(annotations.entities)]
    return gold


def mention_examples(
    records: Sequence[GoldRecord], nlp: Language, key: str = MENTIONS_KEY
) -> tuple[list[Example], list[Annotations]]:
    """Training examples (host parse, located gold spans) and the gold annotations of ``records``."""
    docs = list(nlp.pipe((r.abstract for r in records), batch_size=32))
    examples, golds = [], []
    for record, doc in zip(records, docs, strict=True):
        annotations = token_annotations(doc, record_spans(record))
        examples.append(Example(doc, _gold_doc(doc, annotations, key)))
        golds.append(annotations)
    return examples, golds


def mention_config() -> dict[str, Any]:
    """The span categoriser's config for the corpus labels."""
    config = entity_config(max_span=MAX_SPAN)
    config["spans_key"] = MENTIONS_KEY
    return config


def train_mentions(
    train: Sequence[GoldRecord],
    dev: Sequence[GoldRecord],
    out_dir: str | Path,
    seed: int = 0,
    *,
    epochs: int = EPOCHS,
    max_steps: int | None = None,
    max_seconds: float | None = None,
    spacy_model: str | None = None,
    on_progress: Progress | None = None,
) -> TrainReport:
    """Train the mention component on ``train``, keep the best ``dev`` epoch, save it to ``out_dir``."""
    from kg.extract.scierc.model_files import load_host_pipeline
    from kg.training.save import check_writable, save_mention_model

    started = time.monotonic()
    out = Path(out_dir)
    check_writable(out)
    nlp = load_host_pipeline(spacy_model)
    say = on_progress or (lambda _line: None)
    say(f"parsing {len(train)} train and {len(dev)} dev abstracts")
    train_examples, _ = mention_examples(train, nlp)
    dev_examples, dev_gold = mention_examples(dev, nlp)
    dev_docs = [eg.predicted for eg in dev_examples]
    component = {"name": MENTION_PIPE, "config": mention_config(), "key": MENTIONS_KEY}
    epochs_run, best_epoch, stopped, history = train_entities(
        nlp,
        train_examples,
        dev_docs,
        dev_gold,
        seed=seed,
        epochs=epochs,
        max_steps=max_steps,
        deadline=started + max_seconds if max_seconds is not None else None,
        on_progress=say,
        component=component,
    )
    settings = {"entities": tune_entities(nlp, dev_docs, dev_gold, component=component), "epochs": epochs}
    report = TrainReport(
        out_dir=str(out),
        seed=seed,
        epochs_run=epochs_run,
        best_epoch=best_epoch,
        stopped_early=stopped,
        seconds=0.0,
        model_bytes=0,
        dev={"mentions": max(h["dev_entity_f1"] for h in history) if history else 0.0},
        settings=settings,
        history=history,
    )
    report.seconds = round(time.monotonic() - started, 1)
    report.model_bytes = save_mention_model(out, nlp.get_pipe(MENTION_PIPE), report.to_dict())
    return report
