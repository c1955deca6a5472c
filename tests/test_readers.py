"""The readers stage: each format, ids, file discovery, format choice, cleaning."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.errors import UserError
from kg.model import Paper, Rejection, content_id
from kg.readers import (
    EXTENSIONS,
    FORMATS,
    expand_inputs,
    parse_arxiv,
    parse_atom,
    parse_csv,
    parse_jsonl,
    parse_text,
    parse_tsv,
    read_inputs,
    read_jsonl,
    read_text,
)
from kg.readers.clean import clean_text

from .conftest import SEEDS, needs_seeds

A1 = "We propose FooNet, a network for image classification."
A2 = "BarNet outperforms FooNet on CIFAR-10 by 2 points."


def papers(items: object) -> list[Paper]:
    return [item for item in items if isinstance(item, Paper)]  # type: ignore[attr-defined]


def rejections(items: object) -> list[Rejection]:
    return [item for item in items if isinstance(item, Rejection)]  # type: ignore[attr-defined]


# --- plain text -----------------------------------------------------------------------


def test_text_paragraphs_sources_and_header():
    text = f"Daily Papers\n\n{A1}\n\n\n{A2[:20]}\n{A2[20:]}\n   \n"
    result = list(parse_text(text, "d.txt"))
    assert [p.source for p in result] == ["d.txt:3", "d.txt:6"]
    assert result[1].abstract == clean_text(A2[:20] + " " + A2[20:])
    assert all(p.id == content_id(p.abstract) for p in result)


def test_text_without_header_keeps_first_paragraph():
    result = papers(parse_text(f"{A1}\n\n{A2}\n", "n.txt"))
    assert [p.source for p in result] == ["n.txt:1", "n.txt:3"]


# --- JSON Lines / JSON ----------------------------------------------------------------


def test_jsonl_fields_synonyms_and_authors():
    lines = [
        {"ID": " p1 ", "Title": "Foo <i>Net</i>", "abstract": A1, "url": "https://x.org/p1",
         "year": 2021, "authors": ["Ada Lovelace", "Alan Turing"]},
        {"paper_id": "p2", "Summary": A2, "date": "2019-05-01", "doi": "doi:10.1/ABC",
         "author": "Ada Lovelace, Alan Turing and Grace Hopper"},
    ]
    first, second = parse_jsonl("\n".join(map(json.dumps, lines)), "f.jsonl")
    assert (first.id, first.title, first.year, first.url) == ("p1", "Foo Net", "2021", "https://x.org/p1")
    assert first.authors == ("Ada Lovelace", "Alan Turing")
    assert (second.id, second.abstract, second.year, second.doi) == ("p2", A2, "2019", "10.1/ABC")
    assert second.authors == ("Ada Lovelace", "Alan Turing", "Grace Hopper")
    assert second.source == "f.jsonl:2"


def test_json_array_reports_element_lines():
    text = "[\n" + ",\n".join(json.dumps({"abstract": a}) for a in (A1, A2)) + "\n]"
    assert [p.source for p in parse_jsonl(text, "a.json")] == ["a.json:2", "a.json:3"]


def test_json_single_object_is_one_record():
    text = json.dumps({"abstract": A1, "title": "T"}, indent=2)
    (paper,) = parse_jsonl(text, "one.json")
    assert paper.title == "T" and paper.source == "one.json:1"


def test_first_non_empty_synonym_wins():
    (paper,) = parse_jsonl(json.dumps({"abstract": "", "summary": A1}), "s.jsonl")
    assert paper.abstract == A1


# --- CSV / TSV ------------------------------------------------------------------------


def test_csv_quoted_multiline_record_starts_where_it_starts():
    text = f'id,abstract,year\n1,"{A1[:10]}\n{A1[10:]}",2020\n2,"{A2}",2021\n'
    first, second = parse_csv(text, "c.csv")
    assert (first.source, second.source) == ("c.csv:2", "c.csv:4")
    assert first.abstract == clean_text(A1[:10] + " " + A1[10:])


def test_tsv_and_csv_with_tabs_read_the_same():
    text = f"id\tabstract\n1\t{A1}\n"
    tsv, csv_tabbed = list(parse_tsv(text, "t")), list(parse_csv(text, "t"))
    assert tsv == csv_tabbed and tsv[0].abstract == A1


# --- arXiv ----------------------------------------------------------------------------

SNAPSHOT = {
    "id": "2101.00001", "title": "A  Title\n  over lines", "abstract": f"  {A1}\n  {A2}\n",
    "authors": "A. One, B. Two", "authors_parsed": [["One", "A.", ""], ["Two", "B.", "Jr"]],
    "doi": "10.1/x", "update_date": "2022-02-02",
    "versions": [{"version": "v1", "created": "Fri, 1 Jan 2021 00:00:00 GMT"}],
}


def test_arxiv_snapshot_record():
    (paper,) = parse_arxiv(json.dumps(SNAPSHOT), "s.jsonl")
    assert paper.id == "arXiv:2101.00001"
    assert paper.year == "2021" and paper.title == "A Title over lines"
    assert paper.abstract == f"{A1} {A2}"
    assert paper.authors == ("A. One", "B. Two Jr")
    assert paper.url == "https://arxiv.org/abs/2101.00001" and paper.doi == "10.1/x"


def test_arxiv_year_falls_back_to_update_date():
    record = {**SNAPSHOT, "versions": []}
    assert next(parse_arxiv(json.dumps(record), "s")).year == "2022"


FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title>ArXiv Query</title>
  <entry>
    <id>http://arxiv.org/abs/2101.00001v2</id>
    <published>2021-01-01T00:00:00Z</published>
    <title>FooNet:
      a network</title>
    <summary>  {a1}
    </summary>
    <author><name>A. One</name></author><author><name>B. Two</name></author>
    <arxiv:doi>10.1/x</arxiv:doi>
    <link href="http://arxiv.org/abs/2101.00001v2" rel="alternate" type="text/html"/>
  </entry>
  <entry><id>urn:other:7</id><summary>{a2}</summary><updated>2020-01-01</updated></entry>
</feed>
"""


