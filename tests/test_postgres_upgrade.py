"""A PostgreSQL database of schema 4 opens, upgrades in place, and loses nothing.

The database is the one version 4 made (tests/data/schema-v4-postgres.sql, its pg_dump; the
header says how it was made), loaded into a new database on the test server. After the
upgrade its schema must be a new database's, the doctor must find nothing wrong, and every
row must be where it was: tests/test_upgrades.py does the same for SQLite's files.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from cardbase.db import tables
from cardbase.db.location import PostgresUrl
from cardbase.library import Library
from tests.conftest import DATA, MINI_CATALOGUE, PostgresTemplates, Run, postgres_database

FIXTURE = DATA / "schema-v4-postgres.sql"
# Every table schema 4 had, with rows in the fixture.
TABLES_THEN = (
    "card", "collector", "holding", "ownership", "batch", "history", "deck", "deck_entry",
)  # fmt: skip


def load_v4(url: PostgresUrl) -> PostgresUrl:
    """The fixture's statements, run as one script through psycopg (no psql needed: the
    server may be $CARDBASE_TEST_POSTGRES, with no client programs beside it)."""
    with psycopg.connect(url.url, autocommit=True) as conn:
        conn.execute(FIXTURE.read_text(encoding="utf-8"))  # type: ignore[arg-type]
    return url


def query(url: PostgresUrl, sql: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url.url, autocommit=True) as conn:
        return conn.execute(sql).fetchall()  # type: ignore[arg-type]


def rows(url: PostgresUrl, table: str) -> list[tuple[Any, ...]]:
    """A table's rows in the order of their whole values (PostgreSQL orders rows as such)."""
    return query(url, f"SELECT * FROM {table} AS t ORDER BY t")


def vectors(url: PostgresUrl) -> list[tuple[Any, ...]]:
    return query(url, "SELECT id, name_v::text, traits_v::text, text_v::text, all_v::text "
                      "FROM card_fts ORDER BY id")  # fmt: skip


def version(url: PostgresUrl) -> int:
    found = query(url, "SELECT value FROM cardbase_meta WHERE key = 'schema_version'")
    return int(found[0][0])


def upgrade(url: PostgresUrl) -> None:
    """Open the database as every command does (`open_db`), which upgrades it."""
    Library(url).connect().close()


@pytest.fixture(scope="module")
def v4_template(postgres_server: str) -> Iterator[str]:
    """The fixture loaded once, into a database each test's `v4` copies."""
    for url in postgres_database(postgres_server):
        yield load_v4(url).url.rsplit("/", 1)[1]


@pytest.fixture
def v4(postgres_server: str, v4_template: str) -> Iterator[PostgresUrl]:
    """A new database holding the fixture: a copy of `v4_template`, so no test sees what
    another's upgrade did."""
    yield from postgres_database(postgres_server, template=v4_template)


@pytest.fixture(scope="module")
def fresh(pg_templates: PostgresTemplates) -> Iterator[PostgresUrl]:
    """A new database of this schema of the same mini catalogue, to compare schemas with."""
    yield from pg_templates.copy(MINI_CATALOGUE)


def _check(definition: str) -> str:
    """A CHECK's text without its parentheses, spaces and casts to text: a pg_dump round
    trip re-parses `x IN ('a','b')` as `x = ANY (ARRAY[('a'::varchar)::text, ...])` where a
    new database says `x = ANY ((ARRAY['a'::varchar, ...])::text[])`, the same test. Only the
    fixture's constraints are so re-parsed; the upgrade leaves every CHECK as it was."""
    return re.sub(r"::text(\[\])?|[()\s]", "", definition)


