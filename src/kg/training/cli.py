"""``kg train scierc``, ``kg train facts`` and ``kg eval scierc``: thin Typer commands.

Each validates its arguments, calls one library function
(:func:`kg.training.train.train_scierc`, :func:`kg.training.evaluate.evaluate_scierc`)
and prints the result with rich. Importing this module loads no model.
"""

# No ``from __future__ import annotations`` here: Typer reads these commands' annotations at every
# start of kg, and evaluating them as strings costs more than building the commands.
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from kg.errors import UserError

if TYPE_CHECKING:
    from rich.console import Console

train_app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None)
eval_app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None)


@functools.cache
def _console(stderr: bool = False) -> "Console":
    """The console of stdout (or stderr), made on first use so that starting kg does not import rich."""
    from rich.console import Console

    return Console(stderr=stderr)

#: Where ``kg train scierc`` looks for the data when --data is not given.
DEFAULT_DATA = Path("../shared/data/scierc")


def _require_sklearn() -> None:
    """Training needs the ``train`` extra: its absence is a one-line error (E207)."""
    try:
        import sklearn  # noqa: F401
    except ImportError:
        raise UserError("E207", missing="scikit-learn") from None


@train_app.command("scierc")
def train_scierc_command(
    out_dir: Annotated[
        Path, typer.Option("--out", help="Model folder to write (required; use it with kg build --model PATH).")
    ],
    data: Annotated[Path, typer.Option("--data", help="Folder with train.json and dev.json (DyGIE json-lines).")] = DEFAULT_DATA,
    seed: Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the same model.")] = 0,
    encoder: Annotated[
        str, typer.Option("--encoder", help="spancat (the default model) or minilm (the transformer extra's model).")
    ] = "spancat",
) -> None:
    """Train the SciERC entity and relation components on train, tuned on dev."""
    from kg.training.data import split_path

    _require_sklearn()
    if encoder not in ("spancat", "minilm"):
        raise UserError("E311", reason=f"--encoder must be spancat or minilm, not {encoder!r}")
    for split in ("train", "dev"):
        if not split_path(data, split).is_file():
            raise UserError("E204", path=data)
    if encoder == "minilm":
        _train_minilm(data, out_dir, seed)
        return
    from rich.table import Table

    from kg.training.train import train_scierc

    report = train_scierc(data, out_dir, seed, on_progress=lambda line: _console(stderr=True).print(line, markup=False))
    table = Table(title=f"kg train scierc → {report.out_dir}", show_header=False, box=None)
    table.add_row("dev entity F1", f"{report.dev['entities']:.2f}")
    table.add_row("dev relation F1 (boundaries)", f"{report.dev['relations']:.2f}")
    table.add_row("dev relation F1 (strict)", f"{report.dev['relations_strict']:.2f}")
    table.add_row("epochs", f"{report.epochs_run} (best {report.best_epoch})")
    table.add_row("time", f"{report.seconds:.0f} s")
    table.add_row("model size", f"{report.model_bytes / 1e6:.1f} MB")
    _console().print(table)


def _train_minilm(data: Path, out_dir: Path, seed: int) -> None:
    from kg.extract.scierc.ensemble import require_extra

    require_extra()
    from rich.table import Table

    from kg.training.encoder_train import train_minilm

    meta = train_minilm(data, out_dir, seed, on_progress=lambda line: _console(stderr=True).print(line, markup=False))
    table = Table(title="kg train scierc --encoder minilm", show_header=False, box=None)
    for name in ("entities", "relations", "relations_strict"):
        table.add_row(f"dev {name} F1 (ensemble)", f"{meta['dev'][name]:.2f}")
    table.add_row("spancat/MiniLM weight", str(meta["entity_weight"]))
    table.add_row("relation threshold", str(meta["relation_threshold"]))
    table.add_row("best epoch", str(meta["best_epoch"]))
    table.add_row("time", f"{meta['seconds']:.0f} s")
    _console().print(table)


