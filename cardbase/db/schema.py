"""Creating and upgrading the database: the SQLModel tables are the one source of the schema.

A new database gets the tables compiled from the models in `cardbase.db.models`, the
full-text index and its triggers, its header stamp, and a catalogue, all in one transaction;
an older one is brought forward by `cardbase.db.migrations`. SQLModel (and so SQLAlchemy
and pydantic, about half a second to import) is loaded only here, never by a command that
merely reads or writes rows: those run plain SQL on the sqlite3 connection.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cardbase.db import tables
from cardbase.db.connection import connect, transaction
from cardbase.db.header import is_current, read_header
from cardbase.db.health import RESTORE_HINT, check_pages, damaged, is_damage
from cardbase.errors import DatabaseError

_FTS = tables.CARD_FTS_TABLE
_CARD = tables.CARD_TABLE
_FTS_COLUMNS = ", ".join(tables.FTS_COLUMNS)
_NEW = ", ".join("new." + c for c in tables.FTS_COLUMNS)
_OLD = ", ".join("old." + c for c in tables.FTS_COLUMNS)
# The triggers that keep the full-text index in step with the card table.
FTS_TRIGGERS = (f"{_CARD}_fts_ai", f"{_CARD}_fts_ad", f"{_CARD}_fts_au")
FTS_DDL = (
    f"""CREATE VIRTUAL TABLE {_FTS} USING fts5(
        {_FTS_COLUMNS},
        content="{_CARD}", content_rowid="id",
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    f"""CREATE TRIGGER {FTS_TRIGGERS[0]} AFTER INSERT ON {_CARD} BEGIN
        INSERT INTO {_FTS}(rowid, {_FTS_COLUMNS}) VALUES (new.id, {_NEW});
    END""",
    f"""CREATE TRIGGER {FTS_TRIGGERS[1]} AFTER DELETE ON {_CARD} BEGIN
        INSERT INTO {_FTS}({_FTS}, rowid, {_FTS_COLUMNS}) VALUES ('delete', old.id, {_OLD});
    END""",
    f"""CREATE TRIGGER {FTS_TRIGGERS[2]} AFTER UPDATE ON {_CARD} BEGIN
        INSERT INTO {_FTS}({_FTS}, rowid, {_FTS_COLUMNS}) VALUES ('delete', old.id, {_OLD});
        INSERT INTO {_FTS}(rowid, {_FTS_COLUMNS}) VALUES (new.id, {_NEW});
    END""",
)


def prepare(path: Path, catalogue: Path | None = None) -> None:
    """Create a new database with a catalogue, or upgrade an old one, atomically.

    A new database gets `catalogue` (default: the bundled cards.csv).
    """
    make_folder(path)
    conn = connect(path)
    upgrading = False
    try:
        with transaction(conn):
            app_id, version, objects = read_header(conn, path)
            if is_current(path, app_id, version, objects):
                return  # another process got here first
            if objects == 0:
                _create(conn, catalogue)
            else:
                upgrading = True
                check_pages(conn, path)
                migrate(conn, version)
    except sqlite3.Error as exc:  # disk full, permissions, no such folder
        if is_damage(exc):
            raise damaged(path, exc) from exc
        if upgrading:
            raise DatabaseError(
                f"{path}: cannot upgrade the database ({exc}); nothing was changed", RESTORE_HINT
            ) from exc
        raise DatabaseError(f"{path}: cannot create or upgrade the database ({exc})") from exc
    finally:
        conn.close()


def make_folder(path: Path) -> None:
    """The default location's folders are cardbase's to make; any other missing folder is
    more likely a typo (`--db nope/x.db`) than a wish for a new, empty collection."""
    from cardbase.db.connect import default_db_path

    if path.parent.is_dir():
        return
    if path != default_db_path():
        raise DatabaseError(
            f"{path}: the folder {path.parent} does not exist; nothing was created",
            "Check the path, or create the folder first",
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot create its folder ({exc.strerror or exc})") from exc


def create_statements() -> list[str]:
    """The DDL of every table and index, compiled from the SQLModel models for SQLite."""
    from sqlalchemy.dialects import sqlite
    from sqlalchemy.schema import CreateIndex, CreateTable

    from cardbase.db.models import TABLES

    dialect = sqlite.dialect()
    statements = []
    for table in TABLES:
        statements.append(str(CreateTable(table).compile(dialect=dialect)))
        statements += [str(CreateIndex(index).compile(dialect=dialect)) for index in table.indexes]
    return statements


def _create(conn: sqlite3.Connection, catalogue: Path | None) -> None:
    from cardbase.catalog.load import bundled_catalogue, load_catalogue

    for statement in (*create_statements(), *FTS_DDL):
        conn.execute(statement)
    _stamp(conn, tables.SCHEMA_VERSION)
    load_catalogue(conn, catalogue or bundled_catalogue())


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring a database at a known older `version` forward, inside the caller's transaction."""
    from cardbase.db.migrations import MIGRATIONS

    for target in range(version + 1, tables.SCHEMA_VERSION + 1):
        MIGRATIONS[target](conn)
    _stamp(conn, tables.SCHEMA_VERSION)


def _stamp(conn: sqlite3.Connection, version: int) -> None:
    conn.execute(f"PRAGMA application_id = {tables.APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {int(version)}")


def rebuild_fts(conn: sqlite3.Connection) -> None:
    conn.execute(f"INSERT INTO {_FTS}({_FTS}) VALUES ('rebuild')")
