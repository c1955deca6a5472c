"""The ``kg`` command: thin Typer commands over the library.

Each command validates its arguments, calls one library function (the same
one a notebook would call) and prints the result. User mistakes print one line
on stderr and exit with status 2; ``--debug`` shows tracebacks.
"""

# No ``from __future__ import annotations`` here: Typer reads every command's annotations at each
# start, and evaluating them as strings cost more than the rest of building the commands.
import functools
import json
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from kg.errors import KgError, UserError, warning

if TYPE_CHECKING:
    from rich.console import Console

try:  # recent Typer vendors its own copy of Click; its exceptions are what the parser raises
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - Typer releases that use Click itself
    from click import exceptions as click_errors  # type: ignore[no-redef]  # the same module, from Click

app = typer.Typer(
    name="kg",
    help="Build knowledge graphs of the scientific literature from paper abstracts, offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


@functools.cache
def _out() -> "Console":
    """The console of stdout, made on first use: commands that print nothing through rich (kg --help) never import it."""
    return _console(stderr=False)


@functools.cache
def _err() -> "Console":
    """The console of stderr, made on first use."""
    return _console(stderr=True)


def _console(stderr: bool) -> "Console":
    from rich.console import Console

    # soft_wrap: a message is one line whatever the terminal's width, so scripts can read it.
    # emoji=False: rich would turn a "file:100:" location into an emoji.
    return Console(stderr=stderr, soft_wrap=True, emoji=False)


_STATE: dict[str, Any] = {"debug": False, "quiet": False}


def _print_version(value: bool) -> None:
    if value:
        from kg.pipeline.about import version

        _out().print(f"kg {version()}", markup=False, highlight=False)
        raise typer.Exit()


@app.callback()
def _main(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for errors.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")] = False,
    _version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version, help="Print kg's version and exit.")] = False,
) -> None:
    """kg: papers, methods, tasks, datasets and metrics as a queryable graph."""
    _STATE["debug"] = debug
    _STATE["quiet"] = quiet


# ------------------------------------------------------------------------------------ build


def _progress_bar() -> tuple[Any, Any]:
    """A bar per stage: done/total and an ETA for stages that count (extraction), ``working``/``done`` for the others."""
    from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn, TimeElapsedColumn
    from rich.text import Text

    class Count(ProgressColumn):
        def render(self, task: Task) -> Text:
            if task.total is None:  # never "0/?"
                return Text("done" if task.fields.get("over") else "working")
            return Text(f"{int(task.completed)}/{int(task.total)}")

    class Eta(ProgressColumn):
        def render(self, task: Task) -> Text:
            remaining = task.time_remaining
            if task.total is None or task.finished or not task.completed or remaining is None:
                return Text("")
            minutes, seconds = divmod(int(remaining + 0.5), 60)
            return Text(f"ETA {minutes}:{seconds:02d}")

    bar = Progress(TextColumn("{task.description:<8}"), BarColumn(), Count(), TimeElapsedColumn(), Eta(), console=_err(), transient=True, disable=_STATE["quiet"])
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int | None) -> None:
        if stage not in tasks:
            for task in tasks.values():  # a new stage: the ones before it are over
                bar.update(task, over=True)
                bar.stop_task(task)
            tasks[stage] = bar.add_task(stage, total=total, over=False)
        bar.update(tasks[stage], completed=done, total=total)

    return bar, update


def _summary(report: Any) -> None:
    if _STATE["quiet"]:
        return
    from rich.table import Table

    from kg.buildfolder import IRI_CHANGES

    table = Table(title=f"kg build → {printable(str(report.out))}", show_header=False, box=None)
    table.add_row("documents", f"{report.read} read = {report.built} built + {report.duplicates} duplicates + {report.rejected} rejected")
    table.add_row("papers", f"{report.papers} in graph ({report.extracted} extracted, {report.from_cache} from cache{f', {report.removed} removed' if report.removed else ''})")
    classes = report.stats.get("classes", {})
    table.add_row("entities", ", ".join(f"{n} {c}" for c, n in classes.items() if c != "Paper") or "none")
    table.add_row("facts", ", ".join(f"{n} {r}" for r, n in report.stats.get("relations", {}).items()) or "none")
    merged = report.resolution
    if merged.get("mentions"):
        table.add_row("resolution", f"{merged.get('mentions')} mentions → {merged.get('entities')} entities")
    if report.iri_changes:
        table.add_row("IRI changes", f"{len(report.iri_changes)} (see {IRI_CHANGES})")
    table.add_row("triples", str(report.triples))
    table.add_row("time", f"{report.seconds.get('total', 0):.1f} s")
    table.add_row("files", ", ".join(p.name for p in report.files))
    _err().print(table)


