"""A collector's holdings, changed in batches that history records and undo reverts.

Every change, whether one `cardbase add` or a whole spreadsheet import, is one transaction
and one batch: the holdings are read inside the write transaction (BEGIN IMMEDIATE), the
requests planned against them (`cardbase.collection.plan`: never negative, never a guess
between holdings), the holdings and their per-card totals written, and each holding's delta
recorded with its whole key. A refusal raises before anything is written, so a command
applies completely or not at all, and two commands at once both count.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from datetime import UTC, datetime

from cardbase.catalog.cards import CardLike, card_refs_by_id, cards_by_id, id_chunks
from cardbase.collection import pairs, sleeved
from cardbase.collection.attributes import parse_tags, stored_labels, tag_list
from cardbase.collection.changes import (
    APPLIED,
    STALE,
    UNDONE,
    Batch,
    Change,
    Holding,
    Mode,
    Request,
)
from cardbase.collection.plan import Defaults, Working, apply, refused
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.db.tables import copies_of
from cardbase.errors import CardbaseError, Remedy
from cardbase.fields import FOIL, NONFOIL
from cardbase.naming import label_key
from cardbase.progress import Progress, Stage, quiet

SCOPED_READ = 5_000  # card ids whose holdings are read by the key rather than by one scan
_KEY = ", ".join(tables.HOLDING_KEY)
_HOLDING = "card_id, finish, condition, language, location, tags"
_KEYED = _HOLDING.split(", ")


def change_collection(
    db: Database,
    requests: list[Request],
    mode: Mode,
    source: str,
    *,
    defaults: Defaults | None = None,
    dry_run: bool = False,
    progress: Progress = quiet,
) -> list[Change]:
    """Apply requests to `db`'s collection in one transaction and one history batch; return
    what changed. `progress` hears the "Writing" stage move (copies, totals, history)."""
    cards: dict[int, CardLike] = {request.card.id: request.card for request in requests}
    with db.writing() as conn:
        scope = None if mode is Mode.REPLACE else set(cards)
        working = Working(*read_holdings(conn, scope))
        requests = _same_spellings(conn, requests)
        problems = apply(working, mode, requests, defaults or Defaults())
        if problems:
            raise refused(problems)
        missing = {h.card_id for h in working.counts} - cards.keys()
        cards.update(cards_by_id(conn, missing))
        changes = working.changes(cards)
        if changes and not dry_run:
            write_changes(conn, changes, source, progress)
    return changes


def _same_spellings(conn: Connection, requests: list[Request]) -> list[Request]:
    """'binder 1' is the collector's 'Binder 1' when that exists, else the spelling these
    requests first give it: a location keeps the spelling it was first given, and so does a
    tag, so copies that differ only in case are one holding (a sheet's rows too)."""
    places: dict[str, str] | None = None
    labels: dict[str, str] | None = None
    spelled = []
    for request in requests:
        location, tags = request.selector.location, request.selector.tags
        if location:
            places = location_spellings(conn) if places is None else places
            location = places.setdefault(label_key(location), location)
        if tags:
            labels = tag_spellings(conn) if labels is None else labels
            tags = parse_tags([labels.setdefault(label_key(t), t) for t in tag_list(tags)])
        if (location, tags) != (request.selector.location, request.selector.tags):
            request = request._replace(
                selector=request.selector._replace(location=location, tags=tags)
            )
        spelled.append(request)
    return spelled


def location_spellings(conn: Connection) -> dict[str, str]:
    """The collector's locations as first spelled, by their folded names (`label_key`: an
    old NFD spelling is the NFC one)."""
    return {label_key(location): location for location in stored_labels(conn, "location")}


def tag_spellings(conn: Connection) -> dict[str, str]:
    """The collector's tags as first spelled, by their folded words (`label_key`)."""
    return {label_key(tag): tag for tag in stored_labels(conn, "tags")}


def read_holdings(
    conn: Connection, card_ids: set[int] | None, owner: int | None = None
) -> tuple[dict[Holding, int], dict[Holding, str]]:
    """The connection's collector's holdings of `card_ids` (of every card for None), and
    their notes: a one-card `add` reads its own rows by the key, not a 63k-card collection.
    `owner`: another collector's, by id (the other side of a trade)."""
    table, where, mine = tables.MY_HOLDING, list[str](), tuple[int, ...]()
    if owner is not None:
        table, where, mine = tables.HOLDING_TABLE, ["collector_id = ?"], (owner,)
    sql = f"SELECT {_HOLDING}, copies, note FROM {table}"
    cursor = conn.cursor()
    cursor.row_factory = None
    if card_ids is not None and len(card_ids) <= SCOPED_READ:
        rows = []
        for chunk, marks in id_chunks(card_ids):
            scoped = " AND ".join([*where, f"card_id IN ({marks})"])
            rows += cursor.execute(f"{sql} WHERE {scoped}", (*mine, *chunk)).fetchall()
    else:
        sql += f" WHERE {where[0]}" if where else ""
        rows = cursor.execute(sql, mine).fetchall()
    counts: dict[Holding, int] = {}
    notes: dict[Holding, str] = {}
    for *key, copies, note in rows:
        holding = Holding(*key)
        if card_ids is not None and holding.card_id not in card_ids:
            continue
        counts[holding] = copies
        if note:
            notes[holding] = note
    return counts, notes


def collector_id(conn: Connection) -> int:
    return int(conn.execute(f"SELECT id FROM {tables.MY_COLLECTOR}").fetchone()[0])


def write_changes(
    conn: Connection,
    changes: list[Change],
    source: str,
    progress: Progress = quiet,
    owner: int | None = None,
) -> int:
    """Write the holdings and totals, and record them as one batch; return the batch id.
    `owner`: another collector's, by id (the other side of a trade)."""
    owner = collector_id(conn) if owner is None else owner
    stage = writing(changes, progress, history=True)
    store_holdings(conn, owner, changes, stage)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    batch_id = conn.execute(
        f"INSERT INTO {tables.BATCH_TABLE} (collector_id, created_at, source, undone) "
        "VALUES (?, ?, ?, 0) RETURNING id",
        (owner, created, source),
    ).fetchone()[0]
    conn.executemany(
        f"INSERT INTO {tables.HISTORY_TABLE} (batch_id, {_HOLDING}, delta, note_before) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        stage.over([(batch_id, *c.holding, c.new - c.old, c.note_before) for c in changes]),
    )
    stage.finish()
    return int(batch_id or 0)


def writing(changes: list[Change], progress: Progress, history: bool = False) -> Stage:
    """The "Writing" stage: each change's holding, each card's totals, each history row."""
    cards = len({change.card.id for change in changes})
    return Stage("Writing", len(changes) * (2 if history else 1) + cards, progress)


def store_holdings(
    conn: Connection, owner: int, changes: list[Change], stage: Stage | None = None
) -> None:
    """Set each change's holding; a holding left with no copies is dropped. The per-card
    totals move by the same deltas. Every write to the holdings comes here, so this is where
    copies sleeved in built decks are kept from being taken (`sleeved.guard`)."""
    sleeved.guard(conn, owner, changes)
    stage = stage or Stage("Writing", 0)
    conn.executemany(
        f"DELETE FROM {tables.HOLDING_TABLE} WHERE ({_KEY}) = (?, ?, ?, ?, ?, ?, ?)",
        stage.over([(owner, *c.holding) for c in changes if c.new == 0]),
    )
    conn.executemany(
        f"INSERT INTO {tables.HOLDING_TABLE} ({_KEY}, copies, note) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
        f"ON CONFLICT ({_KEY}) DO UPDATE SET copies = excluded.copies, note = excluded.note",
        stage.over([(owner, *c.holding, c.new, c.note) for c in changes if c.new]),
    )
    _store_totals(conn, owner, changes, stage)


def _store_totals(conn: Connection, owner: int, changes: list[Change], stage: Stage) -> None:
    """Recount the changed cards' totals from their holdings: exact whatever came before."""
    for chunk, marks in id_chunks({change.card.id for change in changes}):
        conn.execute(
            f"DELETE FROM {tables.OWNERSHIP_TABLE} WHERE collector_id = ? AND card_id IN ({marks})",
            (owner, *chunk),
        )
        conn.execute(
            f"INSERT INTO {tables.OWNERSHIP_TABLE} (collector_id, card_id, nonfoil, foil) "
            f"SELECT collector_id, card_id, {copies_of(NONFOIL)}, {copies_of(FOIL)} "
            f"FROM {tables.HOLDING_TABLE} "
            f"WHERE collector_id = ? AND card_id IN ({marks}) GROUP BY collector_id, card_id",
            (owner, *chunk),
        )
        stage.add(len(chunk))


def undo_last(db: Database, progress: Progress = quiet) -> Batch | None:
    """Revert `collector`'s newest batch not yet undone; None when there is nothing left.
    `progress` hears "Reading history" and "Writing" move. A trade's batch reverts the other
    collector's side with it (`pairs`), or, if they no longer have what it gave them, neither;
    that is a write beyond this collector's cards, so an undo waits for every other write."""
    with db.writing(whole=True) as conn:
        owner = collector_id(conn)
        row = conn.execute(
            f"SELECT id, created_at, source FROM {tables.BATCH_TABLE} "
            f"WHERE collector_id = ? AND undone = {APPLIED} ORDER BY id DESC LIMIT 1",
            (owner,),
        ).fetchone()
        if row is None:
            return None
        batch_id, created_at, source = row
        progress("Reading history", 0, 1)
        changes = _reverted(conn, batch_id, _recorded(conn, batch_id))
        other = pairs.partner(conn, batch_id, source)
        theirs = _reverted(conn, other.batch, _recorded(conn, other.batch), other) if other else []
        progress("Reading history", 1, 1)
        keep_for_redo(conn, owner, batch_id)
        stage = writing(changes, progress)
        store_holdings(conn, owner, changes, stage)
        stage.finish()
        undone = [batch_id]
        if other:
            keep_for_redo(conn, other.owner, other.batch)
            store_holdings(conn, other.owner, theirs)
            undone.append(other.batch)
        conn.executemany(
            f"UPDATE {tables.BATCH_TABLE} SET undone = {UNDONE} WHERE id = ?",
            [(number,) for number in undone],
        )
    return Batch(batch_id, created_at, source, True, changes)


def _recorded(conn: Connection, batch_id: int) -> list[tuple]:
    return conn.execute(
        f"SELECT {_HOLDING}, delta, note_before FROM {tables.HISTORY_TABLE} "
        "WHERE batch_id = ? ORDER BY id",
        (batch_id,),
    ).fetchall()


def _reverted(
    conn: Connection, batch_id: int, recorded: Iterable[tuple], other: pairs.Partner | None = None
) -> list[Change]:
    """The batch's changes taken back from the holdings as they are now; `other`: the batch
    is the other side of a trade, in their collection."""
    rows = [(Holding(*row[:6]), row[6], row[7]) for row in recorded]
    card_ids = {holding.card_id for holding, _, _ in rows}
    cards = card_refs_by_id(conn, card_ids)  # a name and a code each, in one query a batch
    counts, notes = read_holdings(conn, card_ids, other.owner if other else None)
    changes = []
    for holding, delta, note_before in rows:
        old = counts.get(holding, 0)
        if old - delta < 0 and other:
            raise _gone_since(other, "undo", cards[holding.card_id], holding, old, delta)
        if old - delta < 0:  # only if the database was edited behind our back
            raise CardbaseError(f"cannot undo batch {batch_id}: it would leave a negative count")
        counts[holding] = old - delta
        note = notes.get(holding, "")
        after = note if note_before is None else note_before
        changes.append(Change(cards[holding.card_id], holding, old, old - delta, after, None))
        notes[holding] = after
    return changes


def _gone_since(
    other: pairs.Partner, verb: str, card: CardLike, holding: Holding, held: int, delta: int
) -> CardbaseError:
    """The other side of a trade no longer holds what undoing (or redoing) it would take
    back: the trade stays as it is, on both sides, and a new trade is the way forward."""
    what = f"{card.label()} {holding.describe()}"
    has = f"{other.name} has {held} {what}, the {verb} would take {abs(delta)}"
    return CardbaseError(
        f"cannot {verb} the trade with {other.name}: {other.name}'s collection has changed "
        f"since ({has}); nothing was changed",
        Remedy(
            f"Trade what is still there with: cardbase trade make {shlex.quote(other.name)}",
            f"Trade what is still there from the Trade Lobby, with {other.name}",
        ),
    )


def keep_for_redo(conn: Connection, owner: int, batch_id: int) -> None:
    """Called by `undo_last` as it reverts `batch_id`, in its transaction, before it writes.

    A history row whose undo changes the holding's note (the batch replaced the note, or
    the undo drops a holding that has one) keeps the note the batch left in place of the
    note before it, which the undo is restoring: a row's `note_before` is always the note on
    the other side of the batch, so undo, redo and undo again each restore the right one.
    One statement, by the holdings' key: an import's undo stays one pass. And an undone
    batch older than this one was undone before this one was made: its redo is gone.
    """
    same = " AND ".join(f"h.{column} = {tables.HISTORY_TABLE}.{column}" for column in _KEYED)
    held = f"FROM {tables.HOLDING_TABLE} AS h WHERE h.collector_id = ? AND {same}"
    conn.execute(
        f"UPDATE {tables.HISTORY_TABLE} SET note_before = coalesce((SELECT h.note {held}), '') "
        f"WHERE batch_id = ? AND (note_before IS NOT NULL OR EXISTS (SELECT 1 {held} "
        f"AND h.copies = {tables.HISTORY_TABLE}.delta AND h.note != ''))",
        (owner, batch_id, owner),
    )
    conn.execute(
        f"UPDATE {tables.BATCH_TABLE} SET undone = {STALE} "
        f"WHERE collector_id = ? AND undone = {UNDONE} AND id < ?",
        (owner, batch_id),
    )


def redo_last(db: Database) -> Batch | None:
    """Re-apply `collector`'s most recently undone batch; None when there is nothing to redo.

    Undo always reverts the newest applied batch, so the batches that can be redone are the
    undone ones newer than every applied one (older undone ones are STALE or behind an
    applied one), and the most recently undone of them is the oldest. Redoing marks it
    applied again, so the next `undo` reverts it and undo and redo alternate. A trade's
    other side is redone with it, if it could be redone by its own collector too.
    """
    with db.writing(whole=True) as conn:
        owner = collector_id(conn)
        row = conn.execute(_REDOABLE, (owner, owner)).fetchone()
        if row is None:
            return None
        batch_id, created_at, source = row
        changes = _reapplied(conn, batch_id)
        other = pairs.partner(conn, batch_id, source)
        theirs = _reapplied(conn, other.batch, _redoable(conn, other)) if other else []
        store_holdings(conn, owner, changes)
        redone = [batch_id]
        if other:
            store_holdings(conn, other.owner, theirs)
            redone.append(other.batch)
        conn.executemany(
            f"UPDATE {tables.BATCH_TABLE} SET undone = {APPLIED} WHERE id = ?",
            [(number,) for number in redone],
        )
    return Batch(batch_id, created_at, source, False, changes)


_REDOABLE = (
    f"SELECT id, created_at, source FROM {tables.BATCH_TABLE} "
    f"WHERE collector_id = ? AND undone = {UNDONE} AND id > (SELECT coalesce(max(id), 0) "
    f"FROM {tables.BATCH_TABLE} WHERE collector_id = ? AND undone = {APPLIED}) "
    "ORDER BY id LIMIT 1"
)


def _redoable(conn: Connection, other: pairs.Partner) -> pairs.Partner:
    """The other side of a trade being redone, if its own collector could redo it: the
    newest of their undone batches, with no change of theirs since (as an editor's redo
    forgets once you type)."""
    row = conn.execute(_REDOABLE, (other.owner, other.owner)).fetchone()
    if other.undone != UNDONE or row is None or row[0] != other.batch:
        raise CardbaseError(
            f"cannot redo the trade with {other.name}: {other.name} has changed their "
            "collection since the trade was made or undone; nothing was changed",
            Remedy(
                f"Make the trade again with: cardbase trade make {shlex.quote(other.name)}",
                f"Make the trade again from the Trade Lobby, with {other.name}",
            ),
        )
    return other


def _reapplied(conn: Connection, batch_id: int, other: pairs.Partner | None = None) -> list[Change]:
    """The batch's changes made again on the holdings as they are now; a row that replaced a
    note sets the note the batch had set, and keeps the one it replaces (`keep_for_redo`).
    `other`: the batch is the other side of a trade, in their collection."""
    recorded = conn.execute(
        f"SELECT id, {_HOLDING}, delta, note_before FROM {tables.HISTORY_TABLE} "
        "WHERE batch_id = ? ORDER BY id",
        (batch_id,),
    ).fetchall()
    rows = [(row[0], Holding(*row[1:7]), row[7], row[8]) for row in recorded]
    card_ids = {holding.card_id for _, holding, _, _ in rows}
    cards = cards_by_id(conn, card_ids)
    counts, notes = read_holdings(conn, card_ids, other.owner if other else None)
    changes, kept = [], []
    for row_id, holding, delta, note_set in rows:
        old = counts.get(holding, 0)
        if old + delta < 0 and other:
            raise _gone_since(other, "redo", cards[holding.card_id], holding, old, delta)
        if old + delta < 0:  # only if the database was edited behind our back
            raise CardbaseError(f"cannot redo batch {batch_id}: it would leave a negative count")
        counts[holding] = old + delta
        note = notes.get(holding, "")
        if note_set is not None:
            kept.append((note, row_id))
            note = note_set
        changes.append(Change(cards[holding.card_id], holding, old, old + delta, note, None))
        notes[holding] = note
    conn.executemany(f"UPDATE {tables.HISTORY_TABLE} SET note_before = ? WHERE id = ?", kept)
    return changes
