"""Moving a database made from the old sample catalogue to the real one.

Before the game's own card database was found, every new database started from a sample of
invented cards. Such a database keeps its cards and copies when cardbase upgrades it; this
moves it to the real catalogue: a copy moves to the real card of exactly its name, and a
card whose name the real catalogue lacks (or has twice) keeps its copies, decks and history
as a card of the old sample (game `cardbase-sample`), listed, never turned into another card.
Sample cards that nobody owns, plays or has a history with are dropped with the sample.
All in one transaction, a SQLite database backed up first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.load import checked_rows, read_catalogue, store_rows
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.games import DEFAULT_GAME, OLD_SAMPLE
from cardbase.maintenance import backup_beside

# Every table that points at a card, and the columns besides card_id that key its rows.
_REFERENCES = {
    tables.HOLDING_TABLE: ("collector_id", "finish", "condition", "language", "location", "tags"),
    tables.OWNERSHIP_TABLE: ("collector_id",),
    tables.HISTORY_TABLE: None,  # rows of their own: re-pointed as they are
    tables.DECK_ENTRY_TABLE: None,
    tables.DECK_VERSION_ENTRY_TABLE: None,
    tables.DECK_SLEEVE_TABLE: ("deck_id", "finish", "condition", "language", "location", "tags"),
}


class Moved(NamedTuple):
    name: str
    old_code: str
    new_code: str
    copies: int


class CatalogueMove(NamedTuple):
    moved: list[Moved]  # cards whose copies moved to the real card of their name
    kept: list[Moved]  # cards kept as the old sample's (new_code: why)
    dropped: int  # sample cards nobody had anything of
    added: int  # real cards new to the database
    backup: Path | None
    dry_run: bool
    updated: int = 0  # real cards already here whose facts changed

    @property
    def nothing(self) -> bool:
        """Whether the database is on the catalogue already: the move would change nothing."""
        return not (self.moved or self.kept or self.dropped or self.added or self.updated)

    def to_dict(self) -> dict[str, Any]:
        return {
            "moved": [m._asdict() for m in self.moved], "kept": [k._asdict() for k in self.kept],
            "dropped": self.dropped, "added": self.added, "updated": self.updated,
            "dry_run": self.dry_run,
            "backup": str(self.backup) if self.backup else None,
        }  # fmt: skip


# Of a database's cards, the share that must be the sample's (same code, same name) for it
# to be a database made from the sample.
SAMPLE_SHARE = 0.9
MOVE_NOTICE = (
    "this database's catalogue is cardbase's old sample of invented cards, not the game's "
    "real cards; 'cardbase catalog move-to-real --dry-run' shows how its copies would move "
    "to the real catalogue (the move backs the database up first)"
)


def looks_like_old_sample(conn: Connection) -> bool:
    """Whether the database's Free Realms cards are (nearly all) the old sample's."""
    from cardbase.catalog.cards import name_key
    from cardbase.catalog.choice import SAMPLE, built_in

    sample = {(c.code.series, c.code.rarity, c.code.number, name_key(c.name))
              for c in read_catalogue(built_in(SAMPLE)).cards}  # fmt: skip
    found = conn.execute(
        f"SELECT series, rarity, number, name_key FROM {tables.CARD_TABLE} WHERE game = ?",
        (DEFAULT_GAME,),
    ).fetchall()
    same = sum(tuple(row) in sample for row in found)
    return bool(found) and same >= SAMPLE_SHARE * max(len(found), len(sample))


def move_to_catalogue(db: Database, catalogue: Path, *, dry_run: bool = False) -> CatalogueMove:
    """Move `db` onto `catalogue` (the real one, as a rule); a database that is on it
    already is left alone, and not backed up."""
    parsed = read_catalogue(catalogue)
    rows = checked_rows(parsed, str(catalogue), skip_bad=False)
    trial = _run(db, rows, parsed.given, keep=False)  # the whole move, rolled back
    if dry_run or trial.nothing:
        return trial._replace(dry_run=dry_run)
    saved = backup_beside(db.location, "move")
    return _run(db, rows, parsed.given, keep=True)._replace(backup=saved)


def _run(
    db: Database, rows: list[tuple[object, ...]], given: frozenset[str], *, keep: bool
) -> CatalogueMove:
    """The move in one write transaction, committed only if `keep`."""
    try:
        with db.writing(whole=True) as conn:
            report = _move(conn, rows, given)
            if not keep:
                raise _RolledBack(report)
    except _RolledBack as rolled_back:
        report = rolled_back.report
    return report


class _RolledBack(Exception):
    """Leaves a dry run's transaction the way a failure does: rolled back."""

    def __init__(self, report: CatalogueMove) -> None:
        super().__init__("dry run")
        self.report = report


