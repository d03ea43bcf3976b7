"""A collector's trade lists: what they offer (copies beyond what they keep) and what they
want (for their saved decks, or a series).

Every function here reads one collector's rows by id from the base tables (`holding`,
`ownership`, `deck`), never the connection's `my_*` views, so the lists of the collector
a connection was opened for and of any other collector in the database are made by the
same code: `trade match --with` compares like with like.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from cardbase.catalog.cards import ID_CHUNK, Card, cards_by_id, fetch_cards, name_key
from cardbase.collection.attributes import condition_rank, tag_list
from cardbase.collection.collectors import current_collector
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError, shorten
from cardbase.fields import FOIL, NONFOIL, PLAYSET
from cardbase.games import DEFAULT_GAME, GAMES, known_game, set_name
from cardbase.limits import MAX_COUNT, MAX_SERIES
from cardbase.naming import label_key
from cardbase.similar import closest
from cardbase.trades.items import ANY_COPY, Offer, TheirList, TradeItem

_FINISH_ORDER = {NONFOIL: 0, FOIL: 1}  # kept first: non-foil, to play with


class Rules(NamedTuple):
    """How lists are made; `trade match --with` and `trade lobby` make both sides' by them."""

    playset: int = PLAYSET
    keep_decks: bool = False
    complete_series: int | None = None
    offer: Offer = ANY_COPY
    # The game of the series to complete; None: the connection's (the user's choice), else
    # the default game (`series_game`).
    game: str | None = None

    @classmethod
    def read(
        cls,
        playset: int | str | None = None,
        keep_decks: bool = False,
        complete_series: int | str | None = None,
        offer: Offer = ANY_COPY,
        game: str | None = None,
    ) -> Rules:
        """The rules as people give them, from options or a form: the one check both faces
        make, a bad number being one line (blank is the default: a playset of three, no
        series to complete)."""
        kept = _whole("keep of each name", playset, 0, MAX_COUNT)
        series = _whole("the series to complete", complete_series, 1, MAX_SERIES)
        chosen = known_game(game) if game else None
        return cls(PLAYSET if kept is None else kept, keep_decks, series, offer, chosen)

    def completing(self, conn: Connection) -> str | None:
        """What the wants complete, said: "Free Realms TCG series 1 (FreeRealms)"; None
        without a series to complete."""
        if self.complete_series is None:
            return None
        game = series_game(conn, self.game)
        name = set_name(game, self.complete_series)
        title = GAMES[game].title if game in GAMES else game
        return f"{title} series {self.complete_series}" + (f" ({name})" if name else "")


def series_game(conn: Connection, game: str | None = None) -> str:
    """The game whose series `--complete-series` completes: `game`, else the one the user
    chose for the command (the connection's), else the default game. Two games' series 1
    are two sets: never wanted together."""
    return game or getattr(conn, "game", None) or DEFAULT_GAME


def game_series(conn: Connection, game: str) -> list[int]:
    """The series numbers `game`'s catalogue holds, for the warning on one it lacks."""
    rows = conn.execute(
        f"SELECT DISTINCT series FROM {tables.CARD_TABLE} WHERE game = ? ORDER BY series", (game,)
    )
    return [int(series) for (series,) in rows]


def _whole(what: str, given: int | str | None, low: int, high: int) -> int | None:
    text = str(given).strip() if given is not None else ""
    if not text:
        return None
    if not text.lstrip("-").isdecimal() or not low <= int(text) <= high:
        raise CardbaseError(f"{what} '{shorten(text, 20)}': choose {low} to {high:,}")
    return int(text)


DEFAULT_RULES = Rules()


class Copies(NamedTuple):
    """One holding's copies, as the keep rule sees them."""

    card: Card
    finish: str
    condition: str
    language: str
    copies: int
    offerable: bool

    def keep_order(self) -> tuple[object, ...]:
        """Copies the offer excludes are kept first (so a filter never costs you your own
        copies), then non-foil, then oldest printing, then best condition."""
        code = self.card.code
        return (self.offerable, _FINISH_ORDER.get(self.finish, 2), self.card.game, code.series,
                code.number, condition_rank(self.condition), self.language)  # fmt: skip


