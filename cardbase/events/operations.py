"""What each `event` command does, as one call and one transaction: create, register, drop,
pair the next round, swap two tables, report a result, the standings, the top cut.

Each call reads the whole event inside its write transaction (`Snapshot`), checks what was
asked against it, and writes, so a killed process leaves the event as it was before the
call or after it, never between: the next command resumes from what is stored. A refusal
is a `CardbaseError` before anything is written.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from cardbase.db import tables as names
from cardbase.db.engine import Connection, Database
from cardbase.errors import CardbaseError, InvalidDeckError, shorten
from cardbase.events import store
from cardbase.events.cut import CUT_SIZES, first_round, next_round
from cardbase.events.scores import Score, parse_score
from cardbase.events.standings import (
    BYE_GAMES,
    DEFAULT_TIEBREAKERS,
    TIEBREAKERS,
    Standing,
    tiebreakers_named,
)
from cardbase.events.state import Snapshot
from cardbase.events.store import Event, Player, Seat
from cardbase.events.swiss import BYE, Pairing, Table, broken_by, default_rounds, explain, pair
from cardbase.events.swiss import swapped as swap_seats
from cardbase.naming import label_key

if TYPE_CHECKING:  # the deck checker is loaded by registration alone: a report starts faster
    from cardbase.decks.check import DeckReport
    from cardbase.decks.lists import DeckList

BEST_OF = (1, 3, 5)
MAX_SEED = 2**31 - 1  # an INTEGER column on either engine
MAX_ROUNDS = 20


class RefusedDeck(InvalidDeckError):
    """A deck list that breaks the event's format: the desk's report comes with it."""

    def __init__(self, message: str, report: DeckReport) -> None:
        super().__init__(message)
        self.report = report


class Paired(NamedTuple):
    event: Event
    round: int
    stage: str
    tables: list[Seat]
    why: list[str]  # each table in words (`swiss.explain`); the cut's by seed


class Swap(NamedTuple):
    event: Event
    round: int
    tables: list[Seat]
    broken: list[str]  # the rules the swap breaks that the paired round did not


class Reported(NamedTuple):
    event: Event
    seat: Seat
    closed: bool  # every table of the round has a result now


def snapshot(conn: Connection, name: str) -> Snapshot:
    event = store.find_event(conn, name)
    return Snapshot(event, store.players(conn, event), store.seats(conn, event))


# -- the event ----------------------------------------------------------------------------


def create(
    db: Database, name: str, format_key: str, rounds: int | None = None, cut: int = 0,
    best_of: int = 3, seed: int | None = None, tiebreakers: Sequence[str] | None = None,
) -> Event:  # fmt: skip
    """A new event, in registration; `seed` None: a random one, recorded with it.
    `tiebreakers` in the organiser's order, kept with the event: the standings reckon them
    from the stored keys, so they are data, not code."""
    from cardbase.decks.check import get_format

    cleaned, key = store.key_of(name, "an event's name")
    fmt = get_format(format_key)
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise CardbaseError(f"--rounds {rounds}: give 1 to {MAX_ROUNDS} Swiss rounds")
    if cut and cut not in CUT_SIZES:
        raise CardbaseError(f"--cut {cut}: a top cut of {', '.join(map(str, CUT_SIZES))}")
    if best_of not in BEST_OF:
        raise CardbaseError(f"--best-of {best_of}: use {', '.join(map(str, BEST_OF))}")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise CardbaseError(f"--seed {seed}: give a number from 0 to {MAX_SEED}")
    chosen = random.SystemRandom().randrange(MAX_SEED + 1) if seed is None else seed
    keys = DEFAULT_TIEBREAKERS if tiebreakers is None else _tiebreakers(tiebreakers)
    event = Event(0, cleaned, fmt.key, rounds, cut, best_of, chosen, keys,
                  "registration", store.now())  # fmt: skip
    with db.writing(whole=True) as conn:
        taken = conn.execute(
            f"SELECT name FROM {names.EVENT_TABLE} WHERE name_key = ?", (key,)
        ).fetchone()
        if taken:
            raise CardbaseError(f"an event named '{taken[0]}' exists already; choose another name")
        store.insert_event(conn, event, key)
        return store.find_event(conn, cleaned)


def _tiebreakers(keys: Sequence[str]) -> tuple[str, ...]:
    cleaned = tuple(key.strip().lower() for key in keys)
    if not cleaned or "" in cleaned:
        raise CardbaseError(
            f"--tiebreakers: name them, comma-separated, from {', '.join(TIEBREAKERS)}"
        )
    tiebreakers_named(cleaned)
    twice = next((key for n, key in enumerate(cleaned) if key in cleaned[:n]), None)
    if twice:
        raise CardbaseError(f"--tiebreakers: '{twice}' twice; name each once")
    return cleaned


def publish(db: Database, name: str, published: bool = True) -> Event:
    """The deck lists shown on the public pages (or hidden again)."""
    with db.writing(whole=True) as conn:
        event = store.find_event(conn, name)
        store.set_event(conn, event, lists_published=published)
        return event._replace(lists_published=published)


def list_events(db: Database) -> list[tuple[Event, int, int]]:
    """Every event, with its player count and the rounds paired."""
    with db.reading() as conn:
        found = []
        for event in store.events(conn):
            seats = store.seats(conn, event)
            found.append((event, len(store.players(conn, event)), seats[-1].round if seats else 0))
        return found


def show(db: Database, name: str) -> Snapshot:
    with db.reading() as conn:
        return snapshot(conn, name)


# -- players ------------------------------------------------------------------------------


def _checked_deck(conn: Connection, event: Event, file: Path) -> tuple[str, DeckReport]:
    """The deck list's text as kept, and the desk's report in the event's format; an invalid
    deck is refused with the report."""
    from cardbase.decks.check import check_deck
    from cardbase.decks.sheetdecks import read_deck_file

    deck = read_deck_file(file)
    report = check_deck(conn, deck, event.format)
    if not report.valid:
        raise RefusedDeck(
            f"{file}: not a valid {report.format.title} deck; '{event.name}' registered nothing",
            report,
        )
    return _deck_text(deck), report


def _deck_text(deck: DeckList) -> str:
    """The list as registered: its lines under their sections, as a text list reads back."""
    lines: list[str] = []
    section = None
    for line in deck.lines:
        if line.section != section and (section is not None or line.section != "main"):
            lines.append(f"{line.section.title()}:")
        section = line.section
        lines.append(f"{line.copies} {line.card}")
    return "\n".join(lines) + "\n"


def register(db: Database, name: str, player: str, deck: Path | None = None) -> Player:
    """A player in the event, with their deck list checked at once by its format's rules.
    Registered again with a deck: the new list replaces the old, until lists are locked
    (round 1 paired). After round 1 a player is a late entry, paired from the next round."""
    cleaned, key = store.key_of(player, "a player's name")
    with db.writing(whole=True) as conn:
        state = snapshot(conn, name)
        event = state.event
        if event.state in ("cut", "finished") or (
            event.rounds is not None and state.swiss_rounds_paired >= event.rounds
        ):
            raise CardbaseError(f"'{event.name}' has played its Swiss rounds: no late entry")
        text, verdict = (None, None)
        if deck is not None:
            text, report = _checked_deck(conn, event, deck)
            verdict = report.to_dict()
        known = [p for p in state.players if label_key(p.name) == key]
        if known:
            return _reregister(conn, state, known[0], text, verdict)
        late = state.last_round > 0
        store.insert_player(conn, event, cleaned, key, text, verdict, late, state.last_round + 1)
        return store.find_player(store.players(conn, event), cleaned)


def _reregister(
    conn: Connection, state: Snapshot, player: Player, text: str | None,
    verdict: dict[str, Any] | None,
) -> Player:  # fmt: skip
    if text is None:
        raise CardbaseError(
            f"'{player.name}' is registered already; give --deck FILE to replace their list"
        )
    if player.locked:
        raise CardbaseError(
            f"'{player.name}''s deck list is locked (round 1 is paired); it stays as registered"
        )
    store.set_player(conn, player, deck=text, verdict=verdict)
    return store.find_player(store.players(conn, state.event), player.name)


def drop(db: Database, name: str, player: str) -> Player:
    """The player leaves: not paired again, their results kept in everyone's standings."""
    with db.writing(whole=True) as conn:
        state = snapshot(conn, name)
        found = store.find_player(state.players, player)
        if found.dropped_after is not None:
            raise CardbaseError(f"'{found.name}' dropped after round {found.dropped_after}")
        store.set_player(conn, found, dropped_after=state.last_round)
        return store.find_player(store.players(conn, state.event), found.name)