def test_atom_feed_entries():
    first, second = parse_atom(FEED.format(a1=A1, a2=A2), "q.xml")
    assert first.id == "arXiv:2101.00001" and first.title == "FooNet: a network"
    assert (first.abstract, first.year, first.doi) == (A1, "2021", "10.1/x")
    assert first.authors == ("A. One", "B. Two") and first.url == "http://arxiv.org/abs/2101.00001v2"
    assert (second.id, second.year, second.source) == ("urn:other:7", "2020", "q.xml:entry 2")


def test_same_paper_from_snapshot_and_feed_has_one_id():
    from_feed = next(parse_atom(FEED.format(a1=A1, a2=A2), "q.xml"))
    from_snapshot = next(parse_arxiv(json.dumps(SNAPSHOT), "s.jsonl"))
    assert from_feed.id == from_snapshot.id


# --- ids ------------------------------------------------------------------------------


def test_same_abstract_in_two_files_gets_one_id(tmp_path: Path):
    (tmp_path / "a.txt").write_text(f"Header\n\n{A1}\n")
    (tmp_path / "b.jsonl").write_text(json.dumps({"abstract": "  " + A1.replace(" ", "\n", 2)}) + "\n")
    (tmp_path / "c.csv").write_text(f'abstract\n"<p>{A1}</p>"\n')
    ids = {paper.id for paper in read_inputs([tmp_path])}
    assert ids == {content_id(A1)}


def test_given_id_wins_over_content_hash():
    (paper,) = parse_jsonl(json.dumps({"id": 42, "abstract": A1}), "f")
    assert paper.id == "42"


@needs_seeds
def test_seed_files_read_240_papers_215_distinct():
    result = list(read_inputs(SEEDS))
    assert len(papers(result)) == 240 and not rejections(result)
    assert len({paper.id for paper in papers(result)}) == 215
    assert all(paper.source.split(":")[-1].isdigit() for paper in papers(result))


