"""Train the SciERC components: ``train_scierc(data_dir, out_dir, seed=0)``.

1. Parse train and dev with en_core_web_sm (its NER excluded) on the given
   tokens, so that training sees the tags and parses the host pipeline will
   give at run time.
2. Train the entity component (:mod:`kg.extract.scierc.entities`) for a fixed number
   of epochs, scoring dev after each; keep the epoch with the best dev entity
   F1 (dev is the tuning set; test is never read here).
3. Tune the entity threshold and overlap policy on dev.
4. Train the relation classifier (:mod:`kg.training.relations`) on train pairs
   over gold *and* predicted mentions, so it learns what the entity
   component's mistakes look like; tune its regularisation and threshold on dev
   with predicted mentions.

Everything is seeded, and stopping is by epoch count, so two runs with the
same seed, data and library versions give the same model. ``max_steps`` and
``max_seconds`` exist for tests and smoke runs; a run they stop early is
reported as such.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import fix_random_seed, minibatch
from thinc.api import Adam

from kg.extract.scierc import relations
from kg.extract.scierc.entities import ENTITY_FACTORY, ENTITY_PIPE, entity_config
from kg.extract.scierc.labels import SPANS_KEY, Annotations
from kg.extract.scierc.model_files import load_host_pipeline
from kg.training.data import (
    gold_annotations,
    make_doc,
    parse_records,
    read_dygie,
    set_gold_spans,
    split_path,
)
from kg.training.relations import train_relation_model
from kg.training.save import check_writable, save_model
from kg.training.score import entity_table, relation_table

#: Receives one line of progress (the CLI prints it; the library does not).
Progress = Callable[[str], None]

#: Entity training: Adam's learning rate and the dropout. Measured on dev (docs/EVALUATION.md):
#: 0.002/0.3 peaks higher and earlier than 0.001/0.1.
LEARN_RATE = 0.002
DROPOUT = 0.3
#: Entity training epochs; the best dev epoch is kept.
EPOCHS = 16

#: Entity thresholds tried on dev (None: plain argmax against the negative label).
THRESHOLDS: tuple[float | None, ...] = (None, 0.4, 0.5, 0.6)


@dataclass
class TrainReport:
    """What a training run did and how well the result does on dev."""

    out_dir: str
    seed: int
    epochs_run: int
    best_epoch: int
    stopped_early: bool
    seconds: float
    model_bytes: int
    dev: dict[str, float] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, float]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _examples(records: Sequence[dict[str, Any]], nlp: Language) -> list[Example]:
    parsed = list(parse_records(records, nlp))
    examples = []
    for rec, doc in zip(records, parsed, strict=True):
        gold = set_gold_spans(make_doc(nlp.vocab, rec["sentences"]), gold_annotations(rec))
        examples.append(Example(doc, gold))
    return examples


#: Which span component a training run builds: its pipe name, its config and its ``doc.spans`` key.
#: The SciERC entity component by default; the corpus mention model passes its own.
Component = dict[str, Any]


def _scierc_component() -> Component:
    return {"name": ENTITY_PIPE, "config": entity_config(), "key": SPANS_KEY}


def _predict_entities(nlp: Language, docs: Sequence[Doc], name: str = ENTITY_PIPE) -> list[Doc]:
    pipe: Any = nlp.get_pipe(name)  # a spancat (TrainablePipe), which spaCy's stubs type only as a callable
    return list(pipe.pipe(docs, batch_size=16))


def _entity_f1(gold: Sequence[Annotations], docs: Sequence[Doc], key: str = SPANS_KEY) -> float:
    pred = [Annotations(frozenset((s.start, s.end - 1, s.label_) for s in d.spans[key])) for d in docs]
    return entity_table(gold, pred)["ALL"].f1


def train_entities(
    nlp: Language,
    train: Sequence[Example],
    dev_docs: Sequence[Doc],
    dev_gold: Sequence[Annotations],
    *,
    seed: int,
    epochs: int,
    max_steps: int | None,
    deadline: float | None,
    batch_size: int = 8,
    learn_rate: float = LEARN_RATE,
    dropout: float = DROPOUT,
    on_progress: Progress | None = None,
    component: Component | None = None,
) -> tuple[int, int, bool, list[dict[str, float]]]:
    """Train a span component (the SciERC entities unless ``component`` says otherwise) in place;
    leave the best dev epoch's weights in it."""
    component = component or _scierc_component()
    name, key = component["name"], component["key"]
    pipe: Any = nlp.add_pipe(ENTITY_FACTORY, name=name, config=component["config"])  # a spancat (TrainablePipe), which spaCy's stubs type only as a callable
    fix_random_seed(seed)
    pipe.initialize(lambda: train, nlp=nlp)
    _copy_host_tok2vec(nlp, pipe)
    optimizer = Adam(learn_rate=learn_rate, L2=1e-6, grad_clip=1.0, use_averages=True)
    rng = random.Random(seed)
    order = list(train)
    best = (-1.0, 0, pipe.model.to_bytes())
    history: list[dict[str, float]] = []
    steps, epoch, stopped = 0, 0, False
    while epoch < epochs and not stopped:
        epoch += 1
        rng.shuffle(order)
        losses: dict[str, float] = {}
        for batch in minibatch(order, size=batch_size):
            pipe.update(batch, drop=dropout, sgd=optimizer, losses=losses)
            steps += 1
            if (max_steps is not None and steps >= max_steps) or (deadline is not None and time.monotonic() > deadline):
                stopped = True
                break
        with pipe.model.use_params(optimizer.averages):
            f1 = _entity_f1(dev_gold, _predict_entities(nlp, dev_docs, name), key)
            if f1 > best[0]:
                best = (f1, epoch, pipe.model.to_bytes())
        history.append({"epoch": epoch, "loss": round(losses.get(name, 0.0), 2), "dev_entity_f1": round(f1, 2)})
        if on_progress:
            on_progress(f"entities epoch {epoch}: loss {history[-1]['loss']}, dev F1 {f1:.2f}")
    pipe.model.from_bytes(best[2])
    return epoch, best[1], stopped, history


