"""Spreadsheet commands: import a collection, export cards."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.root import (
    STATE,
    Output,
    ReportOutputOption,
    YesOption,
    app,
    command,
    confirm,
)
from cardbase.collection.changes import ImportMode
from cardbase.errors import CardbaseError
from cardbase.text import plural

if TYPE_CHECKING:
    from cardbase.sheets.importer import ImportReport


@command(app, "import")
def import_(
    file: Annotated[
        Path,
        typer.Argument(
            readable=False, help="A .xlsx, .xls, .ods or .csv sheet; - reads CSV from stdin."
        ),
    ],
    sheet: Annotated[
        str | None,
        typer.Option(
            "--sheet", help="Read only this sheet, any case (default: every sheet of cards)."
        ),
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
    output: ReportOutputOption = Output.table,
    yes: YesOption = False,
    force: opt.Unsleeve = False,
) -> None:
    """Import a collection spreadsheet: finds the header, maps columns, resolves each card.

    Reads other apps' exports as they are (Moxfield, Deckbox, ManaBox, Dragon Shield,
    Archidekt, TCGplayer, MTGGoldfish, TopDecked, MTGO, Delver Lens, Cardmarket, Echo MTG,
    deckstats) and says which columns it read and which it ignored.

    \b
    Example: cardbase import Collection.xlsx --mode set --dry-run
    """
    if mode is ImportMode.REPLACE and not dry_run:
        _confirm_replace(file, yes)
    with render.progress_bar() as progress:
        report = STATE.library.import_sheet(
            file, sheet=sheet, mode=mode.value, dry_run=dry_run, skip_bad=skip_bad,
            progress=progress, force=force,
        )  # fmt: skip
    _print_import(report, dry_run, output)


def _confirm_replace(file: Path, yes: bool) -> None:
    """--mode replace of a collection with cards asks first, on a terminal."""
    if yes:
        return
    from cardbase.collection.stats import totals
    from cardbase.text import plural

    with STATE.connect() as conn:
        held = totals(conn).cards
    if held:
        confirm(f"Replace your collection of {plural(held, 'card')} with {file.name}?", yes)


def _print_import(report: ImportReport, dry_run: bool, output: Output) -> None:
    if output is Output.json:
        render.print_json(report.to_dict())
        return
    for problem in report.problems:
        render.echo(f"skipped: {problem}", err=True)
    for sheet in report.sheets:
        read = ", ".join(f"{header} ({role})" for header, role in sheet.read.items())
        render.echo(f"{sheet.source}: read {read}")
        if sheet.ignored:
            render.echo(f"{sheet.source}: ignored {', '.join(sheet.ignored)}")
    for line in report.skipped_sheets:
        render.echo(f"skipped {line}")
    if dry_run:
        for change in report.changes:
            render.echo(f"would change: {change.describe()}")
    render.echo(
        f"{report.source}: {report.summary()}"
        + ("" if dry_run or not report.changes else ". 'cardbase undo' reverts this import.")
    )


@command(app)
def export(
    file: Annotated[
        Path,
        typer.Argument(
            readable=False, help="Where to write: .xlsx or .csv; - writes CSV to stdout."
        ),
    ],
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
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format", help="csv or xlsx, where the file name does not say (- or no suffix)."
        ),
    ] = None,
) -> None:
    """Export your collection (default), the catalogue or search results to .xlsx or .csv.

    \b
    Example: cardbase export collection.xlsx
    Example: cardbase export - | other-program
    """
    if catalogue and query is not None:
        raise CardbaseError("--catalogue exports every card, --query some of them: give one")
    what = "catalogue" if catalogue else "query" if query is not None else "collection"
    with render.progress_bar() as progress:
        report = STATE.library.export(
            file, what, query, force=force, bom=bom, fmt=fmt.lower() if fmt else None,
            progress=progress,
        )  # fmt: skip
    rows = f" in {plural(report.rows, 'row')}" if report.rows != report.cards else ""
    where = "standard output" if str(report.path) == "-" else report.path
    # On standard output the data is the output: the summary goes to stderr.
    render.echo(
        f"{where}: {plural(report.cards, 'card')} written{rows}", err=str(report.path) == "-"
    )
