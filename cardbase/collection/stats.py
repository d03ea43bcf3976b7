"""Reading the collection: totals, set completion and history, with plain sqlite3.

These are read commands, so they stay off SQLModel like search does; changes to the
collection live in `cardbase.collection.store`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cardbase.catalog.cards import cards_by_id
from cardbase.collection.attributes import CONDITION_NAMES, condition_rank
from cardbase.collection.changes import APPLIED, Batch, Change, Holding
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.db.tables import copies_of
from cardbase.fields import FOIL, NONFOIL, RARITY_LETTERS, RARITY_NAMES, letter_rank
from cardbase.games import GAMES, set_label

NO_LOCATION_LABEL = "(no location)"


class Totals(NamedTuple):
    cards: int  # copies, foil and non-foil
    nonfoil: int
    foil: int
    distinct: int  # distinct printings owned

    def to_dict(self) -> dict[str, int]:
        return self._asdict()


class Completion(NamedTuple):
    """Distinct printings owned out of those in the catalogue, for one group of cards."""

    group: str
    catalogue: int
    nonfoil: int
    foil: int
    either: int

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class Breakdown(NamedTuple):
    """Copies held in one location or condition, and how many distinct cards they are."""

    group: str  # as shown: "Binder 1", "(no location)", "NM (Near Mint)"
    key: str  # as stored: "Binder 1", "", "NM"
    copies: int
    nonfoil: int
    foil: int
    distinct: int

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


_OWN = f"LEFT JOIN {tables.MY_OWNERSHIP} AS o ON o.card_id = c.id"
_COMPLETION = (
    "count(*), count(CASE WHEN o.nonfoil > 0 THEN 1 END), "
    "count(CASE WHEN o.foil > 0 THEN 1 END), count(CASE WHEN o.nonfoil + o.foil > 0 THEN 1 END)"
)


def totals(conn: Connection, game: str | None = None) -> Totals:
    """Copies and distinct printings owned: of `game`'s cards, else of every game's."""
    where, params = ("", ()) if game is None else (" AND c.game = ?", (game,))
    row = conn.execute(
        f"SELECT coalesce(sum(o.nonfoil), 0), coalesce(sum(o.foil), 0), count(*) "
        f"FROM {tables.MY_OWNERSHIP} AS o JOIN {tables.CARD_TABLE} AS c ON c.id = o.card_id "
        f"WHERE o.nonfoil + o.foil > 0{where}",
        params,
    ).fetchone()
    return Totals(row[0] + row[1], row[0], row[1], row[2])


def completion_by_set(conn: Connection, game: str) -> list[Completion]:
    """Per series and rarity, in set order: what a collector ticks off in a binder."""
    rows = conn.execute(
        f"SELECT c.series, c.rarity, {_COMPLETION} FROM {tables.CARD_TABLE} AS c {_OWN} "
        "WHERE c.game = ? GROUP BY c.series, c.rarity "
        f"ORDER BY c.series, {letter_rank('c.rarity', RARITY_LETTERS)}",
        (game,),
    )
    return [
        Completion(f"{set_label(game, series)} {RARITY_NAMES[rarity].lower()}", *counts)
        for series, rarity, *counts in rows
    ]


def completion_by_series(conn: Connection, game: str) -> list[Completion]:
    rows = conn.execute(
        f"SELECT c.series, {_COMPLETION} FROM {tables.CARD_TABLE} AS c {_OWN} "
        "WHERE c.game = ? GROUP BY c.series ORDER BY c.series",
        (game,),
    )
    return [Completion(set_label(game, series), *counts) for series, *counts in rows]


def completion_by_sphere(conn: Connection, game: str) -> list[Completion]:
    rows = conn.execute(
        f"SELECT coalesce(c.sphere, 'Heroes'), {_COMPLETION} FROM {tables.CARD_TABLE} AS c "
        f"{_OWN} WHERE c.game = ? GROUP BY 1 ORDER BY 1",
        (game,),
    )
    return [Completion(sphere, *counts) for sphere, *counts in rows]


def completion_by_type(conn: Connection, game: str) -> list[Completion]:
    """Per card type, in the game's own order: for a game without spheres (Wildhearts), where
    grouping by sphere put every card under "Heroes"."""
    order = GAMES[game].types if game in GAMES else ()
    rows = conn.execute(
        f"SELECT c.type, {_COMPLETION} FROM {tables.CARD_TABLE} AS c {_OWN} "
        "WHERE c.game = ? GROUP BY c.type",
        (game,),
    ).fetchall()
    rows.sort(key=lambda row: (order.index(row[0]) if row[0] in order else len(order), row[0]))
    return [Completion(card_type, *counts) for card_type, *counts in rows]


def _held_by(
    conn: Connection, column: str, game: str | None
) -> list[tuple[str, int, int, int, int]]:
    """(value, copies, non-foil, foil, distinct cards) of the collector's holdings (of `game`'s
    cards) per value of one holding column (a name from `tables.HOLDING_COLUMNS`, never a
    user's text)."""
    assert column in tables.HOLDING_COLUMNS
    where, params = ("", ()) if game is None else ("WHERE c.game = ? ", (game,))
    return conn.execute(
        f"SELECT h.{column}, sum(h.copies), {copies_of(NONFOIL, 'h.')}, "
        f"{copies_of(FOIL, 'h.')}, count(DISTINCT h.card_id) "
        f"FROM {tables.MY_HOLDING} AS h JOIN {tables.CARD_TABLE} AS c ON c.id = h.card_id "
        f"{where}GROUP BY h.{column}",
        params,
    ).fetchall()


def copies_by_location(conn: Connection, game: str | None = None) -> list[Breakdown]:
    """Per location, by name; the copies with none last."""
    rows = sorted(_held_by(conn, "location", game), key=lambda r: (not r[0], r[0].casefold()))
    return [Breakdown(where or NO_LOCATION_LABEL, where, *counts) for where, *counts in rows]


def copies_by_condition(conn: Connection, game: str | None = None) -> list[Breakdown]:
    """Per condition, best first."""
    rows = sorted(_held_by(conn, "condition", game), key=lambda row: condition_rank(row[0]))
    return [Breakdown(f"{code} ({CONDITION_NAMES[code]})", code, *counts) for code, *counts in rows]


STATS_CSV_HEADER = ("by", "group", "catalogue", "nonfoil", "foil", "either", "copies", "distinct")


class CollectionStats(NamedTuple):
    """What `cardbase stats` shows: totals, completion grouped three ways, and where the copies
    are and in what condition."""

    totals: Totals
    groups: dict[str, list[Completion]]  # "series", "set" (series and rarity), "sphere"
    copies: dict[str, list[Breakdown]]  # "location", "condition"
    game: str = ""  # whose cards: one game's, the one chosen

    def to_dict(self) -> dict[str, Any]:
        groups = {key: [row.to_dict() for row in rows] for key, rows in self.groups.items()}
        copies = {key: [row.to_dict() for row in rows] for key, rows in self.copies.items()}
        return {"game": self.game, "totals": self.totals.to_dict(), **groups, **copies}

    def csv_rows(self) -> list[tuple[object, ...]]:
        """Rows under `STATS_CSV_HEADER`, one table for both kinds: a completion row leaves
        copies and distinct blank, a location or condition row the catalogue columns."""
        rows: list[tuple[object, ...]] = [
            (key, *row, "", "") for key, group in self.groups.items() for row in group
        ]
        rows += [
            (key, row.group, "", "", "", "", row.copies, row.distinct)
            for key, group in self.copies.items()
            for row in group
        ]
        return rows


def collection_stats(conn: Connection, game: str) -> CollectionStats:
    """`game`'s cards only, header totals included: `stats --game wildhearts` beside a Free
    Realms collection must not report the Free Realms copies. A game with spheres is grouped
    by sphere, one without (Wildhearts) by its card types."""
    by_sphere = bool(GAMES[game].spheres) if game in GAMES else True
    return CollectionStats(
        totals(conn, game),
        {
            "series": completion_by_series(conn, game),
            "set": completion_by_set(conn, game),
            **(
                {"sphere": completion_by_sphere(conn, game)}
                if by_sphere
                else {"type": completion_by_type(conn, game)}
            ),
        },
        {
            "location": copies_by_location(conn, game),
            "condition": copies_by_condition(conn, game),
        },
        game,
    )


def history(conn: Connection, limit: int | None = None, undoable: bool = False) -> list[Batch]:
    """The connection's collector's batches newest first, each with its changes (as deltas
    from zero when shown alone); `undoable`: only those not undone, the first of which is
    what an undo would revert."""
    batches = conn.execute(
        f"SELECT id, created_at, source, undone FROM {tables.BATCH_TABLE} "
        f"WHERE collector_id = (SELECT id FROM {tables.MY_COLLECTOR})"
        + (f" AND undone = {APPLIED}" if undoable else "")
        + " ORDER BY id DESC"
        + (" LIMIT ?" if limit else ""),
        (limit,) if limit else (),
    ).fetchall()
    if not batches:
        return []
    ids = [row[0] for row in batches]
    marks = ", ".join("?" for _ in ids)
    deltas = conn.execute(
        f"SELECT batch_id, card_id, finish, condition, language, location, tags, delta "
        f"FROM {tables.HISTORY_TABLE} "
        f"WHERE batch_id IN ({marks}) ORDER BY id",
        ids,
    ).fetchall()
    cards = cards_by_id(conn, (row[1] for row in deltas))
    changes: dict[int, list[Change]] = {batch_id: [] for batch_id in ids}
    for batch_id, *key, delta in deltas:
        holding = Holding(*key)
        changes[batch_id].append(Change(cards[holding.card_id], holding, 0, delta))
    return [
        Batch(batch_id, created_at, source, bool(undone), changes[batch_id])
        for batch_id, created_at, source, undone in batches
    ]
