"""Ownership: foil and non-foil counts, changed in batches that history records and undo reverts.

Every change, whether one `cardbase add` or a whole spreadsheet import, is one transaction
and one batch: the counts are read inside the write transaction (BEGIN IMMEDIATE), checked
(never negative), written, and each card's delta recorded with the batch's source. A failed
check raises before anything is written, so a command either applies completely or not at
all, and two commands at once both count.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from cardbase.catalog.cards import Card, CardLike, cards_by_id, id_chunks
from cardbase.catalog.names import NOTHING_CHANGED
from cardbase.collection.changes import Batch, Change, Mode, Request
from cardbase.db import tables
from cardbase.db.connect import write_transaction
from cardbase.errors import CardbaseError, first_few
from cardbase.fields import FINISHES, FOIL, NONFOIL

MAX_PROBLEMS_SHOWN = 10
SCOPED_READ = 5_000  # card ids whose counts are read by the key rather than by one scan


Counts = dict[tuple[int, str], int]


class Shortfall(NamedTuple):
    card_id: int
    finish: str
    asked: int
    owned: int


def totals(requests: Iterable[Request]) -> tuple[dict[int, CardLike], Counts]:
    """Requests summed per card and finish: a card listed twice counts twice."""
    cards: dict[int, CardLike] = {}
    wanted: Counts = {}
    for request in requests:
        cards[request.card.id] = request.card
        key = (request.card.id, request.finish)
        wanted[key] = wanted.get(key, 0) + request.copies
    return cards, wanted


def plan(mode: Mode, wanted: Counts, current: Counts) -> tuple[Counts, list[Shortfall]]:
    """The new counts of every card and finish a mode touches, and any that would go negative."""
    new: Counts = {}
    short: list[Shortfall] = []
    for key, count in wanted.items():
        old = current.get(key, 0)
        if mode is Mode.ADD:
            new[key] = old + count
        elif mode is Mode.REMOVE:
            new[key] = old - count
            if new[key] < 0:
                short.append(Shortfall(*key, count, old))
        else:
            new[key] = count
    if mode is Mode.REPLACE:
        for key in current:
            new.setdefault(key, 0)
    return new, short


def change_collection(
    db_path: Path, requests: list[Request], mode: Mode, source: str, *, dry_run: bool = False
) -> list[Change]:
    """Apply requests in one transaction and one history batch; return what changed."""
    cards, wanted = totals(requests)
    with write_transaction(db_path) as conn:
        scope = None if mode is Mode.REPLACE else {card_id for card_id, _ in wanted}
        current = read_counts(conn, scope)
        new, short = plan(mode, wanted, current)
        if short:
            raise CardbaseError(_shortfall_message(short, cards))
        changes = [
            Change(cards.get(card_id) or _card(conn, card_id), finish, old, count)
            for (card_id, finish), count in sorted(new.items())
            if count != (old := current.get((card_id, finish), 0))
        ]
        if changes and not dry_run:
            write_changes(conn, changes, source)
    return changes


def _shortfall_message(short: list[Shortfall], cards: dict[int, CardLike]) -> str:
    lines = []
    for item in short:
        label = FINISHES[item.finish]
        lines.append(
            f"cannot remove {item.asked} {label} {cards[item.card_id].label()}: "
            f"you own {item.owned} {label}"
        )
    shown = first_few(lines, MAX_PROBLEMS_SHOWN)
    return "; ".join(shown) + "." + NOTHING_CHANGED


def read_counts(conn: sqlite3.Connection, card_ids: set[int] | None) -> Counts:
    """The counts of `card_ids` (of every owned card for None): a one-card `add` reads its own
    row by the key, not a 63k-card collection; past `SCOPED_READ` ids, one scan is faster."""
    sql = f"SELECT card_id, nonfoil, foil FROM {tables.OWNERSHIP_TABLE}"
    cursor = conn.cursor()
    cursor.row_factory = None
    if card_ids is not None and len(card_ids) <= SCOPED_READ:
        rows = []
        for chunk, marks in id_chunks(card_ids):
            rows += cursor.execute(f"{sql} WHERE card_id IN ({marks})", chunk).fetchall()
    else:
        rows = cursor.execute(sql).fetchall()
    counts: Counts = {}
    for card_id, nonfoil, foil in rows:
        if card_ids is not None and card_id not in card_ids:
            continue
        if nonfoil:
            counts[(card_id, NONFOIL)] = nonfoil
        if foil:
            counts[(card_id, FOIL)] = foil
    return counts


def write_changes(conn: sqlite3.Connection, changes: list[Change], source: str) -> int:
    """Write new counts and record them as one batch; return the batch id."""
    store_counts(conn, changes)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    batch_id = conn.execute(
        f"INSERT INTO {tables.BATCH_TABLE} (created_at, source, undone) VALUES (?, ?, 0)",
        (created, source),
    ).lastrowid
    conn.executemany(
        f"INSERT INTO {tables.HISTORY_TABLE} (batch_id, card_id, finish, delta) "
        "VALUES (?, ?, ?, ?)",
        [(batch_id, c.card.id, c.finish, c.new - c.old) for c in changes],
    )
    return int(batch_id or 0)


def store_counts(conn: sqlite3.Connection, changes: list[Change]) -> None:
    """Set each change's new count; rows left with nothing owned are dropped."""
    for finish in (NONFOIL, FOIL):  # column names come from this fixed pair, never from input
        # Positional rows straight to the driver: a 100k-row import writes them all.
        rows = [
            (c.card.id, c.new if finish == NONFOIL else 0, c.new if finish == FOIL else 0)
            for c in changes
            if c.finish == finish
        ]
        if rows:
            conn.executemany(
                f"INSERT INTO {tables.OWNERSHIP_TABLE} (card_id, nonfoil, foil) VALUES (?, ?, ?) "
                f"ON CONFLICT (card_id) DO UPDATE SET {finish} = excluded.{finish}",
                rows,
            )
    conn.execute(f"DELETE FROM {tables.OWNERSHIP_TABLE} WHERE nonfoil = 0 AND foil = 0")


