"""Two collectors' batches made as one change: a trade between collectors of one database.

Each side's history has a batch of its own, so each sees the trade among its changes and can
undo it; the two name each other in their sources ("trade with Bo: gave 2, got 1 (their batch
42)"), and `undo` or `redo` of either does both, in one transaction, or neither. The link is
read only when both batches name each other, so no other batch's text can pass for one; it
lives in the source, which every engine and every released schema already has, rather than in
a column a schema upgrade would add.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cardbase.db import tables
from cardbase.db.engine import Connection

TRADE_SOURCE = "trade with "
_PARTNER = re.compile(r" \(their batch (\d+)\)\Z")


def paired(source: str, partner: int) -> str:
    """`source` naming the other side's batch."""
    return f"{source} (their batch {partner})"


def partner_of(source: str) -> int | None:
    """The other side's batch a trade's source names; None for any other source."""
    found = _PARTNER.search(source) if source.startswith(TRADE_SOURCE) else None
    return int(found.group(1)) if found else None


class Partner(NamedTuple):
    """The other side of a paired batch: its batch, whose it is, and its state (`changes`'
    APPLIED, UNDONE or STALE)."""

    batch: int
    owner: int
    name: str
    undone: int


def partner(conn: Connection, batch_id: int, source: str) -> Partner | None:
    """The other side of batch `batch_id` when it is one of a pair; None for an ordinary
    batch, and for a trade whose other collector has since been removed (their history
    with them)."""
    number = partner_of(source)
    if number is None:
        return None
    row = conn.execute(
        f"SELECT b.collector_id, c.name, b.source, b.undone FROM {tables.BATCH_TABLE} AS b "
        f"JOIN {tables.COLLECTOR_TABLE} AS c ON c.id = b.collector_id WHERE b.id = ?",
        (number,),
    ).fetchone()
    if row is None or partner_of(row[2]) != batch_id:
        return None
    return Partner(number, int(row[0]), row[1], int(row[3]))
