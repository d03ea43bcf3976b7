"""Event commands: a fan tournament from registration to the top cut (create, list, show,
register, drop, pair, swap, report, pending, confirm, publish, standings, cut, print,
export)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardbase.cli import options as opt
from cardbase.cli import render
from cardbase.cli.render import CROSS
from cardbase.cli.root import (
    STATE,
    Output,
    OutputOption,
    ReportOutputOption,
    app,
    command,
    with_examples,
)
from cardbase.text import plural

if TYPE_CHECKING:
    from cardbase.events.operations import Paired, Reported
    from cardbase.events.standings import Standing
    from cardbase.events.state import Snapshot
    from cardbase.events.store import Event, Player, Seat

event_app = typer.Typer(
    help=with_examples(
        "Run a fan tournament: registration with deck checks, Swiss rounds, standings, cut.",
        "cardbase event create 'Spring Open' --format free-realms --cut 8",
        "cardbase event register 'Spring Open' Ann --deck ann.txt",
        "cardbase event pair 'Spring Open' --why",
        "cardbase event report 'Spring Open' Ann 2-1",
        "cardbase event standings 'Spring Open'",
    ),
    no_args_is_help=True,
)
app.add_typer(event_app, name="event")

EventArg = Annotated[str, typer.Argument(metavar="EVENT", help="The event's name.")]
PlayerArg = Annotated[str, typer.Argument(metavar="PLAYER", help="The player's name.")]
SEAT_HEADERS = ["round", "stage", "table", "first", "second", "result"]
STANDING_HEADERS = ["place", "player", "points", "matches"]


def _result(seat: Seat) -> str:
    from cardbase.events.operations import score_of

    if seat.second is None:
        return "bye"
    score = score_of(seat)
    return "" if score is None else str(score)


def _seat_row(seat: Seat) -> list[Any]:
    return [seat.round, seat.stage, seat.number, seat.first, seat.second or "(bye)", _result(seat)]


def _seat_lines(seats: list[Seat]) -> None:
    for seat in seats:
        second = seat.second or "(bye)"
        result = _result(seat)
        render.echo(
            f"  table {seat.number}: {seat.first} v {second}" + (f"  {result}" if result else "")
        )


def _event_line(event: Event, players: int, rounds: int, state: Snapshot | None = None) -> str:
    """The event in a line: its round as "round 2 of 3" in the Swiss rounds, and in the top
    cut as what it is ("top cut: semi-finals (round 4, after 3 Swiss rounds)")."""
    planned = event.rounds or "auto"
    cut = f", top {event.cut}" if event.cut else ""
    where = f"round {rounds} of {planned}{cut}"
    last = state.round_seats() if state is not None else []
    if last and last[0].stage == "cut":
        swiss = plural(state.swiss_rounds_paired if state else 0, "Swiss round")
        where = f"top {event.cut} cut: {_cut_round(len(last))} (round {rounds}, after {swiss})"
    return (
        f"{event.name}: {event.format}, {plural(players, 'player')}, {where}, "
        f"best of {event.best_of}, seed {event.seed}, {event.state}"
    )


def _cut_round(tables: int) -> str:
    """A single-elimination round by its tables: the final, the semi-finals, and so on."""
    named = {1: "final", 2: "semi-finals", 4: "quarter-finals"}
    return named.get(tables, f"round of {2 * tables}")


@command(event_app, "create")
def create(
    name: EventArg,
    format_: Annotated[
        str, typer.Option("--format", "-f", help="The deck rules: free-realms or wildhearts-ffa.")
    ],
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="Swiss rounds (default: from the player count).")
    ] = None,
    cut: Annotated[
        int, typer.Option("--cut", help="Top cut after the Swiss rounds: 2 to 64 (0: none).")
    ] = 0,
    best_of: Annotated[int, typer.Option("--best-of", help="Games a match: 1, 3 or 5.")] = 3,
    seed: Annotated[
        str | None,
        typer.Option("--seed", help="The pairings' seed (default: a random one, recorded)."),
    ] = None,
    tiebreakers: Annotated[
        str | None,
        typer.Option(
            "--tiebreakers",
            metavar="KEYS",
            help="The standings' tiebreakers in order, comma-separated, from omw, gw, ogw, mw "
            "(default: omw,gw,ogw).",
        ),
    ] = None,
    output: ReportOutputOption = Output.table,
) -> None:
    """Create an event, open for registration.

    \b
    Example: cardbase event create 'Spring Open' --format free-realms --cut 8
    Example: cardbase event create 'Club Night' -f free-realms --tiebreakers gw,omw
    """
    from cardbase.errors import CardbaseError, shorten

    if seed is not None and not seed.strip().isdigit():
        raise CardbaseError(f"--seed '{shorten(seed, 20)}': give a whole number, as 42")
    made = STATE.library.create_event(
        name, format_, rounds=rounds, cut=cut, best_of=best_of,
        seed=None if seed is None else int(seed),
        tiebreakers=None if tiebreakers is None else tiebreakers.split(","),
    )  # fmt: skip
    if output is Output.json:  # its time is now: `event list` and `show` give it
        render.print_json({k: v for k, v in made.to_dict().items() if k != "created_at"})
    else:
        render.echo(f"created {_event_line(made, 0, 0)}")


@command(event_app, "list")
def list_(output: OutputOption = Output.table) -> None:
    """List the events.

    \b
    Example: cardbase event list -o json
    """
    found = STATE.library.events()
    if output is Output.json:
        render.print_json([{**e.to_dict(), "players": n, "rounds_paired": r} for e, n, r in found])
        return
    headers = ["event", "format", "players", "rounds", "state"]
    rows = [[e.name, e.format, n, f"{r}/{e.rounds or 'auto'}", e.state] for e, n, r in found]
    if output is Output.csv:
        render.print_csv(headers, rows)
    elif not rows:
        render.echo("no events yet: cardbase event create NAME --format free-realms")
    else:
        render.print_table(headers, [list(map(str, row)) for row in rows])


@command(event_app, "show")
def show(name: EventArg, output: OutputOption = Output.table) -> None:
    """Show an event: its players and decks' verdicts, every round's tables and results.

    \b
    Example: cardbase event show 'Spring Open'
    """
    from cardbase.events.export import event_dict

    state = STATE.library.event(name)
    if output is Output.json:  # the organiser's view: the players' codes with them
        whole = event_dict(state, with_codes=True)
        render.print_json({k: v for k, v in whole.items() if k != "standings"})
        return
    if output is Output.csv:
        render.print_csv(SEAT_HEADERS, [_seat_row(seat) for seat in state.seats])
        return
    render.echo(_event_line(state.event, len(state.players), state.last_round, state))
    render.echo(f"  deck lists {'published' if state.event.lists_published else 'hidden'}")
    for player in state.players:
        render.echo(f"  {player.name}  code {player.code}{_player_note(player)}")
    for number in sorted({s.round for s in state.seats}):
        seats = state.round_seats(number)
        render.echo(f"round {number} ({seats[0].stage}):")
        _seat_lines(seats)


def _player_note(player: Player) -> str:
    notes = []
    if player.verdict is not None:
        notes.append("deck valid" if player.verdict["valid"] else "deck NOT valid")
    if player.entered_round > 1:
        notes.append(f"entered round {player.entered_round}")
    if player.dropped_after is not None:
        notes.append(f"dropped after round {player.dropped_after}")
    return f" ({', '.join(notes)})" if notes else ""


@command(event_app, "register")
def register(
    name: EventArg,
    player: PlayerArg,
    deck: Annotated[
        Path | None,
        typer.Option(
            "--deck",
            metavar="FILE",
            help="The player's deck list, checked at once by the event's format.",
        ),
    ] = None,
    output: ReportOutputOption = Output.table,
) -> None:
    """Register a player (a late entry once round 1 is paired); a deck list that breaks the
    format is refused with the desk's report, exit 1.

    \b
    Example: cardbase event register 'Spring Open' Ann --deck ann.txt
    """
    from cardbase.events.operations import RefusedDeck

    try:
        found = STATE.library.register(name, player, deck)
    except RefusedDeck as refused:
        _refused(refused, output)
        raise typer.Exit(1) from None
    if output is Output.json:
        render.print_json(found.to_dict())
    else:
        render.echo(f"registered {found.name}{_player_note(found)}")


def _refused(refused: Any, output: Output) -> None:
    """The desk's report of a refused deck, as `deck check` prints it."""
    report = refused.report
    if output is Output.json:
        render.print_json({"registered": False, **report.to_dict()})
        return
    render.echo(f"{CROSS} invalid: {report.source}, {plural(report.cards, 'card')}, "
                f"{report.format.title}; nothing was registered")  # fmt: skip
    for problem in report.problems:
        render.echo(f"  {problem.describe()}")


