"""The doctor's one entry for both engines: which engine's checks a location gets."""

from __future__ import annotations

from pathlib import Path

from cardbase.db.health.findings import Finding
from cardbase.db.location import Location


def doctor(location: Location, fix: bool = False) -> list[Finding]:
    """Header and version, pages, schema, references, totals, and the full-text index.

    Reads only, on the database as it is (nothing created or upgraded), so that it can say
    what is wrong with a database that every other command refuses.
    """
    if isinstance(location, Path):
        from cardbase.db.health import sqlite

        return sqlite.doctor(location, fix)
    from cardbase.db.health import postgres

    return postgres.doctor(location, fix)
