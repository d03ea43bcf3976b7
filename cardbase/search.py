"""Finding cards by words.

Each word must appear in the card's name (case-insensitive); no words lists the whole
catalogue in code order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from cardbase.cards import Card, fetch_cards


def search_cards(
    conn: sqlite3.Connection, words: Sequence[str], limit: int | None = None
) -> list[Card]:
    clauses = ["instr(lower(c.name), ?) > 0" for _ in words]
    params = [word.lower() for word in words]
    return fetch_cards(conn, " AND ".join(clauses), params, limit=limit)
