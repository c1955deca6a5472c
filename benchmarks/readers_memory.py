"""Peak memory of reading JSON Lines through the readers: it streams, so a 10x larger file should not cost 10x.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/readers_memory.py [--sizes-mb 20 200] [--format jsonl|arxiv|csv] [--keep]

Makes one file per size under ``/tmp`` from the corpora in
``../shared/data/corpora/*.jsonl``, repeating their records with new ids
(``<id>~<copy>``) until the size is reached. ``--format arxiv`` writes the
records in the arXiv snapshot's shape (``authors_parsed``, ``versions``), so
the file is sniffed and read as the snapshot; ``csv`` writes CSV. Each file is
then read by ``kg.readers.read_inputs`` in a fresh process that counts the
papers and drops them, as a build's reading step does before extraction.
Prints papers, seconds and peak resident memory per file and the ratio of the
largest peak to the smallest; the bar is 1.5x for 10x the bytes.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path

from _measure import ROOT, measure

CORPORA = ROOT.parent / "shared" / "data" / "corpora"
WORK = """
from kg.readers import read_inputs
from kg.model import Paper
papers = rejected = 0
for item in read_inputs([{path!r}]):
    if isinstance(item, Paper):
        papers += 1
    else:
        rejected += 1
result = [papers, rejected]
"""


def _records() -> Iterator[dict]:
    """The corpora's records, over and over, each copy with new ids."""
    sources = sorted(CORPORA.glob("*.jsonl"))
    if not sources:
        raise SystemExit(f"no corpora in {CORPORA}: this benchmark needs ../shared/data/corpora/*.jsonl")
    for copy in itertools.count():
        for source in sources:
            with source.open(encoding="utf-8") as lines:
                for line in lines:
                    record = json.loads(line)
                    record["id"] = f"{record.get('id')}~{copy}"
                    yield record


def _as_arxiv(record: dict) -> dict:
    authors = record.get("authors") or []
    names = authors if isinstance(authors, list) else [authors]
    return {
        "id": record["id"], "title": record.get("title"), "abstract": record.get("abstract"),
        "authors": ", ".join(map(str, names)),
        "authors_parsed": [[*str(name).rsplit(" ", 1)[::-1], ""] for name in names],
        "versions": [{"version": "v1", "created": f"Mon, 1 Jan {record.get('year') or 2000} 00:00:00 GMT"}],
        "update_date": f"{record.get('year') or 2000}-01-01",
    }


def make_file(size_mb: int, fmt: str, folder: Path) -> Path:
    """A file of about ``size_mb`` megabytes of repeated corpus records."""
    path = folder / f"readers-memory-{size_mb}mb.{'csv' if fmt == 'csv' else 'jsonl'}"
    limit = size_mb * 1_000_000
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out) if fmt == "csv" else None
        if writer:
            writer.writerow(["id", "title", "abstract", "year"])
        for record in _records():
            if writer:
                writer.writerow([record["id"], record.get("title"), record.get("abstract"), record.get("year")])
            else:
                out.write(json.dumps(_as_arxiv(record) if fmt == "arxiv" else record, ensure_ascii=False) + "\n")
            if out.tell() >= limit:
                break
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes-mb", type=int, nargs="+", default=[20, 200])
    parser.add_argument("--format", choices=["jsonl", "arxiv", "csv"], default="jsonl")
    parser.add_argument("--keep", action="store_true", help="keep the files made under /tmp")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="kg-readers-memory-"))
    peaks = []
    try:
        for size in args.sizes_mb:
            path = make_file(size, args.format, folder)
            run = measure(WORK.format(path=str(path)))
            papers, rejected = run["result"]
            peaks.append(run["peak_mb"])
            print(f"{size} MB {args.format}: {papers} papers, {rejected} rejected in {run['seconds']:.1f} s, "
                  f"peak {run['peak_mb']:.0f} MB")
    finally:
        if not args.keep:
            for path in folder.iterdir():
                path.unlink()
            folder.rmdir()
    ratio = max(peaks) / min(peaks)
    spread = max(args.sizes_mb) / min(args.sizes_mb)
    print(f"peak memory, largest / smallest file: {ratio:.2f}x for {spread:.0f}x the bytes (bar: 1.5x)")


if __name__ == "__main__":
    main()