# -- rounds -------------------------------------------------------------------------------


def _refuse_open_round(state: Snapshot) -> None:
    if state.round_open:
        waiting = [str(s.number) for s in state.round_seats() if not s.reported]
        raise CardbaseError(
            f"round {state.last_round} of '{state.event.name}' is not over: table "
            f"{', '.join(waiting[:10])} {'has' if len(waiting) == 1 else 'have'} no result; "
            "report them with 'event report'"
        )


def pair_next(db: Database, name: str) -> Paired:
    """The next Swiss round, paired and stored; round 1 sets the rounds from the player count
    (unless given) and locks every deck list. In the cut, the cut's next round."""
    with db.writing(whole=True) as conn:
        state = snapshot(conn, name)
        if state.event.state == "cut":
            return _pair_cut(conn, state)
        if state.event.state == "finished":
            raise CardbaseError(_over(state))
        _refuse_open_round(state)
        number = state.swiss_rounds_paired + 1
        entrants = state.entrants(number)
        event = _begun(conn, state, len(entrants)) if number == 1 else state.event
        if event.rounds is not None and number > event.rounds:
            raise CardbaseError(_swiss_over(event))
        pairing = pair(entrants, event.seed, number)
        _store_round(conn, state, number, "swiss", pairing.tables)
        seats = store.seats(conn, event)
        return Paired(event, number, "swiss", [s for s in seats if s.round == number],
                      explain(entrants, pairing))  # fmt: skip


