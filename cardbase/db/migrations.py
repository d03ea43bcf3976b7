"""Schema upgrades, one function per version, each frozen as it was released.

A new database is created from the current models; an old one is brought forward by these
steps, in order, inside one transaction. Each step is plain DDL written out in full, so it
keeps meaning what it meant when that version shipped, whatever the models become later.
tests/test_upgrades.py opens a database from every released version and checks that the
upgraded schema equals a new one and that nothing was lost.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

_V2_SAVED_DECKS = (
    """CREATE TABLE deck (
        id INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        format VARCHAR NOT NULL,
        created_at VARCHAR NOT NULL,
        updated_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_deck_name UNIQUE (name_key)
    )""",
    """CREATE TABLE deck_entry (
        id INTEGER NOT NULL,
        deck_id INTEGER NOT NULL,
        section VARCHAR NOT NULL,
        card_id INTEGER NOT NULL,
        copies INTEGER NOT NULL,
        line INTEGER NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT ck_deck_entry_copies CHECK (copies > 0),
        FOREIGN KEY(deck_id) REFERENCES deck (id),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "CREATE INDEX ix_deck_entry_deck ON deck_entry (deck_id)",
)


def _to_v2(conn: sqlite3.Connection) -> None:
    """Version 2 (cardbase 0.2): saved decks."""
    for statement in _V2_SAVED_DECKS:
        conn.execute(statement)


# MIGRATIONS[n] upgrades a database at schema version n - 1 to version n.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {2: _to_v2}
