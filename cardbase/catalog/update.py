"""Bringing a database's catalogue up to date from a user's card list, in one transaction.

Apart from `cardbase.catalog.load` because creating a database loads the bundled catalogue
through `load`, and this module writes through `cardbase.db.connect`, which creates
databases: kept apart, neither needs the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from cardbase.bulk import paused_gc
from cardbase.catalog.load import ImportCounts, checked_rows, read_catalogue, store_rows
from cardbase.db.engine import Database
from cardbase.progress import Progress, quiet


class CatalogueImport(NamedTuple):
    counts: ImportCounts
    skipped: list[str]  # a line for each bad row left out (only with skip_bad)
    ignored_columns: list[str]  # headers that are no catalogue column, said rather than dropped


def import_catalogue(
    db: Database, source: Path, skip_bad: bool = False, progress: Progress = quiet
) -> CatalogueImport:
    """Import a catalogue file into `db` in one transaction; `progress`
    hears it read, write and index."""
    with paused_gc():
        parsed = read_catalogue(source, progress)
        rows = checked_rows(parsed, str(source), skip_bad)
        with db.writing(whole=True) as conn:
            counts = store_rows(conn, rows, len(parsed.problems), progress, parsed.given)
    return CatalogueImport(counts, parsed.problems, parsed.ignored_columns)