@app.command()
def build(
    inputs: Annotated[list[str], typer.Argument(help="Files, folders or globs of abstracts (.txt, .jsonl, .json, .csv, .tsv, arXiv .xml/.atom).")],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Folder to write the graph and exports to (required; kg build examples/corpus --out exports regenerates the committed example).")],
    update: Annotated[bool, typer.Option("--update", help="Add the inputs to the existing build in --out instead of rebuilding.")] = False,
    spacy_model: Annotated[Optional[str], typer.Option("--spacy-model", help="Installed spaCy English pipeline to use (default: en_core_web_sm).")] = None,
    input_format: Annotated[Optional[str], typer.Option("--format", help="Force the input format instead of guessing from the extension.")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Processes for extraction.")] = 1,
    min_confidence: Annotated[Optional[float], typer.Option("--min-confidence", min=0.0, max=1.0, help="Drop facts scored below this.")] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Fail if any input document is rejected.")] = False,
    model: Annotated[Optional[str], typer.Option("--model", help="Trained model: default, learned (plus the mention and fact models trained on kg's corpus), minilm (needs the transformer extra) or a SciERC model folder.")] = None,
    engine: Annotated[str, typer.Option("--engine", help="Where extraction runs: local (this machine) or dask (needs the dask extra).")] = "local",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="Address of a running dask scheduler (with --engine dask).")] = None,
    partitions: Annotated[Optional[int], typer.Option("--partitions", min=1, help="Number of dask partitions (with --engine dask).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into --out even if it holds files kg did not write (same names are replaced) or lies inside an input folder.")] = False,
) -> None:
    """Build (or --update) a knowledge graph from abstracts and write every export."""
    from kg.buildfolder import BuildSettings
    from kg.engines import make_executor
    from kg.pipeline import build as run_build

    settings = BuildSettings(spacy_model=spacy_model, scierc_model=model, min_confidence=min_confidence)
    executor = make_executor(engine, workers=workers, scheduler=scheduler, partitions=partitions, on_message=_note)
    bar, update_progress = _progress_bar()
    with bar:
        report = run_build(inputs, out_dir, settings, update=update, engine=executor, input_format=input_format, strict=strict, force=force, progress=update_progress, on_warning=_warn)
    for rejection in report.rejections:
        where = "" if rejection.source in rejection.reason else f"{rejection.source}: "
        _say(f"kg: rejected: {where}{rejection.reason}")
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


def printable(text: str) -> str:
    r"""``text`` with control characters and undecodable file-name bytes escaped: one safe line.

    >>> print(printable("a\nb\x1b[31m\udcff é"))
    a\nb\x1b[31m\xff é
    """
    return "".join(_escape(ch) if not ch.isprintable() else ch for ch in text)


def _escape(ch: str) -> str:
    if "\udc80" <= ch <= "\udcff":  # a byte os.fsdecode could not decode
        return f"\\x{ord(ch) - 0xDC00:02x}"
    return ascii(ch)[1:-1]


def _say(line: str) -> None:
    _err().print(printable(line), markup=False, highlight=False)


def _warn(message: str) -> None:
    _say(f"kg: warning: {message}")


def _note(message: str) -> None:
    """A progress note from an engine (partitions done, the dashboard link); silent with -q."""
    if not _STATE["quiet"]:
        _say(f"kg: {message}")


# ------------------------------------------------------------------------------------ query


def _cell(term: Any) -> str:
    from kg.views.sparql import to_python

    return "" if term is None else str(to_python(term))


# Characters a column of a SIMPLE_HEAD table without edges takes besides its text (padding and rule).
_TABLE_GAP = 3
_NARROWEST = 6