def current_id(conn: Connection) -> int:
    """The id of the collector the connection was opened for."""
    return current_collector(conn).id


def deck_usage(conn: Connection, collector_id: int | None = None) -> Counter[str]:
    """Copies of each folded name that one collector's saved decks use, all decks together
    (the connection's collector's by default)."""
    owner = current_id(conn) if collector_id is None else collector_id
    rows = conn.execute(
        f"SELECT c.name_key, sum(e.copies) FROM {tables.DECK_ENTRY_TABLE} AS e "
        f"JOIN {tables.DECK_TABLE} AS d ON d.id = e.deck_id "
        f"JOIN {tables.CARD_TABLE} AS c ON c.id = e.card_id "
        "WHERE d.collector_id = ? GROUP BY c.name_key",
        (owner,),
    )
    return Counter({key: int(total) for key, total in rows})


def _copies(conn: Connection, collector_id: int, offer: Offer) -> list[Copies]:
    rows = conn.execute(
        "SELECT card_id, finish, condition, language, location, tags, copies "
        f"FROM {tables.HOLDING_TABLE} WHERE collector_id = ? AND copies > 0",
        (collector_id,),
    ).fetchall()
    cards = cards_by_id(conn, (row[0] for row in rows))
    return [
        Copies(cards[card_id], finish, condition, language, copies,
               offer.admits(condition, location, tags))
        for card_id, finish, condition, language, location, tags, copies in rows
    ]  # fmt: skip


def haves(
    conn: Connection,
    playset: int = PLAYSET,
    keep_decks: bool = False,
    offer: Offer = ANY_COPY,
    *,
    collector_id: int | None = None,
) -> list[TradeItem]:
    """Copies beyond what the collector keeps: a playset of each name, or what their saved
    decks use. Of the rest, those `offer` admits are offered.

    Which copies are kept is `Copies.keep_order`. Without an offer's filters the items are
    per card and finish; with them, per condition and language too, since those copies are
    the ones offered.
    """
    owner = current_id(conn) if collector_id is None else collector_id
    keep = deck_usage(conn, owner) if keep_decks else None
    kept: Counter[str] = Counter()
    offered: Counter[tuple[int, str, str | None, str | None]] = Counter()
    cards: dict[int, Card] = {}
    for held in sorted(_copies(conn, owner, offer), key=Copies.keep_order):
        key = name_key(held.card.name)
        limit = keep.get(key, 0) if keep is not None else playset
        keeping = min(held.copies, max(0, limit - kept[key]))
        kept[key] += keeping
        if held.offerable and held.copies > keeping:
            detail = (held.condition, held.language) if offer.particular else (None, None)
            offered[(held.card.id, held.finish, *detail)] += held.copies - keeping
            cards[held.card.id] = held.card
    items = [
        TradeItem(cards[card_id], finish, copies, condition, language)
        for (card_id, finish, condition, language), copies in offered.items()
    ]
    return sorted(items, key=TradeItem.order)


def _owned_by_name(conn: Connection, owner: int, keys: list[str]) -> dict[str, int]:
    """Copies one collector owns of each folded name, every printing and finish together."""
    owned: dict[str, int] = {}
    for start in range(0, len(keys), ID_CHUNK):
        chunk = keys[start : start + ID_CHUNK]
        rows = conn.execute(
            f"SELECT c.name_key, sum(o.nonfoil + o.foil) FROM {tables.CARD_TABLE} AS c "
            f"JOIN {tables.OWNERSHIP_TABLE} AS o ON o.card_id = c.id AND o.collector_id = ? "
            f"WHERE c.name_key IN ({', '.join('?' * len(chunk))}) GROUP BY c.name_key",
            (owner, *chunk),
        )
        owned.update((key, int(total)) for key, total in rows)
    return owned