@command(event_app, "drop")
def drop(name: EventArg, player: PlayerArg, output: ReportOutputOption = Output.table) -> None:
    """Drop a player: not paired again, their results kept in the standings.

    \b
    Example: cardbase event drop 'Spring Open' Ann
    """
    found = STATE.library.drop(name, player)
    if output is Output.json:
        render.print_json(found.to_dict(with_deck=False))
    else:
        render.echo(f"dropped {found.name} after round {found.dropped_after}")


def _print_round(paired: Paired | Any, output: Output, why: bool, broken: list[str] | None) -> None:
    if output is Output.json:
        value: dict[str, Any] = {"event": paired.event.name, "round": paired.round,
                                 "tables": [s.to_dict() for s in paired.tables]}  # fmt: skip
        if why:
            value["why"] = paired.why
        if broken is not None:
            value["broken"] = broken
        render.print_json(value)
    elif output is Output.csv:
        render.print_csv(SEAT_HEADERS, [_seat_row(seat) for seat in paired.tables])
    else:
        stage = "" if paired.tables and paired.tables[0].stage == "swiss" else " (top cut)"
        render.echo(f"{paired.event.name}, round {paired.round}{stage}:")
        _seat_lines(paired.tables)
        for line in paired.why if why else ():
            render.echo(f"  why: {line}")
        if broken is not None:
            said = "; ".join(broken) if broken else "no rule"
            render.echo(f"the swap breaks {said}")