def _card(conn: sqlite3.Connection, card_id: int) -> Card:
    """A card with its counts as they are now, inside the write transaction."""
    from cardbase.catalog.cards import SELECT_CARDS, card_from_row

    return card_from_row(
        tuple(conn.execute(f"{SELECT_CARDS} WHERE c.id = ?", (card_id,)).fetchone())
    )


def undo_last(db_path: Path) -> Batch | None:
    """Revert the newest batch not yet undone; None when there is nothing left to undo."""
    with write_transaction(db_path) as conn:
        row = conn.execute(
            f"SELECT id, created_at, source FROM {tables.BATCH_TABLE} "
            "WHERE undone = 0 ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        batch_id, created_at, source = row
        deltas = conn.execute(
            f"SELECT card_id, finish, delta FROM {tables.HISTORY_TABLE} "
            "WHERE batch_id = ? ORDER BY id",
            (batch_id,),
        ).fetchall()
        cards = cards_by_id(conn, (card_id for card_id, _, _ in deltas))  # one query a batch
        current = read_counts(conn, {card_id for card_id, _, _ in deltas})
        changes = []
        for card_id, finish, delta in deltas:
            old = current.get((card_id, finish), 0)
            if old - delta < 0:  # only if the database was edited behind our back
                raise CardbaseError(
                    f"cannot undo batch {batch_id}: it would leave a negative count"
                )
            current[(card_id, finish)] = old - delta
            changes.append(Change(cards[card_id], finish, old, old - delta))
        store_counts(conn, changes)
        conn.execute(f"UPDATE {tables.BATCH_TABLE} SET undone = 1 WHERE id = ?", (batch_id,))
    return Batch(batch_id, created_at, source, True, changes)
