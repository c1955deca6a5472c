"""``kg eval facts``: a thin Typer command over :func:`kg.evaluation.facts.evaluate_facts`.

Importing this module loads no model.
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


@functools.cache
def _out() -> "Console":
    """The console of stdout, made on first use so that starting kg does not import rich."""
    from rich.console import Console

    console = Console(soft_wrap=True, emoji=False)
    if not console.is_terminal:
        console.width = 120  # a piped table keeps its full column names
    return console


def eval_facts_command(
    gold: Annotated[Path, typer.Argument(help="A facts gold file (JSON list of annotated abstracts; see docs/EVALUATION.md).")],
    model: Annotated[
        Optional[str], typer.Option("--model", help="The trained model: default, learned (plus kg's learned mention and fact models), minilm (transformer extra) or a SciERC model folder.")
    ] = None,
    errors: Annotated[
        Optional[Path], typer.Option("--errors", help="Write every miss and false positive (lenient) here, JSON lines.")
    ] = None,
    keep: Annotated[
        Optional[Path], typer.Option("--keep", help="Keep the build of the gold abstracts in this folder.")
    ] = None,
    corpus: Annotated[
        Optional[list[Path]],
        typer.Option("--corpus", help="JSON Lines corpus holding the text of records that give a source_id instead of an abstract (may be given more than once)."),
    ] = None,
    min_confidence: Annotated[
        Optional[float], typer.Option("--min-confidence", min=0.0, max=1.0, help="Build as kg build --min-confidence does: leave out less confident facts.")
    ] = None,
) -> None:
    """Build the gold file's abstracts and score the graph's facts: P / R / F1 per relation, strict and lenient."""
    from rich.table import Table

    from kg.evaluation.facts import RELATIONS, evaluate_facts, write_errors

    if not gold.is_file():
        raise UserError("E221", path=gold, reason="no such file")
    scores = evaluate_facts(gold, scierc_model=model, workdir=keep, corpus=corpus, min_confidence=min_confidence)
    table = Table(title=f"Facts: {gold} ({scores.records} abstracts)")
    for column in ("relation", "gold", "strict P", "strict R", "strict F1", "pred", "lenient P", "lenient R", "lenient F1"):
        table.add_column(column, justify="left" if column == "relation" else "right")
    for relation in (*RELATIONS, "all"):
        s, le = scores.strict[relation], scores.lenient[relation]
        table.add_row(
            relation, str(s.gold), f"{s.precision:.1f}", f"{s.recall:.1f}", f"{s.f1:.1f}",
            str(le.predicted), f"{le.precision:.1f}", f"{le.recall:.1f}", f"{le.f1:.1f}",
        )
    _out().print(table)
    if scores.unscored:
        _out().print("not scored (no gold): " + ", ".join(f"{k} {v}" for k, v in sorted(scores.unscored.items())))
    if scores.unmatched_records:
        _out().print(f"{len(scores.unmatched_records)} gold record(s) have no paper in the build: {', '.join(scores.unmatched_records)}")
    if errors is not None:
        write_errors(scores, errors)
        _out().print(f"{len(scores.errors)} misses and false positives written to {errors}")


def eval_results_command(
    gold: Annotated[Path, typer.Argument(help="A results gold file (JSON list; the dev_results.json format; see docs/EVALUATION.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the scores as one JSON object instead of a table.")] = False,
    model: Annotated[
        Optional[str], typer.Option("--model", help="The trained model: default, learned (plus kg's learned mention and fact models), minilm (transformer extra) or a SciERC model folder.")
    ] = None,
    corpus: Annotated[
        Optional[list[Path]],
        typer.Option("--corpus", help="JSON Lines corpus holding the text of records that give a source_id instead of an abstract (may be given more than once)."),
    ] = None,
    abstracts: Annotated[
        Optional[Path],
        typer.Option("--abstracts", help="A facts gold file with the records' abstracts and entities, by id (default: dev_gold.json beside GOLD, for records without text)."),
    ] = None,
    errors: Annotated[
        Optional[Path], typer.Option("--errors", help="Write every core miss and false positive here, JSON lines.")
    ] = None,
    keep: Annotated[Optional[Path], typer.Option("--keep", help="Keep the build of the gold abstracts in this folder.")] = None,
) -> None:
    """Build the gold file's abstracts and score the numeric results: core and full P / R, per kind."""
    import json

    from rich.table import Table

    from kg.evaluation.results import KINDS, evaluate_results

    if not gold.is_file():
        raise UserError("E221", path=gold, reason="no such file")
    scores = evaluate_results(gold, scierc_model=model, workdir=keep, corpus=corpus, abstracts=abstracts)
    if as_json:
        def block(table: dict) -> dict:
            return {k: {"gold": c.gold, "predicted": c.predicted, "precision": round(c.precision, 2), "recall": round(c.recall, 2), "f1": round(c.f1, 2)} for k, c in table.items()}

        typer.echo(json.dumps({"gold": str(gold), "records": scores.records, "core": block(scores.core), "full": block(scores.full)}, sort_keys=True))
    else:
        table = Table(title=f"Results: {gold} ({scores.records} abstracts)")
        for column in ("kind", "gold", "pred", "core P", "core R", "core F1", "full P", "full R", "full F1"):
            table.add_column(column, justify="left" if column == "kind" else "right")
        for kind in (*KINDS, "all"):
            c, f = scores.core[kind], scores.full[kind]
            table.add_row(kind, str(c.gold), str(c.predicted), f"{c.precision:.1f}", f"{c.recall:.1f}", f"{c.f1:.1f}", f"{f.precision:.1f}", f"{f.recall:.1f}", f"{f.f1:.1f}")
        _out().print(table)
    if errors is not None:
        with errors.open("w", encoding="utf-8") as handle:
            for error in scores.errors:
                handle.write(json.dumps(error, ensure_ascii=False) + "\n")
        if not as_json:
            _out().print(f"{len(scores.errors)} misses and false positives written to {errors}")