@command(event_app, "pair")
def pair(
    name: EventArg,
    why: Annotated[bool, typer.Option("--why", help="Say why each table is what it is.")] = False,
    output: OutputOption = Output.table,
) -> None:
    """Pair the next round (Swiss by match points, from the event's seed; the cut's next
    round once the cut has begun). Round 1 locks every deck list.

    \b
    Example: cardbase event pair 'Spring Open' --why
    """
    _print_round(STATE.library.pair(name), output, why, None)


@command(event_app, "swap")
def swap(
    name: EventArg,
    one: Annotated[
        str, typer.Argument(metavar="TABLE_A|PLAYER", help="A table number or a player.")
    ],
    other: Annotated[str, typer.Argument(metavar="TABLE_B|PLAYER", help="Another.")],
    output: OutputOption = Output.table,
) -> None:
    """Swap two tables' players by hand (by table numbers or players), saying which pairing
    rule the swap breaks.

    \b
    Example: cardbase event swap 'Spring Open' 3 4
    """
    found = STATE.library.swap(name, one, other)
    _print_round(found, output, False, found.broken)


@command(event_app, "publish")
def publish(
    name: EventArg,
    hide: Annotated[bool, typer.Option("--hide", help="Hide the lists again.")] = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Publish the deck lists: shown on the event's public pages (hidden until then).

    \b
    Example: cardbase event publish 'Spring Open'
    """
    event = STATE.library.publish_lists(name, not hide)
    if output is Output.json:
        render.print_json({"event": event.name, "lists_published": event.lists_published})
    else:
        said = "published" if event.lists_published else "hidden"
        render.echo(f"{event.name}: deck lists {said}")


@command(event_app, "report")
def report(
    name: EventArg,
    words: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[PLAYER] RESULT",
            help="The player and their result: 2-1, 1-1-1 (a game drawn), id (an "
            "intentional draw).",
        ),
    ] = None,
    table: Annotated[
        int | None,
        typer.Option("--table", help="The table, instead of a player (its first player's result)."),
    ] = None,
    round_: Annotated[
        int | None,
        typer.Option("--round", help="The round, which must be the current one: a check."),
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            metavar="FILE",
            help="Many results: 'TABLE RESULT' or 'PLAYER RESULT' a line (.txt or .csv), "
            "stored together or not at all.",
        ),
    ] = None,
    output: ReportOutputOption = Output.table,
) -> None:
    """Report a result of the current round; it can be corrected until the next round is
    paired.

    \b
    Example: cardbase event report 'Spring Open' Ann 2-1
    Example: cardbase event report 'Spring Open' --table 3 1-1-1
    Example: cardbase event report 'Spring Open' --file round3.txt
    """
    from cardbase.errors import CardbaseError

    words = words or []
    if file is not None:
        if words or table is not None or round_ is not None:
            raise CardbaseError("--file FILE takes no player, result, --table or --round")
        _report_file(name, file, output)
        return
    wanted = 1 if table is not None else 2
    if len(words) != wanted:
        said = "--table N RESULT" if table is not None else "PLAYER RESULT"
        raise CardbaseError(f"give {said}, as 'Ann 2-1' or '--table 3 2-1'")
    player = None if table is not None else words[0]
    done = STATE.library.report(name, words[-1], player=player, table=table, round=round_)
    _print_reported(done, output)


def _report_file(name: str, file: Path, output: Output) -> None:
    done = STATE.library.report_file(name, file)
    closed = done[-1].closed
    if output is Output.json:
        render.print_json({"reported": [d.seat.to_dict() for d in done], "round_closed": closed,
                           "event_state": done[-1].event.state})  # fmt: skip
        return
    round_number = done[-1].seat.round
    render.echo(f"round {round_number}: {plural(len(done), 'result')} reported")
    if closed:
        over = ": the event is finished" if done[-1].event.state == "finished" else ""
        render.echo(f"round {round_number} is over{over}")


@command(event_app, "pending")
def pending(name: EventArg, output: OutputOption = Output.table) -> None:
    """The players' reports waiting for the organiser (sent from `serve`'s My table page).

    \b
    Example: cardbase event pending 'Spring Open'
    """
    found = STATE.library.pending_reports(name)
    if output is Output.json:
        render.print_json({"event": name, "pending": [p.to_dict() for p in found]})
        return
    headers = ["table", "first", "second", "sent", "agreed"]
    rows = [[p.seat.number, p.seat.first, p.seat.second or "",
             "; ".join(f"{r['player']} {r['result']}" for r in p.to_dict()["sent"]),
             str(p.agreed or "no: decide")] for p in found]  # fmt: skip
    if output is Output.csv:
        render.print_csv(headers, rows)
    elif not rows:
        render.echo("no report waiting")
    else:
        render.print_table(headers, [list(map(str, row)) for row in rows])


@command(event_app, "confirm")
def confirm(
    name: EventArg,
    table: Annotated[int, typer.Argument(metavar="TABLE", help="The table to confirm.")],
    result: Annotated[
        str | None,
        typer.Argument(
            metavar="[RESULT]",
            help="The result (its first player's games first) when the players disagree.",
        ),
    ] = None,
    output: ReportOutputOption = Output.table,
) -> None:
    """Confirm a table's result as its players sent it, or as given when they disagree.

    \b
    Example: cardbase event confirm 'Spring Open' 3
    """
    _print_reported(STATE.library.confirm(name, table, result), output, " (confirmed)")


def _print_reported(done: Reported, output: Output, said: str = "") -> None:
    """A table's result as stored, and whether it closed the round (or the event)."""
    if output is Output.json:
        render.print_json({**done.seat.to_dict(), "round_closed": done.closed,
                           "event_state": done.event.state})  # fmt: skip
        return
    seat = done.seat
    render.echo(f"round {seat.round}, table {seat.number}: {seat.first} v {seat.second}  "
                f"{_result(seat)}{said}")  # fmt: skip
    if done.closed:
        over = ": the event is finished" if done.event.state == "finished" else ""
        render.echo(f"round {seat.round} is over{over}")