def _fit_widths(widths: list[int], total: int) -> list[int]:
    """Column widths that fit ``total`` characters: the widest columns give way first, and wrap.

    Every column keeps at least a few characters (its whole text when shorter), so none is dropped.

    >>> _fit_widths([5, 200, 9], 100)
    [5, 77, 9]
    >>> _fit_widths([3, 4], 100)
    [3, 4]
    """
    budget = total - _TABLE_GAP * len(widths)
    if sum(widths) <= budget:
        return widths
    floor = [min(w, _NARROWEST) for w in widths]
    cap = max(widths)
    while cap > _NARROWEST and sum(max(f, min(w, cap)) for f, w in zip(floor, widths)) > budget:
        cap -= 1
    return [max(f, min(w, cap)) for f, w in zip(floor, widths)]


def _print_table(result: Any, page_rows: int = 500) -> None:
    """Print SELECT rows as a table, a page at a time, so rows show while the query runs."""
    from itertools import islice

    from rich import box
    from rich.table import Table

    names, rows = result.variables, iter(result)
    widths: list[int] | None = None
    while True:
        page = [[_cell(row[n]) for n in names] for row in islice(rows, page_rows)]
        first = widths is None
        if not first and not page:
            break
        if widths is None:
            # The first page sets the column widths; later pages wrap to them, so columns line up.
            widths = _fit_widths([max([len(n)] + [len(r[i]) for r in page]) for i, n in enumerate(names)], _out().width)
        table = Table(box=box.SIMPLE_HEAD, show_header=first, show_edge=False)
        for name, width in zip(names, widths):
            table.add_column(name, width=width, overflow="fold")
        for row in page:
            table.add_row(*row)
        # Never narrower than the columns need: rich would otherwise drop columns to fit.
        _out().print(table, markup=False, highlight=False, width=max(_out().width, sum(widths) + _TABLE_GAP * len(widths)))
        if len(page) < page_rows:
            break


@app.command()
def query(
    graph: Annotated[Path, typer.Argument(help="A build folder, an Oxigraph store folder, or a graph file (.ttl, .nt, .jsonld).")],
    sparql: Annotated[str, typer.Argument(help="A read-only SPARQL query, or @FILE to read it from a file. Prefixes kg, rdf, rdfs, owl, xsd, skos, dcterms, prov, schema are bound.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv or json.")] = "table",
    timeout: Annotated[float, typer.Option("--timeout", min=0, help="Stop the query after this many seconds (0: no limit).")] = 30.0,
    limit: Annotated[int, typer.Option("--limit", min=0, help="Print at most this many rows (0: all).")] = 10_000,
    max_mb: Annotated[int, typer.Option("--max-mb", min=0, help="Stop printing after this many MB of results (0: no limit).")] = 256,
    memory_mb: Annotated[int, typer.Option("--memory", min=0, help="The query process's memory limit in MB (0: none).")] = 1536,
) -> None:
    """Run a SPARQL query over a graph: read-only, offline (no SERVICE or LOAD), within --timeout, --limit, --max-mb and --memory."""
    from kg.store.disk import open_graph
    from kg.views.isolated import run_isolated
    from kg.views.results import write_csv, write_json, write_ntriples
    from kg.views.bounded import check_query
    from kg.views.syntax import unknown_terms

    writers = {"csv": write_csv, "json": write_json}
    fmt = fmt.lower()
    if fmt not in ("table", *writers):
        raise UserError("E305", name=fmt, choices="table, csv, json")
    if sparql.startswith("@"):
        path = Path(sparql[1:])
        if not path.is_file():
            raise UserError("E101", path=path)
        sparql = path.read_text(encoding="utf-8")
    check_query(sparql)  # before a graph file is parsed, which may take a while
    for term, close in unknown_terms(sparql):
        _warn(warning("W339", term=term, hint=f"; did you mean {close}?" if close else ""))
    store = open_graph(graph)
    with run_isolated(store, sparql, started=_STATE.get("started"), timeout=timeout or None, limit=limit or None, max_bytes=max_mb * 2**20 or None, memory=memory_mb * 2**20 or None) as result:
        if result.kind == "ask":
            typer.echo("true" if result.boolean else "false")
        elif result.kind == "graph":
            write_ntriples(result, sys.stdout)
        elif fmt == "table":
            _print_table(result)
        else:
            writers[fmt](result, sys.stdout)
    sys.stdout.flush()
    if result.truncated == "bytes":
        _warn(f"stopped after {max_mb} MB of results; pass --max-mb with more (0 for all)")
    elif result.truncated:
        _warn(f"stopped after {limit} rows; pass --limit with more rows (0 for all)")


