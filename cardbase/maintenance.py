"""Keeping years of records safe: backup, restore and a health check.

Backups use SQLite's online backup, which copies a consistent snapshot even while another
command writes, and a damaged database is never copied as if it were a good backup.

Restore is for the day the database is damaged, so it never opens the live file: it copies
the backup into a new file beside it, checks that copy completely (cardbase's, a version
this code knows, every page, the schema it upgrades to), keeps the old file aside under
another name, and only then moves the copy into place. A failure at any step before the
last leaves the live file as it was. What a killed backup or restore leaves beside its
target, the next one (and any write to the database) removes: `cardbase.db.dbfiles`.

The doctor (`cardbase.db.health`) says what is wrong without changing anything.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from cardbase.db import connect as db
from cardbase.db import tables
from cardbase.db.dbfiles import (
    claimed,
    clear_leftovers,
    flush_to_disk,
    hold,
    partial_pattern,
    remove_with_side_files,
    side_files,
    temporary_beside,
)
from cardbase.db.engine import Connection
from cardbase.db.health import damage
from cardbase.db.location import Location, sqlite_file
from cardbase.db.sqlite import SqliteConnection, connect, transaction
from cardbase.db.stamp import known_version, read_header
from cardbase.errors import CardbaseError, DatabaseError

FIX_HINT = "--fix rebuilds it"
RESTORE_FIRST = "--fix rebuilds it once the problems above are solved"


def backup(db_path: Location, target: Path, force: bool = False) -> Path:
    """Copy the database to `target` through `output_file`, so that a failed or killed backup
    never leaves a damaged copy where a good one was."""
    from cardbase.fileio.writing import cannot_write, output_file

    db_path = sqlite_file(db_path, "backup", "use pg_dump -Fc (and pg_restore to restore)")
    if target.resolve() == db_path.resolve():
        raise CardbaseError(f"{target}: that is the database itself; choose another file")
    if not db.existing_file(db_path):
        raise CardbaseError(f"{db_path}: no database here to back up")
    try:  # a backup may start a folder of backups; a refused one makes none
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(target, exc) from exc
    source = db.open_db(db_path)
    final = Path(os.path.realpath(target))  # where `output_file` writes its partial file
    clear_leftovers(final, [partial_pattern(final)])  # what a killed backup there left
    try:
        with _holding() as held, output_file(target, force=force) as partial:
            held.append(os.open(partial, os.O_RDONLY))
            hold(held[-1])
            _copy_into(source, partial, db_path)
        foreign = damage.schema_problem(source)
    except sqlite3.Error as exc:
        raise CardbaseError(f"{target}: cannot write the backup ({exc})") from exc
    finally:
        source.close()
    if foreign:  # copied as it is, but said: restore would refuse it, writes refuse it now
        from cardbase import notices

        notices.tell(
            f"{db_path}'s schema is not cardbase's ({foreign}): the backup holds it too, and "
            "restore will refuse it; 'cardbase doctor' shows what is wrong"
        )
    return target


@contextmanager
def _holding() -> Iterator[list[int]]:
    """The backup's partial file held (`cardbase.db.dbfiles.claimed`) from just after it is
    made until after it is renamed or removed, so that no other command clears it."""
    handles: list[int] = []
    try:
        yield handles
    finally:
        for handle in handles:
            os.close(handle)


def _copy_into(source: Connection, partial: Path, db_path: Location) -> None:
    assert isinstance(source, sqlite3.Connection)  # a backup is of a SQLite file
    with closing(sqlite3.connect(partial, factory=SqliteConnection)) as copy:
        copy.execute("PRAGMA journal_mode = OFF")  # a failed copy is deleted whole anyway
        # The header first: a partial file a kill leaves is then recognisably SQLite's.
        copy.execute(f"PRAGMA application_id = {tables.APPLICATION_ID}")
        source.backup(copy)
        _refuse_a_damaged_copy(copy, db_path)


def backup_beside(db_path: Location, before: str) -> Path | None:
    """A copy of a SQLite database beside it, named for the moment and the command about to
    change it (`cards-before-move-20261202-013000.db`), for `restore` to put back; None for
    PostgreSQL, whose backups are pg_dump's, or a database not made yet."""
    if not isinstance(db_path, Path) or not db_path.exists():
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return backup(db_path, db_path.with_name(f"{db_path.stem}-before-{before}-{stamp}.db"))


def _refuse_a_damaged_copy(copy: Connection, db_path: Location) -> None:
    """A backup of damaged pages would replace a good backup (with --force) by a bad one."""
    problems = damage.page_problems(copy)
    if problems:
        raise DatabaseError(
            f"{db_path}: the database is damaged ({problems[0]}), so no backup was written",
            "Run 'cardbase doctor'; to keep the file as it is, copy it with your file manager",
        )


# -- restore ------------------------------------------------------------------------------