def shape(url: PostgresUrl) -> dict[str, set[tuple[Any, ...]]]:
    """Every part of the schema a user's statements meet, by kind: columns, constraints,
    indexes, functions (the full-text trigger's among them), triggers, views and sequences.
    Function bodies with their runs of whitespace folded, as tests/test_upgrades.py does."""
    constraints = {
        (table, name, kind, _check(definition) if kind == "c" else definition)
        for table, name, kind, definition in query(
            url,
            "SELECT conrelid::regclass::text, conname, contype, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE connamespace = current_schema()::regnamespace",
        )
    }
    functions = {
        (name, re.sub(r"\s+", " ", definition))
        for name, definition in query(
            url,
            "SELECT proname, pg_get_functiondef(oid) FROM pg_proc "
            "WHERE pronamespace = current_schema()::regnamespace",
        )
    }
    kinds = {
        "columns": "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, "
        "column_default, collation_name, is_generated, generation_expression "
        "FROM information_schema.columns WHERE table_schema = current_schema()",
        "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes "
        "WHERE schemaname = current_schema()",
        "triggers": "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal",
        "views": "SELECT viewname, definition FROM pg_views WHERE schemaname = current_schema()",
        "sequences": "SELECT sequence_name, data_type, start_value, increment "
        "FROM information_schema.sequences WHERE sequence_schema = current_schema()",
    }
    found = {kind: set(query(url, sql)) for kind, sql in kinds.items()}
    return {**found, "constraints": constraints, "functions": functions}


def test_the_fixture_is_a_schema_4_database_with_something_to_lose(v4: PostgresUrl) -> None:
    assert version(v4) == 4
    for table in TABLES_THEN:
        assert rows(v4, table), table
    assert query(v4, "SELECT count(*) FROM collector")[0][0] == 2
    assert {row[0] for row in query(v4, "SELECT undone FROM batch")} == {0, 1, 2}
    assert query(v4, "SELECT count(*) FROM holding WHERE finish = 'foil'")[0][0] == 2
    assert query(v4, "SELECT count(*) FROM holding WHERE location <> '' AND tags <> '' "
                     "AND condition <> 'NM' AND language <> 'en'")[0][0] == 2  # fmt: skip
    assert query(v4, "SELECT count(*) FROM deck")[0][0] == 2


def test_the_upgrade_keeps_every_row(v4: PostgresUrl) -> None:
    before = {table: rows(v4, table) for table in TABLES_THEN}
    vectors_before = vectors(v4)
    assert query(v4, "SELECT count(*) FROM pg_collation WHERE collname = 'nocase'")[0][0] == 1
    upgrade(v4)
    assert version(v4) == tables.SCHEMA_VERSION == 10
    # the imitation of SQLite's COLLATE NOCASE is gone (version 7)
    assert query(v4, "SELECT count(*) FROM pg_collation WHERE collname = 'nocase'")[0][0] == 0
    # every card keeps its id and values, and gains an empty artist and names
    expected = {**before, "card": [(*row, "", "") for row in before["card"]]}
    for table, wanted in expected.items():
        assert rows(v4, table) == wanted, table
    assert rows(v4, "card_name") == rows(v4, "card_text") == []
    # the event tables are new and empty (version 8)
    for table in ("event", "event_player", "event_round", "event_pairing"):
        assert rows(v4, table) == [], table
    # each deck is its version 1, nothing is sleeved, no player has reported (version 9)
    assert [row[1:4] for row in rows(v4, "deck_version")] == [
        (deck[0], 1, deck[4]) for deck in expected["deck"]
    ]
    assert rows(v4, "deck_sleeve") == rows(v4, "event_report") == []
    # a game's own fields' values are a new table, empty (version 10)
    assert rows(v4, "card_value") == []
    # recomputed, and the same: an old card's name vector reads its name and empty names
    assert vectors(v4) == vectors_before
    assert query(v4, "SELECT key, value FROM cardbase_meta ORDER BY key") == [
        ("application_id", str(tables.APPLICATION_ID)),
        ("schema_version", str(tables.SCHEMA_VERSION)),
    ]


def test_the_upgraded_schema_is_a_new_databases(v4: PostgresUrl, fresh: PostgresUrl) -> None:
    old = shape(v4)
    upgrade(v4)
    upgraded, new = shape(v4), shape(fresh)
    assert upgraded != old
    for kind, wanted in new.items():
        assert upgraded[kind] == wanted, kind