def _deck_cards(conn: Connection, owner: int) -> dict[str, int]:
    """The card each name of the collector's decks stands for in a want: its first printing
    any of their decks names."""
    rows = conn.execute(
        f"SELECT c.name_key, min(e.card_id) FROM {tables.DECK_ENTRY_TABLE} AS e "
        f"JOIN {tables.DECK_TABLE} AS d ON d.id = e.deck_id "
        f"JOIN {tables.CARD_TABLE} AS c ON c.id = e.card_id "
        "WHERE d.collector_id = ? GROUP BY c.name_key",
        (owner,),
    )
    return dict(rows.fetchall())


def wants(
    conn: Connection,
    complete_series: int | None = None,
    *,
    collector_id: int | None = None,
    game: str | None = None,
) -> list[TradeItem]:
    """Cards missing for the collector's saved decks, and for a complete series when asked
    (non-foil): `game`'s series (`series_game`)."""
    owner = current_id(conn) if collector_id is None else collector_id
    need = deck_usage(conn, owner)
    owned = _owned_by_name(conn, owner, list(need))
    first_card = _deck_cards(conn, owner)
    cards = cards_by_id(conn, first_card.values())
    wanted: dict[int, TradeItem] = {}
    for key, copies in need.items():
        short = copies - owned.get(key, 0)
        if short > 0:
            card = cards[first_card[key]]
            wanted[card.id] = TradeItem(card, NONFOIL, short)
    if complete_series is not None:
        missing = (
            f"c.game = ? AND c.series = ? AND NOT EXISTS (SELECT 1 FROM "
            f"{tables.OWNERSHIP_TABLE} AS w "
            "WHERE w.card_id = c.id AND w.collector_id = ? AND w.nonfoil + w.foil > 0)"
        )
        chosen = series_game(conn, game)
        for card in fetch_cards(conn, missing, (chosen, complete_series, owner)):
            wanted.setdefault(card.id, TradeItem(card, NONFOIL, 1))
    return sorted(wanted.values(), key=TradeItem.order)


def trade_lists(
    conn: Connection, rules: Rules = DEFAULT_RULES, collector_id: int | None = None
) -> TheirList:
    """One collector's Offered and Wanted lists, made by `rules`."""
    owner = current_id(conn) if collector_id is None else collector_id
    return TheirList(
        haves(conn, rules.playset, rules.keep_decks, rules.offer, collector_id=owner),
        wants(conn, rules.complete_series, collector_id=owner, game=rules.game),
        [],
    )


def check_offer(conn: Connection, offer: Offer, collector_id: int | None = None) -> None:
    """A location or tag that none of the collector's copies has is most likely mistyped:
    say so, with the nearest they have, rather than offer nothing without a word."""
    owner = current_id(conn) if collector_id is None else collector_id
    if offer.location:  # '' offers copies with no location
        places = _distinct(conn, owner, "location")
        if offer.location.casefold() not in {place.casefold() for place in places}:
            raise _none_has("in location", offer.location, "location", places)
    if offer.tags:
        known = {tag for stored in _distinct(conn, owner, "tags") for tag in tag_list(stored)}
        for tag in tag_list(offer.tags):
            if tag.casefold() not in {name.casefold() for name in known}:
                raise _none_has("tagged", tag, "tag", sorted(known, key=str.casefold))


def _distinct(conn: Connection, owner: int, column: str) -> list[str]:
    rows = conn.execute(
        f"SELECT DISTINCT {column} FROM {tables.HOLDING_TABLE} "
        f"WHERE collector_id = ? AND {column} != ''",
        (owner,),
    )  # in the order Python folds them, the same on both engines
    return sorted((value for (value,) in rows), key=lambda value: (label_key(value), value))


def _none_has(what: str, value: str, kind: str, known: list[str]) -> CardbaseError:
    guess = closest(value, known) if known else None
    hint = f"did you mean '{guess}'? " if guess else ""
    shown = ", ".join(shorten(name, 30) for name in known[:10]) + (", ..." * (len(known) > 10))
    there = f"your {kind}s: {shown}" if known else f"none of your copies has a {kind}"
    return CardbaseError(f"none of your copies is {what} '{shorten(value, 40)}'; {hint}{there}")
