"""Keeping years of records safe: backup, restore and a health check.

Backups use SQLite's online backup, which copies a consistent snapshot even while another
command writes, and a damaged database is never copied as if it were a good backup.

Restore is for the day the database is damaged, so it never opens the live file: it copies
the backup into a new file beside it, checks that copy completely (cardbase's, a version
this code knows, every page, the schema it upgrades to), keeps the old file aside under
another name, and only then moves the copy into place. A failure at any step before the
last leaves the live file as it was.

The doctor reads and reports; only ``--fix`` writes, through the one write transaction.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
from collections.abc import Callable
from contextlib import closing, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from cardbase.db import connect as db
from cardbase.db import health, tables
from cardbase.db.connection import connect, transaction
from cardbase.db.header import known_version, read_header
from cardbase.errors import CardbaseError, DatabaseError

RESTORE_HINT = "'cardbase restore BACKUP' puts a backup in its place"
FIX_HINT = "--fix rebuilds it"
RESTORE_FIRST = "--fix rebuilds it once the problems above are solved"


def backup(db_path: Path, target: Path, force: bool = False) -> Path:
    """Copy the database to `target` through `output_file`, so that a failed or killed backup
    never leaves a damaged copy where a good one was."""
    from cardbase.sheets.writing import cannot_write, output_file

    if target.resolve() == db_path.resolve():
        raise CardbaseError(f"{target}: that is the database itself; choose another file")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(target, exc) from exc
    source = db.open_db(db_path)
    try:
        with output_file(target, force=force) as partial, closing(sqlite3.connect(partial)) as copy:
            copy.execute("PRAGMA journal_mode = OFF")  # a failed copy is deleted whole anyway
            source.backup(copy)
            _refuse_a_damaged_copy(copy, db_path)
    except sqlite3.Error as exc:
        raise CardbaseError(f"{target}: cannot write the backup ({exc})") from exc
    finally:
        source.close()
    return target


def _refuse_a_damaged_copy(copy: sqlite3.Connection, db_path: Path) -> None:
    """A backup of damaged pages would replace a good backup (with --force) by a bad one."""
    problems = health.page_problems(copy)
    if problems:
        raise DatabaseError(
            f"{db_path}: the database is damaged ({problems[0]}), so no backup was written",
            "Run 'cardbase doctor'; to keep the file as it is, copy it with your file manager",
        )


# -- restore ------------------------------------------------------------------------------


def restore(db_path: Path, source: Path) -> Path | None:
    """Replace the database with a verified copy of a backup; return where the old one is kept."""
    from cardbase.db import schema

    target = Path(os.path.realpath(db_path))  # through a symlink, as writing in place would go
    if not db.existing_file(source):
        raise DatabaseError(f"{source}: no such file; nothing was changed")
    live = db.existing_file(target)
    if live and os.path.samefile(source, target):
        raise DatabaseError(f"{source}: that is the database itself; nothing was changed")
    if not live:
        schema.make_folder(db_path)
    temporary = target.with_name(f".{target.name[:40]}.{secrets.token_hex(6)}.restoring")
    try:
        _verify(temporary, source, _copy(source, temporary))
        if live:
            os.chmod(temporary, os.stat(target).st_mode & 0o7777)
        _flush_to_disk(temporary)
        return _swap(target, temporary, live)
    except OSError as exc:
        raise DatabaseError(
            f"{db_path}: cannot restore ({exc.strerror or exc}); nothing was changed"
        ) from exc
    finally:
        for name in (temporary, *_side_files(temporary)):
            with suppress(OSError):
                name.unlink(missing_ok=True)


def _side_files(path: Path) -> list[Path]:
    return [Path(f"{path}{suffix}") for suffix in db.SIDE_FILES]


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
        raise _unusable(source, exc) if health.is_damage(exc) else _cannot_write(exc) from exc
    return version


def _cannot_write(exc: sqlite3.Error) -> OSError:
    """What stops the copy beside the database (a full disk, a read-only folder) is the
    folder's problem, not the backup's."""
    return OSError(str(exc))


def _unusable(source: Path, why: object) -> DatabaseError:
    return DatabaseError(f"{source}: not a usable cardbase backup ({why}); nothing was changed")


def _backup_version(conn: sqlite3.Connection, source: Path) -> int:
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
            problems = health.page_problems(conn) or health.page_problems(conn, "integrity_check")
            if problems:
                raise _unusable(source, f"damaged: {problems[0]}")
            _upgrade(conn, version, source)
            differences = health.schema_differences(conn)
            if differences:
                raise _unusable(source, "; ".join(differences[:3]))
            if not _fts_in_sync(conn):
                _rebuild_fts(conn)
            conn.execute("PRAGMA journal_mode = DELETE")  # one self-contained file to move
        except sqlite3.OperationalError as exc:
            raise _cannot_write(exc) from exc
        except sqlite3.DatabaseError as exc:
            raise _unusable(source, exc) from exc


def _upgrade(conn: sqlite3.Connection, version: int, source: Path) -> None:
    from cardbase.db import schema

    if version == tables.SCHEMA_VERSION:
        return
    try:
        schema.upgrade(conn, version)
    except sqlite3.Error as exc:
        raise _unusable(source, f"cannot be upgraded from schema {version}: {exc}") from exc


def _rebuild_fts(conn: sqlite3.Connection) -> None:
    from cardbase.db import schema

    with transaction(conn):
        schema.rebuild_fts(conn)


def _flush_to_disk(path: Path) -> None:
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _swap(target: Path, temporary: Path, live: bool) -> Path | None:
    """Keep the old file (and its -wal, which belongs to it alone) aside, then move in the copy.

    The -wal must go with the old file before the new one takes the name: SQLite would
    otherwise replay the old file's last writes onto the restored one.
    """
    if not live:
        os.replace(temporary, target)
        _flush_to_disk(target.parent)
        return None
    kept = _keep_aside(target)
    moved = []
    try:
        for side, aside in zip(_side_files(target), _side_files(kept), strict=True):
            if side.exists():
                os.replace(side, aside)
                moved.append((side, aside))
        os.replace(temporary, target)
    except BaseException:
        for side, aside in moved:
            os.replace(aside, side)
        kept.unlink()  # only a second name for the file still in place
        raise
    _flush_to_disk(target.parent)  # the new name, durable as the content already is
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


# -- doctor -------------------------------------------------------------------------------


class Finding(NamedTuple):
    check: str
    ok: bool
    detail: str

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


def doctor(db_path: Path, fix: bool = False) -> list[Finding]:
    """Header and version, pages, schema, references, and the full-text index's sync.

    Reads only, on the file as it is (nothing created or upgraded), so that it can say what
    is wrong with a database that every other command refuses.
    """
    with closing(db.open_existing(db_path)) as conn:
        version = _header(conn, db_path)
        copy = _memory_copy(conn)
        findings = [
            _guarded("schema version", lambda: _version(version)),
            _guarded("integrity", lambda: _integrity(conn)),
            _guarded("schema", lambda: _schema(conn, copy, version)),
            _guarded("references", lambda: _foreign_keys(conn)),
            _guarded("full-text index", lambda: _fts(copy)),
        ]
    *others, fts = findings
    if not fts.ok and not all(finding.ok for finding in others):
        findings[-1] = fts._replace(detail=fts.detail.replace(FIX_HINT, RESTORE_FIRST))
    elif fix and not fts.ok:
        from cardbase.db import schema

        with db.write_transaction(db_path) as write:
            schema.rebuild_fts(write)
        findings[-1] = Finding(fts.check, True, "rebuilt from the card table")
    return findings


def _guarded(check: str, run: Callable[[], Finding]) -> Finding:
    """One check's finding; a check that SQLite cannot run is itself a finding, not a crash."""
    try:
        return run()
    except sqlite3.DatabaseError as exc:
        return Finding(check, False, f"cannot check ({exc})")


