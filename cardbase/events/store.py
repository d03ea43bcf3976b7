"""An event's rows: read whole into plain values, and written a statement at a time inside
the caller's one transaction (`cardbase.events.operations` holds the rules).

An event is small (a few hundred players, a dozen rounds), so every operation reads all of
it once and decides in Python; the engines' SQL differs in nothing used here.
"""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime
from typing import Any, NamedTuple

from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError, shorten
from cardbase.naming import clean, label_key
from cardbase.similar import closest

_EVENT = tables.EVENT_TABLE
_PLAYER = tables.EVENT_PLAYER_TABLE
_ROUND = tables.EVENT_ROUND_TABLE
_PAIRING = tables.EVENT_PAIRING_TABLE


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def key_of(name: str, what: str) -> tuple[str, str]:
    """A name as stored and the key that tells two apart (case and spacing ignored)."""
    cleaned = clean(name, what)
    if not cleaned:
        raise CardbaseError(f"{what} is empty: give a name")
    return cleaned, label_key(cleaned)


class Event(NamedTuple):
    id: int
    name: str
    format: str
    rounds: int | None  # Swiss rounds; None until round 1 sets them from the player count
    cut: int
    best_of: int
    seed: int
    tiebreakers: tuple[str, ...]
    state: str
    created_at: str
    lists_published: bool = False  # deck lists shown on the public pages

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "format": self.format, "rounds": self.rounds, "cut": self.cut,
            "best_of": self.best_of, "seed": self.seed, "tiebreakers": list(self.tiebreakers),
            "state": self.state, "created_at": self.created_at,
            "lists_published": self.lists_published,
        }  # fmt: skip


class Player(NamedTuple):
    id: int
    name: str
    deck: str | None
    verdict: dict[str, Any] | None  # the deck check's report, as `deck check -o json` gives it
    locked: bool
    dropped_after: int | None
    entered_round: int
    code: str = ""  # what the player reports with from a phone: the organiser's to hand out

    def to_dict(self, with_deck: bool = True, with_code: bool = False) -> dict[str, Any]:
        """The code only when asked: it is the organiser's, never in what players see."""
        found: dict[str, Any] = {
            "player": self.name, "locked": self.locked, "dropped_after": self.dropped_after,
            "entered_round": self.entered_round,
            "deck_valid": None if self.verdict is None else self.verdict["valid"],
        }  # fmt: skip
        if with_deck:
            found.update(deck=self.deck, verdict=self.verdict)
        if with_code:
            found["code"] = self.code
        return found


class Seat(NamedTuple):
    """One table of a round as stored, with its result (None until reported)."""

    id: int
    round: int
    stage: str
    number: int
    first: str
    second: str | None  # None: the bye
    first_games: int | None
    second_games: int | None
    drawn_games: int | None
    intentional_draw: bool
    confirmed: bool

    @property
    def reported(self) -> bool:
        return self.first_games is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round, "stage": self.stage, "table": self.number,
            "first": self.first, "second": self.second, "reported": self.reported,
            "first_games": self.first_games, "second_games": self.second_games,
            "drawn_games": self.drawn_games, "intentional_draw": self.intentional_draw,
            "confirmed": self.confirmed,
        }  # fmt: skip


_EVENT_COLUMNS = (
    "id, name, format, rounds, cut, best_of, seed, tiebreakers, state, created_at, lists_published"
)


def _event(row: Any) -> Event:
    values = list(row)
    values[7] = tuple(filter(None, str(values[7]).split(",")))
    values[10] = bool(values[10])
    return Event(*values)


def events(conn: Connection) -> list[Event]:
    found = conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM {_EVENT} ORDER BY created_at, id"
    ).fetchall()
    return [_event(row) for row in found]


def find_event(conn: Connection, name: str) -> Event:
    """The event of that name (case and spacing ignored); an unknown one names the closest."""
    key = label_key(" ".join(name.split()))
    row = conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM {_EVENT} WHERE name_key = ?", (key,)
    ).fetchone()
    if row is not None:
        return _event(row)
    names = [event.name for event in events(conn)]
    near = closest(name, names)
    hint = (
        f"; did you mean '{near}'?"
        if near
        else (f"; events: {', '.join(names[:5])}" if names else "; create one with 'event create'")
    )
    raise CardbaseError(f"no event named '{shorten(name, 40)}'{hint}")


def insert_event(conn: Connection, event: Event, name_key: str) -> None:
    conn.execute(
        f"INSERT INTO {_EVENT} (name, name_key, format, rounds, cut, best_of, seed, "
        "tiebreakers, state, created_at, lists_published) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (event.name, name_key, event.format, event.rounds, event.cut, event.best_of,
         event.seed, ",".join(event.tiebreakers), event.state, event.created_at, False),
    )  # fmt: skip


def set_event(conn: Connection, event: Event, **values: Any) -> None:
    assignments = ", ".join(f"{column} = ?" for column in values)
    conn.execute(f"UPDATE {_EVENT} SET {assignments} WHERE id = ?", (*values.values(), event.id))


def players(conn: Connection, event: Event) -> list[Player]:
    found = conn.execute(
        f"SELECT id, name, deck, verdict, locked, dropped_after, entered_round, code "
        f"FROM {_PLAYER} "
        "WHERE event_id = ? ORDER BY id",
        (event.id,),
    ).fetchall()
    return [
        Player(row[0], row[1], row[2], None if row[3] is None else json.loads(row[3]),
               bool(row[4]), row[5], row[6], row[7])
        for row in found
    ]  # fmt: skip


