"""Trade lists, as the game client's Trade Lobby had them: what I offer, what I want, and
the trades I can do with another collector's list.

Foil and non-foil copies are listed apart, since collectors value them apart. Lists are
written and read in the spreadsheet import's conventions (Code, Name, Finish, Qty), so
another collector's cardbase, or their own spreadsheet, can read them.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.cards import Card, cards_by_id, fetch_cards, name_key
from cardbase.catalog.names import NameResolver
from cardbase.db import tables
from cardbase.errors import CardbaseError
from cardbase.fields import FOIL, NONFOIL, PLAYSET
from cardbase.sheets.files import Sheet, read_sheets
from cardbase.sheets.writing import Table

OFFERED, WANTED = "Offered", "Wanted"
LIST_WORDS = {"offered": OFFERED, "offer": OFFERED, "offers": OFFERED, "have": OFFERED,
              "haves": OFFERED, "trade": OFFERED, "wanted": WANTED, "want": WANTED,
              "wants": WANTED, "need": WANTED, "needs": WANTED}  # fmt: skip
# What a card is worth in a balanced trade, by rarity: a rough, public rule of thumb.
RARITY_VALUE = {"C": 1, "S": 1, "U": 2, "R": 3, "P": 3, "E": 4}
HEADERS = ("Code", "Name", "Finish", "Qty")


class TradeItem(NamedTuple):
    card: Card
    finish: str
    copies: int

    @property
    def value(self) -> int:
        return RARITY_VALUE.get(self.card.code.rarity, 1) * self.copies

    def row(self) -> list[Any]:
        return [str(self.card.code), self.card.name, self.finish, self.copies]

    def to_dict(self) -> dict[str, Any]:
        return {"code": str(self.card.code), "name": self.card.name, "finish": self.finish,
                "copies": self.copies, "value": self.value}  # fmt: skip


def deck_usage(conn: sqlite3.Connection) -> Counter[str]:
    """Copies of each folded name that the saved decks use, all decks together."""
    rows = conn.execute(
        f"SELECT c.name_key, sum(e.copies) FROM {tables.DECK_ENTRY_TABLE} AS e "
        f"JOIN {tables.CARD_TABLE} AS c ON c.id = e.card_id GROUP BY c.name_key"
    )
    return Counter({key: int(total) for key, total in rows})


def haves(
    conn: sqlite3.Connection, playset: int = PLAYSET, keep_decks: bool = False
) -> list[TradeItem]:
    """Copies beyond what you keep: a playset of each name, or what your saved decks use.

    The copies kept are non-foil first (to play with), then foil, oldest series first; the
    rest are offered.
    """
    keep = deck_usage(conn) if keep_decks else None
    owned = fetch_cards(conn, "coalesce(o.nonfoil, 0) + coalesce(o.foil, 0) > 0")
    kept: Counter[str] = Counter()
    items: list[TradeItem] = []
    for finish in (NONFOIL, FOIL):
        for card in owned:
            key = name_key(card.name)
            limit = keep.get(key, 0) if keep is not None else playset
            count = card.nonfoil if finish == NONFOIL else card.foil
            keeping = min(count, max(0, limit - kept[key]))
            kept[key] += keeping
            if count - keeping > 0:
                items.append(TradeItem(card, finish, count - keeping))
    return sorted(items, key=lambda item: (item.card.code, item.finish))


def wants(conn: sqlite3.Connection, complete_series: int | None = None) -> list[TradeItem]:
    """Cards missing for the saved decks, and for a complete series when asked (non-foil)."""
    from cardbase.decks.check import owned_by_name

    need = deck_usage(conn)
    owned = owned_by_name(conn, list(need))
    first_card: dict[str, int] = {}
    for key, card_id in conn.execute(
        f"SELECT c.name_key, min(e.card_id) FROM {tables.DECK_ENTRY_TABLE} AS e "
        f"JOIN {tables.CARD_TABLE} AS c ON c.id = e.card_id GROUP BY c.name_key"
    ):
        first_card[key] = card_id
    cards = cards_by_id(conn, first_card.values())
    wanted: dict[int, TradeItem] = {}
    for key, copies in need.items():
        short = copies - owned.get(key, 0)
        if short > 0:
            card = cards[first_card[key]]
            wanted[card.id] = TradeItem(card, NONFOIL, short)
    if complete_series is not None:
        for card in fetch_cards(conn, "c.series = ? AND coalesce(o.nonfoil, 0) + "
                                "coalesce(o.foil, 0) = 0", (complete_series,)):  # fmt: skip
            wanted.setdefault(card.id, TradeItem(card, NONFOIL, 1))
    return sorted(wanted.values(), key=lambda item: item.card.code)


def trade_tables(offered: list[TradeItem], wanted: list[TradeItem]) -> list[Table]:
    return [
        Table(OFFERED, HEADERS, [item.row() for item in offered]),
        Table(WANTED, HEADERS, [item.row() for item in wanted]),
    ]


def write_trade_lists(
    path: Path, offered: list[TradeItem], wanted: list[TradeItem], *, force: bool = False
) -> None:
    from cardbase.sheets.writing import output_file, write_csv, write_xlsx

    with output_file(path, force=force, suffixes=(".xlsx", ".csv")) as temporary:
        if path.suffix.lower() == ".csv":
            rows = [[OFFERED, *item.row()] for item in offered] + [
                [WANTED, *item.row()] for item in wanted
            ]
            write_csv(temporary, Table("Trades", ("List", *HEADERS), rows))
        else:
            write_xlsx(temporary, trade_tables(offered, wanted), {"Name": 30})


class TheirList(NamedTuple):
    offered: list[TradeItem]
    wanted: list[TradeItem]
    problems: list[str]


def read_trade_lists(conn: sqlite3.Connection, path: Path) -> TheirList:
    """Another collector's Offered and Wanted lists (two sheets, or one with a List column)."""
    sheets = _split_lists(read_sheets(path), path)
    resolver = NameResolver(conn)
    result: dict[str, list[TradeItem]] = {OFFERED: [], WANTED: []}
    problems: list[str] = []
    for which, sheet in sheets.items():
        items, bad = _resolve_list(conn, resolver, sheet, f"{path.name}, {which.lower()}")
        result[which] = items
        problems += bad
    return TheirList(result[OFFERED], result[WANTED], problems)


