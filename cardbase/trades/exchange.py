"""A trade carried out between two collectors of one database: the copies one gives go to
the other, and back, in one transaction, recorded in each side's history as a pair of batches
(`cardbase.collection.pairs`) that either side's `undo` reverts whole.

Items are read as `add` and `remove` read theirs ("1 C 14 x2 foil lp fr"). When an item's
copies are in several holdings, the giver gives first the copies they tagged `trade`, then
their worst condition (the Trade Lobby keeps a collector's best copies), then by language,
location and tags; the trade says which copies it took. A copy arrives with its finish,
condition and language; its location and tags were the giver's ways of keeping it and stay
behind, as its note does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from cardbase.catalog.cards import CardLike
from cardbase.catalog.entries import parse_entry
from cardbase.catalog.names import NOTHING_CHANGED, resolve_entries
from cardbase.collection import pairs
from cardbase.collection.attributes import condition_rank, has_tags
from cardbase.collection.changes import Change, Holding, Request
from cardbase.collection.collectors import Collector, current_collector, find_collector
from cardbase.collection.items import split_attributes
from cardbase.collection.plan import Working, matches
from cardbase.collection.store import read_holdings, write_changes
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.errors import CardbaseError, Remedy, first_few, shorten
from cardbase.fields import FINISHES, NONFOIL
from cardbase.text import plural
from cardbase.trades.items import RARITY_VALUE, value_rule

GIVEN_FIRST = "trade"  # the tag of copies a collector set aside for trading
MAX_ITEMS = 500  # items one side of a trade may list


class Moved(NamedTuple):
    """Copies that change hands: the giver's holding they came from, and how many."""

    card: CardLike
    holding: Holding
    copies: int

    @property
    def value(self) -> int:
        return RARITY_VALUE.get(self.card.code.rarity, 1) * self.copies

    def describe(self) -> str:
        return f"{self.copies} x {self.card.label()} {self.holding.describe()}"

    def item(self) -> str:
        """The item that names these copies again, as `make_trade` reads it."""
        held = self.holding
        return f"{self.card.code} x{self.copies} {held.finish} {held.condition} {held.language}"

    def to_dict(self) -> dict[str, Any]:
        card = {"code": str(self.card.code), "name": self.card.name}
        return {**card, **self.holding.attributes(), "copies": self.copies, "value": self.value}


class Trade(NamedTuple):
    """A trade as made (or, for a dry run, as it would be): what each side gives, and the
    changes to each collection. `batch` and `their_batch` are the two history batches."""

    collector: str  # the side making it: the library's collector
    other: str
    give: list[Moved]  # from the collector to the other
    get: list[Moved]  # from the other to the collector
    changes: list[Change]  # the collector's collection
    their_changes: list[Change]
    batch: int | None = None  # None: a dry run, nothing written
    their_batch: int | None = None

    def summary(self) -> dict[str, int]:
        return {
            "give_cards": sum(m.copies for m in self.give),
            "get_cards": sum(m.copies for m in self.get),
            "give_value": sum(m.value for m in self.give),
            "get_value": sum(m.value for m in self.get),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "collector": self.collector,
            "with": self.other,
            "done": self.batch is not None,
            "batch": self.batch,
            "their_batch": self.their_batch,
            "give": [m.to_dict() for m in self.give],
            "get": [m.to_dict() for m in self.get],
            **self.summary(),
            "value_rule": value_rule(),
            "changes": [c.to_dict() for c in self.changes],
            "their_changes": [c.to_dict() for c in self.their_changes],
        }


def make_trade(
    db: Database,
    other: str,
    give: Iterable[str] = (),
    get: Iterable[str] = (),
    *,
    dry_run: bool = False,
) -> Trade:
    """Give `give`'s copies to the collector `other` and take `get`'s from them, both
    collections in one transaction and one batch each; all of it or, on any refusal, none."""
    gives, gets = _requests(db, list(give), "give"), _requests(db, list(get), "get")
    if not gives and not gets:
        raise CardbaseError(
            "nothing to trade: name the cards you give, the cards you get, or both",
            Remedy("Example: cardbase trade make Bo --give '1 C 14 x2' --get '1 R 20'",
                   "Choose at least one card and how many"),
        )  # fmt: skip
    with db.writing(whole=True) as conn:
        me, them = _sides(conn, other)
        ids = {request.card.id for request in gives + gets}
        mine = Working(*read_holdings(conn, ids, me.id))
        theirs = Working(*read_holdings(conn, ids, them.id))
        problems: list[str] = []
        given = _take(mine, gives, "you", problems, _in_decks(conn, me.id, ids))
        got = _take(theirs, gets, them.name, problems, _in_decks(conn, them.id, ids))
        if problems:
            raise _refused(problems, them.name)
        _receive(theirs, given)
        _receive(mine, got)
        cards = {request.card.id: request.card for request in gives + gets}
        trade = Trade(me.name, them.name, given, got, mine.changes(cards), theirs.changes(cards))
        if not dry_run:
            trade = _record(conn, trade, me, them)
    return trade


