"""A league for the PostgreSQL benchmarks: N collectors of M holdings each over one catalogue,
and a 60-card deck each, filled by set-based SQL rather than N imports.

The same statements run on SQLite and on PostgreSQL (a recursive CTE counts, where
PostgreSQL alone has generate_series), and what they pick is arithmetic on the collector's
id and the holding's number, so both engines get the same league, row for row. Collector
k's i-th holding is card (k*A + i*B) mod n of the n cards: B is prime to n, so a
collector's M cards are distinct while M <= n; about one holding in seven is foil, copies
run 1 to 7, so those past a playset (3) are offered; the deck names 20 other cards three
times each, which the collector wants where they hold fewer. The per-card totals are then
summed from the holdings by the GROUP BY the library's write side uses.

No batch or history rows are made: nothing read here (searches, trade lists) reads them.
"""

from __future__ import annotations

import math
import sqlite3
from typing import NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.collection.collectors import now
from cardbase.db import tables
from cardbase.db.location import Location
from cardbase.decks.lists import MAIN
from cardbase.fields import DEFAULT_FORMAT, FOIL, NONFOIL
from cardbase.library import Library

PREFIX = "player-"
DECK_CARDS = 20  # distinct cards of each collector's deck, three copies each


class League(NamedTuple):
    collectors: int
    holdings: int  # per collector

    @property
    def total(self) -> int:
        return self.collectors * self.holdings


# 200 x 5k = 1M holdings on the 100k catalogue, as the issue asks; smaller sizes scale down
# with the catalogue (5% of it per collector), and 1k has fewer collectors too, so that the
# CI smoke run takes seconds. 1m keeps 1M holdings over the bigger catalogue.
LEAGUES = {
    "1k": League(20, 50),
    "10k": League(200, 500),
    "100k": League(200, 5_000),
    "1m": League(200, 5_000),
}


def _stride(n: int, near: int) -> int:
    """The first number from `near` up that is prime to n: a step that visits every card."""
    step = near
    while math.gcd(step, n) != 1:
        step += 1
    return step


def fill(location: Location, league: League) -> None:
    """Add the league's collectors, holdings, totals and decks, in one transaction."""
    with Library(location).writing() as conn:
        low, high, count = conn.execute(
            f"SELECT min(id), max(id), count(*) FROM {tables.CARD_TABLE}"
        ).fetchone()
        if high - low + 1 != count or league.holdings > count:
            raise ValueError("the league needs a catalogue of consecutive ids, larger than M")
        _collectors(conn, league.collectors)
        _holdings(conn, league, low, count)
        conn.execute(
            f"INSERT INTO {tables.OWNERSHIP_TABLE} (collector_id, card_id, nonfoil, foil) "
            f"SELECT collector_id, card_id, {tables.copies_of(NONFOIL)}, "
            f"{tables.copies_of(FOIL)} FROM {tables.HOLDING_TABLE} WHERE collector_id IN "
            f"(SELECT id FROM {tables.COLLECTOR_TABLE} WHERE name LIKE '{PREFIX}%') "
            "GROUP BY collector_id, card_id"
        )
        _decks(conn, low, count)


def _collectors(conn: sqlite3.Connection, collectors: int) -> None:
    names = [f"{PREFIX}{10_000 + k}" for k in range(1, collectors + 1)]
    conn.executemany(
        f"INSERT INTO {tables.COLLECTOR_TABLE} (name, name_key, is_default, created_at) "
        "VALUES (?, ?, FALSE, ?)",
        [(name, name_key(name), now()) for name in names],
    )


def _holdings(conn: sqlite3.Connection, league: League, low: int, count: int) -> None:
    card = f"{low} + (c.id * 7919 + s.i * {_stride(count, 104_729)}) % {count}"
    conn.execute(
        f"WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?) "
        f"INSERT INTO {tables.HOLDING_TABLE} ({', '.join(tables.HOLDING_COLUMNS)}) "
        f"SELECT c.id, {card}, CASE WHEN s.i % 7 = 3 THEN '{FOIL}' ELSE '{NONFOIL}' END, "
        "'NM', 'en', '', '', 1 + (s.i * 5 + c.id) % 7, '' "
        f"FROM {tables.COLLECTOR_TABLE} AS c CROSS JOIN s WHERE c.name LIKE '{PREFIX}%'",
        (league.holdings - 1,),
    )


def _decks(conn: sqlite3.Connection, low: int, count: int) -> None:
    conn.execute(
        f"INSERT INTO {tables.DECK_TABLE} "
        "(collector_id, name, name_key, format, created_at, updated_at) "
        f"SELECT id, 'League deck', 'league deck', '{DEFAULT_FORMAT}', ?, ? "
        f"FROM {tables.COLLECTOR_TABLE} WHERE name LIKE '{PREFIX}%'",
        (now(), now()),
    )
    card = f"{low} + (d.collector_id * 104723 + s.i * {_stride(count, 7_927)}) % {count}"
    conn.execute(
        f"WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ?) "
        f"INSERT INTO {tables.DECK_ENTRY_TABLE} (deck_id, section, card_id, copies, line) "
        f"SELECT d.id, '{MAIN}', {card}, 3, s.i + 1 FROM {tables.DECK_TABLE} AS d CROSS JOIN s",
        (DECK_CARDS - 1,),
    )


def first_collector() -> str:
    """The name of the league's first collector: whose lobby is timed."""
    return f"{PREFIX}10001"
