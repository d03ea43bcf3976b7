"""The database as a whole: `cardbase db copy` between SQLite files and PostgreSQL."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli import render
from cardbase.cli.root import (
    STATE,
    Output,
    OutputOption,
    ReportOutputOption,
    app,
    command,
    with_examples,
)
from cardbase.db.location import Location
from cardbase.errors import CardbaseError

db_app = typer.Typer(
    help=with_examples(
        "The database as a whole: create one from a catalogue; copy it between SQLite and "
        "PostgreSQL.",
        "cardbase --db demo.db db init --catalogue sample",
        "cardbase db copy cards.db postgresql://league@server/cards",
        "cardbase db copy postgresql://league@server/cards league-copy.db",
    ),
    no_args_is_help=True,
)
app.add_typer(db_app, name="db")

_PLACE = "a SQLite file, or a PostgreSQL URL (postgresql://...)"
Source = Annotated[str, typer.Argument(metavar="SRC", help=f"The database to copy: {_PLACE}.")]
Target = Annotated[str, typer.Argument(metavar="DST", help=f"Where to: {_PLACE}; new, or empty.")]


@command(db_app, "init")
def init(
    catalogue: Annotated[
        str | None,
        typer.Option(
            "--catalogue",
            help="free-realms (the game's every printed card), sample (invented cards with "
            "texts, for demos and tests), wildhearts, or a CSV file in the cards.csv shape "
            "[default: $CARDBASE_CATALOGUE, else the config's catalogue, else free-realms].",
            show_default=False,
        ),
    ] = None,
    output: ReportOutputOption = Output.table,
) -> None:
    """Create a new database (the --db file or PostgreSQL URL) from a catalogue.

    Any command creates the default database on first use, from the catalogue that
    $CARDBASE_CATALOGUE or the config's catalogue name (else free-realms); this creates one
    on purpose, from the catalogue you choose, and never touches one that is there.

    \b
    Example: cardbase --db demo.db db init --catalogue sample
    """
    from cardbase.catalog.choice import catalogue_file, new_database_catalogue
    from cardbase.library import Library

    source = catalogue_file(catalogue) if catalogue is not None else new_database_catalogue()
    cards = Library.create(STATE.db_path, source).count()
    if output is Output.json:
        render.print_json({"database": str(STATE.db_path), "catalogue": str(source),
                           "cards": cards})  # fmt: skip
        return
    render.echo(f"Created {STATE.db_path} with {cards:,} cards from {source}")


@command(db_app, "copy")
def copy(
    source: Source,
    target: Target,
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace the cardbase database DST holds, if it has one."),
    ] = False,
    output: OutputOption = Output.table,
) -> None:
    """Copy a whole database (cards, collectors, collections, history, decks) to a new
    SQLite file or an empty PostgreSQL database, every row with its id, verified table by
    table (row counts and checksums) before it is kept.

    \b
    Example: cardbase db copy cards.db postgresql://league@server/cards
    """
    from cardbase.db.copy import copy_database

    with render.progress_bar() as progress:
        report = copy_database(_location(source), _location(target), force, progress=progress)
    if output is Output.json:
        render.print_json(report.to_dict())
        return
    if output is Output.csv:
        render.print_csv(["table", "rows", "checksum"],
                         [(s.table, s.rows, s.checksum) for s in report.tables])  # fmt: skip
        return
    render.print_table(("Table", "Rows"), [(s.table, f"{s.rows:,}") for s in report.tables])
    total = sum(summed.rows for summed in report.tables)
    replaced = "; the database it held was replaced" if report.replaced else ""
    render.echo(
        f"Copied {report.source} to {report.target}: {total:,} rows in "
        f"{len(report.tables)} tables, each verified by count and checksum{replaced}"
    )


def _location(text: str) -> Location:
    """A file path or a postgresql:// URL; never empty, which `resolve_db_path` would read
    as "the default database"."""
    from cardbase.db.location import resolve_db_path

    if not text.strip():
        raise CardbaseError("SRC and DST must each be a file or a postgresql:// URL, not empty")
    return resolve_db_path(text)