# --- discovery and format choice ------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("b.txt", "a.jsonl", "sub/c.csv", "sub/deeper/d.xml", "notes.md", ".hidden/e.txt", "sub/.f.txt"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    return tmp_path


def test_expand_walks_folders_sorted_known_extensions_only(tree: Path):
    found = [path.relative_to(tree).as_posix() for path in expand_inputs([tree])]
    assert found == ["a.jsonl", "b.txt", "sub/c.csv", "sub/deeper/d.xml"]


def test_expand_globs_files_and_argument_order(tree: Path):
    found = expand_inputs([tree / "sub/c.csv", str(tree / "*.txt"), tree / "sub"])
    assert [p.name for p in found] == ["c.csv", "b.txt", "d.xml"]  # c.csv once only


@pytest.mark.parametrize("missing", ["nope.txt", "nothing-*.jsonl"])
def test_expand_missing_path_or_empty_glob_is_e101(tmp_path: Path, missing: str):
    with pytest.raises(UserError) as error:
        expand_inputs([tmp_path / missing])
    assert error.value.code == "E101" and missing in str(error.value)


def test_expand_empty_folder_is_e111(tmp_path: Path):
    with pytest.raises(UserError, match="E111"):
        expand_inputs(tmp_path)


def test_unknown_extension_named_explicitly_is_e103_before_reading(tree: Path):
    with pytest.raises(UserError, match="E103"):
        read_inputs([tree / "a.jsonl", tree / "notes.md"])


def test_format_override_reads_any_extension(tmp_path: Path):
    (tmp_path / "notes.md").write_text(f"Title line\n\n{A1}\n")
    assert papers(read_inputs([tmp_path / "notes.md"], format="text"))[0].abstract == A1
    with pytest.raises(UserError, match="E113"):
        read_inputs([tmp_path / "notes.md"], format="docx")


def test_extension_case_and_sniffing(tmp_path: Path):
    (tmp_path / "snap.JSON").write_text(json.dumps(SNAPSHOT) + "\n")
    (tmp_path / "lines.txt").write_text(json.dumps({"abstract": A2}) + "\n")
    result = papers(read_inputs(sorted(tmp_path.iterdir())))
    assert [p.id for p in result] == [content_id(A2), "arXiv:2101.00001"]


def test_registry_matches_modules(tmp_path: Path):
    assert set(FORMATS) == {"text", "jsonl", "arxiv", "csv", "tsv", "atom"}
    assert set(EXTENSIONS.values()) <= set(FORMATS)
    path = tmp_path / "x.txt"
    path.write_text(f"H\n\n{A1}\n")
    assert list(FORMATS["text"].read(path)) == list(read_text(path))


def test_read_fmt_of_missing_file_is_a_rejection(tmp_path: Path):
    (rejection,) = read_jsonl(tmp_path / "gone.jsonl")
    assert rejection.code == "E102" and rejection.source.endswith("gone.jsonl")


# --- cleaning -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("a\u00a0b\r\n\tc", "a b c"),
        ("<jats:p>Results <jats:italic>improve</jats:italic>.</jats:p>", "Results improve."),
        ("x<sup>2</sup> and n<m, m>k", "x2 and n<m, m>k"),
        ("<SCRIPT type='x'>bad()</SCRIPT>ok", "ok"),
        ("<script>never closed", "never closed"),
        (r"\textbf{\emph{Deep}} nets~\citep[p.~3]{x}.", "Deep nets."),
        (r"$O(n^{2})$ with $x \in \mathbb{R}^d$", "O(n^2) with x ∈ R^d"),
        (r"Fr\'echet, Schr\"{o}dinger, {\c c}a, na\"{\i}ve", "Fréchet, Schrödinger, ça, naïve"),
        (r"costs $5 and $10, 50\% off, R\&D", "costs $5 and $10, 50% off, R&D"),
        ("see https://x.org/~me/a_b%20c", "see https://x.org/~me/a_b%20c"),
        ("Frame~(ETF) on ROS~2 gains ~5%", "Frame (ETF) on ROS 2 gains ~5%"),
        (r"\url{https://g.io/~u} \href{https://h.io}{code}", "https://g.io/~u code (https://h.io)"),
        ("soft\u00adhyphen zero\u200bwidth \ufeffbom", "softhyphen zerowidth bom"),
        ("e\u0301", "é"),
    ],
)
def test_clean_text_examples(raw: str, clean: str):
    assert clean_text(raw) == clean