def _copy_host_tok2vec(nlp: Language, pipe: Any) -> None:
    # Start from en_core_web_sm's trained tok2vec weights (same architecture).
    if "tok2vec" in nlp.pipe_names:
        host: Any = nlp.get_pipe("tok2vec")  # a Tok2Vec, which spaCy's stubs type only as a callable
        pipe.model.get_ref("tok2vec").from_bytes(host.model.to_bytes())


def tune_entities(
    nlp: Language, dev_docs: Sequence[Doc], dev_gold: Sequence[Annotations], component: Component | None = None
) -> dict[str, Any]:
    """Pick the entity threshold and overlap policy with the best dev F1; set them on the pipe."""
    component = component or _scierc_component()
    name, key = component["name"], component["key"]
    pipe: Any = nlp.get_pipe(name)  # a spancat (TrainablePipe), which spaCy's stubs type only as a callable
    best: tuple[float, dict[str, Any]] = (-1.0, {})
    for allow_overlap in (True, False):
        for threshold in THRESHOLDS:
            pipe.cfg["allow_overlap"], pipe.cfg["threshold"] = allow_overlap, threshold
            f1 = _entity_f1(dev_gold, _predict_entities(nlp, dev_docs, name), key)
            if f1 > best[0] + 1e-9:
                best = (f1, {"allow_overlap": allow_overlap, "threshold": threshold})
    pipe.cfg.update(best[1])
    return best[1]


def train_scierc(
    data_dir: str | Path,
    out_dir: str | Path,
    seed: int = 0,
    *,
    epochs: int = EPOCHS,
    max_steps: int | None = None,
    max_seconds: float | None = None,
    limit_docs: int | None = None,
    spacy_model: str | None = None,
    on_progress: Progress | None = None,
) -> TrainReport:
    """Train both SciERC components on ``train.json``, tune on ``dev.json``, save to ``out_dir``.

    Parameters
    ----------
    data_dir:
        Folder with ``train.json`` and ``dev.json`` (DyGIE json-lines).
    out_dir:
        Where the model is written. It is never the installed package: to
        replace the shipped model, write it elsewhere and copy it over.
    seed:
        Seeds every random choice; the same seed gives the same model.
    epochs:
        Entity training epochs (the best dev epoch is kept).
    max_steps, max_seconds, limit_docs:
        Smoke-test limits: stop after that many updates or seconds, read only
        the first ``limit_docs`` documents of each split.
    on_progress:
        Receives one line per stage, for a caller that wants to show it.
    """
    started = time.monotonic()
    deadline = started + max_seconds if max_seconds is not None else None
    out = Path(out_dir)
    check_writable(out)
    train_records = read_dygie(split_path(data_dir, "train"))[:limit_docs]
    dev_records = read_dygie(split_path(data_dir, "dev"))[:limit_docs]
    nlp = load_host_pipeline(spacy_model)
    say = on_progress or (lambda _line: None)
    say(f"parsing {len(train_records)} train and {len(dev_records)} dev documents")
    train = _examples(train_records, nlp)
    dev_docs = list(parse_records(dev_records, nlp))
    dev_gold = [gold_annotations(r) for r in dev_records]

    epochs_run, best_epoch, stopped, history = train_entities(
        nlp, train, dev_docs, dev_gold, seed=seed, epochs=epochs, max_steps=max_steps, deadline=deadline, on_progress=say
    )
    settings: dict[str, Any] = {"entities": tune_entities(nlp, dev_docs, dev_gold), "epochs": epochs}
    say(f"entity settings {settings['entities']}")

    train_pred = _predict_entities(nlp, [eg.predicted for eg in train])
    dev_pred = _predict_entities(nlp, dev_docs)
    model, rel_settings = train_relation_model(
        train_pred,
        [gold_annotations(r) for r in train_records],
        dev_pred,
        dev_gold,
        seed=seed,
    )
    settings["relations"] = rel_settings
    say(f"relation settings {rel_settings}")

    dev_rel_pred = [relations.predict_annotations(d, model) for d in dev_pred]
    dev_scores = {
        "entities": round(entity_table(dev_gold, dev_rel_pred)["ALL"].f1, 2),
        "relations": round(relation_table(dev_gold, dev_rel_pred)["ALL"].f1, 2),
        "relations_strict": round(relation_table(dev_gold, dev_rel_pred, strict=True)["ALL"].f1, 2),
    }
    report = TrainReport(
        out_dir=str(out),
        seed=seed,
        epochs_run=epochs_run,
        best_epoch=best_epoch,
        stopped_early=stopped,
        seconds=round(time.monotonic() - started, 1),
        model_bytes=0,
        dev=dev_scores,
        settings=settings,
        history=history,
    )
    report.model_bytes = save_model(out, nlp.get_pipe(ENTITY_PIPE), model, report.to_dict())
    return report
