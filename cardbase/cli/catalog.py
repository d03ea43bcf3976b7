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
from cardbase.text import plural

catalog_app = typer.Typer(
    help=with_examples(
        "Manage the card catalogue.",
        "cardbase catalog import-client 'Free Realms Reconnected Client'",
        "cardbase catalog import league-cards.csv",
        "cardbase catalog import league-cards.csv --skip-bad",
    ),
    no_args_is_help=True,
)
app.add_typer(catalog_app, name="catalog")


@command(catalog_app, "import")
def import_(
    file: Annotated[
        Path,
        typer.Argument(
            help="A CSV file in the cards.csv shape, or a game's key for the "
            "catalogue its game file names (wildhearts)."
        ),
    ],
    skip_bad: Annotated[
        bool, typer.Option("--skip-bad", help="Import the good rows even if some are bad.")
    ] = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Add or update cards from a CSV file, matched by game and collector code.

    If any row is bad, nothing is written unless --skip-bad is given.

    \b
    Example: cardbase catalog import my-cards.csv
    Example: cardbase catalog import wildhearts
    """
    from cardbase.catalog.choice import catalogue_file
    from cardbase.catalog.update import import_catalogue

    if not file.exists():  # a file of that name first: then a game's own catalogue
        file = catalogue_file(str(file))
    with render.progress_bar() as progress:
        report = import_catalogue(STATE.library, file, skip_bad=skip_bad, progress=progress)
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
            "columns (see docs/catalogue.md)",
            err=True,
        )
    render.echo(
        f"{file}: {counts.added} added, {counts.updated} updated, "
        f"{counts.unchanged} unchanged, {counts.skipped} skipped"
    )


@command(catalog_app, "import-client")
def import_client(
    folder: Annotated[
        Path,
        typer.Argument(
            help="The Free Realms client's folder, its tcg folder, or a folder holding its "
            "index.dat, storage.dat and locale files."
        ),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what would change; change nothing.")
    ] = False,
    no_backup: Annotated[
        bool,
        typer.Option("--no-backup", help="Do not copy a SQLite database aside first."),
    ] = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Read every card's game text and lore, in each of the client's languages, from your
    copy of the game client (the repository carries the cards' facts, not the game's prose).

    Cards are matched by code and name; one transaction; a SQLite database is backed up
    beside itself first.

    \b
    Example: cardbase catalog import-client 'Free Realms Reconnected Client' --dry-run
    """
    from cardbase.catalog.gametext import import_client_texts, summary_lines

    report = import_client_texts(
        STATE.library, folder.expanduser(), dry_run=dry_run, backup=not no_backup
    )
    if output is Output.json:
        render.print_json(report.to_dict())
        return
    for line in summary_lines(report):
        render.echo(line)


@command(catalog_app, "move-to-real")
def move_to_real(
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what would move; change nothing.")
    ] = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Move a database made from the old sample catalogue to the real one: each copy goes
    to the real card of exactly its name; cards the real catalogue does not have keep their
    copies, decks and history as cards of the old sample (game cardbase-sample), listed.

    One transaction; a SQLite database is backed up beside itself first.

    \b
    Example: cardbase catalog move-to-real --dry-run
    """
    from cardbase.catalog.choice import REAL, built_in
    from cardbase.catalog.move import move_to_catalogue

    report = move_to_catalogue(STATE.library, built_in(REAL), dry_run=dry_run)
    if output is Output.json:
        render.print_json(report.to_dict())
        return
    if report.nothing:
        render.echo(f"{STATE.db_path}: on the real catalogue already; nothing to do")
        return
    would = "would move" if dry_run else "moved"
    for moved in report.moved:
        render.echo(f"{would}: {moved.name} {moved.old_code} -> {moved.new_code} "
                    f"({plural(moved.copies, 'copy', 'copies')})")  # fmt: skip
    for kept in report.kept:
        render.echo(f"kept as the old sample's: {kept.name} {kept.old_code} ({kept.new_code}; "
                    f"{plural(kept.copies, 'copy', 'copies')})")  # fmt: skip
    be = "would be " if dry_run else ""
    render.echo(
        f"{plural(len(report.moved), 'card')} {would} to the real catalogue, "
        f"{len(report.kept)} kept as the old sample's, "
        f"{plural(report.dropped, 'unowned sample card')} {be}dropped, "
        f"{plural(report.added, 'real card')} {be}added"
    )
    if report.backup:
        render.echo(f"backed up first to {report.backup} (cardbase restore puts it back)")
    if dry_run:
        render.echo("dry run: nothing was changed")