def _swiss_over(event: Event) -> str:
    if event.cut:
        return (
            f"'{event.name}' has played its {event.rounds} Swiss rounds: 'event cut' pairs "
            f"the top {event.cut}"
        )
    return f"'{event.name}' has played its {event.rounds} Swiss rounds: the standings are final"


def _begun(conn: Connection, state: Snapshot, count: int) -> Event:
    if count < 2:
        raise CardbaseError(
            f"'{state.event.name}' has {count} player{'s' * (count != 1)}: register at least two"
        )
    rounds = state.event.rounds or default_rounds(count)
    store.set_event(conn, state.event, rounds=rounds, state="swiss")
    store.lock_decks(conn, state.event)
    return state.event._replace(rounds=rounds, state="swiss")


def _store_round(
    conn: Connection, state: Snapshot, number: int, stage: str, tables: list[Table]
) -> None:
    rows: list[tuple[int, int | None, tuple[int, int, int] | None]] = []
    for table in tables:
        first = state.player_id(table.first)
        if table.second == BYE:
            rows.append((first, None, (*BYE_GAMES, 0)))
        else:
            rows.append((first, state.player_id(table.second), None))
    store.insert_round(conn, state.event, number, stage, rows)


def swap(db: Database, name: str, one: str, other: str) -> Swap:
    """Two tables' seats exchanged by hand (table numbers, or two players' names), before
    either table has a result; what rule the swap breaks is said, not refused."""
    with db.writing(whole=True) as conn:
        state = snapshot(conn, name)
        seats = state.round_seats()
        if not seats:
            raise CardbaseError(f"'{state.event.name}' has no round paired yet")
        a, b = _swapped_players(seats, state.players, one, other)
        for seat in seats:
            if seat.second is not None and seat.reported and {a, b} & {seat.first, seat.second}:
                raise CardbaseError(
                    f"table {seat.number} has a result already: a swap moves players before "
                    "they play"
                )
        before = Pairing([Table(s.first, s.second or BYE) for s in seats])
        after = swap_seats(before, a, b)
        broken = []
        if seats[0].stage == "swiss":
            seated = {s.first for s in seats} | {s.second for s in seats if s.second}
            broken = broken_by(state.entrants(state.last_round, seated), before, after)
        for seat, table in zip(seats, after.tables, strict=True):
            if (seat.first, seat.second or BYE) != tuple(table):
                second = None if table.second == BYE else state.player_id(table.second)
                store.set_seats(conn, seat, state.player_id(table.first), second)
        found = store.seats(conn, state.event)
        return Swap(state.event, state.last_round,
                    [s for s in found if s.round == state.last_round], broken)  # fmt: skip