def _move(conn: Connection, rows: list[tuple[object, ...]], given: frozenset[str]) -> CatalogueMove:
    real = {(row[1], row[2], row[3]): row for row in rows if row[0] == DEFAULT_GAME}
    by_name: dict[str, list[tuple[object, ...]]] = {}
    for row in real.values():
        by_name.setdefault(str(row[5]), []).append(row)
    old = conn.execute(
        f"SELECT id, series, rarity, number, name, name_key FROM {tables.CARD_TABLE} "
        "WHERE game = ?",
        (DEFAULT_GAME,),
    ).fetchall()
    used = _referenced(conn)
    keep = {card[0] for card in old if real.get(tuple(card[1:4]), (None,) * 6)[5] == card[5]}
    leaving = [card for card in old if card[0] not in keep]
    conn.executemany(
        f"UPDATE {tables.CARD_TABLE} SET game = ? WHERE id = ?",
        [(OLD_SAMPLE.key, card[0]) for card in leaving],
    )
    counts = store_rows(conn, rows, given=given)
    ids = {
        tuple(r[1:]): r[0]
        for r in conn.execute(
            f"SELECT id, series, rarity, number FROM {tables.CARD_TABLE} WHERE game = ?",
            (DEFAULT_GAME,),
        )
    }
    moved, kept, dropped = [], [], []
    for card_id, series, rarity, number, name, key in leaving:
        code = f"{series} {rarity} {number}"
        copies = used.get(card_id)
        if copies is None:
            dropped.append(card_id)
            continue
        matches = by_name.get(key, [])
        if len(matches) != 1:
            why = "no real card has this name" if not matches else "the name is printed twice"
            kept.append(Moved(name, code, why, copies))
            continue
        target = matches[0]
        _repoint(conn, card_id, ids[tuple(target[1:4])])
        dropped.append(card_id)
        moved.append(Moved(name, code, f"{target[1]} {target[2]} {target[3]}", copies))
    _drop(conn, dropped)
    return CatalogueMove(
        moved, kept, len(dropped) - len(moved), counts.added, None, False, counts.updated
    )


def _referenced(conn: Connection) -> dict[int, int]:
    """Card id -> copies owned (over all collectors), for every card something points at."""
    used: dict[int, int] = {}
    pointing = (tables.HISTORY_TABLE, tables.DECK_ENTRY_TABLE, tables.DECK_VERSION_ENTRY_TABLE)
    for table in pointing:
        for (card_id,) in conn.execute(f"SELECT DISTINCT card_id FROM {table}"):
            used.setdefault(card_id, 0)
    for card_id, copies in conn.execute(
        f"SELECT card_id, sum(copies) FROM {tables.HOLDING_TABLE} GROUP BY card_id"
    ):
        used[card_id] = int(copies)
    return used


def _repoint(conn: Connection, old: int, new: int) -> None:
    """Every row pointing at card `old` points at `new`; a holding or ownership row keyed
    alike with one of `new`'s adds its counts to it."""
    for table, key in _REFERENCES.items():
        if key is None:
            conn.execute(f"UPDATE {table} SET card_id = ? WHERE card_id = ?", (new, old))
            continue
        counted = (tables.HOLDING_TABLE, tables.DECK_SLEEVE_TABLE)
        counts = ("copies",) if table in counted else ("nonfoil", "foil")
        extra = ("note",) if table == tables.HOLDING_TABLE else ()
        found = conn.execute(
            f"SELECT {', '.join((*key, *counts, *extra))} FROM {table} WHERE card_id = ?", (old,)
        ).fetchall()
        where = " AND ".join(f"{column} = ?" for column in ("card_id", *key))
        added = ", ".join(f"{column} = {column} + ?" for column in counts)
        columns = ("card_id", *key, *counts, *extra)
        for row in found:
            keyed, amounts = tuple(row[: len(key)]), tuple(row[len(key) : len(key) + len(counts)])
            there = conn.execute(
                f"SELECT {', '.join(extra) or 'NULL'} FROM {table} WHERE {where}", (new, *keyed)
            ).fetchone()
            if there is None:
                conn.execute(
                    f"INSERT INTO {table} ({', '.join(columns)}) "
                    f"VALUES ({', '.join('?' * len(columns))})",
                    (new, *row),
                )
                continue
            conn.execute(f"UPDATE {table} SET {added} WHERE {where}", (*amounts, new, *keyed))
            if extra:  # both copies' notes are kept
                note = _merged_note(str(there[0]), str(row[-1]))
                conn.execute(f"UPDATE {table} SET note = ? WHERE {where}", (note, new, *keyed))
        conn.execute(f"DELETE FROM {table} WHERE card_id = ?", (old,))


def _merged_note(kept: str, moved: str) -> str:
    """The note of two holdings made one: each once, within a note's length."""
    from cardbase.collection.attributes import MAX_NOTE

    if not moved or moved == kept:
        return kept
    if not kept:
        return moved
    return f"{kept}; {moved}"[:MAX_NOTE]


def _drop(conn: Connection, card_ids: list[int]) -> None:
    """The sample cards nothing points at any more, with their names and texts."""
    for table in (tables.CARD_NAME_TABLE, tables.CARD_TEXT_TABLE, tables.CARD_VALUE_TABLE):
        conn.executemany(f"DELETE FROM {table} WHERE card_id = ?", [(i,) for i in card_ids])
    conn.executemany(f"DELETE FROM {tables.CARD_TABLE} WHERE id = ?", [(i,) for i in card_ids])