@app.command()
def stats(graph: Annotated[Path, typer.Argument(help="A build folder, an Oxigraph store folder or a graph file.")]) -> None:
    """Counts of nodes by class and facts by relation, and the resolver's largest merges."""
    from rich.table import Table

    from kg.buildfolder import BuildFolder
    from kg.store.disk import open_graph
    from kg.views.stats import stats as count

    counts = count(open_graph(graph))
    table = Table("class", "nodes", title="Nodes")
    for name, n in counts["classes"].items():
        table.add_row(name, str(n))
    _out().print(table)
    table = Table("relation", "facts", title="Facts")
    for name, n in counts["relations"].items():
        table.add_row(name, str(n))
    _out().print(table)
    manifest = BuildFolder(graph if graph.is_dir() else graph.parent).manifest_or_none()  # a graph file of a build has one too
    resolution = manifest.resolution if manifest is not None else {}
    if resolution:
        _out().print(f"Resolution: {resolution.get('mentions', 0)} mentions merged into {resolution.get('entities', 0)} entities")
        table = Table("entity", "forms", "papers", "surface forms", title="Ten largest merges")
        for merge in resolution.get("largest_merges", [])[:10]:
            forms = merge.get("surface_forms", [])
            table.add_row(str(merge.get("label")), str(len(forms)), str(merge.get("papers", "")), "; ".join(forms))
        _out().print(table)


@app.command()
def explain(
    graph: Annotated[Path, typer.Argument(help="A build folder, an Oxigraph store folder or a graph file.")],
    label: Annotated[str, typer.Argument(help="The label (or an alternative label) of an entity.")],
) -> None:
    """Show which surface forms and papers an entity gathers, and its facts."""
    from kg.store.disk import open_graph
    from kg.views.explain import explain as run_explain

    for entity in run_explain(open_graph(graph), label, source=graph):
        _out().print(f"[bold]{entity['label']}[/bold] ({entity['type']})  {entity['iri']}", highlight=False)
        _out().print("  surface forms: " + "; ".join(entity["forms"]), markup=False, highlight=False)
        _out().print(f"  papers ({len(entity['papers'])}): " + ", ".join(entity["papers"]), markup=False, highlight=False)
        for fact in entity["facts"]:
            named = f"{fact['subject_evidence']} … " if fact["subject_evidence"] else ""
            _out().print(f"  {fact['subject']} --{fact['relation']}--> {fact['object']}  [{fact['paper']}] {named}{fact['evidence']}", markup=False, highlight=False)


@app.command()
def validate(graph: Annotated[Path, typer.Argument(help="A build folder, an Oxigraph store folder or a graph file.")]) -> None:
    """Validate a graph against the SHACL shapes in ontologies/shapes.ttl."""
    from kg.store.disk import open_graph
    from kg.views.validate import validate as run_validate

    conforms, text = run_validate(open_graph(graph))
    _out().print(text, markup=False, highlight=False)
    if not conforms:
        raise typer.Exit(1)


@app.command()
def info(as_json: Annotated[bool, typer.Option("--json", help="Print it as JSON.")] = False) -> None:
    """Versions of kg, Python, spaCy, the spaCy model, the shipped models and extractor, and which extras are installed."""
    from kg.pipeline.about import installation

    about = installation()
    if as_json:
        typer.echo(json.dumps(about, indent=2))
        return
    for key, value in about.items():
        if isinstance(value, dict):
            _out().print(f"{key}:", markup=False, highlight=False)
            for name, line in value.items():
                _out().print(f"  {name}: {line}", markup=False, highlight=False)
        else:
            _out().print(f"{key}: {value}", markup=False, highlight=False)


# ------------------------------------------------------------------------------------ serve

