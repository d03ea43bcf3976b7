"""Where the database lives, and the two ways into it: a read connection and a write transaction.

Every command goes through here, so it uses only the standard library: ``sqlite3`` for every
statement, ``platformdirs`` for the default location. Both ways first make sure the file is a
current cardbase database; creating and upgrading one need SQLModel and happen in
`cardbase.db.schema`, imported only when a file is new or older than this code.

Every write is one `write_transaction`: it starts with ``BEGIN IMMEDIATE``, so the write lock
is taken up front; two commands never both read, then both fail to write, and a busy
database makes a writer wait (up to the busy timeout) rather than fail. It commits when the
block ends and rolls back on any exception, so a command applies completely or not at all.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cardbase.db.connection import connect, transaction
from cardbase.db.header import is_current, read_header
from cardbase.errors import DatabaseError

ENV_VAR = "CARDBASE_DB"


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
def write_transaction(path: Path) -> Iterator[sqlite3.Connection]:
    """The one way to write: the database prepared, then one transaction on its own connection."""
    open_db(path).close()
    conn = connect(path)
    try:
        with transaction(conn):
            yield conn
    finally:
        conn.close()
