"""Collections, catalogues and search results out to spreadsheets, in the importer's columns.

The headers are ones `cardbase.sheetcolumns` recognises, so an exported file imports back
unchanged (tested), and another collector's cardbase reads it too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.cards import Card
from cardbase.sheets.writing import Table, output_file, write_csv, write_xlsx

COLUMNS = (
    "Code",
    "Series",
    "Rarity",
    "Number",
    "Name",
    "Type",
    "Sphere",
    "Hero",
    "Traits",
    "Cost",
    "Attack",
    "Defense",
    "Gems",
    "Nonfoil",
    "Foil",
)
CATALOGUE_COLUMNS = (*COLUMNS, "Text", "Lore")
WIDTHS = {"Code": 10, "Name": 28, "Traits": 24, "Text": 60, "Lore": 40, "Type": 10, "Sphere": 9}
SUFFIXES = (".xlsx", ".csv")
SHEET_NAMES = {"catalogue": "Catalogue", "collection": "Collection", "query": "Cards"}


class ExportReport(NamedTuple):
    path: Path
    rows: int


def card_row(card: Card, with_text: bool) -> list[Any]:
    row: list[Any] = [
        str(card.code),
        card.code.series,
        card.code.rarity,
        card.code.number,
        card.name,
        card.type,
        card.sphere or "",
        "yes" if card.hero else "",
        ", ".join(card.traits),
        card.cost,
        card.attack,
        card.defense,
        card.gems,
        card.nonfoil,
        card.foil,
    ]
    return [*row, card.text, card.lore] if with_text else row


def totals_table(cards: Sequence[Card]) -> Table:
    nonfoil = sum(card.nonfoil for card in cards)
    foil = sum(card.foil for card in cards)
    rows = [
        ("Cards listed", len(cards)),
        ("Copies owned", nonfoil + foil),
        ("Non-foil copies", nonfoil),
        ("Foil copies", foil),
        ("Distinct cards owned", sum(1 for card in cards if card.owned)),
    ]
    return Table("Totals", ("Total", "Count"), rows)


def export_cards(
    conn: sqlite3.Connection,
    path: Path,
    what: str,
    query_text: str | None = None,
    *,
    force: bool = False,
    bom: bool = False,
) -> ExportReport:
    """Write `cards_to_export(what)` to `path`; the file is refused before the search runs."""
    from cardbase.bulk import paused_gc

    with_text = what == "catalogue"
    headers = CATALOGUE_COLUMNS if with_text else COLUMNS
    sheet = SHEET_NAMES[what]
    with output_file(path, force=force, suffixes=SUFFIXES) as temporary:
        cards = cards_to_export(conn, what, query_text)
        rows: Iterator[list[Any]] = (card_row(card, with_text) for card in cards)
        with paused_gc():
            if path.suffix.lower() == ".csv":
                count = write_csv(temporary, Table(sheet, headers, rows), bom=bom)
            else:
                tables = [Table(sheet, headers, rows), totals_table(cards)]
                count = write_xlsx(temporary, tables, WIDTHS)
    return ExportReport(path, count)


def cards_to_export(conn: sqlite3.Connection, what: str, query_text: str | None) -> list[Card]:
    """'collection' (owned cards), 'catalogue' (every card), or 'query' (search results)."""
    from cardbase.bulk import paused_gc
    from cardbase.query import search

    text = {"catalogue": "", "query": query_text or ""}.get(what, "is:owned")
    with paused_gc():
        return search.search(conn, search.build_query(text))
