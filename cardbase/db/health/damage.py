"""Telling a damaged database from a healthy one, before a write makes the damage worse.

SQLite notices a damaged page only when a statement reads it, so a write can go through on
a file whose other pages are garbage, and every later write adds to what a restore will
lose. `check_before_write` therefore walks every page of every table and index first
(SQLite's ``dbstat`` table, which decodes each page's header and cells and follows
overflow chains, calling a page it cannot decode "corrupted"): 10 ms for a 40 MB file
with 100k cards and 90k holdings, where ``quick_check`` took 250 ms (0.15 s with no
holdings), more than the write itself. What the walk leaves out, ``quick_check`` and
``integrity_check`` still do in ``doctor``, ``backup`` and ``restore``: rows against
NOT NULL and CHECK constraints (every write has SQLite enforce both on the rows it
writes), keys in order, pages used twice or never, the free-page list (SQLite checks each
free page it hands out). An SQLite built without ``dbstat`` gets ``quick_check``. Reads are
not checked: the damage they run into is reported as such (`damaged`), and they cannot add
to it.

Comparing a whole schema with the models needs SQLModel (half a second to import), so only
``doctor`` and ``restore`` do it (`schema_differences`); a write checks the cheaper half that
matters to it, from one read of ``sqlite_master``: the tables and the full-text triggers it
writes through are all there, and nothing else is. A trigger or view cardbase did not make
(planted in a league file from elsewhere) would run inside cardbase's own writes, so any
object whose name or kind is not cardbase's, and any trigger whose SQL is not cardbase's, is
refused before the write (`SCHEMA_OBJECTS`, held against the models by the tests).
"""

from __future__ import annotations

import functools
import re
import sqlite3
from pathlib import Path

from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.db.location import Location
from cardbase.db.sqlite import SqliteConnection
from cardbase.errors import DatabaseError

DAMAGED_HINT = (
    "Run 'cardbase doctor' to see what is wrong, or 'cardbase restore BACKUP' to put a backup "
    "in its place"
)
_DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
_TABLES = (
    tables.CARD_TABLE,
    tables.CARD_FTS_TABLE,
    tables.COLLECTOR_TABLE,
    tables.HOLDING_TABLE,
    tables.OWNERSHIP_TABLE,
    tables.BATCH_TABLE,
    tables.HISTORY_TABLE,
    tables.DECK_TABLE,
    tables.DECK_ENTRY_TABLE,
    tables.DECK_VERSION_TABLE,
    tables.DECK_VERSION_ENTRY_TABLE,
    tables.DECK_SLEEVE_TABLE,
    tables.EVENT_TABLE,
    tables.EVENT_PLAYER_TABLE,
    tables.EVENT_ROUND_TABLE,
    tables.EVENT_PAIRING_TABLE,
    tables.EVENT_REPORT_TABLE,
)


def is_damage(exc: BaseException) -> bool:
    """True for SQLite's own verdict that a file is damaged, as opposed to busy or refused."""
    code = getattr(exc, "sqlite_errorcode", None)
    return (
        isinstance(exc, sqlite3.DatabaseError)
        and code is not None
        and code & 0xFF in (_DAMAGE_CODES)
    )


def damaged(path: Location, detail: object) -> DatabaseError:
    return DatabaseError(
        f"{path}: the database is damaged ({_first_line(detail)}); nothing was changed",
        DAMAGED_HINT,
    )


def schema_broken(path: Location, detail: object) -> DatabaseError:
    return DatabaseError(
        f"{path}: the database's tables are not cardbase's ({_first_line(detail)}); "
        "nothing was changed",
        DAMAGED_HINT,
    )


def _first_line(detail: object) -> str:
    lines = [line for line in str(detail).splitlines() if not line.startswith("*** in database")]
    return lines[0] if lines else "no detail"


def page_problems(conn: Connection, check: str = "quick_check", limit: int = 3) -> list[str]:
    """SQLite's page checks as a list of problems, empty when all is well.

    When the damage stops the check itself, the error is the one problem.
    """
    try:
        rows = [row[0] for row in conn.execute(f"PRAGMA {check}({int(limit)})")]
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            return [str(exc)]
        raise
    return [] if rows == ["ok"] else [_first_line(row) for row in rows]


# Every table and index of a current cardbase database, by kind, as the models and the
# full-text DDL make them (tests/test_db_hardening.py holds this against them); SQLite's own
# (sqlite_autoindex_*, sqlite_stat1, sqlite_sequence) are left out of the comparison.
_INDEXES = (
    "card_name_name_key", "collector_default", "batch_collector", "history_batch",
    "deck_entry_deck", "card_attack_up", "card_attack_down", "card_defense_up",
    "card_defense_down", "card_cost_up", "card_cost_down", "card_name_key",
    "card_series_number", "event_pairing_round", "deck_version_entry_version",
    "deck_sleeve_card", "card_value_number", "card_value_word",
)  # fmt: skip
_FTS_SHADOWS = ("data", "idx", "docsize", "config")  # FTS5's own tables
_CARD_SIDE_TABLES = (tables.CARD_NAME_TABLE, tables.CARD_TEXT_TABLE, tables.CARD_VALUE_TABLE)
SCHEMA_OBJECTS = frozenset(
    [("table", name) for name in (*_TABLES, *_CARD_SIDE_TABLES)]
    + [("table", f"{tables.CARD_FTS_TABLE}_{part}") for part in _FTS_SHADOWS]
    + [("index", f"ix_{name}") for name in _INDEXES]
)


