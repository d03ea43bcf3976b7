"""Where the database lives, and the two ways into it: a read connection and a write transaction.

Every command goes through here, so it uses only the standard library: ``sqlite3`` for every
statement, ``platformdirs`` for the default location. Creating and upgrading a database need
SQLModel and happen in `cardbase.db.schema`, imported only when a file is new or older than
this code.

Every write is one `write_transaction`: it starts with ``BEGIN IMMEDIATE``, so the write lock
is taken up front; two commands never both read, then both fail to write, and a busy
database makes a writer wait (up to the busy timeout) rather than fail. It commits when the
block ends and rolls back on any exception, so a command applies completely or not at all.
"""

from __future__ import annotations

import functools
import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cardbase.db.header import is_current, read_header
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
    """A plain sqlite3 connection with the settings every cardbase connection uses.

    Autocommit (``isolation_level=None``): transactions are begun explicitly, by
    `write_transaction`, never implicitly by the driver, which would take a read lock first
    and upgrade it later (what makes "database is locked").
    """
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


def open_db(path: Path) -> sqlite3.Connection:
    """Open the database for reading, creating or upgrading it first when needed."""
    if path.is_dir():
        raise DatabaseError(f"{path}: is a folder, not a database file")
    if path.exists():
        conn = connect(path)
        try:
            if is_current(path, *read_header(conn, path)):
                return conn
        except BaseException:
            conn.close()
            raise
        conn.close()
    from cardbase.db import schema

    schema.prepare(path)
    return connect(path)


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction on an open connection: committed whole, or rolled back whole."""
    conn.execute("PRAGMA journal_mode = WAL")  # lets readers read while a bulk job writes
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:  # SQLite ends some failed transactions itself (disk full)
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def write_transaction(path: Path) -> Iterator[sqlite3.Connection]:
    """The one way to write: the database prepared, then one transaction on its own connection."""
    open_db(path).close()
    conn = connect(path)
    try:
        with transaction(conn):
            yield conn
    finally:
        conn.close()
