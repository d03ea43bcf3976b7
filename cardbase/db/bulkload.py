"""Writing much of the card table at once: its indexes and full-text triggers set aside, and
rebuilt once at the end, inside the same transaction.

Through the triggers every card written is a separate full-text insert (and an update is a
delete and an insert), about 33 microseconds a row: 3.3 s of a 100k-card import. FTS5's
'rebuild' indexes the whole table in one pass, about 2.5 microseconds a card; likewise
CREATE INDEX sorts once where a hundred thousand inserts each walk the B-tree. So a load
that writes at least an eighth of the table drops the triggers and the secondary indexes,
writes, then creates them again from their own stored SQL and rebuilds the index: the
schema at commit is the one before, word for word, and the full-text index is in sync
(`doctor` checks both). A failure or Ctrl-C rolls the whole transaction back, DDL included,
so nothing is ever left without its triggers. Readers in other processes see the old
schema and rows until the commit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.progress import Progress, quiet, step

# A load that writes at least 1/BULK_SHARE of the table's rows rebuilds rather than trickles.
BULK_SHARE = 8
# SQLite's page cache for a bulk load, in KiB (negative: a size, not a page count): index
# pages of a 100k-card table stay in memory rather than being spilled and read back.
BULK_CACHE_KIB = 64 * 1024


def is_bulk(written: int, total: int) -> bool:
    """Whether writing `written` rows of a table that will hold `total` is cheaper as a bulk
    load (one rebuild of everything) than row by row (every write through the triggers)."""
    return written > 0 and written * BULK_SHARE >= total


@contextmanager
def bulk_load(conn: Connection, active: bool = True, progress: Progress = quiet) -> Iterator[None]:
    """Within the caller's transaction: set the card table's triggers and indexes aside for
    the block, then put them back as they were and rebuild the full-text index (the
    "Indexing" stage `progress` hears, one statement that cannot report from inside)."""
    if not active:
        yield
        return
    card = tables.CARD_TABLE
    saved = conn.execute(
        "SELECT type, name, sql FROM sqlite_master "
        "WHERE tbl_name = ? AND type IN ('trigger', 'index') AND sql IS NOT NULL",
        (card,),
    ).fetchall()
    cache = conn.execute("PRAGMA cache_size").fetchone()[0]
    conn.execute(f"PRAGMA cache_size = {-BULK_CACHE_KIB}")
    try:
        for kind, name, _sql in saved:
            conn.execute(f'DROP {kind.upper()} "{name}"')
        yield
        fts = tables.CARD_FTS_TABLE

        def rebuild() -> None:
            for _kind, _name, sql in sorted(saved, key=lambda entry: entry[0] != "index"):
                conn.execute(sql)  # the indexes, then the triggers, each as it was written
            conn.execute(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')")

        step("Indexing", progress, rebuild)
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")
