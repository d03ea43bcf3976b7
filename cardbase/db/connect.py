"""Where the database lives, and the two ways into it: a read connection and a write transaction.

Every command goes through here, so it uses only the standard library: ``sqlite3`` for every
statement, ``platformdirs`` for the default location. Both ways first make sure the file is a
current cardbase database; creating and upgrading one need SQLModel and happen in
`cardbase.db.schema`, imported only when a file is new or older than this code.

Every write is one `write_transaction`: it starts with ``BEGIN IMMEDIATE``, so the write lock
is taken up front; two commands never both read, then both fail to write. A writer that finds
another writing waits for it, says so once, and keeps waiting as long as a bulk job can take
(`WRITE_WAIT_SECONDS`). The transaction commits when the block ends and rolls back on any
exception, so a command applies completely or not at all; and it never starts on a file
with damaged pages (`cardbase.db.health.damage`).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cardbase.db.engine import Bare, Connection, Opener
from cardbase.db.location import Location, PostgresUrl, default_db_path
from cardbase.db.sqlite import BUSY_TIMEOUT_MS, connect, transaction
from cardbase.db.stamp import is_current, read_header
from cardbase.errors import DatabaseError

# How long a writer waits for another command's write: a 100k-row collection import takes
# about 5 s on this project's machine; a slow disk or a bigger file, many times that.
WRITE_WAIT_SECONDS = 600.0
WAIT_NOTICE_SECONDS = 1.0  # a wait longer than this is said, once
_POLL_MS = 250  # each later try: how soon Ctrl-C is noticed while waiting
WAITING = "waiting for another cardbase command to finish writing..."


def _quiet(message: str) -> None:
    pass


_notice: list[Callable[[str], None]] = [_quiet]


def on_wait(callback: Callable[[str], None]) -> None:
    """Who hears that a writer is waiting: the CLI prints it; the library prints nothing."""
    _notice[0] = callback


def existing_file(path: Path) -> bool:
    """Whether a database file is there; raises for what must never be opened as one.

    Checked before SQLite sees the path: given /dev/null, SQLite would "open" it and leave a
    /dev/null-journal behind.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return False
    except NotADirectoryError:
        raise DatabaseError(f"{path}: part of the path is a file, not a folder") from None
    except OSError as exc:
        raise DatabaseError(f"{path}: cannot open the database ({exc.strerror or exc})") from exc
    if stat.S_ISDIR(mode):
        raise DatabaseError(f"{path}: is a folder, not a database file")
    if not stat.S_ISREG(mode):
        raise DatabaseError(f"{path}: is not a regular file, so cardbase will not use it")
    return True


def read_only_query(path: Path) -> str | None:
    """None when cardbase may write the file; else how SQLite can still read it.

    A WAL database needs its -shm and -wal files beside it. In a folder we cannot write they
    cannot be made, so a plain or ``mode=ro`` open fails; ``immutable`` reads the file alone,
    which is safe there because nobody can write a WAL or rollback journal beside it either,
    unless a -wal file is already there (a writer elsewhere): that needs ``mode=ro``.
    """
    folder_writable = os.access(path.parent, os.W_OK)
    if folder_writable and os.access(path, os.W_OK):
        return None
    if folder_writable or Path(f"{path}-wal").exists():
        return "mode=ro"
    return "immutable=1"


def open_existing(path: Location) -> Connection:
    """The file as it is, nothing created, upgraded or checked: what `doctor` must see of a
    database that every other command refuses. (A PostgreSQL database: a plain connection.)"""
    if not isinstance(path, Path):
        from cardbase.db.postgres.connection import connect as connect_postgres

        return connect_postgres(path)
    if not existing_file(path):
        raise DatabaseError(f"{path}: no database here (the first command creates one)")
    return connect(path, read_only_query(path))


