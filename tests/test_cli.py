"""The command line: one-line errors with status 2, queries, stats and explain."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kg.cli import main

from .conftest import CORPUS


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _one_line_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("kg: error: ")
    assert "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    "args,needle",
    [
        (("build", "no/such/file.txt", "--out", "{tmp}/o"), "input path not found"),
        (("build", str(CORPUS), "--out", "{tmp}/o", "--min-confidence", "2"), "--min-confidence"),
        (("build", str(CORPUS), "--out", "{tmp}/o", "--no-such-option"), "No such option"),
        (("query", "{tmp}/missing.ttl", "SELECT * WHERE { ?s ?p ?o }"), "graph file not found"),
        (("query", "{graph}", "SELEC ?x"), "SPARQL syntax error"),
        (("query", "{graph}", "DELETE WHERE { ?s ?p ?o }"), "updates are refused"),
        (("query", "{graph}", "SELECT * WHERE { ?s ?p ?o }", "--format", "xml"), "unknown output format"),
        (("explain", "{graph}", "no such entity label"), "no entity labelled"),
        (("remove", "{tmp}", "p1"), "not a kg build folder"),
    ],
)
def test_user_mistakes_print_one_line_and_exit_2(capsys, tmp_path, tiny_graph, args, needle):
    graph = tmp_path / "g.ttl"
    graph.write_bytes(tiny_graph.serialize("turtle"))
    argv = [a.replace("{tmp}", str(tmp_path)).replace("{graph}", str(graph)) for a in args]
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert needle in _one_line_error(err)


def test_debug_shows_the_traceback(tmp_path):
    from kg.errors import UserError

    with pytest.raises(UserError, match="E301"):
        main(["--debug", "query", str(tmp_path / "missing.ttl"), "SELECT * WHERE { ?s ?p ?o }"])


def test_unreadable_input_is_a_user_error(capsys, tmp_path):
    import os

    fifo = tmp_path / "abstracts.txt"
    os.mkfifo(fifo)  # named, but not a file kg can read
    code, _, err = run(capsys, "build", str(fifo), "--out", str(tmp_path / "o"))
    assert code == 2
    assert "cannot read" in _one_line_error(err) and str(fifo) in err
    assert not (tmp_path / "o" / "graph.nt").exists()


def test_query_formats(capsys, tmp_path, tiny_graph):
    graph = tmp_path / "g.ttl"
    graph.write_bytes(tiny_graph.serialize("turtle"))
    q = "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }"
    code, out, _ = run(capsys, "query", str(graph), q, "--format", "csv")
    assert code == 0 and out.splitlines() == ["n", "2"]
    code, out, _ = run(capsys, "query", str(graph), q, "--format", "json")
    assert json.loads(out)["results"]["bindings"][0]["n"]["value"] == "2"
    code, out, _ = run(capsys, "query", str(graph), q)
    assert code == 0 and "2" in out
    code, out, _ = run(capsys, "query", str(graph), "ASK { ?m kg:outperforms ?n }")
    assert out.strip() == "true"


def test_query_reads_a_file(capsys, tmp_path, tiny_graph):
    graph = tmp_path / "g.nt"
    graph.write_bytes(tiny_graph.serialize("ntriples"))
    rq = tmp_path / "q.rq"
    rq.write_text("SELECT ?l WHERE { ?m kg:addresses ?t . ?t rdfs:label ?l }")
    code, out, _ = run(capsys, "query", str(graph), f"@{rq}", "--format", "csv")
    assert code == 0 and out.splitlines() == ["l", "image classification"]


def test_stats_and_explain(capsys, tmp_path, tiny_graph):
    graph = tmp_path / "g.ttl"
    graph.write_bytes(tiny_graph.serialize("turtle"))
    code, out, _ = run(capsys, "stats", str(graph))
    assert code == 0 and "outperforms" in out and "Method" in out
    code, out, _ = run(capsys, "explain", str(graph), "fn")
    assert code == 0 and "FooNet" in out and "p 2" in out and "evaluatedOn" in out


@pytest.mark.slow
def test_seed_query_prints_215_last(seed_build):
    out, _ = seed_build
    done = subprocess.run(
        [sys.executable, "-m", "kg.cli", "query", str(out / "graph.ttl"), "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }", "--format", "csv"],
        capture_output=True, text=True, check=True,
    )
    assert done.stdout.splitlines()[-1] == "215"


@pytest.mark.slow
def test_stats_reports_merges(capsys, seed_build):
    code, out, _ = run(capsys, "stats", str(seed_build[0]))
    assert code == 0 and "mentions merged into" in out and "Ten largest merges" in out


def test_build_without_out_is_refused_and_writes_nothing(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an old default wrote ./exports, over the repository's tracked example
    code, _, err = run(capsys, "build", str(CORPUS))
    assert code == 2
    assert "--out" in _one_line_error(err)
    assert list(tmp_path.iterdir()) == []


def test_version_prints_one_line(capsys):
    from kg.pipeline.about import version

    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"kg {version()}"


def test_info_names_versions_models_and_extras(capsys):
    code, out, _ = run(capsys, "info", "--json")
    about = json.loads(out)
    assert code == 0
    assert about["spacy"][0].isdigit() and about["spacy_model"].startswith("en_core_web_sm")
    assert set(about["models"]) == {"default", "minilm", "mentions"}
    assert "missing" not in about["models"]["default"] and "missing" not in about["models"]["mentions"]
    assert about["extractor"]["version"].isdigit()
    # Each extra of the installed distribution is listed, installed or with the packages it lacks.
    assert about["extras"] and all(v == "installed" or v.startswith("missing ") for v in about["extras"].values())
    assert about["extras"].get("serve") == "installed"  # the test extra pulls it in


def test_the_distribution_is_not_pypis_kg():
    """PyPI's `kg` is another project: ours is published as kg-lit, and its extras name kg-lit."""
    import tomllib
    from pathlib import Path

    from kg.pipeline.about import DISTRIBUTION

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION == "kg-lit"
    needs = [r for extra in project["optional-dependencies"].values() for r in extra]
    assert not [r for r in needs if r.startswith("kg[")]
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    assert "pip install 'kg[" not in readme and "pip install kg " not in readme


