"""Managing who collects in a database: list, add, rename, remove, choose the default.

Each is one write transaction. Removing a collector drops their holdings, history and
saved decks, so it needs `force` when they have any, and a backup of the whole database is
written beside it first: `cardbase restore` brings everything back.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.collection.collectors import (
    Collector,
    check_name,
    find_collector,
    now,
    refuse_confusable,
)
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.decks.saved import drop_deck_rows
from cardbase.errors import CardbaseError
from cardbase.text import plural


class CollectorSummary(NamedTuple):
    name: str
    is_default: bool
    copies: int
    distinct: int  # distinct cards owned
    decks: int
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


def list_collectors(db: Database) -> list[CollectorSummary]:
    with db.reading() as conn:
        rows = conn.execute(
            f"SELECT c.name, c.is_default, "
            f"(SELECT coalesce(sum(nonfoil + foil), 0) FROM {tables.OWNERSHIP_TABLE} "
            f" WHERE collector_id = c.id), "
            f"(SELECT count(*) FROM {tables.OWNERSHIP_TABLE} WHERE collector_id = c.id), "
            f"(SELECT count(*) FROM {tables.DECK_TABLE} WHERE collector_id = c.id), "
            f"c.created_at FROM {tables.COLLECTOR_TABLE} AS c ORDER BY c.id"
        ).fetchall()
    return [CollectorSummary(n, bool(d), *rest) for n, d, *rest in rows]


def _refuse_taken(conn: Connection, name: str, but: int | None = None) -> None:
    row = conn.execute(
        f"SELECT id, name FROM {tables.COLLECTOR_TABLE} WHERE name_key = ?", (name_key(name),)
    ).fetchone()
    if row is not None and row[0] != but:
        raise CardbaseError(f"there is already a collector named '{row[1]}'; nothing was changed")


def add_collector(db: Database, name: str, make_default: bool = False) -> Collector:
    cleaned = check_name(name)
    with db.writing(whole=True) as conn:
        _refuse_taken(conn, cleaned)
        refuse_confusable(conn, cleaned)
        if make_default:
            conn.execute(f"UPDATE {tables.COLLECTOR_TABLE} SET is_default = FALSE")
        new_id = conn.execute(
            f"INSERT INTO {tables.COLLECTOR_TABLE} (name, name_key, is_default, created_at) "
            "VALUES (?, ?, ?, ?) RETURNING id",
            (cleaned, name_key(cleaned), make_default, now()),
        ).fetchone()[0]
    return Collector(int(new_id), cleaned, make_default)


def rename_collector(db: Database, old: str, new: str) -> tuple[Collector, Collector]:
    """The collector as it was (its name as stored, however `old` was typed) and as it is."""
    cleaned = check_name(new)
    with db.writing(whole=True) as conn:
        found = find_collector(conn, old)
        _refuse_taken(conn, cleaned, but=found.id)
        refuse_confusable(conn, cleaned, but=found.id)
        conn.execute(
            f"UPDATE {tables.COLLECTOR_TABLE} SET name = ?, name_key = ? WHERE id = ?",
            (cleaned, name_key(cleaned), found.id),
        )
    return found, found._replace(name=cleaned)


def make_default(db: Database, name: str) -> Collector:
    """The collector commands use when none is named (and no config file names one)."""
    with db.writing(whole=True) as conn:
        found = find_collector(conn, name)
        conn.execute(f"UPDATE {tables.COLLECTOR_TABLE} SET is_default = FALSE")
        conn.execute(
            f"UPDATE {tables.COLLECTOR_TABLE} SET is_default = TRUE WHERE id = ?", (found.id,)
        )
    return found._replace(is_default=True)


class Removal(NamedTuple):
    collector: Collector
    copies: int
    decks: int
    backup: Path | None  # the database as it was, when anything of theirs was dropped


def remove_collector(db: Database, name: str, force: bool = False) -> Removal:
    """Remove a collector; one with cards, history or decks only with `force`, after a backup."""
    with db.reading() as conn:
        found = find_collector(conn, name)
        copies, decks, batches = _belongings(conn, found.id)
    if found.is_default:
        raise CardbaseError(
            f"'{found.name}' is the default collector; nothing was changed",
            "Make another the default first: cardbase collectors default NAME",
        )
    if (copies or decks or batches) and not force:
        raise CardbaseError(
            f"'{found.name}' has {plural(copies, 'card')}, {plural(decks, 'saved deck')} and "
            f"{plural(batches, 'change')} in history; nothing was changed",
            "Add --force to remove them too (a backup of the database is made first; on "
            "PostgreSQL, make one with pg_dump before)",
        )
    # A file is copied aside; a PostgreSQL server is backed up with its own tools.
    kept = None
    if (copies or decks or batches) and isinstance(db.location, Path):
        kept = _backup_before(db.location, found)
    with db.writing(whole=True) as conn:
        # The backup was taken before the write lock: if anything of theirs changed since,
        # it is not in the backup, so nothing is removed.
        if _belongings(conn, found.id) != (copies, decks, batches):
            raise CardbaseError(
                f"'{found.name}'s cards changed while the backup was made; nothing was removed",
                "Run the command again",
            )
        _drop_belongings(conn, found.id)
    return Removal(found, copies, decks, kept)


def _belongings(conn: Connection, collector_id: int) -> tuple[int, int, int]:
    row = conn.execute(
        f"SELECT (SELECT coalesce(sum(copies), 0) FROM {tables.HOLDING_TABLE} "
        f"WHERE collector_id = :c), (SELECT count(*) FROM {tables.DECK_TABLE} "
        f"WHERE collector_id = :c), (SELECT count(*) FROM {tables.BATCH_TABLE} "
        "WHERE collector_id = :c)",
        {"c": collector_id},
    ).fetchone()
    return int(row[0]), int(row[1]), int(row[2])


def _drop_belongings(conn: Connection, collector_id: int) -> None:
    mine = (collector_id,)
    conn.execute(
        f"DELETE FROM {tables.HISTORY_TABLE} WHERE batch_id IN "
        f"(SELECT id FROM {tables.BATCH_TABLE} WHERE collector_id = ?)",
        mine,
    )
    drop_deck_rows(
        conn, f"IN (SELECT id FROM {tables.DECK_TABLE} WHERE collector_id = {int(collector_id)})"
    )
    for table in (tables.BATCH_TABLE, tables.HOLDING_TABLE, tables.OWNERSHIP_TABLE):
        conn.execute(f"DELETE FROM {table} WHERE collector_id = ?", mine)
    conn.execute(f"DELETE FROM {tables.COLLECTOR_TABLE} WHERE id = ?", mine)


def _backup_before(db_path: Path, collector: Collector) -> Path:
    from cardbase.maintenance import backup

    slug = re.sub(r"[^0-9A-Za-z]+", "-", collector.name).strip("-") or "collector"
    stamp = now().replace(":", "").replace("+0000", "")
    for attempt in range(100):  # two removals in one second get two backups
        suffix = f"-{attempt}" if attempt else ""
        name = f"{db_path.stem}.before-removing-{slug}-{stamp}{suffix}{db_path.suffix}"
        if not (target := db_path.with_name(name)).exists():
            return backup(db_path, target)
    raise CardbaseError(f"{db_path}: too many backups this second; try again")
