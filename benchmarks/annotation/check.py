"""The automatic checks of an annotation batch file (the guidelines' checks, plus sentences).

Usage::

    python benchmarks/annotation/check.py benchmarks/gold/corpus/b01.json [--partial]

Checks every record of the file against its batch in ``sample.json``: ids and
order (``--partial`` allows a prefix of the batch while work is under way),
entity types and relation signatures, every triple end an entity of the record,
every entity in a triple, ``introduces`` exactly for the proposed entities, every
name and alias found in the abstract (case-insensitive) unless the notes say
"normalised" or "descriptive", the object of each fact named in one of its sentences, sentence
numbers in range, results with the nine fields plus ``sentence``, each value
verbatim in its sentence, and code URLs found in the abstract. Prints one line per
problem and exits 1 when there is any.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from corpus import batch_entries, sentences, texts

TYPES = {"Method", "Task", "Dataset", "Metric"}
SIGNATURES = {
    "introduces": ({"PAPER"}, {"Method", "Dataset"}),
    "addresses": ({"Method"}, {"Task"}),
    "uses": ({"Method"}, {"Method"}),
    "outperforms": ({"Method"}, {"Method"}),
    "evaluatedOn": ({"Method"}, {"Dataset"}),
    "measuredBy": ({"Method"}, {"Metric"}),
}
RESULT_FIELDS = ("method", "dataset", "task", "metric", "value", "unit", "kind", "compared_to", "sentence")
KINDS = {"absolute", "improvement", "relative"}


def check_record(record: dict, abstract: str) -> list[str]:
    """Problems of one record, as lines."""
    problems: list[str] = []
    text = abstract.lower()
    numbered = sentences(abstract)
    notes = record.get("notes", "").lower()
    normalised = any(word in notes for word in ("normalis", "normaliz", "descriptive"))
    entities = {}
    for entity in record.get("entities", []):
        name = entity.get("name")
        if entity.get("type") not in TYPES:
            problems.append(f"{name!r}: type {entity.get('type')!r} not in {sorted(TYPES)}")
        if not isinstance(entity.get("proposed"), bool):
            problems.append(f"{name!r}: 'proposed' must be true or false")
        if name in entities:
            problems.append(f"{name!r}: two entities with this name")
        entities[name] = entity
        for form in [name, *entity.get("aliases", [])]:
            if form.lower() not in text and not normalised:
                problems.append(f"{form!r} is not in the abstract (say 'normalised' in the notes if intended)")
    used: set[str] = set()
    introduced: set[str] = set()
    for triple in record.get("triples", []):
        if len(triple) != 4 or not isinstance(triple[3], list) or not triple[3]:
            problems.append(f"{triple!r}: a triple is [subject, relation, object, [sentence numbers]]")
            continue
        subject, relation, obj, where = triple
        if relation not in SIGNATURES:
            problems.append(f"{triple!r}: unknown relation {relation!r}")
            continue
        ends = []
        for end in (subject, obj):
            if end == "PAPER":
                ends.append("PAPER")
            elif end in entities:
                ends.append(entities[end]["type"])
                used.add(end)
            else:
                problems.append(f"{triple!r}: {end!r} is no entity name of the record")
                ends.append(None)
        allowed_s, allowed_o = SIGNATURES[relation]
        if None not in ends and (ends[0] not in allowed_s or ends[1] not in allowed_o):
            problems.append(f"{triple!r}: {relation} goes {sorted(allowed_s)} -> {sorted(allowed_o)}, not {ends[0]} -> {ends[1]}")
        if relation == "introduces":
            introduced.add(obj)
        if any(not isinstance(n, int) or not 0 <= n < len(numbered) for n in where):
            problems.append(f"{triple!r}: sentence numbers must be in 0..{len(numbered) - 1}")
            continue
        if obj in entities and not normalised:
            forms = [obj, *entities[obj].get("aliases", [])]
            cited = " ".join(numbered[n] for n in where).lower()
            if not any(form.lower() in cited for form in forms):
                problems.append(f"{triple!r}: no form of {obj!r} in sentence(s) {where}")
    for name, entity in entities.items():
        if name not in used:
            problems.append(f"{name!r} takes part in no triple")
        if entity.get("proposed") and name not in introduced:
            problems.append(f"{name!r} is proposed but not introduced")
        if name in introduced and not entity.get("proposed"):
            problems.append(f"{name!r} is introduced but not proposed")
    aliases = {a for e in entities.values() for a in e.get("aliases", [])} - set(entities)
    for result in record.get("results", []):
        if tuple(sorted(result)) != tuple(sorted(RESULT_FIELDS)):
            problems.append(f"result {result!r}: fields must be exactly {RESULT_FIELDS}")
            continue
        if result["kind"] not in KINDS:
            problems.append(f"result {result['value']!r}: kind {result['kind']!r} not in {sorted(KINDS)}")
        if result["kind"] == "absolute" and result["compared_to"] is not None:
            problems.append(f"result {result['value']!r}: an absolute result has compared_to null")
        number = result["sentence"]
        if not isinstance(number, int) or not 0 <= number < len(numbered):
            problems.append(f"result {result['value']!r}: sentence {number!r} out of range")
            continue
        if not isinstance(result["value"], str) or result["value"] not in numbered[number]:
            problems.append(f"result {result['value']!r}: value not verbatim in sentence {number}")
        for field in ("method", "dataset", "task", "metric", "compared_to"):
            if result[field] in aliases:
                problems.append(f"result {result['value']!r}: {field} {result[field]!r} is an alias; use the entity name")
    urls = set(re.findall(r"https?://\S+|www\.\S+|github\.com/\S+", abstract))
    for url in record.get("code", []):
        if not any(url in found for found in urls) and url not in abstract:
            problems.append(f"code URL {url!r} is not in the abstract")
    return problems


def main(argv: list[str]) -> int:
    path = Path(argv[0])
    partial = "--partial" in argv
    records = json.loads(path.read_text(encoding="utf-8"))
    entries = batch_entries(path.stem)
    if partial:
        entries = entries[: len(records)]
    if [r.get("id") for r in records] != [e["id"] for e in entries]:
        print(f"{path}: ids or order differ from batch {path.stem} of sample.json")
        return 1
    corpus = texts(entries)
    bad = 0
    for record, entry in zip(records, entries):
        if record.get("source_id") != entry["source_id"]:
            print(f"{record['id']}: source_id should be {entry['source_id']!r}")
            bad += 1
        for problem in check_record(record, corpus[entry["source_id"]]["abstract"]):
            print(f"{record['id']}: {problem}")
            bad += 1
    print(f"{path}: {len(records)} records, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