def restore(db_path: Location, source: Path) -> Path | None:
    """Replace the database with a verified copy of a backup; return where the old one is kept."""
    from cardbase.db import schema

    db_path = sqlite_file(db_path, "restore", "use pg_restore on a pg_dump -Fc archive")
    target = Path(os.path.realpath(db_path))  # through a symlink, as writing in place would go
    if not db.existing_file(source):
        raise DatabaseError(f"{source}: no such file; nothing was changed")
    live = db.existing_file(target)
    if live and os.path.samefile(source, target):
        raise DatabaseError(f"{source}: that is the database itself; nothing was changed")
    if not live:
        schema.make_folder(db_path)
    clear_leftovers(target)  # what an earlier restore here left when it was killed
    temporary = temporary_beside(target, "restoring")
    try:
        with claimed(temporary):
            try:
                _verify(temporary, source, _copy(source, temporary))
                if live:
                    os.chmod(temporary, os.stat(target).st_mode & 0o7777)
                flush_to_disk(temporary)
                return _swap(target, temporary, live)
            finally:
                remove_with_side_files(temporary)  # while held: no other run removes it
    except OSError as exc:
        raise DatabaseError(
            f"{db_path}: cannot restore ({exc.strerror or exc}); nothing was changed"
        ) from exc


def _copy(source: Path, temporary: Path) -> int:
    """A consistent copy of the backup (its -wal included) into a file nobody else opens;
    returns its schema version.

    Read as ``immutable`` when it has no -wal, so that nothing is created beside it: a
    read-only open of a WAL file would leave -shm and -wal files by the user's backup.
    """
    query = "mode=ro" if Path(f"{source}-wal").exists() else "immutable=1"
    try:
        with closing(connect(source, query)) as src:
            version = _backup_version(src, source)
            with closing(sqlite3.connect(temporary)) as copy:
                copy.execute("PRAGMA journal_mode = OFF")
                src.backup(copy)
    except sqlite3.DatabaseError as exc:
        raise _unusable(source, exc) if damage.is_damage(exc) else _cannot_write(exc) from exc
    return version


def _cannot_write(exc: sqlite3.Error) -> OSError:
    """What stops the copy beside the database (a full disk, a read-only folder) is the
    folder's problem, not the backup's."""
    return OSError(str(exc))


def _unusable(source: Path, why: object) -> DatabaseError:
    return DatabaseError(f"{source}: not a usable cardbase backup ({why}); nothing was changed")


def _backup_version(conn: Connection, source: Path) -> int:
    try:
        app_id, version, objects = read_header(conn, source)
    except DatabaseError as exc:
        raise _unusable(source, exc.__cause__ or exc.message) from exc
    if app_id != tables.APPLICATION_ID or objects == 0:
        raise _unusable(source, "an SQLite file, but not cardbase's")
    if version > tables.SCHEMA_VERSION:
        raise _unusable(source, f"made by a newer cardbase, schema {version}")
    if not known_version(version):
        raise _unusable(source, f"schema version {version} is not one any cardbase made")
    return int(version)


def _verify(temporary: Path, source: Path, version: int) -> None:
    """Everything a live database must be, checked on the copy, upgraded there if older."""
    with closing(connect(temporary)) as conn:
        try:
            problems = damage.page_problems(conn) or damage.page_problems(conn, "integrity_check")
            if problems:
                raise _unusable(source, f"damaged: {problems[0]}")
            _upgrade(conn, version, source)
            differences = damage.schema_differences(conn)
            if differences:
                raise _unusable(source, "; ".join(differences[:3]))
            if not damage.fts_in_sync(conn):
                _rebuild_fts(conn)
            conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file to move
        except sqlite3.OperationalError as exc:
            raise _cannot_write(exc) from exc
        except sqlite3.DatabaseError as exc:
            raise _unusable(source, exc) from exc


def _upgrade(conn: Connection, version: int, source: Path) -> None:
    from cardbase.db import schema

    if version == tables.SCHEMA_VERSION:
        return
    try:
        schema.upgrade(conn, version)
    except sqlite3.Error as exc:
        raise _unusable(source, f"cannot be upgraded from schema {version}: {exc}") from exc


def _rebuild_fts(conn: Connection) -> None:
    from cardbase.db import schema

    with transaction(conn):
        schema.rebuild_fts(conn)


def _swap(target: Path, temporary: Path, live: bool) -> Path | None:
    """Keep the old file (and its -wal, which belongs to it alone) aside, then move in the copy.

    The -wal must go with the old file before the new one takes the name: SQLite would
    otherwise replay the old file's last writes onto the restored one.
    """
    if not live:
        os.replace(temporary, target)
        flush_to_disk(target.parent)
        return None
    kept = _keep_aside(target)
    moved = []
    try:
        for side, aside in zip(side_files(target), side_files(kept), strict=True):
            if side.exists():
                os.replace(side, aside)
                moved.append((side, aside))
        os.replace(temporary, target)
    except BaseException:
        for side, aside in moved:
            os.replace(aside, side)
        kept.unlink()  # only a second name for the file still in place
        raise
    flush_to_disk(target.parent)  # the new name, durable as the content already is
    return kept


def _keep_aside(target: Path) -> Path:
    """A second name for the old file: a hard link, or a copy where links are not allowed."""
    import shutil

    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    for attempt in range(100):
        kept = target.with_name(
            f"{target.stem}.before-restore-{stamp}{'-' * bool(attempt)}{attempt or ''}.db"
        )
        try:
            os.link(target, kept)
            return kept
        except FileExistsError:
            continue
        except OSError:
            try:
                with open(target, "rb") as old, open(kept, "xb") as new:
                    shutil.copyfileobj(old, new)
            except FileExistsError:
                continue
            except BaseException:
                kept.unlink(missing_ok=True)
                raise
            return kept
    raise DatabaseError(f"{target}: too many restores this second; try again")
