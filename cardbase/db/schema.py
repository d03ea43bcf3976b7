"""Creating and upgrading the database: the SQLModel tables are the one source of the schema.

A new database gets the tables compiled from the models in `cardbase.db.models`, the
full-text index and its triggers, its header stamp, and the rows its opener seeds it with
(`cardbase.Library`: a catalogue and the default collector), all in one transaction;
an older one is brought forward by `cardbase.db.migrations`. SQLModel (and so SQLAlchemy
and pydantic, about half a second to import) is loaded only here, never by a command that
merely reads or writes rows: those run plain SQL on the sqlite3 connection.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from cardbase.db import tables
from cardbase.db.ddl import FTS_DDL, create_statements
from cardbase.db.engine import Connection, Opener
from cardbase.db.health.damage import DAMAGED_HINT, check_pages, damaged, is_damage
from cardbase.db.location import default_db_path
from cardbase.db.sqlite import connect, transaction
from cardbase.db.stamp import is_current, read_header
from cardbase.errors import DatabaseError
from cardbase.text import plural


def prepare(path: Path, opener: Opener, catalogue: Path | None = None) -> None:
    """Create a new database, seeded by `opener` (from `catalogue`, or the one it chooses),
    or upgrade an old one, atomically."""
    make_folder(path)
    fresh = not path.exists()
    try:
        _prepare(path, opener, catalogue)
    except BaseException:
        if fresh:  # a catalogue that could not be read leaves no empty database behind
            _remove_if_empty(path)
        raise


def _remove_if_empty(path: Path) -> None:
    """The file this process created for a database it could not make, if no other process
    has made one in it meanwhile."""
    from cardbase.db.dbfiles import remove_with_side_files

    try:
        with closing(sqlite3.connect(path)) as probe:
            empty = not probe.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.Error:
        return
    if empty:
        remove_with_side_files(path)


def _prepare(path: Path, opener: Opener, catalogue: Path | None) -> None:
    conn = connect(path)
    # Off while tables are rebuilt (a table's new copy takes its old name only at the end);
    # `migrate` checks every reference before the transaction commits.
    conn.execute("PRAGMA foreign_keys = OFF")
    upgrading = False
    try:
        with transaction(conn):
            app_id, version, objects = read_header(conn, path)
            if is_current(path, app_id, version, objects):
                return  # another process got here first
            if objects == 0:
                create_empty(conn)
                opener.seed(conn, catalogue)
            else:
                upgrading = True
                check_pages(conn, path)
                migrate(conn, version)
                opener.upgraded(conn, version)
    except sqlite3.Error as exc:  # disk full, permissions, no such folder
        if is_damage(exc):
            raise damaged(path, exc) from exc
        if upgrading:
            raise DatabaseError(
                f"{path}: cannot upgrade the database ({exc}); nothing was changed", DAMAGED_HINT
            ) from exc
        raise DatabaseError(f"{path}: cannot create or upgrade the database ({exc})") from exc
    finally:
        conn.close()


def make_folder(path: Path) -> None:
    """The default location's folders are cardbase's to make; any other missing folder is
    more likely a typo (`--db nope/x.db`) than a wish for a new, empty collection."""
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


def create_empty(conn: Connection) -> None:
    """The schema and its header stamp, inside the caller's transaction, with no row at all:
    not even the default collector, which a copy (`cardbase.db.copy`) brings with its id."""
    for statement in (*create_statements(), *FTS_DDL):
        conn.execute(statement)
    _stamp(conn, tables.SCHEMA_VERSION)


def upgrade(conn: Connection, version: int) -> None:
    """`migrate` in a transaction of its own, with foreign keys off while tables are rebuilt."""
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        with transaction(conn):
            migrate(conn, version)
    finally:
        conn.execute("PRAGMA foreign_keys = ON")


def migrate(conn: Connection, version: int) -> None:
    """Bring a database at a known older `version` forward, inside the caller's transaction."""
    from cardbase.db.migrations import MIGRATIONS

    for target in range(version + 1, tables.SCHEMA_VERSION + 1):
        MIGRATIONS[target](conn)
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise DatabaseError(
            f"the upgrade would leave {plural(len(broken), 'row')} pointing at nothing "
            f"(first in table {broken[0][0]}); nothing was changed",
            DAMAGED_HINT,
        )
    _stamp(conn, tables.SCHEMA_VERSION)


def _stamp(conn: Connection, version: int) -> None:
    conn.execute(f"PRAGMA application_id = {tables.APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {int(version)}")


def rebuild_fts(conn: Connection) -> None:
    fts = tables.CARD_FTS_TABLE
    conn.execute(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')")
