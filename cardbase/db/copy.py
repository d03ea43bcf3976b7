"""`cardbase db copy`: a whole cardbase database copied to another place or engine (SQLite to
PostgreSQL for a league, and back), verified table by table before anything is kept.

The source must be a cardbase database (an older SQLite one is upgraded first, as any command
would); it is read in one snapshot, so a command writing to it meanwhile changes neither the
copy nor its proof. The target is new: a SQLite file that does not exist yet, or an empty
PostgreSQL database. One that already holds a cardbase database is replaced only with
`force`; anything else (another program's SQLite file, a PostgreSQL database with other
tables) never.

Every row keeps its id, so the copy is the same database: collectors, holdings, history
(undo works on the copy), decks. The target's schema is made empty, without the catalogue
or default collector a new database gets, and filled by `cardbase.db.transfer`, which also
proves it: each table's rows counted and hashed on both sides must agree before the one
transaction commits. A failure or Ctrl-C leaves the target as it was:

- SQLite: the copy is written to a new file beside the target and moved into place only
  once verified (as `cardbase restore` does); until then the target is untouched, and the
  new file is deleted on failure. One a kill left there is removed by the next copy to the
  same target (`cardbase.db.dbfiles.clear_leftovers`).
- PostgreSQL: one transaction, under the write lock every cardbase writer takes; `force`
  empties the tables inside it, so a rollback brings the old rows back.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardbase.db import interrupt, tables
from cardbase.db.dbfiles import (
    claimed,
    clear_leftovers,
    flush_to_disk,
    remove_with_side_files,
    side_files,
    temporary_beside,
)
from cardbase.db.engine import Connection
from cardbase.db.location import Location, PostgresUrl
from cardbase.db.transfer import TableSum, copy_tables, table_specs, verify
from cardbase.errors import DatabaseError
from cardbase.progress import Progress, quiet

FORCE_HINT = "--force replaces its contents"


@dataclass(frozen=True)
class CopyReport:
    source: Location
    target: Location
    tables: list[TableSum]
    replaced: bool  # the target held a cardbase database, replaced by the copy

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": str(self.source),
            "target": str(self.target),
            "replaced": self.replaced,
            "tables": [s.__dict__ for s in self.tables],
        }


def copy_database(
    source: Location, target: Location, force: bool = False, progress: Progress = quiet
) -> CopyReport:
    """Copy every table of the cardbase database at `source` to `target`, verified, in one
    transaction; see the module's docstring for what `target` may be."""
    _refuse_same_file(source, target)
    src = _open_source(source)
    try:
        with interrupt.interruptible():
            _begin_snapshot(src)
            if isinstance(target, Path):
                read, replaced = _to_sqlite(src, target, force, progress)
            else:
                read, replaced = _to_postgres(src, source, target, force, progress)
    finally:
        with suppress(sqlite3.Error):
            src.rollback()  # the snapshot: nothing was written to the source
        src.close()
    return CopyReport(source, target, read, replaced)


def _refuse_same_file(source: Location, target: Location) -> None:
    if not (isinstance(source, Path) and isinstance(target, Path)):
        return
    if source.exists() and target.exists():
        same = os.path.samefile(source, target)
    else:
        same = os.path.realpath(source) == os.path.realpath(target)
    if same:
        raise DatabaseError(f"{target}: that is the source database itself; nothing was copied")


def _open_source(source: Location) -> Connection:
    """The source, as `open_db` opens it, once it is known to hold a cardbase database:
    `open_db` alone would make one in an empty file or PostgreSQL database."""
    from cardbase.db.connect import existing_file, open_db

    if isinstance(source, Path):
        if not existing_file(source):
            raise DatabaseError(f"{source}: no such database; nothing was copied")
        if not _is_cardbase_file(source):
            raise DatabaseError(f"{source}: not a cardbase database; nothing was copied")
    elif _postgres_version(source) is None:
        raise DatabaseError(f"{source}: holds no cardbase database; nothing was copied")
    return open_db(source)


