"""Read SciERC files (DyGIE json-lines) into spaCy Docs and back.

A DyGIE record holds one abstract: ``doc_key``, ``sentences`` (lists of
tokens), ``ner`` (per sentence, ``[start, end, label]``) and ``relations``
(per sentence, ``[h_start, h_end, t_start, t_end, label]``). Every index is a
token index into the whole document and every end is *inclusive*, unlike
spaCy's exclusive ends; :class:`Annotations` keeps the DyGIE convention so that
gold files, prediction files and the scorer all speak the same language.

The given tokenisation is kept: Docs are built from the words
(``Doc(vocab, words=..., sent_starts=...)``) and the pipeline components then
run on them, so gold offsets stay valid.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from kg.errors import UserError
from kg.extract.scierc.labels import (
    SPANS_KEY,
    Annotations,
)

SPLITS = ("train", "dev", "test")


def read_dygie(path: str | Path) -> list[dict[str, Any]]:
    """Read a DyGIE json-lines file into a list of records.

    Raises ``UserError("E204")`` when the file does not exist.
    """
    path = Path(path)
    if not path.is_file():
        raise UserError("E204", path=path)
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def split_path(data_dir: str | Path, split: str) -> Path:
    """The file of one split (``train``, ``dev`` or ``test``) in a SciERC folder."""
    return Path(data_dir) / f"{split}.json"


def gold_annotations(record: dict[str, Any]) -> Annotations:
    """The gold entities and relations of a DyGIE record.

    >>> rec = {"sentences": [["a", "b"]], "ner": [[[0, 1, "Task"]]], "relations": [[]]}
    >>> gold_annotations(rec).entities
    frozenset({(0, 1, 'Task')})
    """
    entities = {(s, e, label) for sent in record.get("ner", ()) for s, e, label in sent}
    relations = {tuple(r) for sent in record.get("relations", ()) for r in sent}
    return Annotations(frozenset(entities), frozenset(relations))  # type: ignore[arg-type]


def make_doc(vocab: Vocab, sentences: Sequence[Sequence[str]]) -> Doc:
    """A Doc with exactly the given tokens and sentence boundaries.

    >>> import spacy
    >>> doc = make_doc(spacy.blank("en").vocab, [["A", "b", "."], ["C", "."]])
    >>> [s.text for s in doc.sents]
    ['A b .', 'C .']
    """
    words = [w for sent in sentences for w in sent]
    starts: list[bool | int | None] = [i == 0 for sent in sentences for i in range(len(sent))]
    return Doc(vocab, words=words, sent_starts=starts)


def set_gold_spans(doc: Doc, annotations: Annotations, key: str = SPANS_KEY) -> Doc:
    """Store the gold entities as ``doc.spans[key]`` (spaCy ends are exclusive)."""
    doc.spans[key] = [Span(doc, s, e + 1, label=label) for s, e, label in sorted(annotations.entities)]
    return doc


def parse_records(records: Iterable[dict[str, Any]], nlp: Language, *, batch_size: int = 32) -> Iterator[Doc]:
    """Build each record's Doc from its words, then run ``nlp``'s components on it.

    The parser keeps the given sentence boundaries because every token's
    ``is_sent_start`` is set before it runs.
    """
    docs = (make_doc(nlp.vocab, rec["sentences"]) for rec in records)
    yield from nlp.pipe(docs, batch_size=batch_size)


def predicted_annotations(doc: Doc) -> Annotations:
    """Read the trained components' output back into DyGIE conventions."""
    entities = frozenset((s.start, s.end - 1, s.label_) for s in doc.spans.get(SPANS_KEY, ()))
    relations = frozenset(
        (hs, he - 1, ts, te - 1, label) for hs, he, ts, te, label, _ in getattr(doc._, "scierc_relations", None) or ()
    )
    return Annotations(entities, relations)


def _per_sentence(items: Iterable[tuple[Any, ...]], bounds: Sequence[tuple[int, int]]) -> list[list[list[Any]]]:
    # Each item goes to the sentence that holds its first token.
    out: list[list[list[Any]]] = [[] for _ in bounds]
    for item in sorted(items):
        for i, (start, end) in enumerate(bounds):
            if start <= item[0] < end:
                out[i].append(list(item))
                break
    return out


def prediction_record(record: dict[str, Any], predicted: Annotations) -> dict[str, Any]:
    """A DyGIE prediction record: ``predicted_ner`` and ``predicted_relations`` per sentence.

    >>> rec = {"doc_key": "d", "sentences": [["a"], ["b", "c"]]}
    >>> prediction_record(rec, Annotations(frozenset({(1, 2, "Task")})))["predicted_ner"]
    [[], [[1, 2, 'Task']]]
    """
    bounds, offset = [], 0
    for sent in record["sentences"]:
        bounds.append((offset, offset + len(sent)))
        offset += len(sent)
    return {
        "doc_key": record.get("doc_key"),
        "sentences": record["sentences"],
        "predicted_ner": _per_sentence(predicted.entities, bounds),
        "predicted_relations": _per_sentence(predicted.relations, bounds),
    }


def write_predictions(path: str | Path, records: Iterable[dict[str, Any]]) -> None:
    """Write prediction records as json-lines, through a temporary file then a rename."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        for rec in records:
            handle.write(json.dumps(rec) + "\n")
    tmp.replace(path)