def check_before_write(conn: Connection, path: Path) -> None:
    """Refuse to write into a file with damaged pages, with tables or triggers missing, or
    with a table, index, trigger or view that is not cardbase's (which could run, or change
    what a write does): one read of sqlite_master, no SQLModel."""
    problems = walk_problems(conn)
    if problems:
        raise damaged(path, problems[0])
    found = schema_problem(conn)
    if found:
        raise schema_broken(path, found)


def schema_problem(conn: Connection) -> str | None:
    """What is missing from the schema, or the first object in it that is not cardbase's
    (a table, index, trigger or view that could run or change what a write does)."""
    rows = conn.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite^_%' ESCAPE '^'"
    ).fetchall()
    present = {row[1] for row in rows}
    missing = [name for name in required_objects() if name not in present]
    if missing:
        return f"missing: {', '.join(missing)}"
    unexpected = next((f"{kind} {name}" for kind, name, sql in rows
                       if not _is_cardbases(kind, name, sql)), None)  # fmt: skip
    return f"{unexpected} is not cardbase's" if unexpected else None


def _is_cardbases(kind: str, name: str, sql: str | None) -> bool:
    """Whether one sqlite_master row is an object cardbase makes: a trigger must also have
    cardbase's own SQL, since its body is what runs."""
    if kind == "trigger":
        return _fold(sql) in _fts_triggers().get(name, ())
    return (kind, name) in SCHEMA_OBJECTS


def _fold(sql: str | None) -> str:
    return re.sub(r"[\s\"]+", "", sql or "").lower()


@functools.cache
def _fts_triggers() -> dict[str, tuple[str]]:
    """Each full-text trigger's name and folded SQL, from the DDL that creates it."""
    from cardbase.db.ddl import FTS_DDL, FTS_TRIGGERS

    return {name: (_fold(sql),) for name, sql in zip(FTS_TRIGGERS, FTS_DDL[1:], strict=True)}


# Every page of every b-tree, as dbstat decodes it; a page it cannot decode is "corrupted".
_WALK = (
    "SELECT name, pageno FROM dbstat "
    "WHERE coalesce(pagetype, '') NOT IN ('internal', 'leaf', 'overflow') LIMIT 1"
)


def walk_problems(conn: Connection) -> list[str]:
    """The first page of a table or index that does not decode, as a list of problems (empty
    when every page does); `quick_check`'s when this SQLite has no ``dbstat``."""
    try:
        bad = conn.execute(_WALK).fetchone()
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            return [str(exc)]
        if "dbstat" in str(exc):  # built without SQLITE_ENABLE_DBSTAT_VTAB
            return page_problems(conn)
        raise
    return [] if bad is None else [f"page {bad[1]} of {bad[0]} cannot be read"]


def check_pages(conn: Connection, path: Path) -> None:
    problems = page_problems(conn)
    if problems:
        raise damaged(path, problems[0])


def required_objects() -> tuple[str, ...]:
    """The tables and triggers every write relies on, named without importing SQLModel."""
    from cardbase.db.ddl import FTS_TRIGGERS  # the checks load it; damage messages need not

    return (*_TABLES, *FTS_TRIGGERS)


def schema_differences(conn: Connection) -> list[str]:
    """What differs between this database's schema and the one the SQLModel tables compile to.

    Compared object by object (tables, indexes, triggers, the full-text table), with the SQL
    folded as tests/test_upgrades.py folds it, so an upgraded file equals a new one.
    """
    reference = _reference_schema()
    expected, actual = _shape(reference), _shape(conn)
    found = []
    for key in sorted(expected.keys() - actual.keys()):
        found.append(f"missing {_kind(key, expected[key])} {key[1]}")
    for key in sorted(actual.keys() - expected.keys()):
        found.append(f"extra {_kind(key, actual[key])} {key[1]}")
    for key in sorted(expected.keys() & actual.keys()):
        if expected[key] != actual[key]:
            found.append(_changed(reference, conn, key))
    return found


def _reference_schema() -> Connection:
    reference = sqlite3.connect(":memory:", factory=SqliteConnection)
    from cardbase.db.ddl import FTS_DDL, create_statements

    for statement in (*create_statements(), *FTS_DDL):
        reference.execute(statement)
    return reference


def _shape(conn: Connection) -> dict[tuple[str, str], str]:
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    return {(kind, name): re.sub(r"[\s\"]+", "", sql or "") for kind, name, sql in rows}


def _kind(key: tuple[str, str], sql: str) -> str:
    if sql.upper().startswith("CREATEVIRTUALTABLE"):
        return "full-text table"
    return key[0]


def _changed(reference: Connection, conn: Connection, key: tuple[str, str]) -> str:
    kind, name = key
    if kind != "table":
        return f"{kind} {name} differs from this cardbase's"
    want = [row[1] for row in reference.execute(f'PRAGMA table_xinfo("{name}")')]
    have = [row[1] for row in conn.execute(f'PRAGMA table_xinfo("{name}")')]
    gone = [column for column in want if column not in have]
    added = [column for column in have if column not in want]
    parts = [f"missing column {name}.{column}" for column in gone]
    parts += [f"extra column {name}.{column}" for column in added]
    return "; ".join(parts) or f"table {name}'s definition differs from this cardbase's"


def fts_in_sync(conn: Connection) -> bool:
    """FTS5's own integrity-check; it is an INSERT, so it runs on a copy or a private file."""
    fts = tables.CARD_FTS_TABLE
    try:
        conn.execute(f"INSERT INTO {fts}({fts}, rank) VALUES ('integrity-check', 1)")
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            return False
        raise
    return True
