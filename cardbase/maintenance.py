"""Keeping years of records safe: backup, restore and a health check.

Backups use SQLite's online backup, which copies a consistent snapshot even while another
command writes. Restore checks that a file is a cardbase database of a version this code
knows before touching anything, and keeps the database it replaces beside it.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from cardbase.db import connect as db
from cardbase.db import tables
from cardbase.db.connection import BUSY_TIMEOUT_MS
from cardbase.db.header import read_header
from cardbase.errors import CardbaseError, DatabaseError


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
            source.backup(copy)
    except sqlite3.Error as exc:
        raise CardbaseError(f"{target}: cannot write the backup ({exc})") from exc
    finally:
        source.close()
    return target


def check_backup_file(path: Path) -> int:
    """The schema version of a healthy cardbase database file, or an error saying why not."""
    if not path.is_file():
        raise DatabaseError(f"{path}: no such file")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise DatabaseError(f"{path}: cannot open it ({exc})") from exc
    try:
        app_id, version, objects = read_header(conn, path)
        if app_id != tables.APPLICATION_ID or objects == 0:
            raise DatabaseError(f"{path}: not a cardbase database; nothing was changed")
        if version > tables.SCHEMA_VERSION:
            raise DatabaseError(
                f"{path}: made by a newer cardbase (schema {version}); nothing was changed"
            )
        verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
        if verdict != "ok":
            raise DatabaseError(f"{path}: damaged ({verdict}); nothing was changed")
        return int(version)
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(
            f"{path}: not a cardbase database ({exc}); nothing was changed"
        ) from exc
    finally:
        conn.close()


def restore(db_path: Path, source: Path) -> Path | None:
    """Replace the database with a backup; return where the replaced database was kept."""
    check_backup_file(source)
    kept = None
    if db_path.exists():
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        kept = backup(db_path, db_path.with_name(f"{db_path.stem}.before-restore-{stamp}.db"))
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with (
        sqlite3.connect(f"file:{source}?mode=ro", uri=True) as src,
        sqlite3.connect(db_path) as dst,
    ):
        dst.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        src.backup(dst)  # page by page inside one write transaction on the destination
    db.open_db(db_path).close()  # upgrades an older backup in place
    return kept


class Finding(NamedTuple):
    check: str
    ok: bool
    detail: str

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


def doctor(db_path: Path, fix: bool = False) -> list[Finding]:
    """Integrity, header, schema version, foreign keys, and the full-text index's sync."""
    conn = db.open_db(db_path)
    try:
        findings = [_integrity(conn), _version(conn), _foreign_keys(conn), _fts(conn)]
    finally:
        conn.close()
    if fix and not findings[3].ok:
        from cardbase.db import schema

        with db.write_transaction(db_path) as write:
            schema.rebuild_fts(write)
        findings[3] = Finding("full-text index", True, "rebuilt from the card table")
    return findings


def _integrity(conn: sqlite3.Connection) -> Finding:
    verdict = conn.execute("PRAGMA integrity_check").fetchone()[0]
    return Finding("integrity", verdict == "ok", verdict)


def _version(conn: sqlite3.Connection) -> Finding:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    return Finding(
        "schema version",
        version == tables.SCHEMA_VERSION,
        f"{version} (this cardbase: {tables.SCHEMA_VERSION})",
    )


def _foreign_keys(conn: sqlite3.Connection) -> Finding:
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    return Finding("references", not broken, "ok" if not broken else f"{len(broken)} broken rows")


def _fts(conn: sqlite3.Connection) -> Finding:
    try:
        conn.execute(
            f"INSERT INTO {tables.CARD_FTS_TABLE}({tables.CARD_FTS_TABLE}, rank) "
            "VALUES ('integrity-check', 1)"
        )
    except sqlite3.DatabaseError as exc:
        return Finding(
            "full-text index", False, f"out of sync with the cards ({exc}); --fix rebuilds it"
        )
    return Finding("full-text index", True, "in sync with the card table")
