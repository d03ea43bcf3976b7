"""Built decks: a saved deck's copies taken from the collection, so two decks cannot count
the same card and a trade cannot give away a card that is in a deck box.

`deck sleeve NAME` takes, for each card the deck lists, copies of that name (any printing
or finish, as `deck check --owned` counts) from the collector's free copies: a holding's
copies less those sleeved in any deck. The most worn are taken first (a deck's cards get
shuffled and handled; the binder keeps the good ones), non-foil before foil, unless
`--take` names copies to take first. Sleeving a deck again after it was edited takes what
the new list needs more and lets go what it no longer holds (the best copies go back
first). What cannot be taken is refused whole, naming the decks that hold it, unless
`partial`. The rows live in `deck_sleeve`; `cardbase.collection.sleeved` keeps the
holdings from falling below them.
"""

from __future__ import annotations

import shlex
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cardbase.catalog.cards import CardLike, cards_by_id, name_key
from cardbase.collection.attributes import tag_list
from cardbase.collection.changes import Holding
from cardbase.collection.sleeved import InDeck, sleeved
from cardbase.collection.store import collector_id, read_holdings
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.decks.saved import SavedDeck, find_deck, saved_placed
from cardbase.errors import CardbaseError, Remedy
from cardbase.fields import CONDITIONS, FINISHES, NONFOIL

WORN_FIRST = tuple(reversed(CONDITIONS))  # DMG, HP, MP, LP, NM, M
_KEY = ", ".join(tables.DECK_SLEEVE_KEY)


class Copies(NamedTuple):
    """Copies of one holding, as a person finds them in a box: card, finish, condition,
    language, location."""

    card: CardLike
    holding: Holding
    copies: int

    def describe(self) -> str:
        h = self.holding
        where = f"in {h.location}" if h.location else "no location"
        tags = "".join(f" #{tag}" for tag in tag_list(h.tags))
        return (
            f"{self.copies} {self.card.label()}: {FINISHES[h.finish]}, {h.condition}, "
            f"{h.language}, {where}{tags}"
        )

    def to_dict(self) -> dict[str, object]:
        return {"code": str(self.card.code), "name": self.card.name,
                **self.holding.attributes(), "copies": self.copies}  # fmt: skip


class Missing(NamedTuple):
    name: str
    copies: int  # how many more the deck needs than are free
    held_by: list[str]  # built decks holding copies of the name

    def describe(self) -> str:
        decks = ", ".join(repr(d) for d in self.held_by)
        held = f" (built decks hold some: {decks})" if self.held_by else ""
        return f"{self.copies} {self.name}{held}"

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


class Sleeving(NamedTuple):
    """What `deck sleeve` or `deck unsleeve` did to a deck."""

    deck: str
    cards: int  # the deck's copies
    sleeved: int  # of them sleeved now
    taken: list[Copies]
    released: list[Copies]
    missing: list[Missing]  # with `partial`: what could not be taken

    def to_dict(self) -> dict[str, object]:
        return {
            "deck": self.deck, "cards": self.cards, "sleeved": self.sleeved,
            "taken": [c.to_dict() for c in self.taken],
            "released": [c.to_dict() for c in self.released],
            "missing": [m.to_dict() for m in self.missing],
        }  # fmt: skip


class ShortOfCopies(CardbaseError):
    """The collection lacks free copies for a deck: exit 1, as `deck check`'s verdict is,
    since nothing typed was wrong."""

    exit_code = 1

    def __init__(self, deck: SavedDeck, missing: list[Missing]) -> None:
        listed = "; ".join(m.describe() for m in missing)
        name = shlex.quote(deck.name)
        super().__init__(
            f"'{deck.name}' needs copies the collection does not have free: {listed}; "
            "nothing was sleeved",
            Remedy(
                f"add --partial to sleeve what is free, and print the rest with "
                f"'cardbase deck proxies {name} OUT.pdf --missing'",
                "tick “only what is free” and Mark as built again to sleeve what is free; "
                "Proxies (PDF) with “only copies I lack” prints the rest",
            ),
        )
        self.deck = deck.name
        self.missing = missing


class Take(NamedTuple):
    """A --take item: copies of a card to take before any other, up to `copies` (None: as
    many as the deck needs)."""

    key: str  # the card's folded name
    card_id: int | None  # None: any printing
    finish: str | None
    condition: str | None
    language: str | None
    copies: int | None

    def matches(self, holding: Holding, key: str) -> bool:
        return (
            key == self.key
            and self.card_id in (None, holding.card_id)
            and self.finish in (None, holding.finish)
            and self.condition in (None, holding.condition)
            and self.language in (None, holding.language)
        )


def parse_takes(conn: Connection, items: Sequence[str]) -> list[Take]:
    """--take items as `add` reads them ('Mistfen Bog foil lp', '1 C 14 x2 fr'): a name is
    any printing of it, a code that printing."""
    from cardbase.catalog.entries import parse_entry
    from cardbase.catalog.names import resolve_entries
    from cardbase.collection.items import split_attributes

    split = [split_attributes(item) for item in items]
    resolved = resolve_entries(conn, [parse_entry(text) for text, _ in split])
    takes = []
    for r, (text, chosen) in zip(resolved, split, strict=True):
        by_code = str(r.card.code).replace(" ", "").lower() in text.replace(" ", "").lower()
        takes.append(Take(name_key(r.card.name), r.card.id if by_code else None, r.entry.finish,
                          chosen.condition, chosen.language,
                          r.copies if r.entry.counted else None))  # fmt: skip
    return takes