def _swapped_players(
    seats: list[Seat], players: list[Player], one: str, other: str
) -> tuple[str, str]:
    """The two players to exchange: by table number, each table's second seat (its first's
    at the bye's table, so the bye moves); by name, the players themselves."""

    def who(text: str) -> tuple[str, int]:
        if text.strip().isdigit():
            number = int(text)
            seat = next((s for s in seats if s.number == number), None)
            if seat is None:
                raise CardbaseError(
                    f"table {shorten(text, 10)}: this round has tables 1 to {len(seats)}"
                )
            return (seat.second or seat.first), seat.number
        name = store.find_player(players, text).name
        seat = next((s for s in seats if name in (s.first, s.second)), None)
        if seat is None:
            raise CardbaseError(f"'{name}' is not paired this round")
        return name, seat.number

    (a, table_a), (b, table_b) = who(one), who(other)
    if a == b:
        raise CardbaseError(f"'{a}' twice: a swap needs two different players")
    if table_a == table_b:
        raise CardbaseError(f"both are at table {table_a}: a swap exchanges two tables' players")
    return a, b


# -- results ------------------------------------------------------------------------------


def report(
    db: Database, name: str, result: str, player: str | None = None, table: int | None = None,
    round_number: int | None = None,
) -> Reported:  # fmt: skip
    """A table's result of the last round (`round_number`, if given, must be it), by a
    player (the score is theirs first) or by table number (its first player's first); a
    result stands corrected until the next round is paired."""
    with db.writing(whole=True) as conn:
        return report_in(conn, snapshot(conn, name), result, player, table, round_number)


def report_in(
    conn: Connection, state: Snapshot, result: str, player: str | None = None,
    table: int | None = None, round_number: int | None = None,
) -> Reported:  # fmt: skip
    """`report` inside the caller's transaction: a file of results and a confirmed player's
    report write through it too, so they are checked by the same rules."""
    if round_number is not None and round_number != state.last_round:
        raise CardbaseError(_not_the_round(state, round_number))
    seat, mine = _reported_seat(state, player, table)
    score = parse_score(result, state.event.best_of)
    return write_result(conn, state, seat, score if mine else score.turned())


def write_result(conn: Connection, state: Snapshot, seat: Seat, score: Score) -> Reported:
    """A table's result (its first player's side first), confirmed; the event finished if
    this was its last table."""
    if seat.stage == "cut" and not score.winner_decided:
        raise CardbaseError(f"result '{score}': a cut match needs a winner")
    store.set_result(conn, seat, (score.won, score.lost, score.drawn), score.intentional)
    event = _finished(conn, state, seat)
    after = [s for s in store.seats(conn, event) if s.round == seat.round]
    saved = next(s for s in after if s.id == seat.id)
    return Reported(event, saved, all(s.reported for s in after))


def _not_the_round(state: Snapshot, number: int) -> str:
    if 0 < number < state.last_round:
        return (
            f"round {number} of '{state.event.name}' is finished: a result stands corrected "
            f"only until the next round is paired (round {state.last_round} is)"
        )
    return f"round {number}: '{state.event.name}' has paired {state.last_round} round(s)"


