"""Fuzz every reader with Hypothesis for a fixed budget and count crashes.

Usage (from the repository root, in the project's virtualenv)::

    python benchmarks/fuzz_readers.py --examples 2000 [--seed 0] [--format csv ...]

For each format in :data:`kg.readers.FORMATS` it feeds ``parse_<fmt>`` three
kinds of input, ``--examples`` each: inputs shaped like the format (records
with the usual field names and values full of markup, quotes, delimiters and
control characters, broken on purpose), arbitrary Unicode text, and arbitrary
bytes put through the same decoding as files on disk. A crash is an exception
or an output that breaks the contract: an item that is neither Paper nor
Rejection, a Paper whose abstract is empty or not clean (``clean_text``
would change it), a field holding control characters or lone surrogates, or
a Rejection whose reason is not one line. It prints one line per reader and input kind, then a total, and exits
with status 1 if anything crashed. The strategies are reused by
``tests/test_bad_inputs.py``.
"""

from __future__ import annotations

import argparse
import csv
import html
import io
import json
import sys
import time
import unicodedata
from collections.abc import Callable, Iterable

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from kg.model import Paper, Rejection
from kg.readers import FORMATS
from kg.readers._decode import decode
from kg.readers._records import FIELDS
from kg.readers.clean import clean_text

NAMES = [alias for aliases in FIELDS.values() for alias in aliases] + [
    "ABSTRACT", "Title", "authors_parsed", "versions", "update_date", "",
]
NASTY = [
    "<", ">", "&", "&amp;", "&#0;", "&#xD800;", "<p>", "</i>", "<script>", "</script>", "<!--", "<![CDATA[",
    "$", "$$", "\\", "{", "}", "~", "\\em ", "\\'", "\\cite{", "\\textbf{", "$\\alpha$", "\\%", "\\url{",
    '"', "'", ",", ";", "\t", "\n", "\r", "\r\n", "\x00", "\x0b", "\x1b", "\u2028", "\u200b", "\ufeff",
    "\ud800", "\udfff", "\uffff", "é", "\u0301", "http://a/~b", "[", "]", ":", "</entry>", "<entry>",
]
nasty_text = st.lists(st.one_of(st.text(max_size=12), st.sampled_from(NASTY)), max_size=24).map("".join)
values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), nasty_text),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(nasty_text, inner, max_size=3)),
    max_leaves=8,
)
records = st.one_of(
    st.dictionaries(st.one_of(st.sampled_from(NAMES), nasty_text), values, max_size=8),
    st.fixed_dictionaries(
        {"abstract": nasty_text},
        optional={name: values for name in ("id", "title", "authors", "year", "doi", "versions", "authors_parsed")},
    ),
)


def _join(lines: Iterable[str]) -> str:
    return "\n".join(lines)


json_lines = st.lists(
    st.one_of(records.map(json.dumps), values.map(json.dumps), nasty_text), max_size=12
).map(_join)
json_array = st.lists(records, max_size=8).map(lambda items: json.dumps(items, indent=1)).flatmap(
    lambda text: st.integers(0, len(text)).map(lambda cut: text[:cut] if cut % 3 == 0 else text)
)


def _csv(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


csv_text = st.one_of(
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=5).flatmap(
        lambda header: st.lists(st.lists(nasty_text, min_size=len(header), max_size=len(header)), max_size=8).map(
            # The abstract column repeats the row's fields, debris included.
            lambda rows: _csv([["abstract", *header], *([" ".join(row), *row] for row in rows)])
        )
    ),
    st.lists(st.lists(nasty_text, max_size=6), max_size=8).map(
        lambda rows: _join(",".join(row) for row in [["id", "abstract", "title"], *rows])
    ),
)
paragraphs = st.lists(nasty_text, max_size=10).map("\n\n".join)
xml_text = st.one_of(nasty_text, nasty_text.map(html.escape))


def _entry(parts: tuple[str, str, str, list[str]]) -> str:
    entry_id, title, summary, authors = parts
    names = "".join(f"<author><name>{name}</name></author>" for name in authors)
    return f"<entry><id>{entry_id}</id><title>{title}</title><summary>{summary}</summary>{names}</entry>"


atom_feeds = st.lists(
    st.tuples(xml_text, xml_text, xml_text, st.lists(xml_text, max_size=3)).map(_entry), max_size=5
).flatmap(
    lambda entries: st.sampled_from(["", "</feed>"]).map(
        lambda end: '<feed xmlns="http://www.w3.org/2005/Atom">' + "".join(entries) + end
    )
)

#: Format name -> a strategy for text shaped like it.
SHAPED: dict[str, st.SearchStrategy[str]] = {
    "text": paragraphs,
    "jsonl": st.one_of(json_lines, json_array),
    "arxiv": json_lines,
    "csv": csv_text,
    "tsv": csv_text.map(lambda text: text.replace(",", "\t")),
    "atom": atom_feeds,
}
INPUTS: dict[str, Callable[[str], st.SearchStrategy[str]]] = {
    "shaped": lambda name: SHAPED[name],
    "text": lambda name: st.text(max_size=400),
    "bytes": lambda name: st.binary(max_size=400).map(lambda data: decode(data)[0]),
}


def check(name: str, text: str) -> None:
    """Run ``parse_<name>`` on ``text``; raise if it crashes or breaks the contract."""
    for item in FORMATS[name].parse(text, "fuzz"):
        if isinstance(item, Paper):
            abstract = item.abstract
            if not abstract or clean_text(abstract) != abstract or not item.id:
                raise AssertionError(f"unclean paper {item!r}")
            fields = [abstract, item.id, item.title or "", item.url or "", item.doi or "", *item.authors]
            if any(unicodedata.category(char) in ("Cc", "Cs") for char in "".join(fields)):
                raise AssertionError(f"control characters in {item!r}")
            json.dumps(item.to_dict()).encode("utf-8")
        elif isinstance(item, Rejection):
            if "\n" in item.reason or not item.source.startswith("fuzz"):
                raise AssertionError(f"bad rejection {item!r}")
        else:
            raise AssertionError(f"not a Paper or Rejection: {item!r}")


def fuzz(name: str, kind: str, examples: int, random_seed: int) -> tuple[int, list[str]]:
    """Run ``examples`` inputs of ``kind`` through one reader; return (run, crash descriptions)."""
    run, crashes = 0, []

    @seed(random_seed)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(INPUTS[kind](name))
    def one(text: str) -> None:
        nonlocal run
        run += 1
        try:
            check(name, text)
        except Exception as error:  # noqa: BLE001 - counting crashes is the point
            crashes.append(f"{type(error).__name__}: {error!s:.200} on {text[:120]!r}")

    one()
    return run, crashes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000, help="inputs per reader and kind")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", action="append", choices=sorted(FORMATS), help="only these readers")
    options = parser.parse_args(argv)
    total_run, total_crashes = 0, 0
    for name in options.format or list(FORMATS):
        for kind in INPUTS:
            started = time.perf_counter()
            run, crashes = fuzz(name, kind, options.examples, options.seed)
            total_run, total_crashes = total_run + run, total_crashes + len(crashes)
            print(f"{name:6} {kind:7} examples={run:6d} crashes={len(crashes)} ({time.perf_counter() - started:.1f}s)")
            for crash in crashes[:3]:
                print(f"    {crash}")
    print(f"total  examples={total_run} crashes={total_crashes}")
    return 1 if total_crashes else 0


if __name__ == "__main__":
    sys.exit(main())