_MARKUP = st.sampled_from(
    ["<", ">", "&", ";", "$", "\\", "{", "}", "~", "<p>", "</i>", "&amp;", "&lt;b&gt;", "<script>", "</script>",
     "\\em", "\\'", "\\cite{", "\\textbf{", "$\\alpha$", "\\%", "\n", "\x00", "\u200b", "\ud800", "http://a/~b"]
)
_MIXED = st.lists(st.one_of(st.text(max_size=8), _MARKUP), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), _MIXED))
def test_clean_text_is_idempotent_and_has_no_controls(text: str):
    once = clean_text(text)
    assert clean_text(once) == once
    assert not any(unicodedata.category(char) in ("Cc", "Cs") for char in once)
    assert once == once.strip() and "  " not in once
    once.encode("utf-8")  # always encodable: no lone surrogates


# -- issue 27, item 8: a quote open at the end of a CSV file; compressed inputs --------------------------


@pytest.mark.parametrize("tail", ['3,"never closed\n', '3,"never closed\nand more\n4,Fine too.\n'])
def test_a_csv_quote_open_at_the_end_of_the_file_is_rejected_with_its_line(tmp_path: Path, tail: str):
    path = tmp_path / "papers.csv"
    path.write_text("id,abstract\n1,A first abstract.\n2,A second one.\n" + tail, encoding="utf-8")
    items = list(read_inputs([path]))
    papers = [i for i in items if isinstance(i, Paper)]
    rejected = [i for i in items if isinstance(i, Rejection)]
    assert [p.id for p in papers][:2] == ["1", "2"] and "3" not in [p.id for p in papers]
    assert rejected[0].source == f"{path}:4" and rejected[0].code == "E105" and "never closes" in rejected[0].reason


def _compressed(kind: str, data: bytes) -> bytes:
    import bz2
    import gzip
    import lzma

    if kind == "zst":
        import zstandard

        return zstandard.ZstdCompressor().compress(data)
    return {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}[kind](data)


@pytest.mark.parametrize("kind", ["gz", "bz2", "xz", "zst"])
@pytest.mark.parametrize("name", ["papers.jsonl", "papers.jsonl.{kind}"])
def test_compressed_inputs_are_read_by_their_bytes_not_their_name(tmp_path: Path, kind: str, name: str):
    text = "".join(json.dumps({"id": f"p{i}", "abstract": f"Wir schlagen Net{i} für Bildklassifikation vor."}) + "\n" for i in range(3))
    plain = tmp_path / "plain.jsonl"
    plain.write_text(text, encoding="utf-8")
    packed = tmp_path / "packed" / name.format(kind=kind)
    packed.parent.mkdir()
    packed.write_bytes(_compressed(kind, text.encode("utf-8")))
    warnings: list[str] = []
    got = [(p.id, p.abstract) for p in read_inputs([packed.parent], on_warning=warnings.append)]
    assert got == [(p.id, p.abstract) for p in read_inputs([plain])] and not warnings


def test_a_truncated_or_unreadable_compressed_file_is_one_rejection(tmp_path: Path):
    import gzip

    (tmp_path / "cut.jsonl").write_bytes(gzip.compress(b'{"id": "a", "abstract": "x y z"}\n' * 50)[:40])
    (tmp_path / "z.jsonl.zst").write_bytes(b"\x28\xb5\x2f\xfd" + b"\x00" * 20)
    found = {Path(r.source).name: r.reason for r in read_inputs([tmp_path]) if isinstance(r, Rejection)}
    assert "corrupt or truncated compressed data" in found["cut.jsonl"]
    try:
        import zstandard  # noqa: F401
    except ImportError:
        assert "pip install zstandard" in found["z.jsonl.zst"]
    else:
        assert "z.jsonl.zst" in found