def _standing_row(row: Standing, keys: tuple[str, ...]) -> list[Any]:
    from cardbase.events.standings import percent

    name = row.record.player + (" (dropped)" if row.dropped else "")
    return [row.place, name, row.record.points, row.record.matches,
            *(percent(v) for v in row.tiebreaks)]  # fmt: skip


@command(event_app, "standings")
def standings(name: EventArg, output: OutputOption = Output.table) -> None:
    """The standings: match points, then the tiebreakers, each with how it was reckoned.

    \b
    Example: cardbase event standings 'Spring Open' -o csv
    """
    event, rows = STATE.library.standings(name)
    keys = event.tiebreakers
    if output is Output.json:
        render.print_json([row.to_dict(keys) for row in rows])
        return
    table = [_standing_row(row, keys) for row in rows]
    if output is Output.csv:
        render.print_csv([*STANDING_HEADERS, *keys], table)
        return
    render.print_table([*STANDING_HEADERS, *keys], [list(map(str, r)) for r in table])
    for row in rows[:8]:
        render.echo(f"{row.place}. {row.record.player}: " + "; ".join(
            f"{key} {words}" for key, words in zip(keys, row.reckoned, strict=True)))  # fmt: skip


@command(event_app, "cut")
def cut(name: EventArg, output: OutputOption = Output.table) -> None:
    """Pair the top cut seeded by the standings, then each next round of it.

    \b
    Example: cardbase event cut 'Spring Open'
    """
    _print_round(STATE.library.cut(name), output, True, None)


