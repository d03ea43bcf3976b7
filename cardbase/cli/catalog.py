"""Catalogue commands: import a card list."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardbase.cli import render
from cardbase.cli.root import (
    STATE,
    Output,
    ReportOutputOption,
    app,
    command,
    with_examples,
)

catalog_app = typer.Typer(
    help=with_examples(
        "Manage the card catalogue.",
        "cardbase catalog import real-cards.csv",
        "cardbase catalog import real-cards.csv --skip-bad",
    ),
    no_args_is_help=True,
)
app.add_typer(catalog_app, name="catalog")


@command(catalog_app, "import")
def import_(
    file: Annotated[Path, typer.Argument(help="A CSV file in the cards.csv shape.")],
    skip_bad: Annotated[
        bool, typer.Option("--skip-bad", help="Import the good rows even if some are bad.")
    ] = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Add or update cards from a CSV file, matched by game and collector code.

    If any row is bad, nothing is written unless --skip-bad is given.

    Example: cardbase catalog import my-cards.csv
    """
    from cardbase.catalog.update import import_catalogue

    with render.progress_bar() as progress:
        report = import_catalogue(STATE.db_path, file, skip_bad=skip_bad, progress=progress)
    counts = report.counts
    if output is Output.json:
        render.print_json(
            {
                **counts.__dict__,
                "problems": report.skipped,
                "ignored_columns": report.ignored_columns,
            }
        )
        return
    for problem in report.skipped:
        render.echo(f"skipped: {problem}", err=True)
    if report.ignored_columns:
        render.echo(
            f"{file}: ignored column(s) {', '.join(report.ignored_columns)}: not catalogue "
            "columns (see the README)",
            err=True,
        )
    render.echo(
        f"{file}: {counts.added} added, {counts.updated} updated, "
        f"{counts.unchanged} unchanged, {counts.skipped} skipped"
    )
