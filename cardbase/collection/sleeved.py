"""Copies sleeved in built decks, as the holdings see them: what a change may not take away.

A built deck's copies (`cardbase.decks.sleeves`) are rows of `deck_sleeve`, keyed as the
holding they came from. Every change that lowers a holding (remove, set, move, tag, a trade,
an import that replaces, an undo or redo) ends in `store.store_holdings`, which asks
`guard` first: a holding may not fall below the copies its decks hold, or the deck would
hold cards the collector no longer has. Refused, nothing is written (the write transaction
rolls back); with `releasing(True)` (a face's --force) the copies are taken out of the
decks instead, in the same transaction, and the face is told which (`notices`).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple

from cardbase import notices
from cardbase.catalog.cards import id_chunks
from cardbase.collection.changes import Change, Holding
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError, Remedy
from cardbase.text import plural

_RELEASING: ContextVar[bool] = ContextVar("cardbase_release_sleeves", default=False)
_SLEEVE = "s.card_id, s.finish, s.condition, s.language, s.location, s.tags"


@contextmanager
def releasing(force: bool) -> Iterator[None]:
    """Within the block, a change that lowers sleeved copies takes them out of their decks
    (`force`) rather than being refused: how each face's --force reaches the one guard
    without every write path carrying a flag it only passes on."""
    token = _RELEASING.set(force)
    try:
        yield
    finally:
        _RELEASING.reset(token)


class InDeck(NamedTuple):
    deck_id: int
    deck: str
    copies: int


def sleeved(
    conn: Connection, owner: int, card_ids: Iterable[int] | None = None, but: int | None = None
) -> dict[Holding, list[InDeck]]:
    """Which of `owner`'s decks hold copies of each holding (of `card_ids`, else all), by
    deck name; `but`: leave that deck out (its own copies are its own)."""
    sql = (
        f"SELECT {_SLEEVE}, s.deck_id, d.name, s.copies FROM {tables.DECK_SLEEVE_TABLE} AS s "
        f"JOIN {tables.DECK_TABLE} AS d ON d.id = s.deck_id WHERE d.collector_id = ?"
    )
    if but is not None:
        sql += f" AND s.deck_id != {int(but)}"
    rows: list[tuple] = []
    if card_ids is None:
        rows = conn.execute(sql, (owner,)).fetchall()
    else:
        for chunk, marks in id_chunks(card_ids):
            rows += conn.execute(f"{sql} AND s.card_id IN ({marks})", (owner, *chunk)).fetchall()
    found: dict[Holding, list[InDeck]] = {}
    for row in sorted(rows, key=lambda r: (r[7], r[6])):
        found.setdefault(Holding(*row[:6]), []).append(InDeck(int(row[6]), row[7], int(row[8])))
    return found


def any_sleeved(conn: Connection, owner: int) -> bool:
    """Whether `owner` has built a deck at all: most never do, and a 60k-row import should
    not read sleeves it cannot touch."""
    return (
        conn.execute(
            f"SELECT 1 FROM {tables.DECK_SLEEVE_TABLE} AS s JOIN {tables.DECK_TABLE} AS d "
            "ON d.id = s.deck_id WHERE d.collector_id = ? LIMIT 1",
            (owner,),
        ).fetchone()
        is not None
    )


class Conflict(NamedTuple):
    change: Change
    over: int  # copies the change takes that decks hold
    decks: list[InDeck]


def guard(conn: Connection, owner: int, changes: list[Change]) -> None:
    """Refuse `changes` if they leave a holding with fewer copies than its decks hold; under
    `releasing(True)`, take those copies out of the decks (in the decks' name order) and
    say so."""
    lowered = [c for c in changes if c.new < c.old]
    if not lowered or not any_sleeved(conn, owner):
        return
    held = sleeved(conn, owner, {c.holding.card_id for c in lowered})
    conflicts = []
    for change in lowered:
        decks = held.get(change.holding, [])
        over = sum(d.copies for d in decks) - change.new
        if over > 0:
            conflicts.append(Conflict(change, over, decks))
    if not conflicts:
        return
    if not _RELEASING.get():
        raise SleevedError(conflicts)
    for conflict in conflicts:
        _release(conn, conflict)


def _release(conn: Connection, conflict: Conflict) -> None:
    left = conflict.over
    key = " AND ".join(f"{c} = ?" for c in tables.DECK_SLEEVE_KEY)
    for deck in conflict.decks:
        taken = min(left, deck.copies)
        if not taken:
            break
        where = (deck.deck_id, *conflict.change.holding)
        if taken == deck.copies:
            conn.execute(f"DELETE FROM {tables.DECK_SLEEVE_TABLE} WHERE {key}", where)
        else:
            conn.execute(
                f"UPDATE {tables.DECK_SLEEVE_TABLE} SET copies = copies - ? WHERE {key}",
                (taken, *where),
            )
        left -= taken
        what = f"{conflict.change.card.label()} {conflict.change.holding.describe()}"
        notices.tell(
            f"took {plural(taken, 'copy', 'copies')} of {what} out of the built deck "
            f"'{deck.deck}'; 'cardbase deck sleeve' sleeves it again from free copies"
        )


class SleevedError(CardbaseError):
    """A change would take copies that built decks hold; it names the decks, so each face
    says the way on: the command line names `deck unsleeve` and --force, a page the Deck
    Builder's Unsleeve button."""

    def __init__(self, conflicts: list[Conflict]) -> None:
        names = sorted({d.deck for c in conflicts for d in c.decks})
        shown = "; ".join(
            f"{plural(c.over, 'copy', 'copies')} of {c.change.card.label()} "
            f"{c.change.holding.describe()} sleeved in " + ", ".join(f"'{d.deck}'" for d in c.decks)
            for c in conflicts[:5]
        )
        more = f" and {len(conflicts) - 5} more" if len(conflicts) > 5 else ""
        decks = ", ".join(f"'{name}'" for name in names)
        first = shlex.quote(names[0])
        super().__init__(
            f"the change would take copies that built decks hold ({shown}{more}); "
            "nothing was changed",
            Remedy(
                f"free them with 'cardbase deck unsleeve {first}', or add --force to take "
                "them out of the deck",
                f"free them with Unsleeve on {decks} in the Deck Builder first",
            ),
        )
        self.decks = names
        self.conflicts = conflicts


def in_decks_by_card(conn: Connection, card_ids: Iterable[int]) -> dict[int, int]:
    """Copies of each card sleeved in the connection's collector's built decks (cards with
    none left out): what `collection` shows beside owned, and free is owned less."""
    found: dict[int, int] = {}
    for chunk, marks in id_chunks(card_ids):
        rows = conn.execute(
            f"SELECT s.card_id, sum(s.copies) FROM {tables.DECK_SLEEVE_TABLE} AS s "
            f"JOIN {tables.DECK_TABLE} AS d ON d.id = s.deck_id "
            f"WHERE d.collector_id = (SELECT id FROM {tables.MY_COLLECTOR}) "
            f"AND s.card_id IN ({marks}) GROUP BY s.card_id",
            chunk,
        )
        found.update((int(card_id), int(copies)) for card_id, copies in rows)
    return found


def with_decks(card: dict[str, object], owned: int, in_decks: int) -> dict[str, object]:
    """An owned card's JSON object with its copies in built decks and free ones, as
    `collection -o json` and the collection page's twin both give it."""
    return {**card, "in_decks": in_decks, "free": max(0, owned - in_decks)}


def in_decks_by_name(
    conn: Connection, keys: Iterable[str], but: int | None = None
) -> dict[str, dict[str, int]]:
    """Copies of each folded card name (any printing or finish, as `deck check --owned`
    counts) sleeved in the collector's built decks, by deck name; `but`: leave that deck
    out, since a deck's own copies are its own."""
    keys = sorted(set(keys))
    if not keys:
        return {}
    marks = ", ".join("?" * len(keys))
    other = "" if but is None else f" AND d.id != {int(but)}"
    rows = conn.execute(
        f"SELECT c.name_key, d.name, sum(s.copies) FROM {tables.DECK_SLEEVE_TABLE} AS s "
        f"JOIN {tables.DECK_TABLE} AS d ON d.id = s.deck_id "
        f"JOIN {tables.CARD_TABLE} AS c ON c.id = s.card_id "
        f"WHERE d.collector_id = (SELECT id FROM {tables.MY_COLLECTOR}){other} "
        f"AND c.name_key IN ({marks}) GROUP BY c.name_key, d.name",
        keys,
    )
    found: dict[str, dict[str, int]] = {}
    for key, deck, copies in sorted(rows, key=lambda row: (row[0], row[1])):
        found.setdefault(str(key), {})[str(deck)] = int(copies)
    return found