@command(event_app, "export")
def export(
    name: EventArg,
    out: Annotated[
        Path, typer.Argument(metavar="OUT", help="event.json, event.csv, or standings.html.")
    ],
    force: opt.Overwrite = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Write the whole event as JSON or CSV, or its standings as an HTML page.

    \b
    Example: cardbase event export 'Spring Open' spring.json
    """
    written = STATE.library.export_event(name, out, force=force)
    if output is Output.json:
        render.print_json({"event": name, "file": str(written)})
    else:
        render.echo(f"wrote {written}")


@command(event_app, "print")
def print_(
    name: EventArg,
    out: Annotated[Path, typer.Argument(metavar="OUT", help="The workbook to write (.xlsx).")],
    what: Annotated[
        str,
        typer.Option("--what", help="pairings (by table and by name), slips, standings, or all."),
    ] = "all",
    codes: Annotated[
        bool,
        typer.Option(
            "--codes/--no-codes",
            help="Each slip with its two players' codes (by name), for reporting by phone.",
        ),
    ] = True,
    force: opt.Overwrite = False,
    output: ReportOutputOption = Output.table,
) -> None:
    """Print the current round for the tables: pairings by table and by name, a match slip
    a table, the standings (an xlsx made to print).

    \b
    Example: cardbase event print 'Spring Open' round2.xlsx
    Example: cardbase event print 'Spring Open' slips.xlsx --what slips
    """
    written = STATE.library.print_event(name, out, what, codes=codes, force=force)
    if output is Output.json:
        render.print_json({"event": name, "file": str(written), "what": what})
    else:
        render.echo(f"wrote {written}")