def _postgres_version(url: PostgresUrl) -> int | None:
    """The source's schema version; None when it has no cardbase schema, nor any table."""
    from cardbase.db.postgres.connection import connect
    from cardbase.db.postgres.schema import read_version

    conn = connect(url)
    try:
        return read_version(conn)
    except DatabaseError:  # tables, but not cardbase's
        raise DatabaseError(f"{url}: not a cardbase database; nothing was copied") from None
    finally:
        conn.close()


def _is_cardbase_file(path: Path) -> bool:
    """False for an empty file, somebody else's database, a damaged one, or not a database
    at all: nothing `open_db` may turn into a cardbase database, nor a copy replace."""
    from cardbase.db.connect import open_existing
    from cardbase.db.stamp import read_header

    conn = open_existing(path)
    try:
        app_id, _version, _objects = read_header(conn, path)
    except DatabaseError:
        return False
    finally:
        conn.close()
    return bool(app_id == tables.APPLICATION_ID)


def _begin_snapshot(src: Connection) -> None:
    """One read transaction over the whole copy: every table, and the checksums, as of one
    moment, whatever other commands write meanwhile."""
    src.engine.begin_snapshot(src)


def _copy_into(src: Connection, dst: Connection, progress: Progress) -> list[TableSum]:
    """Within `dst`'s transaction, on its empty schema: the rows, the full-text index, the
    id sequences, then the proof."""
    specs = table_specs()
    with _filling(dst, progress):
        read = copy_tables(src, dst, specs, progress)
    dst.engine.after_copy(dst, [spec.name for spec in specs])
    verify(dst, specs, read, progress)
    return read


def _filling(dst: Connection, progress: Progress) -> AbstractContextManager[None]:
    """The card table's indexes and full-text index built once, after its rows are in,
    rather than row by row (see each engine's module)."""
    return dst.engine.filling_cards(dst, progress)


# -- a SQLite file ------------------------------------------------------------------------


def _to_sqlite(
    src: Connection, target: Path, force: bool, progress: Progress
) -> tuple[list[TableSum], bool]:
    path = Path(os.path.realpath(target))  # through a symlink, as writing in place would go
    live = _check_sqlite_target(target, path, force)
    clear_leftovers(path)  # what an earlier copy here left when it was killed
    temporary = temporary_beside(path, "copying")
    try:
        with claimed(temporary):
            try:
                read = _fill_file(src, temporary, progress)
                if live:
                    os.chmod(temporary, os.stat(path).st_mode & 0o7777)
                flush_to_disk(temporary)
                _put_in_place(temporary, path, live)
            finally:
                remove_with_side_files(temporary)  # while held: no other run removes it
    except (OSError, sqlite3.Error) as exc:
        if isinstance(exc, sqlite3.OperationalError) and interrupt.stopped():
            raise KeyboardInterrupt from None  # Ctrl-C ended a statement (the index build)
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise DatabaseError(
            f"{target}: cannot write the copy ({why}); nothing was changed"
        ) from exc
    return read, live


def _check_sqlite_target(target: Path, path: Path, force: bool) -> bool:
    """Whether the target holds a cardbase database to replace (with `force`); raises for
    what may not be written there."""
    from cardbase.db.connect import existing_file

    if not existing_file(path):
        if not path.parent.is_dir():
            raise DatabaseError(
                f"{target}: the folder {target.parent} does not exist; nothing was copied",
                "Check the path, or create the folder first",
            )
        return False
    if not _is_cardbase_file(path):
        raise DatabaseError(
            f"{target}: exists and is not a cardbase database, so it is left alone; "
            "nothing was copied",
            "Choose a new file",
        )
    if not force:
        raise DatabaseError(
            f"{target}: already holds a cardbase database; nothing was copied", FORCE_HINT
        )
    return True