def _reported_seat(state: Snapshot, player: str | None, table: int | None) -> tuple[Seat, bool]:
    """The table of the last round a result is for, and whether the score is its first
    player's."""
    seats = state.round_seats()
    if not seats:
        raise CardbaseError(f"'{state.event.name}' has no round paired yet")
    if (player is None) == (table is None):
        raise CardbaseError("name the player or the table, not both")
    if table is not None:
        seat = next((s for s in seats if s.number == table), None)
        if seat is None:
            raise CardbaseError(
                f"table {table}: round {state.last_round} has tables 1 to {len(seats)}"
            )
        mine = True
    else:
        name = store.find_player(state.players, player or "").name
        seat = next((s for s in seats if name in (s.first, s.second)), None)
        if seat is None:
            raise CardbaseError(
                f"'{name}' is not paired in round {state.last_round}, the round results are "
                "for (a result stands corrected only until the next round is paired)"
            )
        mine = seat.first == name
    if seat.second is None:
        raise CardbaseError(f"table {seat.number} is {seat.first}'s bye: its result is 2-0")
    return seat, mine


def _finished(conn: Connection, state: Snapshot, seat: Seat) -> Event:
    """The event finished by this result: the cut's final, or the last Swiss round without
    a cut."""
    event = state.event
    others_open = any(not s.reported for s in state.round_seats() if s.id != seat.id)
    final = seat.stage == "cut" and len(state.round_seats()) == 1
    last_swiss = seat.stage == "swiss" and not event.cut and seat.round == event.rounds
    if not others_open and (final or last_swiss) and event.state != "finished":
        store.set_event(conn, event, state="finished")
        return event._replace(state="finished")
    return event


# -- standings and the cut ------------------------------------------------------------------


def event_standings(db: Database, name: str) -> tuple[Event, list[Standing]]:
    with db.reading() as conn:
        state = snapshot(conn, name)
        return state.event, state.standings()


def cut(db: Database, name: str) -> Paired:
    """The top cut's first round, seeded by the Swiss standings once every Swiss round is
    over; called again, the cut's next round from the winners."""
    with db.writing(whole=True) as conn:
        state = snapshot(conn, name)
        event = state.event
        if event.state == "cut":
            return _pair_cut(conn, state)
        if not event.cut:
            raise CardbaseError(f"'{event.name}' has no top cut; create one with --cut 8")
        if event.state == "finished":
            raise CardbaseError(_over(state))
        if event.rounds is None or state.swiss_rounds_paired < event.rounds:
            raise CardbaseError(
                f"'{event.name}' has played {state.swiss_rounds_paired} of its "
                f"{event.rounds or 'Swiss'} rounds: the cut comes after the last"
            )
        _refuse_open_round(state)
        seeded = [row.record.player for row in state.standings() if not row.dropped]
        tables = first_round(seeded, event.cut)
        number = state.last_round + 1
        _store_round(conn, state, number, "cut", tables)
        store.set_event(conn, event, state="cut")
        seats = [s for s in store.seats(conn, event) if s.round == number]
        place = {player: n for n, player in enumerate(seeded, 1)}
        why = [f"table {s.number}: seed {place[s.first]} v seed {place[s.second or '']}"
               for s in seats]  # fmt: skip
        return Paired(event._replace(state="cut"), number, "cut", seats, why)


def _over(state: Snapshot) -> str:
    seats = state.round_seats()
    if seats and seats[0].stage == "cut":
        return f"'{state.event.name}' is over: {_winner(seats[0])} won the final"
    return f"'{state.event.name}' is over: the standings are final"


def _pair_cut(conn: Connection, state: Snapshot) -> Paired:
    event = state.event
    _refuse_open_round(state)
    seats = state.round_seats()
    if len(seats) == 1:
        raise CardbaseError(_over(state))
    winners = [_winner(seat) for seat in seats]
    tables = next_round(winners)
    number = state.last_round + 1
    _store_round(conn, state, number, "cut", tables)
    found = [s for s in store.seats(conn, event) if s.round == number]
    why = [f"table {s.number}: the winners of tables {2 * s.number - 1} and {2 * s.number}"
           for s in found]  # fmt: skip
    return Paired(event, number, "cut", found, why)


def _winner(seat: Seat) -> str:
    return seat.first if (seat.first_games or 0) > (seat.second_games or 0) else seat.second or ""


def score_of(seat: Seat) -> Score | None:
    """A table's result from its first player's side."""
    if not seat.reported:
        return None
    return Score(seat.first_games or 0, seat.second_games or 0, seat.drawn_games or 0,
                 seat.intentional_draw)  # fmt: skip
