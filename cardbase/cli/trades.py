"""Trade commands: list what you offer and want, export the lists, match another collector's
list file or collection, and the lobby of every collector you could trade with."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.root import (
    STATE,
    Output,
    OutputOption,
    ReportOutputOption,
    YesOption,
    app,
    command,
    confirm,
    interactive,
    with_examples,
)
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError
from cardbase.fields import PLAYSET
from cardbase.text import plural

if TYPE_CHECKING:
    from cardbase.trades import Rules, TradeItem, TradeMatch
    from cardbase.trades.exchange import Trade

trade_app = typer.Typer(
    help=with_examples(
        "Trade lists: haves, wants, and the trades you can do.",
        "cardbase trade list --keep-decks --complete-series 1",
        "cardbase trade list --tag trade --min-condition lp -o csv",
        "cardbase trade match their-trades.xlsx",
        "cardbase trade lobby",
        "cardbase trade make Bo --give '1 C 14 x2' --get '1 R 20 foil' --dry-run",
    ),
    no_args_is_help=True,
)
app.add_typer(trade_app, name="trade")

Playset = Annotated[int, typer.Option("--playset", help="Copies of each name you keep.")]
KeepDecks = Annotated[
    bool, typer.Option("--keep-decks", help="Keep what your saved decks use instead of a playset.")
]
CompleteSeries = Annotated[
    int | None,
    typer.Option(
        "--complete-series",
        help="Also want what completes this series.",
    ),
]
OfferTags = Annotated[
    list[str] | None,
    typer.Option(
        "--tag", help="Offer only copies with this tag (repeat for more): trade. "
        "What you keep is still kept: add --playset 0 to offer every tagged copy.",
    ),
]  # fmt: skip
OfferLocation = Annotated[
    str | None, typer.Option("--location", help="Offer only copies in this location.")
]
MinCondition = Annotated[
    str | None,
    typer.Option(
        "--min-condition", metavar="COND",
        help="Offer only copies in this condition or better (M > NM > LP > MP > HP > DMG).",
    ),
]  # fmt: skip

WithCollector = Annotated[
    str | None,
    typer.Option(
        "--with", metavar="NAME",
        help="Another collector of this database: their lists are made as yours are.",
    ),
]  # fmt: skip


def _rules(
    playset: int,
    keep_decks: bool,
    series: int | None,
    tags: list[str] | None = None,
    location: str | None = None,
    min_condition: str | None = None,
) -> Rules:
    from cardbase.collection.attributes import parse_condition, parse_location, parse_tags
    from cardbase.trades import Offer, Rules

    offer = Offer(
        parse_tags(tags or []),
        parse_location(location) if location is not None else None,
        parse_condition(min_condition) if min_condition is not None else None,
    )
    return Rules.read(playset, keep_decks, series, offer)


def _lists(rules: Rules) -> tuple[list[TradeItem], list[TradeItem], str | None]:
    """My lists by `rules`, and what their wants complete, said ("Free Realms TCG series 1
    (FreeRealms)"), if anything."""
    from cardbase.trades import check_offer, trade_lists

    with STATE.connect() as conn:
        check_offer(conn, rules.offer)
        _warn_series(conn, rules)
        mine = trade_lists(conn, rules)
        completing = rules.completing(conn)
    return mine.offered, mine.wanted, completing


def _warn_series(conn: Connection, rules: Rules) -> None:
    """--complete-series of a series the game lacks wants nothing: say so, not silently."""
    from cardbase.games import GAMES
    from cardbase.trades.lists import game_series, series_game

    series = rules.complete_series
    if series is None:
        return
    game = series_game(conn, rules.game)
    known = game_series(conn, game)
    if series not in known:
        has = ", ".join(map(str, known)) or "none"
        title = GAMES[game].title if game in GAMES else game
        render.echo(f"cardbase: warning: --complete-series {series}: {title} has no such "
                    f"series in the catalogue (it has series {has}), so no card is wanted "
                    "for it", err=True)  # fmt: skip


def _print_items(title: str, items: list[TradeItem]) -> None:
    from cardbase.trades.files import list_headers
    from cardbase.trades.items import has_detail

    render.echo(f"{title}: {_cards(items)}")
    if items:
        detail = has_detail(items)
        render.print_table(list_headers(detail), [[str(c) for c in i.row(detail)] for i in items])


@command(trade_app, "list")
def list_(
    playset: Playset = PLAYSET,
    keep_decks: KeepDecks = False,
    complete_series: CompleteSeries = None,
    tag: OfferTags = None,
    location: OfferLocation = None,
    min_condition: MinCondition = None,
    output: OutputOption = Output.table,
) -> None:
    """What you can offer (copies beyond a playset) and what you want (for decks, or a series).

    \b
    Example: cardbase trade list --keep-decks --tag trade --min-condition lp
    """
    from cardbase.trades.files import list_headers
    from cardbase.trades.items import has_detail

    rules = _rules(playset, keep_decks, complete_series, tag, location, min_condition)
    offered, wanted, completing = _lists(rules)
    if output is Output.json:
        render.print_json(
            {
                "offered": [i.to_dict() for i in offered],
                "wanted": [i.to_dict() for i in wanted],
                **({"completing": completing} if completing else {}),
            }
        )
    elif output is Output.csv:
        detail = has_detail(offered, wanted)
        render.print_csv(
            ["list", *(header.lower() for header in list_headers(detail))],
            [["offered", *i.row(detail)] for i in offered]
            + [["wanted", *i.row(detail)] for i in wanted],
        )
    else:
        _print_items("Offered", offered)
        _print_items(f"Wanted, with the rest of {completing}" if completing else "Wanted", wanted)


@command(trade_app, "export")
def export(
    file: Annotated[
        Path, typer.Argument(readable=False, help="Where to write: .xlsx (two sheets) or .csv.")
    ],
    playset: Playset = PLAYSET,
    keep_decks: KeepDecks = False,
    complete_series: CompleteSeries = None,
    tag: OfferTags = None,
    location: OfferLocation = None,
    min_condition: MinCondition = None,
    force: opt.Overwrite = False,
) -> None:
    """Write your Offered and Wanted lists for another collector.

    \b
    Example: cardbase trade export my-trades.xlsx --tag trade
    """
    from cardbase.trades import write_trade_lists
    from cardbase.trades.files import needs_game_column

    rules = _rules(playset, keep_decks, complete_series, tag, location, min_condition)
    offered, wanted, completing = _lists(rules)
    with STATE.connect() as conn:
        game = needs_game_column(conn, offered, wanted)
    write_trade_lists(file, offered, wanted, force=force, game=game)
    rest = f" (with the rest of {completing})" if completing else ""
    render.echo(f"{file}: {_cards(offered)} offered, {_cards(wanted)} wanted{rest}")


def _cards(items: list[TradeItem]) -> str:
    """A list's size as `trade list` says it: in cards, not lines (a line is a card in one
    finish, any number of copies)."""
    return plural(sum(item.copies for item in items), "card")


@command(trade_app, "match")
def match(
    their_file: Annotated[
        Path | None,
        typer.Argument(
            readable=False, help="Their Offered/Wanted lists (.xlsx, .csv ...); or use --with."
        ),
    ] = None,
    with_: WithCollector = None,
    playset: Playset = PLAYSET,
    keep_decks: KeepDecks = False,
    complete_series: CompleteSeries = None,
    tag: OfferTags = None,
    location: OfferLocation = None,
    min_condition: MinCondition = None,
    output: ReportOutputOption = Output.table,
) -> None:
    """Trades I can do: what they offer that I want, what they want that I can spare, and a
    proposal balanced by count and rarity.

    \b
    Example: cardbase trade match their-trades.xlsx
    Example: cardbase trade match --with Bo
    """
    if (their_file is None) == (with_ is None):
        raise CardbaseError(
            "name either their list file or --with a collector of this database, not "
            + ("both" if with_ else "neither"),
            "Example: cardbase trade match --with Bo",
        )
    rules = _rules(playset, keep_decks, complete_series, tag, location, min_condition)
    if with_ is not None:
        _match_collector(with_, rules, output)
    elif their_file is not None:
        _match_file(their_file, rules, output)


def _match_file(path: Path, rules: Rules, output: Output) -> None:
    from cardbase.progress import step
    from cardbase.trades import check_offer, match_trades, read_trade_lists, trade_lists

    with STATE.connect() as conn, render.progress_bar() as progress:
        check_offer(conn, rules.offer)
        theirs = step("Reading their lists", progress, lambda: read_trade_lists(conn, path))
        mine = step("Making my lists", progress, lambda: trade_lists(conn, rules))
        result = match_trades(theirs, mine.offered, mine.wanted, progress)
    if output is Output.json:
        render.print_json({**result.to_dict(), "problems": theirs.problems})
        return
    for problem in theirs.problems:
        render.echo(f"skipped: {problem}", err=True)
    _print_match(result, "They offer", "They want")


def _match_collector(name: str, rules: Rules, output: Output) -> None:
    from cardbase.trades import check_offer, match_with

    with STATE.connect() as conn, render.progress_bar() as progress:
        check_offer(conn, rules.offer)
        other, result = match_with(conn, name, rules, progress)
    if output is Output.json:
        render.print_json({"with": other, **result.to_dict()})
        return
    _print_match(result, f"{other} offers", f"{other} wants")


def _print_match(result: TradeMatch, they_offer: str, they_want: str) -> None:
    _print_items(f"{they_offer}, you want", result.they_offer_i_want)
    _print_items(f"{they_want}, you can spare", result.they_want_i_spare)
    if not result.proposal_get:
        render.echo("No trade to propose: one side has nothing the other wants.")
        return
    summary = result.summary()
    render.echo(
        f"Proposal: get {plural(summary['get_cards'], 'card')} (value {summary['get_value']}), "
        f"give {summary['give_cards']} (value {summary['give_value']})"
    )
    for verb, items in (("get ", result.proposal_get), ("give", result.proposal_give)):
        for item in items:
            detail = f" {item.condition} {item.language}" if item.condition else ""
            render.echo(f"  {verb} {item.copies} x {item.card.label()} {item.finish}{detail}")


LOBBY_HEADERS = ("Collector", "They offer", "You offer", "Get", "Give", "Get value", "Give value")


@command(trade_app, "lobby")
def lobby(
    playset: Playset = PLAYSET,
    keep_decks: KeepDecks = False,
    complete_series: CompleteSeries = None,
    tag: OfferTags = None,
    location: OfferLocation = None,
    min_condition: MinCondition = None,
    output: OutputOption = Output.table,
) -> None:
    """Every other collector of this database you could trade with: how many cards they offer
    that you want, how many you offer that they want, and the balanced proposal; most first.

    \b
    Example: cardbase trade lobby --tag trade
    """
    from cardbase.trades import LobbyEntry, check_offer
    from cardbase.trades import lobby as find_lobby

    rules = _rules(playset, keep_decks, complete_series, tag, location, min_condition)
    with STATE.connect() as conn:
        check_offer(conn, rules.offer)
        found = find_lobby(conn, rules)
    rows = [list(entry) for entry in found.entries]
    if found.others == 0:
        message = (
            f"{found.collector} is the only collector in this database; "
            "'cardbase collectors add NAME' adds another"
        )
    else:
        message = (
            f"{len(rows)} of {found.others} other collectors have something to trade "
            f"with {found.collector}"
        )
    if output is not Output.table and found.others == 0:
        render.echo(message, err=True)
    if output is Output.json:
        render.print_json({"collector": found.collector, "others": found.others,
                           "lobby": [entry.to_dict() for entry in found.entries]})  # fmt: skip
    elif output is Output.csv:
        render.print_csv(LobbyEntry._fields, rows)
    else:
        render.echo(message)
        if rows:
            render.print_table(LOBBY_HEADERS, [[str(cell) for cell in row] for row in rows])


_ITEM_HELP = "as add reads it: '1 C 14 x2', '1 R 20 foil lp fr' (repeat for more)."
GiveItems = Annotated[
    list[str] | None,
    typer.Option("--give", metavar="ITEM", help=f"A card of yours and how many, {_ITEM_HELP}"),
]
GetItems = Annotated[
    list[str] | None,
    typer.Option("--get", metavar="ITEM", help=f"A card of theirs and how many, {_ITEM_HELP}"),
]


@command(trade_app, "make")
def make(
    other: Annotated[
        str,
        typer.Argument(metavar="COLLECTOR", help="The collector of this database you trade with."),
    ],
    give: GiveItems = None,
    get: GetItems = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show which copies would change hands; write nothing.")
    ] = False,
    yes: YesOption = False,
    force: opt.Unsleeve = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Trade with another collector of this database: your --give copies go to them, their
    --get copies come to you, both collections at once; either of you can undo it.

    Copies tagged trade go first, then the worst condition; the trade lists which it took.
    On a terminal it shows the trade and asks first (--yes does not ask).

    \b
    Example: cardbase trade make Bo --give "1 C 14 x2" --get "1 R 20 foil" --dry-run
    """
    library = STATE.library
    if not dry_run and not yes and interactive() and output is Output.table:
        _print_trade(library.trade(other, give or [], get or [], dry_run=True), Output.table)
        confirm(f"Make this trade with {other}?", yes)
    _print_trade(library.trade(other, give or [], get or [], dry_run=dry_run, force=force), output)


def _print_trade(trade: Trade, output: Output) -> None:
    from cardbase.trades.exchange import said
    from cardbase.trades.items import value_rule

    if output is Output.json:
        render.print_json(trade.to_dict())
        return
    lines = [said(trade)]
    lines += [f"  give {moved.describe()}" for moved in trade.give]
    lines += [f"  get  {moved.describe()}" for moved in trade.get]
    lines.append(value_rule())
    if trade.batch is not None:
        lines.append(
            f"Either of you can undo it: 'cardbase undo', or 'cardbase --collector "
            f"{shlex.quote(trade.other)} undo'"
        )
    render.echo("\n".join(lines))