def find_player(found: list[Player], name: str) -> Player:
    key = label_key(" ".join(name.split()))
    for player in found:
        if label_key(player.name) == key:
            return player
    near = closest(name, [p.name for p in found])
    hint = f"; did you mean '{near}'?" if near else ""
    raise CardbaseError(f"no player named '{shorten(name, 40)}' in this event{hint}")


def insert_player(
    conn: Connection, event: Event, name: str, key: str, deck: str | None,
    verdict: dict[str, Any] | None, locked: bool, entered_round: int,
) -> None:  # fmt: skip
    conn.execute(
        f"INSERT INTO {_PLAYER} (event_id, name, name_key, deck, verdict, locked, "
        "dropped_after, entered_round, registered_at, code) "
        "VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)",
        (event.id, name, key, deck, _json(verdict), locked, entered_round, now(),
         _new_code(conn, event)),
    )  # fmt: skip


# Letters and digits nobody misreads on a slip or a phone (no 0/O, 1/I/L, 2/Z, 5/S, 8/B).
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6


def _new_code(conn: Connection, event: Event) -> str:
    """A player's code for reporting from a phone: drawn by `secrets`, not from the event's
    seed (which is public, for pairings anyone can redo), and unlike any other player's."""
    taken = {row[0] for row in conn.execute(
        f"SELECT code FROM {_PLAYER} WHERE event_id = ?", (event.id,))}  # fmt: skip
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def set_player(conn: Connection, player: Player, **values: Any) -> None:
    if "verdict" in values:
        values["verdict"] = _json(values["verdict"])
    assignments = ", ".join(f"{column} = ?" for column in values)
    conn.execute(f"UPDATE {_PLAYER} SET {assignments} WHERE id = ?", (*values.values(), player.id))


def lock_decks(conn: Connection, event: Event) -> None:
    conn.execute(f"UPDATE {_PLAYER} SET locked = ? WHERE event_id = ?", (True, event.id))


def _json(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)


def seats(conn: Connection, event: Event) -> list[Seat]:
    """Every table of every round, in round and table order."""
    found = conn.execute(
        f"SELECT t.id, r.number, r.stage, t.number, a.name, b.name, t.first_games, "
        "t.second_games, t.drawn_games, t.intentional_draw, t.confirmed "
        f"FROM {_PAIRING} AS t JOIN {_ROUND} AS r ON r.id = t.round_id "
        f"JOIN {_PLAYER} AS a ON a.id = t.first_id LEFT JOIN {_PLAYER} AS b ON b.id = t.second_id "
        "WHERE r.event_id = ? ORDER BY r.number, t.number",
        (event.id,),
    ).fetchall()
    return [
        Seat(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
             bool(row[9]), bool(row[10]))
        for row in found
    ]  # fmt: skip


def insert_round(
    conn: Connection, event: Event, number: int, stage: str,
    tables_: list[tuple[int, int | None, tuple[int, int, int] | None]],
) -> None:  # fmt: skip
    """A round and its tables (first's id, second's id or None for the bye, a result the
    table starts with: the bye's), numbered from 1 in the order given."""
    round_id = conn.execute(
        f"INSERT INTO {_ROUND} (event_id, number, stage, paired_at) VALUES (?, ?, ?, ?) "
        "RETURNING id",
        (event.id, number, stage, now()),
    ).fetchone()[0]
    rows = []
    for table, (first, second, result) in enumerate(tables_, 1):
        games = result or (None, None, None)
        stamp = now() if result else None
        rows.append((round_id, table, first, second, *games, False, result is not None, stamp))
    conn.executemany(
        f"INSERT INTO {_PAIRING} (round_id, number, first_id, second_id, first_games, "
        "second_games, drawn_games, intentional_draw, confirmed, reported_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def set_result(
    conn: Connection, seat: Seat, games: tuple[int, int, int], intentional: bool
) -> None:
    conn.execute(
        f"UPDATE {_PAIRING} SET first_games = ?, second_games = ?, drawn_games = ?, "
        "intentional_draw = ?, confirmed = ?, reported_at = ? WHERE id = ?",
        (*games, intentional, True, now(), seat.id),
    )


def set_seats(conn: Connection, seat: Seat, first: int, second: int | None) -> None:
    conn.execute(
        f"UPDATE {_PAIRING} SET first_id = ?, second_id = ? WHERE id = ?",
        (first, second, seat.id),
    )


class SentReport(NamedTuple):
    """A result a player sent for their own table, in the table's order (its first player's
    games first), kept apart from the table's result until the organiser confirms it."""

    pairing_id: int
    player: str
    first_games: int
    second_games: int
    drawn_games: int
    intentional_draw: bool
    reported_at: str


def sent_reports(conn: Connection, event: Event) -> list[SentReport]:
    found = conn.execute(
        f"SELECT e.pairing_id, p.name, e.first_games, e.second_games, e.drawn_games, "
        f"e.intentional_draw, e.reported_at FROM {tables.EVENT_REPORT_TABLE} AS e "
        f"JOIN {_PLAYER} AS p ON p.id = e.player_id WHERE p.event_id = ? ORDER BY e.id",
        (event.id,),
    ).fetchall()
    return [SentReport(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in found]


def put_report(
    conn: Connection, seat: Seat, player: Player, games: tuple[int, int, int], intentional: bool
) -> None:
    """The player's report for the table, replacing one they sent before."""
    conn.execute(
        f"DELETE FROM {tables.EVENT_REPORT_TABLE} WHERE pairing_id = ? AND player_id = ?",
        (seat.id, player.id),
    )
    conn.execute(
        f"INSERT INTO {tables.EVENT_REPORT_TABLE} (pairing_id, player_id, first_games, "
        "second_games, drawn_games, intentional_draw, reported_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (seat.id, player.id, *games, intentional, now()),
    )
