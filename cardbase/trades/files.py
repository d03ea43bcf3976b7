"""Trade lists as files: written in the spreadsheet import's conventions (Code, Name, Finish,
Qty; Condition and Language after them when the list offers particular copies), so another
collector's cardbase, or their own spreadsheet, can read them; and read back from whatever
sheet another collector sends, as long as it says which rows are offered and which wanted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from cardbase.catalog.cards import cards_by_id, holds_several_games
from cardbase.catalog.names import NameResolver
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError
from cardbase.fileio.reading import Sheet, read_sheets
from cardbase.fileio.writing import Table
from cardbase.sheets.exporter import GAME_HEADER
from cardbase.text import shown
from cardbase.trades.items import (
    DETAIL_HEADERS,
    HEADERS,
    OFFERED,
    WANTED,
    TheirList,
    TradeItem,
    has_detail,
)

LIST_WORDS = {"offered": OFFERED, "offer": OFFERED, "offers": OFFERED, "have": OFFERED,
              "haves": OFFERED, "trade": OFFERED, "wanted": WANTED, "want": WANTED,
              "wants": WANTED, "need": WANTED, "needs": WANTED}  # fmt: skip


def list_headers(detail: bool, game: bool = False) -> tuple[str, ...]:
    headers = (*HEADERS, *DETAIL_HEADERS) if detail else HEADERS
    return (*headers, GAME_HEADER) if game else headers


def needs_game_column(conn: Connection, *lists: list[TradeItem]) -> bool:
    """Whether a file of these lists says each card's game: its cards are of several games,
    or the database's are, where a reader's 1 C 41 could be either game's (the export's
    rule, `cardbase.sheets.exporter.several_games`)."""
    return len({item.card.game for items in lists for item in items}) > 1 or (
        holds_several_games(conn)
    )


def trade_tables(
    offered: list[TradeItem], wanted: list[TradeItem], game: bool = False
) -> list[Table]:
    detail = has_detail(offered, wanted)
    headers = list_headers(detail, game)
    return [
        Table(OFFERED, headers, [item.row(detail, game) for item in offered]),
        Table(WANTED, headers, [item.row(detail, game) for item in wanted]),
    ]


def write_trade_lists(
    path: Path,
    offered: list[TradeItem],
    wanted: list[TradeItem],
    *,
    force: bool = False,
    game: bool = False,
) -> None:
    """The lists as a file `trade match FILE` reads (and any spreadsheet); `game`: with a
    Game column (`needs_game_column`), so two games' 1 C 41 read back as their cards."""
    from cardbase.fileio.writing import output_file, write_csv, write_xlsx

    detail = has_detail(offered, wanted)
    with output_file(path, force=force, suffixes=(".xlsx", ".csv")) as temporary:
        if path.suffix.lower() == ".csv":
            rows = [[OFFERED, *item.row(detail, game)] for item in offered] + [
                [WANTED, *item.row(detail, game)] for item in wanted
            ]
            write_csv(temporary, Table("Trades", ("List", *list_headers(detail, game)), rows))
        else:
            write_xlsx(temporary, trade_tables(offered, wanted, game), {"Name": 30})


def read_trade_lists(conn: Connection, path: Path) -> TheirList:
    """Another collector's Offered and Wanted lists (two sheets, or one with a List column)."""
    sheets = _split_lists(read_sheets(path), path)
    resolver = NameResolver(conn)
    result: dict[str, list[TradeItem]] = {OFFERED: [], WANTED: []}
    problems: list[str] = []
    for which, sheet in sheets.items():
        items, bad = _resolve_list(conn, resolver, sheet, f"{shown(path.name)}, {which.lower()}")
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
        f"{shown(path)}: no Offered and Wanted lists; use sheets named Offered and Wanted, "
        "or a List column saying offered or wanted"
    )


def _resolve_list(
    conn: Connection, resolver: NameResolver, sheet: Sheet, source: str
) -> tuple[list[TradeItem], list[str]]:
    from cardbase.sheets.header import find_header
    from cardbase.sheets.importer import resolve_rows, rows_from_sheet
    from cardbase.sheets.rows import EmptySheet

    columns = find_header(sheet.rows, source)
    try:
        parsed = rows_from_sheet(sheet.rows[columns.header_row + 1 :], columns, source)
    except EmptySheet:  # a list with nothing on it, as `trade export` writes one: none wanted
        return [], []
    wanted, problems = resolve_rows(resolver, parsed)
    cards = cards_by_id(conn, (card_id for card_id, _, _ in wanted))
    totals: Counter[tuple[int, str]] = Counter()
    for card_id, finish, copies in wanted:
        totals[(card_id, finish)] += copies
    items = [
        TradeItem(cards[card_id], finish, copies) for (card_id, finish), copies in totals.items()
    ]
    return sorted(items, key=TradeItem.order), problems
