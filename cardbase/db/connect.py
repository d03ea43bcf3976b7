"""Where the database lives and how read commands open it.

This module is on the start-up path of every command, so it uses only the standard library:
``sqlite3`` for reading, ``platformdirs`` for the default location. Creating, migrating and
loading the bundled catalogue need SQLModel and happen in `cardbase.schema`, which is imported
only when the file is new or older than this code.
"""

from __future__ import annotations

import functools
import os
import re
import sqlite3
from pathlib import Path

from cardbase.db import tables
from cardbase.errors import DatabaseError

ENV_VAR = "CARDBASE_DB"
BUSY_TIMEOUT_MS = 10_000
# Reads go through a memory map instead of a read() call per page: a filtered scan of 100k
# cards takes 7 ms instead of 11. Only the address space is reserved, not memory.
MMAP_BYTES = 256 * 1024 * 1024


def default_db_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("cardbase", appauthor=False) / "cardbase.db"


def resolve_db_path(option: str | os.PathLike[str] | None = None) -> Path:
    """`--db` wins over `CARDBASE_DB`, which wins over the per-user default."""
    if option:
        return Path(option).expanduser()
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_db_path()


def connect(path: Path) -> sqlite3.Connection:
    """A plain sqlite3 connection with the settings every cardbase connection uses."""
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    except sqlite3.Error as exc:
        raise DatabaseError(f"{path}: cannot open the database ({exc})") from exc
    conn.row_factory = sqlite3.Row
    conn.create_function("regexp", 2, _regexp, deterministic=True)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


@functools.lru_cache(maxsize=64)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _regexp(pattern: str, value: str | None) -> bool:
    """SQLite's REGEXP for the query language's /regex/ terms: case-insensitive search."""
    return value is not None and _compiled(pattern).search(value) is not None


def read_header(conn: sqlite3.Connection, path: Path) -> tuple[int, int, int]:
    """(application id, schema version, number of schema objects) of an open database."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{path}: not a cardbase database ({exc})") from exc
    return app_id, version, objects


def check_header(path: Path, app_id: int, version: int, objects: int) -> bool:
    """True when the database is ready for this code; False when it must be created or migrated.

    Raises for files we must not touch: somebody else's database, or one from a newer cardbase.
    """
    if app_id == 0 and objects == 0:
        return False
    if app_id != tables.APPLICATION_ID:
        raise DatabaseError(
            f"{path}: an SQLite database, but not a cardbase one, so nothing was changed",
            "Choose another file with --db",
        )
    if version > tables.SCHEMA_VERSION:
        raise DatabaseError(
            f"{path}: made by a newer cardbase (schema {version}, this one knows "
            f"{tables.SCHEMA_VERSION})",
            "Upgrade cardbase",
        )
    return version == tables.SCHEMA_VERSION


def open_db(path: Path) -> sqlite3.Connection:
    """Open the database, creating or upgrading it first when needed."""
    if path.is_dir():
        raise DatabaseError(f"{path}: is a folder, not a database file")
    if path.exists():
        conn = connect(path)
        if check_header(path, *read_header(conn, path)):
            return conn
        conn.close()
    from cardbase.db import schema

    schema.prepare(path)
    return connect(path)
