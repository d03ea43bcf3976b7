"""Creating, upgrading and writing to the database through SQLModel/SQLAlchemy.

Every write goes through `write_engine`, whose transactions start with ``BEGIN IMMEDIATE``:
the write lock is taken up front, so two commands never both read, then both fail to write,
and a busy database makes a writer wait (up to the busy timeout) rather than fail.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, Table, create_engine, event
from sqlalchemy.exc import DBAPIError

from cardbase.db import connect as db
from cardbase.db import tables
from cardbase.errors import DatabaseError

_FTS_DDL = [
    f"""CREATE VIRTUAL TABLE {tables.CARD_FTS_TABLE} USING fts5(
        {", ".join(tables.FTS_COLUMNS)},
        content="{tables.CARD_TABLE}", content_rowid="id",
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    f"""CREATE TRIGGER {tables.CARD_TABLE}_fts_ai AFTER INSERT ON {tables.CARD_TABLE} BEGIN
        INSERT INTO {tables.CARD_FTS_TABLE}(rowid, {", ".join(tables.FTS_COLUMNS)})
        VALUES (new.id, {", ".join("new." + c for c in tables.FTS_COLUMNS)});
    END""",
    f"""CREATE TRIGGER {tables.CARD_TABLE}_fts_ad AFTER DELETE ON {tables.CARD_TABLE} BEGIN
        INSERT INTO {tables.CARD_FTS_TABLE}({tables.CARD_FTS_TABLE}, rowid,
            {", ".join(tables.FTS_COLUMNS)})
        VALUES ('delete', old.id, {", ".join("old." + c for c in tables.FTS_COLUMNS)});
    END""",
    f"""CREATE TRIGGER {tables.CARD_TABLE}_fts_au AFTER UPDATE ON {tables.CARD_TABLE} BEGIN
        INSERT INTO {tables.CARD_FTS_TABLE}({tables.CARD_FTS_TABLE}, rowid,
            {", ".join(tables.FTS_COLUMNS)})
        VALUES ('delete', old.id, {", ".join("old." + c for c in tables.FTS_COLUMNS)});
        INSERT INTO {tables.CARD_FTS_TABLE}(rowid, {", ".join(tables.FTS_COLUMNS)})
        VALUES (new.id, {", ".join("new." + c for c in tables.FTS_COLUMNS)});
    END""",
]


def write_engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
        # We issue BEGIN ourselves (below); pysqlite's own transaction handling would
        # defer it and then upgrade a read lock, which is what makes "database is locked".
        dbapi_conn.isolation_level = None
        dbapi_conn.execute(f"PRAGMA busy_timeout = {db.BUSY_TIMEOUT_MS}")
        dbapi_conn.execute("PRAGMA foreign_keys = ON")
        dbapi_conn.execute("PRAGMA journal_mode = WAL")
        dbapi_conn.execute("PRAGMA synchronous = NORMAL")

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def prepare(path: Path, catalogue: Path | None = None) -> None:
    """Create a new database with a catalogue, or upgrade an old one, atomically.

    A new database gets `catalogue` (default: the bundled cards.csv).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot create its folder ({exc.strerror or exc})") from exc
    engine = write_engine(path)
    try:
        with engine.begin() as conn:
            raw = conn.connection.driver_connection
            assert isinstance(raw, sqlite3.Connection)
            app_id, version, objects = db.read_header(raw, path)
            if db.check_header(path, app_id, version, objects):
                return  # another process got here first
            if objects == 0:
                _create(conn, catalogue)
            else:
                _migrate(conn, version)
    except (sqlite3.Error, DBAPIError) as exc:  # disk full, permissions, no such folder
        reason = getattr(exc, "orig", None) or exc
        raise DatabaseError(f"{path}: cannot create or upgrade the database ({reason})") from exc
    finally:
        engine.dispose()


def _create(conn: Connection, catalogue: Path | None) -> None:
    from sqlmodel import SQLModel  # the models are needed only to create a database

    from cardbase.catalog import load as catalog

    SQLModel.metadata.create_all(conn, tables=_tables())
    for statement in _FTS_DDL:
        conn.exec_driver_sql(statement)
    _stamp(conn, tables.SCHEMA_VERSION)
    catalog.load_catalogue(conn, catalogue or catalog.bundled_catalogue())


def _migrate(conn: Connection, version: int) -> None:
    from cardbase.db.migrations import MIGRATIONS

    for target in range(version + 1, tables.SCHEMA_VERSION + 1):
        MIGRATIONS[target](conn)
    _stamp(conn, tables.SCHEMA_VERSION)


def _stamp(conn: Connection, version: int) -> None:
    conn.exec_driver_sql(f"PRAGMA application_id = {tables.APPLICATION_ID}")
    conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")


def _tables() -> list[Table]:
    from cardbase.db.models import (
        BatchRow,
        CardRow,
        DeckEntryRow,
        DeckRow,
        HistoryRow,
        OwnershipRow,
    )

    models: tuple[Any, ...] = (CardRow, OwnershipRow, BatchRow, HistoryRow, DeckRow, DeckEntryRow)
    return [model.__table__ for model in models]


def rebuild_fts(conn: Connection) -> None:
    conn.exec_driver_sql(
        f"INSERT INTO {tables.CARD_FTS_TABLE}({tables.CARD_FTS_TABLE}) VALUES ('rebuild')"
    )