def _fill_file(src: Connection, temporary: Path, progress: Progress) -> list[TableSum]:
    """The copy in a new file of its own, committed only once verified."""
    from cardbase.db import schema
    from cardbase.db.sqlite import connect

    conn = connect(temporary)
    try:
        # Nobody else opens this file, and it is flushed to disk before it takes the
        # target's name: SQLite's own flushes would only slow the copy down.
        conn.execute("PRAGMA synchronous = OFF")
        with _transaction(conn):
            schema.create_empty(conn)
            return _copy_into(src, conn, progress)
    finally:
        conn.close()


@contextmanager
def _transaction(conn: Connection) -> Iterator[None]:
    conn.engine.begin_write(conn)
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _put_in_place(temporary: Path, path: Path, live: bool) -> None:
    """The verified copy takes the target's name. A new target is linked, which fails if a
    file appeared there meanwhile; a replaced one's -wal and -shm go with it, since SQLite
    would otherwise replay the old database's last writes onto the copy."""
    if not live:
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise DatabaseError(
                f"{path}: a file appeared there during the copy; nothing was changed"
            ) from None
        except OSError:  # a file system without hard links
            if path.exists():
                raise
            os.replace(temporary, path)
    else:
        moved = []
        try:
            for side, aside in zip(side_files(path), side_files(temporary), strict=True):
                if side.exists():
                    os.replace(side, aside)  # deleted with the temporary file's own
                    moved.append((side, aside))
            os.replace(temporary, path)
        except BaseException:
            for side, aside in moved:
                os.replace(aside, side)
            raise
    flush_to_disk(path.parent)


# -- a PostgreSQL database ----------------------------------------------------------------


def _to_postgres(
    src: Connection, source: Location, target: PostgresUrl, force: bool, progress: Progress
) -> tuple[list[TableSum], bool]:
    from cardbase.db.postgres.connection import connect

    conn = connect(target)
    try:
        if isinstance(source, PostgresUrl) and _same_postgres(src, conn):
            raise DatabaseError(f"{target}: that is the source database itself; nothing was copied")
        conn.engine.begin_write(conn)  # the write lock every cardbase writer waits for
        try:
            replaced = _empty_postgres(conn, target, force)
            read = _copy_into(src, conn, progress)
            conn.commit()
        except BaseException:
            with suppress(sqlite3.Error):
                conn.rollback()
            raise
    except sqlite3.Error as exc:
        raise DatabaseError(f"{target}: cannot copy ({exc}); nothing was changed") from exc
    finally:
        conn.close()
    return read, replaced


def _same_postgres(src: Connection, dst: Any) -> bool:
    """Whether two connections reach the same database of the same server, however their
    URLs spell it: the source's session is among the target database's own."""
    pid, started = src.execute("SELECT pg_backend_pid(), pg_postmaster_start_time()").fetchone()
    found = dst.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND datname = current_database() "
        "AND pg_postmaster_start_time() = ?",
        (pid, started),
    ).fetchone()
    return bool(found[0])


def _empty_postgres(conn: Any, target: PostgresUrl, force: bool) -> bool:
    """Inside the transaction: an empty schema to copy into; returns whether a cardbase
    database's rows were emptied for it (`force`)."""
    from cardbase.db.postgres.schema import create_empty, read_version

    version = read_version(conn)  # raises for a database with other tables
    if version is None:
        create_empty(conn)
        return False
    if version != tables.SCHEMA_VERSION:  # said first: --force would not help
        raise DatabaseError(
            f"{target}: holds a cardbase database of schema {version}, not this cardbase's "
            f"{tables.SCHEMA_VERSION}, which even --force cannot refill; nothing was changed",
            "Copy into a new database (createdb), or drop this one first",
        )
    if not force:
        raise DatabaseError(
            f"{target}: already holds a cardbase database; nothing was copied", FORCE_HINT
        )
    names = [spec.name for spec in table_specs()] + [tables.CARD_FTS_TABLE]
    conn.execute(f"TRUNCATE {', '.join(names)}")
    return True
