"""A sqlite3 connection with the settings every cardbase connection uses, and a transaction.

The lowest layer of `cardbase.db`: `connect` (which opens databases ready for use) and
`schema` (which makes them ready) both build on it.

Every connection's statements end when Ctrl-C is pressed (see `cardbase.db.interrupt`).
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cardbase.db import interrupt
from cardbase.errors import DatabaseError

BUSY_TIMEOUT_MS = 10_000
# Reads go through a memory map instead of a read() call per page: a filtered scan of 100k
# cards takes 7 ms instead of 11. Only the address space is reserved, not memory.
MMAP_BYTES = 256 * 1024 * 1024


def connect(path: Path, uri_query: str | None = None) -> sqlite3.Connection:
    """A plain sqlite3 connection with the settings every cardbase connection uses.

    Autocommit (``isolation_level=None``): transactions are begun explicitly, by
    `write_transaction`, never implicitly by the driver, which would take a read lock first
    and upgrade it later (what makes "database is locked"). `uri_query` (``mode=ro``,
    ``immutable=1``) opens a file that cardbase may only read; see `cardbase.db.connect`.
    """
    target = f"{path.absolute().as_uri()}?{uri_query}" if uri_query else path
    try:
        conn = sqlite3.connect(
            target,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
            uri=bool(uri_query),
            factory=interrupt.Connection,
        )
    except sqlite3.Error as exc:
        raise DatabaseError(f"{path}: cannot open the database ({exc})") from exc
    conn.row_factory = sqlite3.Row
    conn.create_function("regexp", 2, _regexp, deterministic=True)
    conn.create_function("casefold", 1, _casefold, deterministic=True)
    interrupt.watch(conn)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


@interrupt.callback
def _regexp(pattern: str, value: str | None) -> bool:
    """SQLite's REGEXP for the query language's /regex/ terms: case-insensitive, and in time
    linear in the value (RE2), so no pattern can hold a statement for long."""
    from cardbase.query.regex import compile_pattern  # RE2 loads with the first /regex/

    return isinstance(value, str) and compile_pattern(pattern)(value)


@interrupt.callback
def _casefold(value: str | None) -> str | None:
    """Python's casefold for SQL: locations and tags match in any case, 'Böx' as 'böx' too,
    where SQLite's own lower() and NOCASE fold only ASCII."""
    return unicodedata.normalize("NFC", value).casefold() if isinstance(value, str) else value


# Transactions this process has committed: a Ctrl-C that comes after a commit, while the
# command prints its report, must not say that nothing was changed.
_COMMITTED = [0]


def committed() -> int:
    return _COMMITTED[0]


@contextmanager
def transaction(
    conn: sqlite3.Connection, begin: Callable[[sqlite3.Connection], None] | None = None
) -> Iterator[sqlite3.Connection]:
    """One write transaction on an open connection: committed whole, or rolled back whole.

    `begin` takes the write lock in place of a plain BEGIN IMMEDIATE (a writer that waits).
    """
    conn.execute("PRAGMA journal_mode = WAL")  # lets readers read while a bulk job writes
    conn.execute("PRAGMA synchronous = NORMAL")
    if begin is None:
        conn.execute("BEGIN IMMEDIATE")
    else:
        begin(conn)
    try:
        yield conn
    except BaseException as exc:
        by_ctrl_c = isinstance(exc, sqlite3.OperationalError) and interrupt.stopped()
        if conn.in_transaction:  # SQLite ends some failed transactions itself (disk full)
            conn.execute("ROLLBACK")
        if by_ctrl_c:  # Ctrl-C ended a statement: the interrupt it was, once rolled back
            raise KeyboardInterrupt from None
        raise
    if interrupt.stopped():  # Ctrl-C came during a statement that still finished
        conn.execute("ROLLBACK")
        raise KeyboardInterrupt
    conn.execute("COMMIT")
    _COMMITTED[0] += 1
