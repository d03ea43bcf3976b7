"""A SQLite database as files: the database and what SQLite keeps beside it (-wal, -shm,
-journal). Making a copy beside a database and moving it into place (`restore`, `db copy`)
needs the same care with each: flushed to disk before the move, removed with its side files
when the move did not happen.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's files beside a database


def side_files(path: Path) -> list[Path]:
    return [Path(f"{path}{suffix}") for suffix in SIDE_FILES]


def flush_to_disk(path: Path) -> None:
    """fsync a file, or a folder (so that a rename in it outlives a crash)."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def remove_with_side_files(path: Path) -> None:
    """A temporary database and whatever SQLite left beside it, gone if it was there."""
    for name in (path, *side_files(path)):
        with suppress(OSError):
            name.unlink(missing_ok=True)