# Packages of the serve extra: a missing one is a one-line error naming the extra.
_SERVE_PACKAGES = {"starlette", "uvicorn", "pebble", "jinja2"}


@app.command()
def serve(
    build_dir: Annotated[Path, typer.Argument(help="A build folder written by kg build.")],
    host: Annotated[str, typer.Option("--host", help="Address to listen on (only this machine by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on (0 picks a free one).")] = 7878,
    timeout: Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds a query may run before it is stopped.")] = 30.0,
    limit: Annotated[int, typer.Option("--limit", min=1, help="Most rows (or triples) a query returns.")] = 10_000,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Queries answered at once (one process each).")] = 2,
    lazy_explorer: Annotated[bool, typer.Option("--lazy-explorer", help="Read the explorer's index on its first request, not at start (less memory when only SPARQL is used).")] = False,
    memory_mb: Annotated[int, typer.Option("--memory", min=0, help="Each worker's memory limit in MB (0: none); a query past it gets 503.")] = 4096,
    max_mb: Annotated[int, typer.Option("--max-mb", min=0, help="Most MB of results (terms) an answer holds (0: no limit).")] = 64,
    max_body_kb: Annotated[int, typer.Option("--max-body-kb", min=1, help="Largest request body in KB; a larger one gets 413.")] = 1024,
    queue: Annotated[int, typer.Option("--queue", min=1, help="Requests that may wait for a worker; past it 503 with Retry-After.")] = 32,
) -> None:
    """Serve a build as a read-only SPARQL endpoint at /sparql, with a query page at / (needs the serve extra)."""
    try:
        from kg.serve.server import serve as run_serve
    except ImportError as error:
        package = (error.name or "").split(".")[0]
        if package in _SERVE_PACKAGES:
            raise UserError("E340", missing=package) from None
        raise

    def ready(url: str) -> None:
        _out().print(f"kg: serving {build_dir} at {url} (SPARQL endpoint {url}sparql); press Ctrl-C to stop", markup=False, highlight=False)
        sys.stdout.flush()

    run_serve(
        build_dir, host=host, port=port, timeout=timeout, limit=limit, workers=workers, lazy_explorer=lazy_explorer, on_ready=ready,
        memory=memory_mb * 2**20 or None, max_bytes=max_mb * 2**20 or None, max_body=max_body_kb * 1024, queue=queue,
    )
    _err().print("kg: server stopped", highlight=False)


@app.command(name="export")
def export_files(
    graph: Annotated[Path, typer.Argument(help="A build folder or graph file.")],
    names: Annotated[list[str], typer.Argument(help="Exports to write: graph.nq, graph.trig, neo4j, or any file kg build writes.")],
    out_dir: Annotated[Path, typer.Option("--out", "-o", help="Folder to write into; not a build folder, which the next build replaces whole.")],
) -> None:
    """Write exports for other engines (N-Quads/TriG with a graph per paper, Neo4j import CSV) from a build."""
    from kg.buildfolder import is_build_folder
    from kg.export import write_all
    from kg.views import load

    if out_dir.exists() and not out_dir.is_dir():
        raise UserError("E314", path=out_dir)
    if is_build_folder(out_dir):
        raise UserError("E372", path=out_dir)
    try:
        written = write_all(load(graph), out_dir, names)
    except OSError as error:  # a read-only folder, no permission, a file in the way
        raise UserError("E320", path=error.filename or out_dir, reason=error.strerror or str(error)) from None
    for path in written:
        _out().print(f"kg: wrote {path}", markup=False, highlight=False)


# ------------------------------------------------------------------------------------ report


