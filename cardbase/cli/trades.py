"""Trade commands: list what you offer and want, export the lists, match another collector's."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.root import STATE, Output, OutputOption, app, command
from cardbase.fields import PLAYSET
from cardbase.limits import MAX_SERIES

if TYPE_CHECKING:
    from cardbase.trades import TradeItem

trade_app = typer.Typer(
    help="Trade lists: haves, wants, and the trades you can do.", no_args_is_help=True
)
app.add_typer(trade_app, name="trade")

Playset = Annotated[int, typer.Option("--playset", min=0, help="Copies of each name you keep.")]
KeepDecks = Annotated[
    bool, typer.Option("--keep-decks", help="Keep what your saved decks use instead of a playset.")
]
CompleteSeries = Annotated[
    int | None,
    typer.Option(
        "--complete-series",
        min=1,
        max=MAX_SERIES,
        help="Also want what completes this series.",
    ),
]


def _lists(
    playset: int, keep_decks: bool, series: int | None
) -> tuple[list[TradeItem], list[TradeItem]]:
    from cardbase.trades import haves, wants

    with STATE.connect() as conn:
        return haves(conn, playset, keep_decks), wants(conn, series)


def _print_items(title: str, items: list[TradeItem]) -> None:
    render.echo(f"{title}: {sum(item.copies for item in items)} cards")
    if items:
        render.print_table(
            ("Code", "Name", "Finish", "Qty"),
            [(str(i.card.code), i.card.name, i.finish, str(i.copies)) for i in items],
        )


@command(trade_app, "list")
def list_(
    playset: Playset = PLAYSET,
    keep_decks: KeepDecks = False,
    complete_series: CompleteSeries = None,
    output: OutputOption = Output.table,
) -> None:
    """What you can offer (copies beyond a playset) and what you want (for decks, or a series).

    Example: cardbase trade list --keep-decks --complete-series 1
    """
    offered, wanted = _lists(playset, keep_decks, complete_series)
    if output is Output.json:
        render.print_json(
            {"offered": [i.to_dict() for i in offered], "wanted": [i.to_dict() for i in wanted]}
        )
    elif output is Output.csv:
        render.print_csv(
            ["list", "code", "name", "finish", "qty"],
            [["offered", *i.row()] for i in offered] + [["wanted", *i.row()] for i in wanted],
        )
    else:
        _print_items("Offered", offered)
        _print_items("Wanted", wanted)


@command(trade_app, "export")
def export(
    file: Annotated[Path, typer.Argument(help="Where to write: .xlsx (two sheets) or .csv.")],
    playset: Playset = PLAYSET,
    keep_decks: KeepDecks = False,
    complete_series: CompleteSeries = None,
    force: opt.Overwrite = False,
) -> None:
    """Write your Offered and Wanted lists for another collector.

    Example: cardbase trade export my-trades.xlsx
    """
    from cardbase.trades import write_trade_lists

    offered, wanted = _lists(playset, keep_decks, complete_series)
    write_trade_lists(file, offered, wanted, force=force)
    render.echo(f"{file}: {len(offered)} offered, {len(wanted)} wanted")


@command(trade_app, "match")
def match(
    their_file: Annotated[
        Path, typer.Argument(help="Their Offered/Wanted lists (.xlsx, .csv ...).")
    ],
    playset: Playset = PLAYSET,
    keep_decks: KeepDecks = False,
    complete_series: CompleteSeries = None,
    output: OutputOption = Output.table,
) -> None:
    """Trades I can do: what they offer that I want, what they want that I can spare, and a
    proposal balanced by count and rarity.

    Example: cardbase trade match their-trades.xlsx
    """
    from cardbase.trades import haves, match_trades, read_trade_lists, wants

    with STATE.connect() as conn:
        theirs = read_trade_lists(conn, their_file)
        result = match_trades(
            theirs, haves(conn, playset, keep_decks), wants(conn, complete_series)
        )
    if output is Output.json:
        render.print_json({**result.to_dict(), "problems": theirs.problems})
        return
    for problem in theirs.problems:
        render.echo(f"skipped: {problem}", err=True)
    _print_items("They offer, you want", result.they_offer_i_want)
    _print_items("They want, you can spare", result.they_want_i_spare)
    if result.proposal_get:
        summary = result.to_dict()["proposal"]
        render.echo(
            f"Proposal: get {summary['get_cards']} cards (value {summary['get_value']}), "
            f"give {summary['give_cards']} (value {summary['give_value']})"
        )
        for item in result.proposal_get:
            render.echo(f"  get  {item.copies} x {item.card.label()} {item.finish}")
        for item in result.proposal_give:
            render.echo(f"  give {item.copies} x {item.card.label()} {item.finish}")
    else:
        render.echo("No trade to propose: one side has nothing the other wants.")
