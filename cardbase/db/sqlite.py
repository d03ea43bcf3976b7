"""SQLite's engine: a sqlite3 connection with the settings every cardbase connection uses,
the pieces of SQL SQLite spells its own way (`SqliteEngine`), and a write transaction.

The lowest layer of `cardbase.db`: `connect` (which opens databases ready for use) and
`schema` (which makes them ready) both build on it.

Every connection's statements end when Ctrl-C is pressed (see `cardbase.db.interrupt`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from cardbase.db import interrupt, tables
from cardbase.db.engine import Clause, Connection, Engine, TextTerm
from cardbase.errors import DatabaseError
from cardbase.progress import Progress

BUSY_TIMEOUT_MS = 10_000
# Reads go through a memory map instead of a read() call per page: a filtered scan of 100k
# cards takes 7 ms instead of 11. Only the address space is reserved, not memory.
MMAP_BYTES = 256 * 1024 * 1024


_FTS = tables.CARD_FTS_TABLE


class SqliteEngine(Engine):
    """FTS5 ranked by bm25, REGEXP through RE2 (`_regexp`), BEGIN IMMEDIATE in WAL mode."""

    name = "sqlite"
    walks_sort_index = True
    in_process = True

    def position(self, haystack: str, needle: str) -> str:
        return f"instr({haystack}, {needle})"

    def regex(self, value: str, pattern: str) -> Clause:
        return f"regexp(?, {value})", [pattern]

    def text_match(self, term: TextTerm) -> Clause:
        return f"c.id IN (SELECT rowid FROM {_FTS} WHERE {_FTS} MATCH ?)", [term.fts]

    def ranked_text(self, terms: Sequence[TextTerm], top: int | None, rank: bool = True) -> Clause:
        limit, tail = (" ORDER BY fts_rank LIMIT ?", [top]) if top is not None else ("", [])
        words = " AND ".join(term.fts for term in terms)
        ranked = f", bm25({_FTS}) AS fts_rank" if rank else ""
        return (
            f" JOIN (SELECT rowid AS fts_id{ranked} FROM {_FTS}"
            f" WHERE {_FTS} MATCH ?{limit}) AS f ON f.fts_id = c.id",
            [words, *tail],
        )

    def prepare_write(self, conn: Connection) -> None:
        conn.execute("PRAGMA journal_mode = WAL")  # lets readers read while a bulk job writes
        conn.execute("PRAGMA synchronous = NORMAL")

    def begin_write(self, conn: Connection, whole: bool = True) -> None:
        conn.execute("BEGIN IMMEDIATE")  # one writer at a time, whatever it writes

    def read_only(self, conn: Connection) -> None:
        conn.execute("PRAGMA query_only = ON")

    def scope_to_collector(self, conn: Connection, number: int) -> None:
        for view, select in tables.collector_views(str(number)).items():
            conn.execute(f"DROP VIEW IF EXISTS temp.{view}")
            conn.execute(f"CREATE TEMP VIEW {view} AS {select}")

    def bulk_load(
        self, conn: Connection, active: bool, progress: Progress
    ) -> AbstractContextManager[None]:
        from cardbase.db.bulkload import bulk_load

        return bulk_load(conn, active, progress)


SQLITE = SqliteEngine()


class SqliteConnection(interrupt.Connection):
    """A cardbase connection to a SQLite file, which knows its engine."""

    engine: Engine = SQLITE
    game: str | None = None


def connect(path: Path, uri_query: str | None = None) -> SqliteConnection:
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
            factory=SqliteConnection,
        )
    except sqlite3.Error as exc:
        raise DatabaseError(f"{path}: cannot open the database ({exc})") from exc
    conn.row_factory = sqlite3.Row
    conn.create_function("regexp", 2, _regexp, deterministic=True)
    interrupt.watch(conn)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


@interrupt.callback
def _regexp(pattern: str, value: str | None) -> bool:
    """SQLite's REGEXP for the query language's /regex/ terms: case-insensitive, and in time
    linear in the value (RE2), so no pattern can hold a statement for long."""
    from cardbase.db.regex import compile_pattern  # RE2 loads with the first /regex/

    return isinstance(value, str) and compile_pattern(pattern)(value)


# Transactions this process has committed: a Ctrl-C that comes after a commit, while the
# command prints its report, must not say that nothing was changed.
_COMMITTED = [0]


def committed() -> int:
    return _COMMITTED[0]


@contextmanager
def transaction(
    conn: Connection, begin: Callable[[Connection], None] | None = None
) -> Iterator[Connection]:
    """One write transaction on an open connection of either engine: committed whole, or
    rolled back whole.

    `begin` takes the write lock in place of the engine's own (a writer that waits).
    """
    conn.engine.prepare_write(conn)
    if begin is None:
        conn.engine.begin_write(conn)
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