def test_the_upgraded_database_is_healthy_and_works(v4: PostgresUrl) -> None:
    """The first command upgrades it (the doctor would not: it sees a database as it is)."""
    run = Run(v4.url)  # type: ignore[arg-type]
    found = run("search", "chugawug", "-o", "csv")
    assert found.exit_code == 0, found.output
    assert "Chugawug Cook" in found.stdout and "Chugawug Elder" in found.stdout
    doctor = run("doctor")
    assert doctor.exit_code == 0, doctor.output
    assert "schema version: 10 (this cardbase: 10)" in doctor.stdout
    assert all(line.startswith("✔") for line in doctor.stdout.splitlines())
    added = run("add", "1 U 15 x2 foil")
    assert added.exit_code == 0, added.output
    assert "foil: 3 -> 5" in added.stdout  # the fixture's three foil Elders, and two more
    assert "Binder 1" in run("collection", "--copies", "cond:lp").stdout
    assert "Bo's tin" in run("collection", "--copies", "--collector", "Bo").stdout
    assert "Pixie Rush" in run("deck", "list", "--collector", "Bo").stdout
    assert run("undo").exit_code == 0
    undone = run("undo")  # the fixture's own last batch of 'me'
    assert undone.exit_code == 0, undone.output
    assert "add '1 C 14 x1'" in undone.stdout.splitlines()[0]
    assert run("doctor").exit_code == 0


def test_a_card_is_its_rarity_too_and_its_other_names_are_searched(v4: PostgresUrl) -> None:
    """What schema 5 is for: `1 P 14` beside `1 C 14`, which schema 4's unique code refused,
    and a name in another language that the new trigger function puts in the name vector."""
    upgrade(v4)
    with psycopg.connect(v4.url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO card (game, series, rarity, number, name, name_key, type, hero, "
            "traits, gems, text, lore, artist, names) VALUES ('free-realms', 1, 'P', 14, "
            "'Chugawug Cook', 'chugawug cook', 'Creature', false, 'Chugawug', 'GG', '', '', "
            "'A. Painter', 'Chugawug-Koch')"
        )
    run = Run(v4.url)  # type: ignore[arg-type]
    found = run("search", "n:koch", "-o", "csv")
    assert found.exit_code == 0, found.output
    assert [line.split(",")[0] for line in found.stdout.splitlines()[1:]] == ["1 P 14"]
    assert run("doctor").exit_code == 0


def test_a_second_open_changes_nothing(v4: PostgresUrl) -> None:
    upgrade(v4)
    stamp = "SELECT xmin::text FROM cardbase_meta WHERE key = 'schema_version'"
    before = ({t: rows(v4, t) for t in TABLES_THEN}, vectors(v4), shape(v4), query(v4, stamp))
    upgrade(v4)
    after = ({t: rows(v4, t) for t in TABLES_THEN}, vectors(v4), shape(v4), query(v4, stamp))
    assert after == before  # the version row not even rewritten


def test_two_first_opens_at_once_upgrade_once(v4: PostgresUrl) -> None:
    """The upgrade runs under the write lock: the second waits, then finds it upgraded."""
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def open_it() -> None:
        start.wait()
        try:
            upgrade(v4)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert version(v4) == tables.SCHEMA_VERSION
    assert Run(v4.url)("doctor").exit_code == 0  # type: ignore[arg-type]


def test_an_upgrade_the_role_may_not_make_is_one_line_and_changes_nothing(
    v4: PostgresUrl,
) -> None:
    """A role that may read the version but does not own the tables: the upgrade's first
    ALTER fails, and the whole transaction with it."""
    role = f"not_owner_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(v4.url, autocommit=True) as admin:
        admin.execute(f"CREATE ROLE {role} LOGIN")  # type: ignore[arg-type]
        admin.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")  # type: ignore[arg-type]
    try:
        before = shape(v4)
        user = v4.url.split("//", 1)[1].split("@", 1)[0]
        result = Run(v4.url.replace(f"//{user}@", f"//{role}@", 1))("search", "chug")  # type: ignore[arg-type]
        assert result.exit_code == 2
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert "cannot upgrade the database from schema 4 to 10" in lines[0]
        assert "must be owner of table card" in lines[0] and "nothing was changed" in lines[0]
        assert "the role that owns its tables" in lines[0]
        assert version(v4) == 4 and shape(v4) == before
    finally:
        with psycopg.connect(v4.url, autocommit=True) as admin:
            admin.execute(f"DROP OWNED BY {role}")  # type: ignore[arg-type]
            admin.execute(f"DROP ROLE {role}")  # type: ignore[arg-type]