def open_db(path: Location, opener: Opener | None = None) -> Connection:
    """Open the database for reading, creating (seeded by `opener`) or upgrading it first
    when needed, as `opener` scopes it (`cardbase.Library`: to its collector). A
    `PostgresUrl` opens that server's database through `cardbase.db.postgres`."""
    opener = opener or Bare()
    conn = _ready(path, opener) if isinstance(path, Path) else _ready_postgres(path, opener)
    try:
        opener.scope(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _ready(path: Path, opener: Opener) -> Connection:
    if existing_file(path):
        query = read_only_query(path)
        conn = connect(path, query)
        try:
            if is_current(path, *read_header(conn, path)):
                return conn
        except BaseException:
            conn.close()
            raise
        conn.close()
        if query:
            raise _read_only(path, "it needs creating or upgrading")
    from cardbase.db import schema

    fresh = not existing_file(path)
    schema.prepare(path, opener)
    conn = connect(path)
    if fresh and path == default_db_path():
        # made by whatever command came first, where the user did not ask for it: said once,
        # with how to choose another (a --db, CARDBASE_DB or config file named it otherwise)
        _tell_created(conn, path)
    return conn


def _tell_created(conn: Connection, path: Path) -> None:
    from cardbase import notices

    cards = conn.execute("SELECT count(*) FROM card").fetchone()[0]
    notices.tell(
        f"a new database at {path}, with the {cards:,} cards of the bundled catalogue; "
        "to use another, give --db FILE, set CARDBASE_DB=FILE, or run "
        "'cardbase config set db FILE'"
    )


def create_database(location: Location, opener: Opener, catalogue: Path) -> None:
    """Create a new database at `location`, seeded by `opener` from `catalogue`. An existing
    database, or a PostgreSQL database that has cardbase's schema already, is refused: its
    catalogue is changed with `catalog import`, not here."""
    if isinstance(location, Path):
        if existing_file(location):
            raise DatabaseError(
                f"{location}: a database is there already; nothing was changed",
                "Name a new file with --db, or add cards to this one with cardbase catalog import",
            )
        from cardbase.db import schema

        schema.prepare(location, opener, catalogue)
    else:
        from cardbase.db.postgres import schema as postgres_schema
        from cardbase.db.postgres.connection import connect as connect_postgres

        probe = connect_postgres(location)
        try:
            if postgres_schema.read_version(probe) is not None:
                raise DatabaseError(
                    f"{location}: has a cardbase database already; nothing was changed",
                    "Give the new one a database of its own (createdb)",
                )
        finally:
            probe.close()
        postgres_schema.prepare(location, opener, catalogue)


def _ready_postgres(url: PostgresUrl, opener: Opener) -> Connection:
    """As `_ready`: a current schema is read on the connection that is then used, so a
    command opens one connection (a server round trip and a backend start), not two."""
    from cardbase.db import tables
    from cardbase.db.postgres import schema
    from cardbase.db.postgres.connection import connect as connect_postgres

    conn = connect_postgres(url)
    try:
        if schema.read_version(conn) == tables.SCHEMA_VERSION:
            return conn
    except BaseException:
        conn.close()
        raise
    conn.close()
    schema.prepare(url, opener)
    return connect_postgres(url)


def _read_only(path: Path, what: str) -> DatabaseError:
    why = "its folder" if not os.access(path.parent, os.W_OK) else "the file"
    return DatabaseError(
        f"{path}: {what}, but {why} is read-only; nothing was changed",
        "Copy it somewhere you can write, or use 'cardbase backup' to make such a copy",
    )


@contextmanager
def write_transaction(
    path: Location, opener: Opener | None = None, *, whole: bool = False
) -> Iterator[Connection]:
    """The one way to write: a prepared, undamaged database, then one transaction on it, as
    `opener` scopes it (to a collector). `whole`: a write beyond one collector's cards (the
    catalogue, the collectors themselves). SQLite has one writer at a time anyway; on
    PostgreSQL, such a write waits for every other, and a collector's waits only for that
    collector's (the engine's `begin_write`); the server keeps its pages whole itself."""
    if not isinstance(path, Path):
        conn = open_db(path, opener)
        try:
            with transaction(conn, lambda c: c.engine.begin_write(c, whole)):
                yield conn
        finally:
            conn.close()
        return
    from cardbase.db.dbfiles import clear_leftovers
    from cardbase.db.health import damage  # writes only: reads never pay for the checks

    conn = open_db(path, opener)
    waited: list[bool] = []
    try:
        if read_only_query(path):
            raise _read_only(path, "cannot write to the database")
        damage.check_before_write(conn, path)
        clear_leftovers(Path(os.path.realpath(path)))  # a killed restore's, copy's, backup's
        with transaction(conn, lambda c: _begin_waiting(c, waited)):
            yield conn
    except sqlite3.DatabaseError as exc:
        if damage.is_damage(exc):
            raise damage.damaged(path, exc) from exc
        if waited and not conn.in_transaction and _busy(exc):
            minutes = WRITE_WAIT_SECONDS / 60
            raise DatabaseError(
                f"{path}: another command was still writing after {minutes:g} minutes; "
                "nothing was changed",
                "Try again when it has finished",
            ) from exc
        raise
    finally:
        conn.close()


def _begin_waiting(conn: Connection, waited: list[bool]) -> None:
    """BEGIN IMMEDIATE, waiting for another command's write as long as a bulk job takes.

    SQLite's busy timeout would wait in one call that Ctrl-C cannot stop, so the wait is a
    loop of short tries; the first that fails says, once, what we are waiting for.
    """
    deadline = time.monotonic() + WRITE_WAIT_SECONDS
    conn.execute(f"PRAGMA busy_timeout = {int(WAIT_NOTICE_SECONDS * 1000)}")
    try:
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or time.monotonic() >= deadline:
                    raise
            if not waited:
                waited.append(True)
                _notice[0](WAITING)
                conn.execute(f"PRAGMA busy_timeout = {_POLL_MS}")
    finally:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def _busy(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY
