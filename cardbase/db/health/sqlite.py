"""The doctor on a SQLite file: header, pages, schema, references, totals, full-text index.

It reads the file as it is (nothing created or upgraded), so it can say what is wrong with
a database every other command refuses; checks that need a write (or an upgrade) run on a
private copy in memory. Only ``--fix`` writes, through the one write transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from cardbase.db import connect as db
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.db.health import damage
from cardbase.db.health.findings import RESTORE_HINT, Finding, collection_totals
from cardbase.db.sqlite import SqliteConnection
from cardbase.db.stamp import known_version, read_header
from cardbase.errors import DatabaseError

FIX_HINT = "--fix rebuilds it"
RESTORE_FIRST = "--fix rebuilds it once the problems above are solved"


def doctor(db_path: Path, fix: bool = False) -> list[Finding]:
    """Header and version, pages, schema, references, and the full-text index's sync."""
    with closing(db.open_existing(db_path)) as conn:
        version = _header(conn, db_path)
        copy = _memory_copy(conn)
        findings = [
            _guarded("schema version", lambda: _version(version)),
            _guarded("integrity", lambda: _integrity(conn)),
            _guarded("schema", lambda: _schema(conn, copy, version)),
            _guarded("references", lambda: _foreign_keys(conn)),
            _guarded("collection totals", lambda: collection_totals(copy)),
            _guarded("full-text index", lambda: _fts(copy)),
        ]
    *others, fts = findings
    if not fts.ok and not all(finding.ok for finding in others):
        findings[-1] = fts._replace(detail=fts.detail.replace(FIX_HINT, RESTORE_FIRST))
    elif fix and not fts.ok:
        from cardbase.db import schema

        with db.write_transaction(db_path, whole=True) as write:
            schema.rebuild_fts(write)
        findings[-1] = Finding(fts.check, True, "rebuilt from the card table")
    return findings


def _guarded(check: str, run: Callable[[], Finding]) -> Finding:
    """One check's finding; a check that SQLite cannot run is itself a finding, not a crash."""
    try:
        return run()
    except sqlite3.DatabaseError as exc:
        return Finding(check, False, f"cannot check ({exc})")


def _header(conn: Connection, db_path: Path) -> int:
    """The schema version, or one line (exit 2) for a file the doctor cannot judge."""
    try:
        app_id, version, objects = read_header(conn, db_path)
    except DatabaseError as exc:
        if not isinstance(exc.__cause__, sqlite3.DatabaseError) or not damage.is_damage(
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


def _memory_copy(conn: Connection) -> Connection:
    """A private copy to run checks that need a write (or an upgrade) on: read-only files,
    a busy database and a damaged one are all left as they are."""
    assert isinstance(conn, sqlite3.Connection)  # PostgreSQL has a doctor of its own
    copy = sqlite3.connect(":memory:", isolation_level=None, factory=SqliteConnection)
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


def _integrity(conn: Connection) -> Finding:
    """quick_check names damaged pages (where integrity_check can stop at the first one);
    on sound pages, integrity_check also matches every index to its table."""
    problems = damage.page_problems(conn, "quick_check", 5)
    problems = problems or damage.page_problems(conn, "integrity_check", 5)
    if not problems:
        return Finding("integrity", True, "ok")
    return Finding("integrity", False, f"damaged: {'; '.join(problems)}. {RESTORE_HINT}")


def _schema(conn: Connection, copy: Connection, version: int) -> Finding:
    from cardbase.db import schema

    if version != tables.SCHEMA_VERSION and known_version(version):
        try:
            schema.upgrade(copy, version)
        except sqlite3.OperationalError as exc:
            return Finding("schema", False, f"cannot be upgraded from version {version} ({exc})")
        conn = copy
    differences = damage.schema_differences(conn)
    if differences:
        return Finding("schema", False, "; ".join(differences))
    return Finding("schema", True, "every table, index and trigger as this cardbase makes them")


def _foreign_keys(conn: Connection) -> Finding:
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    return Finding("references", not broken, "ok" if not broken else f"{len(broken)} broken rows")


def _fts(copy: Connection) -> Finding:
    if damage.fts_in_sync(copy):
        return Finding("full-text index", True, "in sync with the card table")
    return Finding("full-text index", False, f"out of sync with the cards; {FIX_HINT}")
