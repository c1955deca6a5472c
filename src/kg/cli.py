"""The ``kg`` command: thin Typer commands over the library.

Each command validates its arguments, calls one library function (the same
one a notebook would call) and prints the result. User mistakes print one line
on stderr and exit with status 2; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from kg.errors import KgError, UserError

try:  # recent Typer vendors its own copy of Click; its exceptions are what the parser raises
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - Typer releases that use Click itself
    from click import exceptions as click_errors

app = typer.Typer(
    name="kg",
    help="Build knowledge graphs of the scientific literature from paper abstracts, offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
# soft_wrap: a message is one line whatever the terminal's width, so scripts can read it.
# emoji=False: rich would turn a "file:100:" location into an emoji.
out = Console(soft_wrap=True, emoji=False)
err = Console(stderr=True, soft_wrap=True, emoji=False)
_STATE = {"debug": False, "quiet": False}


@app.callback()
def _main(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for errors.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
) -> None:
    """kg: papers, methods, tasks, datasets and metrics as a queryable graph."""
    _STATE["debug"] = debug
    _STATE["quiet"] = quiet


# ------------------------------------------------------------------------------------ build


def _progress_bar() -> tuple[Any, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True, disable=_STATE["quiet"])
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int | None) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    return bar, update


def _summary(report: Any) -> None:
    if _STATE["quiet"]:
        return
    table = Table(title=f"kg build → {report.out}", show_header=False, box=None)
    table.add_row("documents", f"{report.read} read = {report.built} built + {report.duplicates} duplicates + {report.rejected} rejected")
    table.add_row("papers", f"{report.papers} in graph ({report.extracted} extracted, {report.from_cache} from cache{f', {report.removed} removed' if report.removed else ''})")
    classes = report.stats.get("classes", {})
    table.add_row("entities", ", ".join(f"{n} {c}" for c, n in classes.items() if c != "Paper") or "none")
    table.add_row("facts", ", ".join(f"{n} {r}" for r, n in report.stats.get("relations", {}).items()) or "none")
    merged = report.resolution
    if merged.get("mentions"):
        table.add_row("resolution", f"{merged.get('mentions')} mentions → {merged.get('entities')} entities")
    if report.iri_changes:
        table.add_row("IRI changes", f"{len(report.iri_changes)} (see iri-changes.jsonl)")
    table.add_row("triples", str(report.triples))
    table.add_row("time", f"{report.seconds.get('total', 0):.1f} s")
    table.add_row("files", ", ".join(p.name for p in report.files))
    err.print(table)


@app.command()
def build(
    inputs: Annotated[list[str], typer.Argument(help="Files, folders or globs of abstracts (.txt, .jsonl, .json, .csv, .tsv, arXiv .xml/.atom).")],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the graph and exports to.")] = Path("exports"),
    update: Annotated[bool, typer.Option("--update", help="Add the inputs to the existing build in --out instead of rebuilding.")] = False,
    spacy_model: Annotated[Optional[str], typer.Option("--spacy-model", help="Installed spaCy English pipeline to use (default: en_core_web_sm).")] = None,
    input_format: Annotated[Optional[str], typer.Option("--format", help="Force the input format instead of guessing from the extension.")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes for extraction.")] = 1,
    min_confidence: Annotated[Optional[float], typer.Option("--min-confidence", min=0.0, max=1.0, help="Drop facts scored below this.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail if any input document is rejected.")] = False,
    model: Annotated[Optional[str], typer.Option("--model", help="Trained SciERC model: default, minilm (needs the transformer extra) or a model folder.")] = None,
) -> None:
    """Build (or --update) a knowledge graph from abstracts and write every export."""
    from kg.pipeline import build as run_build

    bar, update_progress = _progress_bar()
    with bar:
        report = run_build(inputs, out_dir, update=update, spacy_model=spacy_model, scierc_model=model, input_format=input_format, workers=workers, min_confidence=min_confidence, strict=strict, progress=update_progress, on_warning=_warn)
    for rejection in report.rejections:
        where = "" if rejection.source in rejection.reason else f"{rejection.source}: "
        err.print(f"kg: rejected: {where}{rejection.reason}", markup=False, highlight=False)
    _summary(report)


@app.command()
def remove(
    build_dir: Annotated[Path, typer.Argument(help="A build folder written by kg build.")],
    paper_ids: Annotated[list[str], typer.Argument(help="dcterms:identifier of each paper to remove.")],
) -> None:
    """Remove papers, and the facts and entities only they supported, from a build."""
    from kg.pipeline import remove as run_remove

    bar, update_progress = _progress_bar()
    with bar:
        report = run_remove(build_dir, paper_ids, progress=update_progress)
    _summary(report)


def _warn(message: str) -> None:
    err.print(f"kg: warning: {message}", markup=False, highlight=False)


# ------------------------------------------------------------------------------------ query


def _render_solutions(solutions: Any, fmt: str) -> str:
    import pyoxigraph as ox

    if fmt == "table":
        from kg.store.graph import to_python

        names = [v.value for v in solutions.variables]
        table = Table(*names)
        for row in solutions:
            table.add_row(*(str(to_python(row[n])) if row[n] is not None else "" for n in names))
        with out.capture() as capture:
            out.print(table)
        return capture.get()
    result_format = {"csv": ox.QueryResultsFormat.CSV, "json": ox.QueryResultsFormat.JSON}[fmt]
    # SPARQL CSV ends lines with CRLF; a terminal and `tail` expect LF.
    return solutions.serialize(format=result_format).decode("utf-8").replace("\r\n", "\n")


@app.command()
def query(
    graph: Annotated[Path, typer.Argument(help="A graph file (.ttl, .nt, .jsonld) or build folder.")],
    sparql: Annotated[str, typer.Argument(help="A read-only SPARQL query, or @FILE to read it from a file. Prefixes kg, rdf, rdfs, owl, xsd, skos, dcterms, prov, schema are bound.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv or json.")] = "table",
) -> None:
    """Run a SPARQL query over a graph."""
    import pyoxigraph as ox

    from kg.store import load

    if fmt not in ("table", "csv", "json"):
        raise UserError("E305", name=fmt, choices="table, csv, json")
    if sparql.startswith("@"):
        path = Path(sparql[1:])
        if not path.is_file():
            raise UserError("E101", path=path)
        sparql = path.read_text(encoding="utf-8")
    result = load(graph).query(sparql)
    if isinstance(result, ox.QueryBoolean):
        typer.echo("true" if bool(result) else "false")
    elif isinstance(result, ox.QuerySolutions):
        sys.stdout.write(_render_solutions(result, fmt))
    else:
        sys.stdout.write(ox.serialize(list(result), format=ox.RdfFormat.N_TRIPLES).decode("utf-8"))


def _manifest_for(graph: Path) -> dict[str, Any] | None:
    folder = graph if graph.is_dir() else graph.parent
    try:
        return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


@app.command()
def stats(graph: Annotated[Path, typer.Argument(help="A graph file or build folder.")]) -> None:
    """Counts of nodes by class and facts by relation, and the resolver's largest merges."""
    from kg.store import load

    counts = load(graph).stats()
    table = Table("class", "nodes", title="Nodes")
    for name, n in counts["classes"].items():
        table.add_row(name, str(n))
    out.print(table)
    table = Table("relation", "facts", title="Facts")
    for name, n in counts["relations"].items():
        table.add_row(name, str(n))
    out.print(table)
    manifest = _manifest_for(graph)
    resolution = (manifest or {}).get("resolution") or {}
    if resolution:
        out.print(f"Resolution: {resolution.get('mentions', 0)} mentions merged into {resolution.get('entities', 0)} entities")
        table = Table("entity", "forms", "papers", "surface forms", title="Ten largest merges")
        for merge in resolution.get("largest_merges", [])[:10]:
            forms = merge.get("surface_forms", [])
            table.add_row(str(merge.get("label")), str(len(forms)), str(merge.get("papers", "")), "; ".join(forms))
        out.print(table)


