"""Spreadsheet commands: import a collection, export cards."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.root import STATE, Output, OutputOption, app, command
from cardbase.collection.changes import ImportMode

if TYPE_CHECKING:
    from cardbase.sheets.importer import ImportReport


@command(app, "import")
def import_(
    file: Annotated[Path, typer.Argument(help="A .xlsx, .xls, .ods or .csv collection sheet.")],
    sheet: Annotated[
        str | None,
        typer.Option("--sheet", help="Read this sheet (default: the first with a card column)."),
    ] = None,
    mode: Annotated[
        ImportMode,
        typer.Option(
            "--mode",
            help="add: add the counts; set: listed cards get these counts; "
            "replace: the collection becomes the sheet.",
        ),
    ] = ImportMode.ADD,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show the plan; write nothing.")
    ] = False,
    skip_bad: Annotated[
        bool, typer.Option("--skip-bad", help="Import the good rows even if some cannot be.")
    ] = False,
    output: OutputOption = Output.table,
) -> None:
    """Import a collection spreadsheet: finds the header, maps columns, resolves each card.

    Example: cardbase import Collection.xlsx --mode set --dry-run
    """
    from cardbase.sheets.importer import import_collection

    with render.progress_bar() as progress:
        report = import_collection(
            STATE.db_path,
            file,
            sheet,
            mode.mode,
            dry_run=dry_run,
            skip_bad=skip_bad,
            progress=progress,
        )
    _print_import(report, dry_run, output)


def _print_import(report: ImportReport, dry_run: bool, output: Output) -> None:
    counts = report.counts()
    if output is Output.json:
        render.print_json(
            {
                **counts,
                "dry_run": dry_run,
                "source": report.source,
                "changes": [c.to_dict() for c in report.changes],
                "problems": report.problems,
            }
        )
        return
    for problem in report.problems:
        render.echo(f"skipped: {problem}", err=True)
    if dry_run:
        for change in report.changes:
            render.echo(f"would change: {change.describe()}")
    verb = "would be" if dry_run else "were"
    render.echo(
        f"{report.source}: {counts['rows']} rows; {counts['added']} cards {verb} added, "
        f"{counts['changed']} changed, {counts['removed']} removed; "
        f"{counts['skipped']} rows skipped"
        + ("" if dry_run or not report.changes else ". 'cardbase undo' reverts this import.")
    )


@command(app)
def export(
    file: Annotated[Path, typer.Argument(help="Where to write: .xlsx or .csv.")],
    catalogue: Annotated[
        bool, typer.Option("--catalogue", help="Every card, with text and lore.")
    ] = False,
    query: Annotated[
        str | None, typer.Option("--query", help="Search results for this query instead.")
    ] = None,
    force: opt.Overwrite = False,
    bom: Annotated[
        bool, typer.Option("--bom", help="CSV with a byte-order mark, as Excel likes.")
    ] = False,
) -> None:
    """Export your collection (default), the catalogue or search results to .xlsx or .csv.

    Example: cardbase export collection.xlsx
    """
    from cardbase.sheets.exporter import export_cards

    what = "catalogue" if catalogue else "query" if query is not None else "collection"
    with STATE.connect() as conn, render.progress_bar() as progress:
        report = export_cards(conn, file, what, query, force=force, bom=bom, progress=progress)
    render.echo(f"{report.path}: {report.rows} cards written")