@app.command()
def report(
    build_dir: Annotated[Path, typer.Argument(help="A build folder written by kg build.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The HTML file to write.")] = Path("report.html"),
    gexf: Annotated[Optional[Path], typer.Option("--gexf", help="Also write the entity graph, with communities and centralities, as GEXF (Gephi).")] = None,
    graphml: Annotated[Optional[Path], typer.Option("--graphml", help="Also write that graph as GraphML (Cytoscape, yEd).")] = None,
) -> None:
    """Write a static, offline HTML report of a build: plots, tables and the SPARQL behind each."""
    from kg.analysis.report import missing_module

    missing = missing_module()
    if missing:
        raise UserError("E390", what="kg report", missing=missing)
    from kg.analysis import annotated_graph, write_gexf, write_graphml
    from kg.analysis.report import load_build, write_report

    for path in (out, gexf, graphml):
        if path is not None and not path.parent.is_dir():
            raise UserError("E391", path=path, folder=path.parent)
        if path is not None and path.is_dir():
            raise UserError("E393", path=path, reason="it is a folder")
    graph = load_build(build_dir)
    try:
        written = [write_report(build_dir, out, graph=graph)]
        if gexf or graphml:
            annotated = annotated_graph(graph)
            for path, writer in ((gexf, write_gexf), (graphml, write_graphml)):
                if path is not None:
                    writer(annotated, path)
                    written.append(path)
    except OSError as error:  # a read-only folder, no permission
        raise UserError("E393", path=error.filename or out, reason=error.strerror or str(error)) from None
    if not _STATE["quiet"]:
        _err().print("kg report: wrote " + ", ".join(str(p) for p in written), markup=False, highlight=False)


def _mount_scierc() -> None:
    """Add `kg train scierc`, `kg eval scierc`, `kg eval facts` and `kg eval results` (their modules import no model)."""
    from kg.evaluation.cli import eval_facts_command, eval_results_command
    from kg.training.cli import eval_app, train_app

    eval_app.command("facts")(eval_facts_command)
    eval_app.command("results")(eval_results_command)

    app.add_typer(train_app, name="train", help="Train extraction models.")
    app.add_typer(eval_app, name="eval", help="Score the extractor on annotated data.")


_mount_scierc()


_GLOBAL = ("-q", "--quiet", "--debug")
_INTERRUPTED = 130
_INTERRUPTED_MESSAGE = "kg: interrupted; outputs are unchanged, and the next build resumes from the cache"


def _global_options_first(argv: list[str]) -> list[str]:
    """Move ``-q``/``--quiet``/``--debug`` before the command, wherever they were given.

    >>> _global_options_first(["build", "x", "-q", "--", "-q"])
    ['-q', 'build', 'x', '--', '-q']
    """
    end = argv.index("--") if "--" in argv else len(argv)
    flags = [arg for arg in argv[:end] if arg in _GLOBAL]
    return flags + [arg for arg in argv[:end] if arg not in _GLOBAL] + argv[end:]


def _terminated(signum: int, frame: Any) -> None:
    """SIGTERM (``kill``, a service manager stopping kg) ends a command as Ctrl-C does: cleanly."""
    _STATE["terminated"] = True
    raise KeyboardInterrupt


def _interrupted() -> int:
    _say(_INTERRUPTED_MESSAGE)
    return 128 + signal.SIGTERM if _STATE.get("terminated") else _INTERRUPTED


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``kg`` console command; returns the exit status.

    SIGTERM is handled as Ctrl-C (the same message and clean-up; exit status 143)
    when ``main`` runs in the main thread.
    """
    _STATE["started"] = time.monotonic()
    _STATE["terminated"] = False
    if threading.current_thread() is not threading.main_thread():  # signal handlers belong to the main thread
        return _run(argv)
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        return _run(argv)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(argv: list[str] | None) -> int:
    command = typer.main.get_command(app)
    try:
        result = command.main(args=_global_options_first(sys.argv[1:] if argv is None else argv), prog_name="kg", standalone_mode=False)
        if result == _INTERRUPTED:  # Typer turns Ctrl-C into this exit status, silently
            return _interrupted()
        return result if isinstance(result, int) else 0
    except typer.Exit as done:
        return done.exit_code
    except getattr(click_errors, "NoArgsIsHelpError", ()) as bare:
        _out().print(bare.ctx.get_help(), markup=False, highlight=False)
        return 0
    except click_errors.UsageError as error:
        hint = f" (see `{error.ctx.command_path} --help`)" if error.ctx else ""
        _say(f"kg: error: {error.format_message()}{hint}")
        return 2
    except KgError as error:
        if _STATE["debug"]:
            raise
        _say(f"kg: error: {error}")
        return 2 if isinstance(error, UserError) else 1
    except (typer.Abort, KeyboardInterrupt):
        return _interrupted()
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