def _graph_file(tmp_path, tiny_graph):
    graph = tmp_path / "g.ttl"
    graph.write_bytes(tiny_graph.serialize("turtle"))
    return graph


def test_a_wide_table_wraps_and_keeps_every_column(tmp_path, tiny_graph):
    """On a 100-column terminal, a long GROUP_CONCAT wraps instead of squeezing the other columns away."""
    import os

    names = " ".join(f'("ImageNet" "a rather long method name number {i}")' for i in range(12))
    sparql = (
        'SELECT ?dataset (GROUP_CONCAT(?m; separator=", ") AS ?methods) (COUNT(?m) AS ?count) '
        f"WHERE {{ VALUES (?dataset ?m) {{ {names} }} }} GROUP BY ?dataset"
    )
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-m", "kg.cli", "query", str(_graph_file(tmp_path, tiny_graph)), sparql, "--format", "table"], capture_output=True, text=True, env=env, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["dataset", "methods", "count"]
    assert lines[2].split()[0] == "ImageNet" and lines[2].split()[-1] == "12"  # the count column is there
    assert "number 11" in " ".join(done.stdout.split())  # the long cell wraps, whole
    assert max(len(line.rstrip()) for line in lines) <= 100


def test_query_format_is_case_insensitive(capsys, tmp_path, tiny_graph):
    code, out, _ = run(capsys, "query", str(_graph_file(tmp_path, tiny_graph)), "SELECT (COUNT(?p) AS ?n) WHERE { ?p a kg:Paper }", "--format", "CSV")
    assert code == 0 and out.splitlines() == ["n", "2"]


def test_a_misspelt_vocabulary_term_warns_with_the_right_suggestion(capsys, tmp_path, tiny_graph):
    code, _, err = run(capsys, "query", str(_graph_file(tmp_path, tiny_graph)), "SELECT ?m WHERE { ?m kg:adresses ?t }")
    assert code == 0
    assert "kg: warning: W339: kg:adresses is not a term of the kg vocabulary" in err and "did you mean kg:addresses?" in err
    code, _, err = run(capsys, "query", str(_graph_file(tmp_path, tiny_graph)), "SELECT ?m WHERE { ?m kg:addresses ?t }")
    assert code == 0 and "warning" not in err


@pytest.mark.parametrize(
    "sparql,wanted,unwanted",
    [
        ("SELEC ?x WHERE { ?s ?p ?o }", ["not 'SELEC'", "did you mean SELECT?"], ["expected CONSTRUCT"]),
        ("SELECT ?x WHERE {\n ?x foo:bar ?y }", ["unknown prefix foo:", "line 2", "kg:", "rdfs:"], ["\\u{", "..="]),
        ("SELECT ?x WHRE { ?x ?p ?o }", ["did you mean WHERE?"], []),
    ],
)
def test_sparql_syntax_errors_are_one_readable_line(capsys, tmp_path, tiny_graph, sparql, wanted, unwanted):
    code, _, err = run(capsys, "query", str(_graph_file(tmp_path, tiny_graph)), sparql)
    line = _one_line_error(err)
    assert code == 2 and "SPARQL syntax error" in line and len(line) < 300, line
    assert all(w in line for w in wanted) and not any(u in line for u in unwanted), line


def test_explain_suggests_close_labels(capsys, tmp_path, tiny_graph):
    code, _, err = run(capsys, "explain", str(_graph_file(tmp_path, tiny_graph)), "FooNett")
    assert code == 2 and "did you mean 'FooNet'" in _one_line_error(err)


def test_progress_shows_an_eta_and_never_0_of_unknown(monkeypatch):
    """Extraction counts with an ETA; stages that cannot count say working, then done, never '0/?'."""
    import io
    import re
    import time

    from rich.console import Console

    import kg.cli as cli

    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=120)
    monkeypatch.setattr(cli, "_err", lambda: console)
    monkeypatch.setitem(cli._STATE, "quiet", False)
    bar, update = cli._progress_bar()
    with bar:
        update("read", 0, None)
        for done in range(6):
            update("extract", done, 5)
            time.sleep(0.05)
            bar.refresh()
        update("graph", 0, None)
        bar.refresh()
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())
    assert "0/?" not in shown and "ETA 0:0" in shown
    assert re.search(r"read .* done", shown) and re.search(r"graph .* working", shown) and "5/5" in shown