def worn_first(holding: Holding) -> tuple[int, bool, str, str, str, int]:
    """The default order copies are taken in: most worn, non-foil, then a fixed order."""
    worn = WORN_FIRST.index(holding.condition) if holding.condition in WORN_FIRST else 0
    return (worn, holding.finish != NONFOIL, holding.location, holding.language,
            holding.tags, holding.card_id)  # fmt: skip


class Pool(NamedTuple):
    """A deck's side of the collection: the copies of its names, what its own sleeves hold,
    and what other decks hold (which is not free)."""

    needed: Counter[str]  # copies the deck lists, by folded name
    shown: dict[str, str]  # a name as the deck spells it
    keys: dict[int, str]  # card id -> folded name, for every printing of the names
    cards: dict[int, CardLike]
    held: dict[Holding, int]  # the collector's holdings of them
    mine: dict[Holding, int]  # sleeved in this deck
    others: dict[Holding, list[InDeck]]  # sleeved in other decks

    def free(self, holding: Holding) -> int:
        taken = sum(d.copies for d in self.others.get(holding, []))
        return max(0, self.held.get(holding, 0) - taken - self.mine.get(holding, 0))


def read_pool(conn: Connection, owner: int, deck: SavedDeck, needed: Counter[str]) -> Pool:
    mine = deck_sleeves(conn, deck.id)
    names = set(needed) | {name_key(c.name) for c in cards_by_id(conn, {h.card_id for h in mine})
                           .values()}  # fmt: skip
    ids = printings(conn, names)
    cards = cards_by_id(conn, ids)
    placed = {name_key(p.card.name): p.card.name for p in saved_placed(conn, deck)}
    shown = {key: placed.get(key, key) for key in names}
    for card in cards.values():
        shown.setdefault(name_key(card.name), card.name)
    held, _notes = read_holdings(conn, set(ids))
    others = sleeved(conn, owner, ids, but=deck.id)
    return Pool(needed, shown, ids, dict(cards), held, mine, others)


def printings(conn: Connection, keys: Iterable[str]) -> dict[int, str]:
    """Every card id of the folded names, with its name."""
    keys = sorted(set(keys))
    if not keys:
        return {}
    marks = ", ".join("?" * len(keys))
    rows = conn.execute(
        f"SELECT id, name_key FROM {tables.CARD_TABLE} WHERE name_key IN ({marks})", keys
    )
    return {int(card_id): str(key) for card_id, key in rows}


def deck_sleeves(conn: Connection, deck_id: int) -> dict[Holding, int]:
    rows = conn.execute(
        f"SELECT card_id, finish, condition, language, location, tags, copies "
        f"FROM {tables.DECK_SLEEVE_TABLE} WHERE deck_id = ?",
        (deck_id,),
    ).fetchall()
    return {Holding(*row[:6]): int(row[6]) for row in rows}


def needed_of(conn: Connection, deck: SavedDeck) -> Counter[str]:
    needed: Counter[str] = Counter()
    for placed in saved_placed(conn, deck):
        needed[name_key(placed.card.name)] += placed.line.copies
    return needed


def sleeve(
    db: Database, name: str, takes: Sequence[str] = (), *, partial: bool = False
) -> Sleeving:
    """Mark a saved deck as built, or bring a built one in line with its list, in one
    transaction; refused whole (`ShortOfCopies`) when free copies are lacking, unless
    `partial`."""
    with db.writing() as conn:
        deck = find_deck(conn, name)
        chosen = parse_takes(conn, takes)
        needed = needed_of(conn, deck)
        for take in chosen:
            if take.key not in needed:
                raise CardbaseError(
                    f"--take '{_said(take, takes, chosen)}': '{deck.name}' holds no such card; "
                    "nothing was sleeved"
                )
        pool = read_pool(conn, collector_id(conn), deck, needed)
        taken, released, missing = plan(pool, chosen)
        if missing and not partial:
            raise ShortOfCopies(deck, missing)
        write_sleeves(conn, deck.id, pool.mine, taken, released)
        total = (
            sum(pool.mine.values()) + sum(c.copies for c in taken) - sum(c.copies for c in released)
        )
    return Sleeving(deck.name, deck.cards, total, taken, released, missing)


def _said(take: Take, texts: Sequence[str], takes: list[Take]) -> str:
    return texts[takes.index(take)]