@app.command()
def explain(
    graph: Annotated[Path, typer.Argument(help="A graph file or build folder.")],
    label: Annotated[str, typer.Argument(help="The label (or an alternative label) of an entity.")],
) -> None:
    """Show which surface forms and papers an entity gathers, and its facts."""
    from kg.store import load
    from kg.store.explain import explain as run_explain

    for entity in run_explain(load(graph), label, source=graph):
        out.print(f"[bold]{entity['label']}[/bold] ({entity['type']})  {entity['iri']}", highlight=False)
        out.print("  surface forms: " + "; ".join(entity["forms"]), markup=False, highlight=False)
        out.print(f"  papers ({len(entity['papers'])}): " + ", ".join(entity["papers"]), markup=False, highlight=False)
        for fact in entity["facts"]:
            out.print(f"  {fact['subject']} --{fact['relation']}--> {fact['object']}  [{fact['paper']}] {fact['evidence']}", markup=False, highlight=False)


@app.command()
def validate(graph: Annotated[Path, typer.Argument(help="A graph file or build folder.")]) -> None:
    """Validate a graph against the SHACL shapes in ontologies/shapes.ttl."""
    from kg.store import load
    from kg.store.validate import validate as run_validate

    conforms, text = run_validate(load(graph))
    out.print(text, markup=False, highlight=False)
    if not conforms:
        raise typer.Exit(1)


def _mount_scierc() -> None:
    """Add `kg train scierc`, `kg eval scierc` and `kg eval facts` (their modules import no model)."""
    from kg.evaluation.cli import eval_facts_command
    from kg.scierc.cli import eval_app, train_app

    eval_app.command("facts")(eval_facts_command)

    app.add_typer(train_app, name="train", help="Train extraction models.")
    app.add_typer(eval_app, name="eval", help="Score the extractor on annotated data.")


_mount_scierc()


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``kg`` console command; returns the exit status."""
    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv, prog_name="kg", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except typer.Exit as done:
        return done.exit_code
    except getattr(click_errors, "NoArgsIsHelpError", ()) as bare:
        out.print(bare.ctx.get_help(), markup=False, highlight=False)
        return 0
    except click_errors.UsageError as error:
        hint = f" (see `{error.ctx.command_path} --help`)" if error.ctx else ""
        err.print(f"kg: error: {error.format_message()}{hint}", markup=False, highlight=False)
        return 2
    except KgError as error:
        if _STATE["debug"]:
            raise
        err.print(f"kg: error: {error}", markup=False, highlight=False)
        return 2 if isinstance(error, UserError) else 1
    except (typer.Abort, KeyboardInterrupt):
        err.print("kg: interrupted; outputs are unchanged, and the next build resumes from the cache", highlight=False)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
