"""Print the abstracts of one annotation batch with their numbered sentences.

Usage::

    python benchmarks/annotation/show.py b01          # first annotation, batch b01
    python benchmarks/annotation/show.py s01          # second (blind) annotation, batch s01

Each abstract is printed as its ``id``, ``source_id``, title and year, then one
line per sentence, ``[n] sentence``. Facts and results name those sentence
numbers (see benchmarks/annotation/BRIEF.md).
"""

from __future__ import annotations

import sys

from corpus import batch_entries, sentences, texts


def main(batch: str) -> None:
    entries = batch_entries(batch)
    records = texts(entries)
    for number, entry in enumerate(entries):
        record = records[entry["source_id"]]
        print(f"=== {number + 1}/{len(entries)}  id={entry['id']}  source_id={entry['source_id']}  ({record['year']})")
        print(f"title: {record['title']}")
        for index, sentence in enumerate(sentences(record["abstract"])):
            print(f"[{index}] {sentence}")
        print()


if __name__ == "__main__":
    main(sys.argv[1])