def _requests(db: Database, items: list[str], side: str) -> list[Request]:
    """The items one side lists, each naming a card in the catalogue, or nothing is done."""
    if len(items) > MAX_ITEMS:
        raise CardbaseError(f"{len(items):,} cards to {side}: a trade lists at most {MAX_ITEMS}")
    split = [split_attributes(item.strip()) for item in items if item.strip()]
    entries = [parse_entry(text) for text, _ in split]
    with db.reading() as conn:
        resolved = resolve_entries(conn, entries, f"{side} ")
    return [
        Request(r.card, r.entry.finish or NONFOIL, r.copies, own)
        for r, (_, own) in zip(resolved, split, strict=True)
    ]


def _sides(conn: Connection, other: str) -> tuple[Collector, Collector]:
    me, them = current_collector(conn), find_collector(conn, other)
    if them.id == me.id:
        raise CardbaseError(
            f"'{shorten(other, 40)}' is you ({me.name}): a trade needs another collector",
            Remedy("'cardbase trade lobby' lists the collectors you can trade with",
                   "The Trade Lobby lists the collectors you can trade with"),
        )  # fmt: skip
    return me, them


def _give_order(holding: Holding) -> tuple[Any, ...]:
    """Copies set aside for trading first, then the worst condition, then the rest."""
    return (not has_tags(holding.tags, GIVEN_FIRST), -condition_rank(holding.condition),
            holding.language, holding.location, holding.tags)  # fmt: skip


def _in_decks(conn: Connection, owner: int, ids: set[int]) -> dict[Holding, int]:
    """The giver's copies sleeved in built decks, which a trade gives only when no free
    copy will do (and then the store's guard asks for --force)."""
    from cardbase.collection.sleeved import sleeved

    return {h: sum(d.copies for d in decks) for h, decks in sleeved(conn, owner, ids).items()}


def _take(
    working: Working,
    requests: list[Request],
    giver: str,
    problems: list[str],
    in_decks: dict[Holding, int] | None = None,
) -> list[Moved]:
    """Take each request's copies out of the giver's holdings, free copies before those
    sleeved in built decks (`in_decks`); what they lack goes to `problems`, one line a
    request."""
    moved = []
    in_decks = in_decks or {}
    for request in requests:
        held = working.held(request.card.id, request.finish)
        chosen = sorted((h for h in held if matches(h, request.selector)), key=_give_order)
        total = sum(working.counts[h] for h in chosen)
        if request.copies > total:
            problems.append(_short(request, giver, held, working.counts))
            continue
        left, taken = request.copies, dict.fromkeys(chosen, 0)
        for free_only in (True, False):
            for holding in chosen:
                spare = working.counts[holding] - taken[holding]
                spare -= min(spare, in_decks.get(holding, 0)) if free_only else 0
                copies = min(left, spare)
                taken[holding] += copies
                left -= copies
        for holding, copies in taken.items():
            if copies:
                working.put(holding, working.counts[holding] - copies)
                moved.append(Moved(request.card, holding, copies))
    return moved


def _short(request: Request, giver: str, held: list[Holding], counts: dict[Holding, int]) -> str:
    what = " ".join(w for w in (FINISHES[request.finish], request.selector.describe()) if w)
    who, has = ("you", "you have") if giver == "you" else (giver, f"{giver} has")
    there = ", ".join(f"{counts[h]} {h.describe()}" for h in sorted(held, key=_give_order))
    return (
        f"{who} cannot give {request.copies} {what} {request.card.label()}: {has} {there or 'none'}"
    )


def _refused(problems: list[str], other: str) -> CardbaseError:
    return CardbaseError(
        "; ".join(first_few(problems, 10)),
        Remedy(
            "Trade only copies each side holds: 'cardbase collection --copies' lists yours, "
            f"with '--collector {other}' theirs.{NOTHING_CHANGED}",
            "Choose fewer copies, or copies each of you holds: your Collection page lists "
            f"yours by holding, and the Trade Lobby what each of you offers.{NOTHING_CHANGED}",
        ),
    )


def _receive(working: Working, moved: list[Moved]) -> None:
    """The copies arrive with their finish, condition and language, in no location."""
    for item in moved:
        held = item.holding
        arrived = Holding(held.card_id, held.finish, held.condition, held.language)
        working.put(arrived, working.counts.get(arrived, 0) + item.copies)


def _record(conn: Connection, trade: Trade, me: Collector, them: Collector) -> Trade:
    """Both sides' batches, each naming the other (`pairs`), so either side's undo is both."""
    cards = trade.summary()
    mine = f"{pairs.TRADE_SOURCE}{them.name}: gave {cards['give_cards']}, got {cards['get_cards']}"
    theirs = f"{pairs.TRADE_SOURCE}{me.name}: gave {cards['get_cards']}, got {cards['give_cards']}"
    batch = write_changes(conn, trade.changes, mine, owner=me.id)
    their_batch = write_changes(
        conn, trade.their_changes, pairs.paired(theirs, batch), owner=them.id
    )
    conn.execute(
        f"UPDATE {tables.BATCH_TABLE} SET source = ? WHERE id = ?",
        (pairs.paired(mine, their_batch), batch),
    )
    return trade._replace(batch=batch, their_batch=their_batch)


def said(trade: Trade) -> str:
    """One line for a person: what changed hands, and each side's value."""
    s = trade.summary()
    verb = "Traded" if trade.batch is not None else "Would trade"
    give = f"give {plural(s['give_cards'], 'card')} (value {s['give_value']})"
    get = f"get {plural(s['get_cards'], 'card')} (value {s['get_value']})"
    return f"{verb} with {trade.other}: {give}, {get}"
