"""The header that marks a SQLite file as a cardbase database, and what it says about the file.

Read on every start, by readers and by the code that creates and upgrades databases, so it
lives apart from both and uses only `sqlite3`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cardbase.db import tables
from cardbase.errors import DatabaseError


def read_header(conn: sqlite3.Connection, path: Path) -> tuple[int, int, int]:
    """(application id, schema version, number of schema objects) of an open database."""
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        objects = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise DatabaseError(f"{path}: not a cardbase database ({exc})") from exc
    return app_id, version, objects


def is_current(path: Path, app_id: int, version: int, objects: int) -> bool:
    """True when the database is ready for this code; False when it must be created or migrated.

    Raises for files we must not touch: somebody else's database, or one from a newer cardbase.
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
    return version == tables.SCHEMA_VERSION
