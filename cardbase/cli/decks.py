"""Deck commands: check, stats (and saved decks)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import render
from cardbase.cli.app import STATE, Output, OutputOption, app, command

if TYPE_CHECKING:
    from cardbase.decklist import DeckList

deck_app = typer.Typer(help="Check, describe and keep deck lists.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")

DeckArg = Annotated[
    str, typer.Argument(metavar="FILE|NAME", help="A deck list file (.txt, .xlsx, .csv).")
]
FormatOption = Annotated[
    str, typer.Option("--format", "-f", help="free-realms (default) or wildhearts-ffa.")
]
PlayersOption = Annotated[
    int | None,
    typer.Option("--players", help="Player count, for formats that vary by it (3 or 4)."),
]
CHECK, CROSS = "\u2714", "\u2718"


def _load(deck: str) -> DeckList:
    from cardbase.decklist import read_deck_file

    return read_deck_file(Path(deck))


@command(deck_app, "check")
def check(
    deck: DeckArg,
    format_: FormatOption = "free-realms",
    players: PlayersOption = None,
    owned: Annotated[
        bool, typer.Option("--owned", help="Also check your collection has every card.")
    ] = False,
    output: OutputOption = Output.table,
) -> None:
    """Check a deck against a format's rules; every problem is listed. Exit 1 if invalid.

    Example: cardbase deck check my-deck.txt --owned
    """
    from cardbase.decks import check_deck

    with STATE.connect() as conn:
        report = check_deck(conn, _load(deck), format_, players, owned)
    if output is Output.json:
        render.print_json(report.to_dict())
    elif output is Output.csv:
        render.print_csv(
            ["code", "message", "lines", "fix"],
            [
                [p.code, p.message, " ".join(map(str, p.lines)), p.fix or ""]
                for p in report.problems
            ],
        )
    else:
        mark = f"{CHECK} valid" if report.valid else f"{CROSS} invalid"
        players_note = f", {report.players} players" if report.format.players else ""
        typer.echo(
            f"{mark}: {report.source}, {report.cards} cards, {report.format.title}{players_note}"
        )
        for problem in report.problems:
            typer.echo(f"  {problem.describe()}")
    if not report.valid:
        raise typer.Exit(1)


@command(deck_app, "stats")
def stats(deck: DeckArg, output: OutputOption = Output.table) -> None:
    """Card count, average gems per card, gem colours, spheres, types, heroes and cost curve.

    Example: cardbase deck stats my-deck.txt
    """
    from cardbase.decks import deck_stats, place

    with STATE.connect() as conn:
        placed, _problems = place(conn, _load(deck))
    stats = deck_stats(placed)
    if output is Output.json:
        render.print_json(stats.to_dict())
        return
    if output is Output.csv:
        render.print_csv(["stat", "value"], [[k, v] for k, v in stats.to_dict().items()])
        return
    typer.echo(
        f"{stats.cards} cards, average gems per card {stats.average_gems:.2f}, "
        f"{stats.heroes} heroes"
    )
    typer.echo("Gems:    " + ", ".join(f"{c} {n}" for c, n in stats.gem_colours.items()))
    typer.echo("Spheres: " + ", ".join(f"{s} {n}" for s, n in stats.spheres.items()))
    typer.echo("Types:   " + ", ".join(f"{t} {n}" for t, n in stats.types.items()))
    typer.echo("Creature cost curve:")
    for cost, count in stats.cost_curve.items():
        typer.echo(f"  {cost:>2} | {'#' * count} {count}")
