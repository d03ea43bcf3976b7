"""What the doctor finds, on either engine: one `Finding` per check, and the checks whose
SQL both engines share."""

from __future__ import annotations

from typing import NamedTuple

from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.db.tables import copies_of

RESTORE_HINT = "'cardbase restore BACKUP' puts a backup in its place"


class Finding(NamedTuple):
    check: str
    ok: bool
    detail: str

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


def collection_totals(copy: Connection) -> Finding:
    """Each collector's per-card totals against their holdings: the write side keeps them
    equal, so a difference means the file was edited by other means."""
    differ = copy.execute(
        f"SELECT count(*) FROM (SELECT collector_id, card_id, nonfoil, foil "
        f"FROM {tables.OWNERSHIP_TABLE} WHERE nonfoil + foil > 0 "
        f"EXCEPT SELECT collector_id, card_id, {copies_of('nonfoil')}, {copies_of('foil')} "
        f"FROM {tables.HOLDING_TABLE} GROUP BY 1, 2) AS differing"
    ).fetchone()[0]
    missing = copy.execute(
        f"SELECT count(*) FROM (SELECT collector_id, card_id FROM {tables.HOLDING_TABLE} "
        f"EXCEPT SELECT collector_id, card_id FROM {tables.OWNERSHIP_TABLE}) AS missing"
    ).fetchone()[0]
    if differ or missing:
        return Finding(
            "collection totals", False,
            f"{differ + missing} cards' totals differ from their copies; {RESTORE_HINT}",
        )  # fmt: skip
    return Finding("collection totals", True, "every card's totals match its copies")