def _split_lists(sheets: list[Sheet], path: Path) -> dict[str, Sheet]:
    named = {
        LIST_WORDS[s.name.strip().lower()]: s
        for s in sheets
        if s.name.strip().lower() in LIST_WORDS
    }
    if named:
        return named
    from cardbase.sheets.columns import fold

    for sheet in sheets:
        for index, row in enumerate(sheet.rows[:30]):
            headers = [fold(cell) for cell in row]
            if "list" in headers:
                at = headers.index("list")
                parts: dict[str, list[list[Any]]] = defaultdict(list)
                for data in sheet.rows[index + 1 :]:
                    word = str(data[at]).strip().lower() if at < len(data) else ""
                    if word in LIST_WORDS:
                        parts[LIST_WORDS[word]].append(data)
                return {which: Sheet(which, [row, *rows]) for which, rows in parts.items()}
    raise CardbaseError(
        f"{path}: no Offered and Wanted lists; use sheets named Offered and Wanted, "
        "or a List column saying offered or wanted"
    )


def _resolve_list(
    conn: sqlite3.Connection, resolver: NameResolver, sheet: Sheet, source: str
) -> tuple[list[TradeItem], list[str]]:
    from cardbase.sheets.columns import find_header
    from cardbase.sheets.importer import resolve_rows, rows_from_sheet

    columns = find_header(sheet.rows, source)
    parsed = rows_from_sheet(sheet.rows[columns.header_row + 1 :], columns, source)
    wanted, problems = resolve_rows(resolver, parsed)
    cards = cards_by_id(conn, (card_id for card_id, _, _ in wanted))
    totals: Counter[tuple[int, str]] = Counter()
    for card_id, finish, copies in wanted:
        totals[(card_id, finish)] += copies
    items = [
        TradeItem(cards[card_id], finish, copies) for (card_id, finish), copies in totals.items()
    ]
    return sorted(items, key=lambda item: (item.card.code, item.finish)), problems