def _header(conn: sqlite3.Connection, db_path: Path) -> int:
    """The schema version, or one line (exit 2) for a file the doctor cannot judge."""
    try:
        app_id, version, objects = read_header(conn, db_path)
    except DatabaseError as exc:
        if not isinstance(exc.__cause__, sqlite3.DatabaseError) or not health.is_damage(
            exc.__cause__
        ):
            raise
        raise DatabaseError(
            f"{db_path}: damaged beyond checking ({exc.__cause__})",
            RESTORE_HINT,
        ) from exc
    if app_id != tables.APPLICATION_ID or objects == 0:
        raise DatabaseError(f"{db_path}: not a cardbase database, so there is nothing to check")
    if version > tables.SCHEMA_VERSION:
        raise DatabaseError(
            f"{db_path}: made by a newer cardbase (schema {version}), which can check it",
            "Upgrade cardbase",
        )
    return int(version)


def _memory_copy(conn: sqlite3.Connection) -> sqlite3.Connection:
    """A private copy to run checks that need a write (or an upgrade) on: read-only files,
    a busy database and a damaged one are all left as they are."""
    copy = sqlite3.connect(":memory:", isolation_level=None)
    conn.backup(copy)
    return copy


def _version(version: int) -> Finding:
    current = tables.SCHEMA_VERSION
    if version == current:
        return Finding("schema version", True, f"{version} (this cardbase: {current})")
    if known_version(version):
        return Finding(
            "schema version", True, f"{version}: the next command upgrades it to {current}"
        )
    return Finding(
        "schema version",
        False,
        f"{version} is not one any cardbase made (this cardbase: {current})",
    )


def _integrity(conn: sqlite3.Connection) -> Finding:
    """quick_check names damaged pages (where integrity_check can stop at the first one);
    on sound pages, integrity_check also matches every index to its table."""
    problems = health.page_problems(conn, "quick_check", 5)
    problems = problems or health.page_problems(conn, "integrity_check", 5)
    if not problems:
        return Finding("integrity", True, "ok")
    return Finding("integrity", False, f"damaged: {'; '.join(problems)}. {RESTORE_HINT}")


def _schema(conn: sqlite3.Connection, copy: sqlite3.Connection, version: int) -> Finding:
    from cardbase.db import schema

    if version != tables.SCHEMA_VERSION and known_version(version):
        try:
            schema.upgrade(copy, version)
        except sqlite3.OperationalError as exc:
            return Finding("schema", False, f"cannot be upgraded from version {version} ({exc})")
        conn = copy
    differences = health.schema_differences(conn)
    if differences:
        return Finding("schema", False, "; ".join(differences))
    return Finding("schema", True, "every table, index and trigger as this cardbase makes them")


def _foreign_keys(conn: sqlite3.Connection) -> Finding:
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    return Finding("references", not broken, "ok" if not broken else f"{len(broken)} broken rows")


def _fts_in_sync(conn: sqlite3.Connection) -> bool:
    """FTS5's own integrity-check; it is an INSERT, so it runs on a copy or a private file."""
    fts = tables.CARD_FTS_TABLE
    try:
        conn.execute(f"INSERT INTO {fts}({fts}, rank) VALUES ('integrity-check', 1)")
    except sqlite3.DatabaseError as exc:
        if health.is_damage(exc):
            return False
        raise
    return True


def _fts(copy: sqlite3.Connection) -> Finding:
    if _fts_in_sync(copy):
        return Finding("full-text index", True, "in sync with the card table")
    return Finding("full-text index", False, f"out of sync with the cards; {FIX_HINT}")
