"""Shared plumbing of the annotation tools: the sample, the corpus texts, the numbered sentences.

Imports nothing of kg's extraction: annotators see the abstract and its fixed
sentence numbering (``kg.evaluation.sentences``), never the extractor's output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))

from kg.evaluation.sentences import split_sentences  # noqa: E402

CORPORA = REPO.parent / "shared" / "data" / "corpora"
FILES = {"neurips": "neurips-1987-2025.jsonl", "arxiv": "arxiv-cs-2016.jsonl"}
GOLD = REPO / "benchmarks" / "gold" / "corpus"
SAMPLE = GOLD / "sample.json"


def sample() -> list[dict]:
    """The sample entries (source_id, corpus, year, id, split, batch, second), in order."""
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def batch_entries(batch: str) -> list[dict]:
    """The entries of one batch: ``b01`` … (first annotation) or ``s01`` … (second)."""
    key = "second" if batch.startswith("s") else "batch"
    entries = [e for e in sample() if e[key] == batch]
    if not entries:
        raise SystemExit(f"no batch {batch!r} in {SAMPLE}")
    return entries


def texts(entries: list[dict]) -> dict[str, dict]:
    """The corpus records (title, abstract, year) of ``entries``, by source_id."""
    wanted: dict[str, set[str]] = {}
    for entry in entries:
        wanted.setdefault(entry["corpus"], set()).add(entry["source_id"])
    found: dict[str, dict] = {}
    for corpus, ids in wanted.items():
        with open(CORPORA / FILES[corpus], encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                if record["id"] in ids:
                    record["abstract"] = " ".join(record["abstract"].split())
                    found[record["id"]] = record
    return found


def sentences(abstract: str) -> list[str]:
    """The numbered sentences of an abstract (number = list index)."""
    return [text for _, _, text in split_sentences(abstract)]
