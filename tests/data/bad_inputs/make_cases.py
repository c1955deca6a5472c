"""Write the bad-input corpus and its expected outcomes (``cases.json``).

Run from anywhere: ``python tests/data/bad_inputs/make_cases.py``. The files are
committed; this script documents how each was made (many hold bytes an editor
would silently fix) and lets the corpus be rebuilt. Every expectation below
was worked out from the format rules, not copied from a run: ``papers`` is how
many Papers the file must give, ``rejections`` how many Rejections of each
code, ``warns`` whether an encoding warning is due, and ``contains`` /
``excludes`` strings that must (not) appear in the joined abstracts.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
CASES: list[dict] = []


def abstract(n: int) -> str:
    return f"We study problem {n} and propose method M{n}, which improves accuracy on benchmark B{n}."


def jline(record: object) -> str:
    return json.dumps(record, ensure_ascii=False)


def case(name: str, data: bytes | str, papers: int, rejections: dict[str, int] | None = None,
         *, warns: bool = False, contains: tuple[str, ...] = (), excludes: tuple[str, ...] = (),
         why: str) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    (HERE / name).write_bytes(raw)
    CASES.append({
        "file": name, "papers": papers, "rejections": rejections or {}, "warns": warns,
        "contains": list(contains), "excludes": list(excludes), "why": why,
    })


def build() -> None:
    header = "Daily Papers\n\n"
    # --- encodings and bytes ---------------------------------------------------------
    case("utf8_bom.txt", b"\xef\xbb\xbf" + (header + abstract(1) + "\n\n" + abstract(2) + "\n").encode(),
         2, contains=("problem 1",), excludes=("\ufeff",), why="UTF-8 with a BOM")
    case("utf16_bom.txt", (header + abstract(1) + "\n\n" + "Réseaux profonds, étude.\n").encode("utf-16"),
         2, contains=("Réseaux",), why="UTF-16 with a BOM is decoded without a guess")
    case("latin1.csv", ("id,abstract\nl1,Les réseaux de neurones profonds sont très utilisés.\n"
                        "l2,Une méthode générale pour la détection.\n").encode("latin-1"),
         2, warns=True, contains=("réseaux", "détection"), why="Latin-1 CSV, detected and warned")
    case("cp1252.jsonl", "\n".join(jline({"id": f"w{i}", "abstract": f"The “quoted” method costs 5 € — {abstract(i)}"})
                                   for i in range(3)).encode("cp1252"),
         3, warns=True, contains=("“quoted”", "€", "—"), why="Windows-1252 smart quotes and euro sign")
    case("crlf.txt", (header + abstract(1) + "\n" + "continued line.\n\n" + abstract(2) + "\n").replace("\n", "\r\n"),
         2, excludes=("\r",), why="CRLF line endings; a paragraph over two lines")
    case("cr_only.csv", "id,abstract\r1,First abstract here.\r2,Second abstract here.\r", 2,
         why="old Mac CR-only line endings")
    case("nul_bytes.jsonl", b'{"abstract": "Deep\x00 nets for\x00 NUL-laden exports."}\n'
         + jline({"abstract": abstract(2)}).encode() + b"\n",
         2, contains=("Deep nets for NUL-laden",), excludes=("\x00",), why="NUL bytes inside a JSON string")
    case("control_chars.txt", header + "Bell\x07 escape\x1b[0m and\x0b vertical tab\x01 text.\n\n" + abstract(2) + "\n",
         2, excludes=("\x07", "\x1b", "\x0b", "\x01"), why="control characters removed, words kept")
    case("control_only_paragraph.txt", header + "\x01\x02\x03\n\n" + abstract(1) + "\n", 1, {"E110": 1},
         why="a paragraph of control characters has no words")
    case("lone_surrogate.jsonl", '{"abstract": "Broken \\ud800 surrogate and \\u200bzero width."}\n', 1,
         excludes=("\u200b",), why="a lone surrogate escape must not reach UTF-8 output")
    case("binary_prefix.jsonl", b"\xfa\xfb\xfc" + b"\n" + jline({"abstract": abstract(1)}).encode() + b"\n",
         1, {"E104": 1}, warns=True, why="undecodable bytes on one line; the next line still reads")
    # --- markup ----------------------------------------------------------------------
    case("html.jsonl", jline({"abstract": "<p>We use <i>BERT</i> &amp; <b>GPT</b>.<script>alert('x')</script>"
                                          "<style>p{}</style> Code: <a href=\"https://github.com/a/b\">here</a></p>"}) + "\n",
         1, contains=("We use BERT & GPT.", "https://github.com/a/b"), excludes=("alert", "<i>", "&amp;"),
         why="HTML tags stripped, script/style dropped, link URL kept")
    case("latex.jsonl", jline({"title": r"On $\alpha$-nets", "abstract":
                               r"We improve {\em accuracy} by 23\% over~\cite{x} with $\alpha \leq 1$ and \textbf{Fr\'echet} means."}) + "\n",
         1, contains=("accuracy by 23% over with α ≤ 1 and Fréchet means",), excludes=("\\", "cite"),
         why="LaTeX simplified")
    case("markup_only.jsonl", "\n".join(jline({"abstract": a}) for a in ("<p> </p>", "--- ...", "&nbsp;")) + "\n",
         0, {"E110": 3}, why="abstracts that cleaning empties")
    # --- empty things ------------------------------------------------------------------
    case("empty.txt", b"", 0, {"E112": 1}, why="zero bytes")
    case("empty.jsonl", "  \n\n\t\n", 0, {"E112": 1}, why="whitespace only")
    case("empty.csv", b"\xef\xbb\xbf", 0, {"E112": 1}, why="only a BOM")
    case("empty.xml", "\n", 0, {"E112": 1}, why="an empty feed file")
    case("header_only.txt", "Daily Papers\n", 0, why="a header and nothing else: no records at all")
    case("header_only.csv", "id,title,abstract\n", 0, why="a CSV header and no rows")
    case("empty_abstracts.jsonl", "\n".join([jline({"id": "e1", "abstract": ""}), jline({"id": "e2", "abstract": "   \t"}),
                                             jline({"id": "e3", "abstract": None}), jline({"abstract": abstract(1)})]) + "\n",
         1, {"E106": 3}, why="empty, blank and null abstracts")
    # --- JSON --------------------------------------------------------------------------
    lines = [jline({"id": f"m{i}", "abstract": abstract(i)}) for i in range(200)]
    lines[99] = '{"id": "m99", "abstract": "unterminated'
    lines[150] = '{"id": "m150" "abstract": "missing comma"}'
    case("malformed_lines.jsonl", "\n".join(lines) + "\n", 198, {"E104": 2},
         why="two malformed lines in a 200-line file; the rest reads")
    case("missing_abstract.jsonl", "\n".join([jline({"id": "x1", "title": "Only a title"}), jline({"id": "x2"}),
                                              jline({"id": "x3", "abstract": abstract(3)})]) + "\n",
         1, {"E106": 2}, why="records without an abstract field")
    case("not_objects.jsonl", "[1, 2]\n\"a string\"\n42\nnull\n" + jline({"abstract": abstract(1)}) + "\n",
         1, {"E108": 4}, why="JSON values that are not objects")
    case("wrong_types.jsonl", "\n".join(jline(r) for r in [
        {"abstract": {"text": "nested"}}, {"abstract": True}, {"abstract": ["Sentence one.", "Sentence two."]},
        {"abstract": abstract(1), "title": {"x": 1}, "authors": 7, "year": [2020]}]) + "\n",
         2, {"E114": 2}, contains=("Sentence one. Sentence two.",),
         why="an abstract that is an object or boolean; a list of strings is joined; bad optional fields ignored")
    case("deep_nesting.jsonl", "[" * 100_000 + "\n" + jline({"abstract": abstract(1)}) + "\n", 1, {"E104": 1},
         why="nesting deep enough to exhaust recursion")
    case("huge_number.jsonl", '{"abstract": "Big ids.", "id": ' + "9" * 5000 + "}\n" + jline({"abstract": abstract(1)}) + "\n",
         1, {"E104": 1}, why="an integer past Python's digit limit")
    case("truncated.json", "[\n" + ",\n".join(jline({"abstract": abstract(i)}) for i in range(3)) + ',\n{"abstract": "cut',
         3, {"E104": 1}, why="a JSON array cut off in its last element")
    case("array_broken_element.json", "[\n" + ",\n".join([jline({"abstract": abstract(1)}), '{"abstract": oops}',
                                                          jline({"abstract": abstract(3)})]) + "\n]\n",
         2, {"E104": 1}, why="a broken element in the middle of an array; reading resumes after it")
    case("concatenated_bom.jsonl", (jline({"abstract": abstract(1)}) + "\n").encode("utf-8-sig")
         + (jline({"abstract": abstract(2)}) + "\n").encode("utf-8-sig"),
         2, why="two BOM-prefixed files joined with cat")
    case("huge_field.jsonl", jline({"abstract": "word " * 60_000}) + "\n", 0, {"E115": 1},
         why="a 300 kB abstract is read, then rejected as longer than the abstract limit")
    case("arxiv_snapshot.json", "\n".join(jline(r) for r in [
        {"id": "0704.0001", "title": "Diphoton", "abstract": "  A fully differential calculation.\n  Next line.",
         "authors": "C. Bal\\'azs, E. L. Berger", "authors_parsed": [["Bal\\'azs", "C.", ""], ["Berger", "E. L.", ""]],
         "doi": "10.1103/PhysRevD.76.013009", "update_date": "2008-11-13", "versions": [{"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}]},
        {"id": "0704.0002", "title": "No abstract", "update_date": "2008-12-13", "versions": []},
        "not a record"]) + "\n{broken\n",
         1, {"E106": 1, "E108": 1, "E104": 1}, contains=("A fully differential calculation. Next line.",),
         why="arXiv snapshot with a missing abstract, a non-object and a broken line")
    # --- CSV / TSV ---------------------------------------------------------------------
    case("huge_field.csv", "id,abstract\n1,\"" + "long " * 40_000 + "\"\n2,Short one.\n", 1, {"E115": 1},
         why="a 200 kB field, past the csv module's default limit, is read (no CSV error) and rejected for its length")
    case("broken_quote.csv", "id,abstract,year\n1,First abstract.,2020\n2,\"Unclosed quote abstract,2021\n"
                             "3,Third abstract.,2022\n4,Fourth abstract.,2023\n", 3, {"E105": 1},
         why="a quote that never closes swallows no later row")
    case("wrong_width.csv", "id,abstract,year\n1,Good one.,2020\n2,Bad, unquoted comma,2021\n3,Short row\n4,Good two.,2022\n",
         2, {"E105": 2}, why="rows with too many and too few fields")
    case("no_abstract_column.csv", "id,title\n1,Something\n", 0, {"E109": 1}, why="no abstract column")
    case("semicolon.csv", "ID;Abstract;Authors\n1;Deep nets, again.;A and B\n", 1, contains=("Deep nets, again.",),
         why="semicolon-delimited CSV from a European Excel")
    case("synonyms.csv", "Paper ID,Title,Summary,Date,Author\nP1,T,Short summary text.,2019-05-01,\"Doe, J.; Roe, R.\"\n",
         1, contains=("Short summary text.",), why="synonym column names")
    case("blank_rows.csv", "id,abstract\n\n1,First.\n,,\n\n2,Second.\n", 2, why="blank and all-empty rows are skipped")
    case("quoted_newlines.tsv", "id\tabstract\n1\t\"Line one\nline two.\"\n2\tPlain.\n", 2,
         contains=("Line one line two.",), why="a quoted field over two lines in a TSV")
    case("latin1_mixture.csv", ("id,abstract,authors\n1,Les réseaux profonds.,Müller\n2,\"cassé,2020\n"
                                "3,,Nobody\n4,Une méthode générale.,Öztürk\n").encode("latin-1"),
         2, {"E105": 1, "E106": 1}, warns=True, contains=("réseaux", "méthode"),
         why="Latin-1 CSV with a broken row and an empty abstract")
    # --- XML ---------------------------------------------------------------------------
    def entry(n: int, body: str | None = None) -> str:
        return (f"<entry><id>http://arxiv.org/abs/2101.0000{n}v1</id><title>Title {n}</title>"
                f"<summary>{body or abstract(n)}</summary><published>2021-01-0{n}T00:00:00Z</published>"
                f"<author><name>Author {n}</name></author><arxiv:doi>10.1/{n}</arxiv:doi></entry>\n")
    feed = '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
    case("atom_ok.xml", feed + entry(1) + entry(2) + entry(3, "Uses &lt;b&gt;x&lt;/b&gt; &amp; y.") + "</feed>\n", 3,
         contains=("Uses x & y.",), why="a valid arXiv API feed")
    case("atom_broken_entry.xml", feed + entry(1) + entry(2).replace("</title>", "</titel>") + entry(3) + "</feed>\n",
         2, {"E107": 1}, why="one entry with a mismatched tag")
    case("atom_unclosed.xml", feed + entry(1) + entry(2).replace("</entry>", ""), 1, {"E107": 1},
         why="a feed cut off inside its last entry")
    case("atom_empty_summary.xml", feed + entry(1, " ") + entry(2) + "</feed>\n", 1, {"E106": 1},
         why="an entry with a blank summary")
    case("atom_control_chars.xml", feed + entry(1, "Vertical\x0b tab\x01 here.") + "</feed>\n", 1,
         contains=("Vertical tab here.",), why="characters XML forbids are removed before parsing")
    case("entity_bomb.xml", '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>\n'
                            "<feed><entry><summary>&lol2;</summary></entry></feed>\n", 0, {"E107": 1},
         why="entity declarations are refused")
    case("not_xml.xml", "this is not xml at all\n", 0, {"E107": 1}, why="text in an .xml file")
    case("not_a_feed.xml", "<html><body><p>Hello</p></body></html>\n", 0, {"E107": 1}, why="XML that is not a feed")
    (HERE / "cases.json").write_text(json.dumps(CASES, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    build()
