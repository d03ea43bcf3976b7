"""The PostgreSQL benchmark's league (benchmarks/league.py): totals that are its holdings'
sums, the same rows on both engines; and where a collector-sharded league would run each
statement (benchmarks/scaling.py)."""

from __future__ import annotations

import importlib
import sqlite3
from pathlib import Path
from types import ModuleType

import pytest

from cardbase.db.location import Location, PostgresUrl
from cardbase.library import Library
from cardbase.trades.lobby import lobby
from tests.helpers import MINI_CATALOGUE, ROOT, new_database

TOTALS_DIFFER = (
    "SELECT count(*) FROM (SELECT collector_id, card_id, nonfoil, foil FROM ownership "
    "EXCEPT SELECT collector_id, card_id, "
    "sum(CASE WHEN finish = 'nonfoil' THEN copies ELSE 0 END), "
    "sum(CASE WHEN finish = 'foil' THEN copies ELSE 0 END) FROM holding GROUP BY 1, 2) AS d"
)
MISSING = (
    "SELECT count(*) FROM (SELECT collector_id, card_id FROM holding "
    "EXCEPT SELECT collector_id, card_id FROM ownership) AS d"
)


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> dict[str, ModuleType]:
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    return {name: importlib.import_module(name) for name in ("league", "scaling")}


def _filled(bench: dict[str, ModuleType], location: Location) -> sqlite3.Connection:
    bench["league"].fill(location, bench["league"].League(3, 10))
    return Library(location, bench["league"].first_collector()).connect()


def _rows(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    statements = {
        "holding": "SELECT collector_id, card_id, finish, copies FROM holding",
        "ownership": "SELECT collector_id, card_id, nonfoil, foil FROM ownership",
        "deck": "SELECT d.collector_id, e.card_id, e.copies FROM deck_entry AS e "
        "JOIN deck AS d ON d.id = e.deck_id",
    }
    return {name: sorted(map(tuple, conn.execute(sql))) for name, sql in statements.items()}


def test_the_league_totals_are_its_holdings_sums(
    tmp_path: Path, bench: dict[str, ModuleType]
) -> None:
    path = tmp_path / "league.db"
    new_database(path, MINI_CATALOGUE)
    conn = _filled(bench, path)
    rows = _rows(conn)
    assert len(rows["holding"]) == 30  # 3 collectors x 10 cards, each card once
    assert len({(collector, card) for collector, card, _, _ in rows["holding"]}) == 30
    assert conn.execute(TOTALS_DIFFER).fetchone()[0] == 0
    assert conn.execute(MISSING).fetchone()[0] == 0
    assert len(rows["deck"]) == 3 * bench["league"].DECK_CARDS
    found = lobby(conn)
    assert (found.collector, found.others) == (bench["league"].first_collector(), 3)


def test_the_league_is_the_same_on_postgresql(
    tmp_path: Path, pg_mini: PostgresUrl, bench: dict[str, ModuleType]
) -> None:
    path = tmp_path / "league.db"
    new_database(path, MINI_CATALOGUE)
    on_postgres = _filled(bench, pg_mini)
    assert on_postgres.execute(TOTALS_DIFFER).fetchone()[0] == 0
    assert _rows(on_postgres) == _rows(_filled(bench, path))
    assert lobby(on_postgres) == lobby(Library(path, bench["league"].first_collector()).connect())


@pytest.mark.parametrize(
    ("statement", "where"),
    [
        ("SELECT c.*, coalesce(o.nonfoil, $2) FROM card AS c JOIN (SELECT id FROM card_fts) "
         "AS f ON f.id = c.id LEFT JOIN my_ownership AS o ON o.card_id = c.id", "one shard"),
        ("SELECT card_id, copies FROM holding WHERE collector_id = $1 AND copies > $2",
         "one shard"),
        ("DELETE FROM holding WHERE (collector_id, card_id, finish) = ($1, $2, $3)", "one shard"),
        ("INSERT INTO batch (collector_id, created_at) VALUES ($1, $2) RETURNING id",
         "one shard"),
        ("INSERT INTO history (batch_id, card_id, delta) VALUES ($1, $2, $3)",
         "one shard, once history and deck_entry have collector_id"),
        ("SELECT c.name_key, sum(e.copies) FROM deck_entry AS e JOIN deck AS d "
         "ON d.id = e.deck_id WHERE d.collector_id = $1",
         "one shard, once history and deck_entry have collector_id"),
        ("SELECT (SELECT count(*) FROM ownership WHERE collector_id = c.id) FROM collector AS c",
         "every shard"),
        ("SELECT id, name, is_default FROM collector WHERE name_key = $1", "reference tables"),
        ("SELECT pg_advisory_xact_lock($1)", "write lock"),
        ("CREATE TEMP VIEW my_holding AS SELECT * FROM holding WHERE collector_id = 2",
         "session"),
        ("BEGIN", "session"),
    ],
)  # fmt: skip
def test_statements_by_shard(bench: dict[str, ModuleType], statement: str, where: str) -> None:
    assert bench["scaling"].shard_class(statement) == where
