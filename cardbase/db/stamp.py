"""The header that marks a SQLite file as a cardbase database, and what it says about the file.

Read on every start, by readers and by the code that creates and upgrades databases, so it
lives apart from both and uses only `sqlite3`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import DatabaseError


def read_header(conn: Connection, path: Path) -> tuple[int, int, int]:
    """(application id, schema version, number of schema objects) of an open database."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        from cardbase.db.health.damage import (  # only when the header cannot be read
            damaged,
            is_damage,
        )

        if not is_damage(exc):  # the system's refusal (no space, no access), not the file's
            raise DatabaseError(f"{path}: cannot read the database ({exc})") from exc
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_CORRUPT:
            raise damaged(path, exc) from exc
        raise DatabaseError(
            f"{path}: not a cardbase database ({exc}), or a damaged one; nothing was changed",
            "If it was yours, 'cardbase restore BACKUP' puts a backup in its place",
        ) from exc
    return app_id, version, objects


def is_current(path: Path, app_id: int, version: int, objects: int) -> bool:
    """True when the database is ready for this code; False when it must be created or migrated.

    Raises for files we must not touch: somebody else's database, one from a newer cardbase,
    or one stamped with a version no cardbase made (which the migrations cannot start from).
    """
    if app_id == 0 and objects == 0:
        return False
    if app_id != tables.APPLICATION_ID:
        raise DatabaseError(
            f"{path}: an SQLite database, but not a cardbase one, so nothing was changed",
            "Choose another file with --db",
        )
    if version > tables.SCHEMA_VERSION:
        raise DatabaseError(
            f"{path}: made by a newer cardbase (schema {version}, this one knows "
            f"{tables.SCHEMA_VERSION})",
            "Upgrade cardbase",
        )
    if not known_version(version):
        raise DatabaseError(
            f"{path}: schema version {version} is not one any cardbase made (the file is "
            "damaged, or another program changed it); nothing was changed",
            _restore_hint(),
        )
    return version == tables.SCHEMA_VERSION


def known_version(version: int) -> bool:
    """True for this code's version and every older one the migrations can bring forward."""
    if version == tables.SCHEMA_VERSION:
        return True
    from cardbase.db.migrations import MIGRATIONS

    steps = range(version + 1, tables.SCHEMA_VERSION + 1)
    return 1 <= version < tables.SCHEMA_VERSION and all(step in MIGRATIONS for step in steps)


def _restore_hint() -> str:
    from cardbase.db.health.damage import DAMAGED_HINT

    return DAMAGED_HINT