class TradeMatch(NamedTuple):
    they_offer_i_want: list[TradeItem]
    they_want_i_spare: list[TradeItem]
    proposal_get: list[TradeItem]
    proposal_give: list[TradeItem]

    def to_dict(self) -> dict[str, Any]:
        def items(values: list[TradeItem]) -> list[dict[str, Any]]:
            return [item.to_dict() for item in values]

        return {
            "they_offer_i_want": items(self.they_offer_i_want),
            "they_want_i_can_spare": items(self.they_want_i_spare),
            "proposal": {
                "get": items(self.proposal_get), "give": items(self.proposal_give),
                "get_cards": sum(i.copies for i in self.proposal_get),
                "give_cards": sum(i.copies for i in self.proposal_give),
                "get_value": sum(i.value for i in self.proposal_get),
                "give_value": sum(i.value for i in self.proposal_give),
            },
        }  # fmt: skip


def _overlap(theirs: list[TradeItem], mine: list[TradeItem]) -> list[TradeItem]:
    """Their items that match mine by name and finish, as many copies as both sides have."""
    available: Counter[tuple[str, str]] = Counter()
    for item in mine:
        available[(name_key(item.card.name), item.finish)] += item.copies
    matched = []
    for item in theirs:
        key = (name_key(item.card.name), item.finish)
        copies = min(item.copies, available[key])
        if copies > 0:
            available[key] -= copies
            matched.append(TradeItem(item.card, item.finish, copies))
    return matched


def match_trades(
    theirs: TheirList, my_haves: list[TradeItem], my_wants: list[TradeItem]
) -> TradeMatch:
    """What we can swap, and a proposal that keeps the two sides as even as the cards allow."""
    get = _overlap(theirs.offered, my_wants)
    give = _overlap(theirs.wanted, my_haves)
    sides = {"get": _units(get), "give": _units(give)}
    chosen: dict[str, list[TradeItem]] = {"get": [], "give": []}
    # Add the most valuable card still free to whichever side is behind, while it can.
    while True:
        behind = min(chosen, key=lambda side: (_value(chosen[side]), side))
        if not sides[behind]:
            break
        chosen[behind].append(sides[behind].pop(0))
    # Then drop the ahead side's cheapest cards while that brings the sides closer.
    ahead = max(chosen, key=lambda side: _value(chosen[side]))
    other = "give" if ahead == "get" else "get"
    while chosen[ahead] and abs(_value(chosen[ahead][:-1]) - _value(chosen[other])) < abs(
        _value(chosen[ahead]) - _value(chosen[other])
    ):
        chosen[ahead].pop()
    if not chosen["get"] or not chosen["give"]:
        return TradeMatch(get, give, [], [])
    return TradeMatch(get, give, _regroup(chosen["get"]), _regroup(chosen["give"]))


def _value(items: list[TradeItem]) -> int:
    return sum(item.value for item in items)


def _units(items: list[TradeItem]) -> list[TradeItem]:
    """One entry a copy, most valuable first (then by code, for a stable proposal)."""
    units = [TradeItem(item.card, item.finish, 1) for item in items for _ in range(item.copies)]
    return sorted(units, key=lambda unit: (-unit.value, unit.card.code, unit.finish))


def _regroup(units: list[TradeItem]) -> list[TradeItem]:
    counts: Counter[tuple[int, str]] = Counter()
    cards: dict[int, Card] = {}
    for unit in units:
        counts[(unit.card.id, unit.finish)] += 1
        cards[unit.card.id] = unit.card
    return [TradeItem(cards[card_id], finish, n) for (card_id, finish), n in sorted(counts.items())]