@train_app.command("facts")
def train_facts_command(
    annotations: Annotated[list[Path], typer.Argument(help="Annotated abstracts in the gold format (docs/EVALUATION.md): one file or several.")],
    out: Annotated[Path, typer.Option("--out", help="The model file to write (JSON).")],
    corpus: Annotated[
        Optional[list[Path]], typer.Option("--corpus", help="JSON Lines corpus with the text of records that give a source_id (may be given more than once).")
    ] = None,
    test: Annotated[
        Optional[Path], typer.Option("--test", help="Other annotated abstracts: how well the model ranks the rules' facts there.")
    ] = None,
    model: Annotated[
        Optional[str], typer.Option("--model", help="The pipeline to train for: default, or learned (over the learned mentions; the model also adds and drops facts).")
    ] = None,
) -> None:
    """Train the model that gives relation facts their confidence, on annotated abstracts."""
    _require_sklearn()
    from rich.table import Table

    from kg.training.pairs import train_facts

    if model not in (None, "default", "learned"):
        raise UserError("E311", reason=f"--model must be default or learned, not {model!r}")
    report = train_facts(
        annotations, out, corpus=corpus, test=test, model_name=model,
        on_progress=lambda line: _console(stderr=True).print(line, markup=False),
    )
    table = Table(title=f"kg train facts → {out}", show_header=False, box=None)
    table.add_row("abstracts", str(report["abstracts"]))
    table.add_row("candidate pairs (stated)", f"{report['examples']} ({report['positives']})")
    table.add_row("features", str(report["features"]))
    if "test_auc" in report:
        table.add_row("test: rule facts ranked, AUC model / rule table", f"{report['test_auc']:.3f} / {report['test_auc_rules']:.3f} ({report['test_facts']} facts)")
    if "test_added" in report:
        table.add_row("test: unstated pairs the model adds (stated by the annotators)", f"{report['test_added']} ({report['test_added_right']})")
    _console().print(table)


@train_app.command("mentions")
def train_mentions_command(
    annotations: Annotated[Path, typer.Argument(help="Training abstracts in the gold format (entities with names and aliases).")],
    dev: Annotated[Path, typer.Option("--dev", help="Tuning abstracts, same format: the best epoch and threshold are chosen on them.")],
    out: Annotated[Path, typer.Option("--out", help="Model folder to write (required).")],
    corpus: Annotated[
        Optional[list[Path]], typer.Option("--corpus", help="JSON Lines corpus with the text of records that give a source_id (may be given more than once).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed; the same seed gives the same model.")] = 0,
    epochs: Annotated[int, typer.Option("--epochs", min=1, help="Training epochs (the best dev epoch is kept).")] = 12,
) -> None:
    """Train the learned mention model (Method, Task, Dataset, Metric spans) on annotated abstracts."""
    from rich.table import Table

    from kg.evaluation.facts import read_gold
    from kg.training.mentions import train_mentions

    for path in (annotations, dev):
        if not path.is_file():
            raise UserError("E221", path=path, reason="no such file")
    report = train_mentions(
        read_gold(annotations, corpus), read_gold(dev, corpus), out, seed, epochs=epochs,
        on_progress=lambda line: _console(stderr=True).print(line, markup=False),
    )
    table = Table(title=f"kg train mentions → {report.out_dir}", show_header=False, box=None)
    table.add_row("dev mention F1 (exact span and type)", f"{report.dev['mentions']:.2f}")
    table.add_row("settings", str(report.settings["entities"]))
    table.add_row("epochs", f"{report.epochs_run} (best {report.best_epoch})")
    table.add_row("time", f"{report.seconds:.0f} s")
    table.add_row("model size", f"{report.model_bytes / 1e6:.1f} MB")
    _console().print(table)


@eval_app.command("scierc")
def eval_scierc_command(
    file: Annotated[Path, typer.Argument(help="A SciERC file in DyGIE json-lines (e.g. test.json).")],
    predictions: Annotated[
        Optional[Path], typer.Option("--predictions", help="Write the predictions here, DyGIE json-lines.")
    ] = None,
    model: Annotated[
        Optional[str], typer.Option("--model", help="default, minilm (needs the transformer extra) or a model folder.")
    ] = None,
) -> None:
    """Score the trained components on a SciERC file: entities, relations (boundaries, strict)."""
    from rich.table import Table

    from kg.training.evaluate import evaluate_scierc

    if not file.is_file():
        raise UserError("E204", path=file)
    report = evaluate_scierc(file, model_dir=model, predictions=predictions)
    for name, title in (
        ("entities", "Entities (exact span and type)"),
        ("relations", "Relations, boundaries"),
        ("relations_strict", "Relations, strict (argument types too)"),
    ):
        table = Table(title=f"{title}: {file}")
        for column in ("label", "P", "R", "F1", "gold", "pred", "correct"):
            table.add_column(column, justify="left" if column == "label" else "right")
        for label, c in report.tables[name].items():
            table.add_row(label, f"{c.precision:.2f}", f"{c.recall:.2f}", f"{c.f1:.2f}", str(c.gold), str(c.pred), str(c.tp))
        _console().print(table)
    _console().print(f"{report.docs} documents, {report.tokens} tokens in {report.seconds:.1f} s: {report.docs_per_second:.1f} docs/s")
    if predictions is not None:
        _console().print(f"predictions written to {predictions}")
