"""Filling an empty card table on PostgreSQL in one go, for `cardbase db copy`: the card
table's secondary indexes, the full-text table's GIN indexes and the trigger that keeps it
are set aside while the rows go in, then built once from the whole table.

Through the trigger, every card costs its own tsvectors and four GIN insertions, and every
sort index an insertion: the card table of a 100k-card copy took 13 s that way, about 5 s
written bare and indexed once. The indexes come back from their own definitions
(`pg_get_indexdef`), word for word.

Only for a card table nobody else reads meanwhile (a new database, or one `db copy --force`
has emptied, under its exclusive lock already): dropping an index locks the table against
readers until the commit, which a catalogue import on a league's live server must not do.
Everything is inside the caller's transaction, so a failure rolls the indexes back too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cardbase.db import tables
from cardbase.db.postgres.fulltext import FTS_COLUMNS, fts_vectors
from cardbase.progress import Progress, quiet, step

_CARD, _FTS = tables.CARD_TABLE, tables.CARD_FTS_TABLE
_TRIGGER = f"{_CARD}_fts"  # as `cardbase.db.postgres.schema.FTS_DDL` names it


@contextmanager
def filling_cards(conn: Any, progress: Progress = quiet) -> Iterator[None]:
    """Within the caller's transaction: the block writes the card table without index or
    trigger work, and at its end the full-text rows and the indexes are made at once."""
    saved = conn.execute(
        "SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index AS i "
        "JOIN pg_class AS c ON c.oid = i.indexrelid "
        "WHERE i.indrelid IN (to_regclass(?), to_regclass(?)) "
        "AND NOT EXISTS (SELECT 1 FROM pg_constraint AS k WHERE k.conindid = i.indexrelid) "
        "ORDER BY c.relname",
        (_CARD, _FTS),
    ).fetchall()
    for name, _definition in saved:
        conn.execute(f'DROP INDEX "{name}"')
    conn.execute(f"ALTER TABLE {_CARD} DISABLE TRIGGER {_TRIGGER}")
    yield

    def rebuild() -> None:
        conn.execute(f"ALTER TABLE {_CARD} ENABLE TRIGGER {_TRIGGER}")
        conn.execute(f"DELETE FROM {_FTS}")
        conn.execute(
            f"INSERT INTO {_FTS} (id, {', '.join(FTS_COLUMNS.values())}) "
            f"SELECT c.id, {fts_vectors('c')} FROM {_CARD} AS c"
        )
        for _name, definition in saved:
            conn.execute(definition)

    step("Indexing", progress, rebuild)