def plan(pool: Pool, takes: list[Take]) -> tuple[list[Copies], list[Copies], list[Missing]]:
    """For each name, the copies to take (the deck holds fewer than it lists) or release
    (more); what cannot be taken is missing."""
    taken: list[Copies] = []
    released: list[Copies] = []
    missing: list[Missing] = []
    by_name: dict[str, list[Holding]] = defaultdict(list)
    for holding in pool.mine:
        by_name[pool.keys.get(holding.card_id, "")].append(holding)
    for key in sorted(set(pool.needed) | set(by_name), key=lambda k: pool.shown.get(k, k)):
        have = sum(pool.mine[h] for h in by_name[key])
        need = pool.needed.get(key, 0)
        if have > need:
            released += _release(pool, sorted(by_name[key], key=worn_first), have - need)
        elif have < need:
            got = _take(pool, key, takes, need - have)
            taken += got
            short = need - have - sum(c.copies for c in got)
            if short:
                missing.append(Missing(pool.shown[key], short, _held_by(pool, key)))
    return taken, released, missing


def _release(pool: Pool, mine: list[Holding], extra: int) -> list[Copies]:
    """The least worn of the deck's copies go back to the collection first."""
    released = []
    for holding in reversed(mine):
        copies = min(extra, pool.mine[holding])
        if copies:
            released.append(Copies(pool.cards[holding.card_id], holding, copies))
            extra -= copies
    return released


def _take(pool: Pool, key: str, takes: list[Take], wanted: int) -> list[Copies]:
    """Free copies of `key`: those --take names first (each up to its count), then the most
    worn."""
    free = {h: pool.free(h) for h in pool.held if pool.keys.get(h.card_id) == key}
    order = sorted((h for h, n in free.items() if n), key=worn_first)
    got: Counter[Holding] = Counter()
    passes = [(take, take.copies) for take in takes if take.key == key] + [(None, None)]
    for take, budget in passes:
        for holding in order:
            if take is not None and not take.matches(holding, key):
                continue
            copies = min(wanted, free[holding], wanted if budget is None else budget)
            if copies <= 0:
                continue
            got[holding] += copies
            free[holding] -= copies
            wanted -= copies
            budget = None if budget is None else budget - copies
    return [Copies(pool.cards[h.card_id], h, n) for h, n in got.items()]


def _held_by(pool: Pool, key: str) -> list[str]:
    return sorted(
        {d.deck for h, decks in pool.others.items() if pool.keys.get(h.card_id) == key
         for d in decks}
    )  # fmt: skip


def write_sleeves(
    conn: Connection,
    deck_id: int,
    mine: dict[Holding, int],
    taken: list[Copies],
    released: list[Copies],
) -> None:
    after = Counter(mine)
    for copies in taken:
        after[copies.holding] += copies.copies
    for copies in released:
        after[copies.holding] -= copies.copies
    changed = {c.holding for c in [*taken, *released]}
    key = " AND ".join(f"{c} = ?" for c in tables.DECK_SLEEVE_KEY)
    conn.executemany(
        f"DELETE FROM {tables.DECK_SLEEVE_TABLE} WHERE {key}",
        [(deck_id, *h) for h in changed],
    )
    conn.executemany(
        f"INSERT INTO {tables.DECK_SLEEVE_TABLE} ({_KEY}, copies) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(deck_id, *h, after[h]) for h in changed if after[h] > 0],
    )


def unsleeve(db: Database, name: str) -> Sleeving:
    """Every copy of a built deck back to the collection's free copies; the deck stays
    saved."""
    with db.writing() as conn:
        deck = find_deck(conn, name)
        mine = deck_sleeves(conn, deck.id)
        cards = cards_by_id(conn, {h.card_id for h in mine})
        conn.execute(f"DELETE FROM {tables.DECK_SLEEVE_TABLE} WHERE deck_id = ?", (deck.id,))
    released = [Copies(cards[h.card_id], h, n) for h, n in sorted(mine.items(),
                key=lambda item: (cards[item[0].card_id].name, worn_first(item[0])))]  # fmt: skip
    return Sleeving(deck.name, deck.cards, 0, [], released, [])


class DeckCopies(NamedTuple):
    """A saved deck against the collection, as `deck list` shows it: of the copies it lists
    (each card counted up to what the deck needs), those owned, those owned but sleeved in
    other built decks, those free for it (its own sleeved copies included), and those
    sleeved in it."""

    owned: int
    in_decks: int
    free: int
    sleeved: int

    def to_dict(self) -> dict[str, object]:
        return self._asdict()


def deck_copies(conn: Connection, deck: SavedDeck) -> DeckCopies:
    from cardbase.collection.sleeved import in_decks_by_name
    from cardbase.decks.check import owned_by_name

    needed = needed_of(conn, deck)
    owned = owned_by_name(conn, list(needed))
    elsewhere = in_decks_by_name(conn, needed, deck.id)
    have = sum(min(n, owned.get(k, 0)) for k, n in needed.items())
    free = sum(
        min(n, max(0, owned.get(k, 0) - sum(elsewhere.get(k, {}).values())))
        for k, n in needed.items()
    )
    sleeved = sum(deck_sleeves(conn, deck.id).values())
    return DeckCopies(have, have - free, free, sleeved)


def decks_with_copies(conn: Connection) -> list[tuple[SavedDeck, DeckCopies]]:
    from cardbase.decks.saved import list_decks

    return [(deck, deck_copies(conn, deck)) for deck in list_decks(conn)]
