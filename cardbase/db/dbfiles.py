"""A SQLite database as files: the database and what SQLite keeps beside it (-wal, -shm,
-journal). Making a copy beside a database and moving it into place (`restore`, `db copy`)
needs the same care with each: flushed to disk before the move, removed with its side files
when the move did not happen.
"""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: a file in use cannot be removed there anyway
    fcntl = None  # type: ignore[assignment]

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


# -- what a killed command leaves ----------------------------------------------------------
#
# `restore` and `db copy` write a hidden `.NAME.<12 hex>.restoring` / `.copying` beside the
# database, and a backup (`backup`, and the one `collectors remove --force` makes) a
# `.NAME.<12 hex>.partial` beside its target; each is removed when the command ends, but a
# SIGKILL or a power cut leaves it, with SQLite's -journal, -wal and -shm, up to the size of
# the database. The next such command, and any write to the database, clears them: only
# files named so, and only when no live command holds them. Each command holds an flock on
# its temporary file from the moment it creates it until after it is gone (`claimed`), so
# a file nobody holds belongs to a command that is no longer running.

FRESH_SECONDS = 10.0  # an empty file this young may be one a command is just creating
_SQLITE_HEADER = b"SQLite format 3\x00"
_HEX = r"\.[0-9a-f]{12}\."
_SIDES = r"(?:-wal|-shm|-journal)?"


def temporary_beside(path: Path, kind: str) -> Path:
    """A new hidden name beside `path` for a temporary file of `kind` (restoring, copying)."""
    return path.with_name(f".{path.name[:40]}.{secrets.token_hex(6)}.{kind}")


@contextmanager
def claimed(path: Path) -> Iterator[Path]:
    """Create the file `path` (it must not exist) and hold it, so that `clear_leftovers`
    run by another command meanwhile leaves it alone; remove it within the block."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        hold(handle)
        yield path
    finally:
        os.close(handle)


def hold(handle: int) -> None:
    """An flock on an open file (none where the system has no flock): not SQLite's fcntl
    locks, which its own connection's close would drop."""
    if fcntl is not None:
        fcntl.flock(handle, fcntl.LOCK_EX)


def leftover_patterns(database: Path) -> list[re.Pattern[str]]:
    """The names of the files a killed `restore`, `db copy` (to a file) or backup before a
    `collectors remove --force` of `database` leaves beside it."""
    name = re.escape(database.name[:40])
    removing = re.escape(f"{database.stem}.before-removing-"[:40])
    return [
        re.compile(rf"\.{name}{_HEX}(?:restoring|copying){_SIDES}"),
        re.compile(rf"\.{removing}[^/]*{_HEX}partial"),
    ]


def partial_pattern(target: Path) -> re.Pattern[str]:
    """The name of the file a killed backup to `target` leaves beside it."""
    return re.compile(rf"\.{re.escape(target.name[:40])}{_HEX}partial")


def clear_leftovers(path: Path, patterns: list[re.Pattern[str]] | None = None) -> int:
    """Remove what killed cardbase commands left beside `path` (by default: a database's
    leftovers, `leftover_patterns`); says so once, in one line, if anything went. Returns
    the number of files removed. One scan of the folder; errors leave a file in place."""
    folder = Path(os.path.realpath(path.parent))
    patterns = leftover_patterns(path) if patterns is None else patterns
    try:
        names = [e.name for e in os.scandir(folder) if e.name.startswith(".")]
    except OSError:
        return 0
    found = sorted(n for n in names if any(p.fullmatch(n) for p in patterns))
    mains = [n for n in found if not n.endswith(SIDE_FILES)]
    removed = [gone for n in mains for gone in _clear_one(folder / n)]
    orphans = [folder / n for n in found if n.endswith(SIDE_FILES)]
    removed += [(side, 0) for side in orphans if _orphan_removed(side)]
    if removed:
        _tell_removed(path, removed)
    return len(removed)


def _clear_one(path: Path) -> list[tuple[Path, int]]:
    """A leftover and its side files, removed if no live command holds it."""
    try:
        handle = os.open(path, os.O_RDONLY)
    except OSError:
        return []
    try:
        if not _abandoned(handle, path):
            return []
        gone = []
        for name in (path, *side_files(path)):
            with suppress(OSError):
                size = name.stat().st_size
                name.unlink()
                gone.append((name, size))
        return gone
    finally:
        os.close(handle)


def _abandoned(handle: int, path: Path) -> bool:
    """Whether nobody holds the file (`claimed`) and it is one of ours: not an empty one
    young enough to be one just being made; a `.partial` only if SQLite's (`output_file`
    names every file it writes so, and the backup's alone start with SQLite's header)."""
    if fcntl is not None:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # a running command's
    info = os.fstat(handle)
    if info.st_size == 0:
        return time.time() - info.st_mtime > FRESH_SECONDS
    if not path.name.endswith(".partial"):
        return True
    os.lseek(handle, 0, os.SEEK_SET)
    return os.read(handle, len(_SQLITE_HEADER)) == _SQLITE_HEADER


def _orphan_removed(side: Path) -> bool:
    """A -journal, -wal or -shm whose leftover is gone already (a kill during the cleanup)."""
    main = Path(re.sub(r"-(wal|shm|journal)$", "", str(side)))
    if main.exists():
        return False
    with suppress(OSError):
        side.unlink()
        return True
    return False


def _tell_removed(path: Path, removed: list[tuple[Path, int]]) -> None:
    from cardbase import notices

    size = f", {sum(size for _, size in removed) / 1e6:.1f} MB"
    noun = "file" if len(removed) == 1 else "files"
    notices.tell(
        f"removed {len(removed)} {noun} beside {path.name} that a cardbase command left when "
        f"it was stopped{size}"
    )
