"""Moving copies between holdings: to another location (`move`), or to the same copies with
tags added or taken away (`tag`, `untag`).

A move takes copies out of the holdings an item names and puts them into the holdings they
become, keeping finish, condition, language and note: one batch, so `undo` puts them back.
An item without a count moves every copy it names; with a count, the copies must be in one
holding, or the item must say which (the same rule as `remove`).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from cardbase.catalog.entries import parse_entry
from cardbase.catalog.names import resolve_entries
from cardbase.collection.attributes import parse_tags, tag_list, with_tags, without_tags
from cardbase.collection.changes import ANY, Change, Holding, Request, Selector
from cardbase.collection.items import STDIN, _overlay, item_lines, split_attributes
from cardbase.collection.plan import Working, ambiguous, matches, refused, shortfall
from cardbase.collection.store import (
    location_spellings,
    read_holdings,
    tag_spellings,
    write_changes,
)
from cardbase.db.engine import Connection, Database
from cardbase.errors import CardbaseError
from cardbase.fields import FOIL, NONFOIL
from cardbase.naming import label_key
from cardbase.text import plural

Reshape = Callable[[Holding], Holding]
# A reshape made inside the write transaction, from what the collector holds then.
MakeReshape = Callable[[Connection], Reshape]


def to_location(location: str) -> MakeReshape:
    """To `location`, spelled as the collector first spelled it ('binder 1' is 'Binder 1')."""

    def make(conn: Connection) -> Reshape:
        spelled = location_spellings(conn).get(label_key(location), location)
        return lambda holding: holding._replace(location=spelled)

    return make


def tagged(tags: str) -> MakeReshape:
    """With `tags` added, each spelled as the collector first spelled it."""

    def make(conn: Connection) -> Reshape:
        known = tag_spellings(conn)
        spelled = parse_tags([known.get(label_key(tag), tag) for tag in tag_list(tags)])
        return lambda holding: holding._replace(tags=with_tags(holding.tags, spelled))

    return make


def untagged(tags: str) -> MakeReshape:
    return lambda _: lambda holding: holding._replace(tags=without_tags(holding.tags, tags))


def move_items(
    db: Database,
    items: list[str],
    make_reshape: MakeReshape,
    verb: str,
    *,
    pasted: str = "",
    foil: bool | None = None,
    selector: Selector = ANY,
    dry_run: bool = False,
) -> list[Change]:
    """Move the copies the items name into the holdings `make_reshape` makes of theirs, as
    `collector`, in one transaction; `foil` None means either finish when an item does not
    say."""
    lines = item_lines(items, pasted)
    if not lines:
        raise CardbaseError(f"nothing to {verb}: name at least one card")
    split = [split_attributes(line) for line in lines]
    entries = [parse_entry(text) for text, _ in split]
    with db.reading() as conn:
        resolved = resolve_entries(conn, entries)
    typed = f"({plural(len(lines), 'line')})" if STDIN in items else shlex.join(items)
    with db.writing() as conn:
        working = Working(*read_holdings(conn, {r.card.id for r in resolved}))
        reshape = make_reshape(conn)
        problems = []
        for r, (_, own) in zip(resolved, split, strict=True):
            request = Request(r.card, NONFOIL, r.copies, _overlay(selector, own))
            finishes = [r.entry.finish] if r.entry.finish else _finishes(foil, r.entry.counted)
            problems += _move(working, request, finishes, r.entry.counted, reshape, verb)
        if problems:
            raise refused(problems)
        changes = working.changes({r.card.id: r.card for r in resolved})
        if changes and not dry_run:
            write_changes(conn, changes, f"{verb} {typed}")
    return changes


def _finishes(foil: bool | None, counted: bool) -> list[str]:
    """Which finishes an item that does not say means: both for "all my copies", else the
    one --foil says (non-foil by default, as `remove` reads it)."""
    if foil is None and not counted:
        return [NONFOIL, FOIL]
    return [FOIL if foil else NONFOIL]


def _move(
    working: Working,
    request: Request,
    finishes: list[str],
    counted: bool,
    reshape: Reshape,
    verb: str,
) -> list[str]:
    """Move one item's copies within `working`; return what was refused."""
    picks = []
    for finish in finishes:
        held = working.held(request.card.id, finish)
        picks.append((finish, held, [h for h in held if matches(h, request.selector)]))
    total = sum(working.counts[h] for _, _, chosen in picks for h in chosen)
    if not counted and total:
        for _, _, chosen in picks:
            for holding in chosen:
                _shift(working, holding, working.counts[holding], reshape)
        return []
    finish, held, chosen = picks[0]
    request = request._replace(finish=finish)
    mine = sum(working.counts[h] for h in chosen)
    if request.copies > mine:
        return [shortfall(request, held, working.counts, []).replace("remove", verb, 1)]
    if request.copies < mine and len(chosen) > 1:
        return [ambiguous(request, chosen, working.counts, verb)]
    for holding in chosen:
        _shift(working, holding, min(request.copies, working.counts[holding]), reshape)
    return []


def _shift(working: Working, holding: Holding, copies: int, reshape: Reshape) -> None:
    target = reshape(holding)
    if target == holding:
        return
    note = working.notes.get(holding, "")
    working.put(holding, working.counts[holding] - copies)
    working.put(target, working.counts.get(target, 0) + copies, note or None)
