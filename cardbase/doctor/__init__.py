"""The doctor: what is wrong with a database, told without changing it (`--fix` aside).

The same checks, in the same order, as `Finding`s on both engines: a SQLite file is read as
it is (`doctor.sqlite`), a PostgreSQL database as far as cardbase can judge what the server
keeps (`doctor.postgres`).
"""

from __future__ import annotations

from pathlib import Path

from cardbase.db.location import Location
from cardbase.doctor.findings import Finding

__all__ = ["Finding", "doctor"]


def doctor(location: Location, fix: bool = False) -> list[Finding]:
    """Header and version, pages, schema, references, totals, and the full-text index.

    Reads only, on the database as it is (nothing created or upgraded), so that it can say
    what is wrong with a database that every other command refuses.
    """
    if isinstance(location, Path):
        from cardbase.doctor import sqlite

        return sqlite.doctor(location, fix)
    from cardbase.doctor import postgres

    return postgres.doctor(location, fix)
