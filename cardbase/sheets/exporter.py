"""Collections, catalogues and search results out to spreadsheets, in the importer's columns.

The headers come from `cardbase.fields` and are ones `cardbase.sheets.columns` recognises,
so an exported file imports back unchanged (tested), and another collector's cardbase reads
it too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.cards import Card
from cardbase.fields import EXPORT_FIELDS, TRAIT_SEPARATOR, CardField
from cardbase.progress import Progress, Stage, quiet, step
from cardbase.sheets.writing import Table, output_file, write_csv, write_xlsx

WIDTHS = {"Code": 10, "Name": 28, "Traits": 24, "Text": 60, "Lore": 40, "Type": 10, "Sphere": 9}
SUFFIXES = (".xlsx", ".csv")
SHEET_NAMES = {"catalogue": "Catalogue", "collection": "Collection", "query": "Cards"}


class ExportReport(NamedTuple):
    path: Path
    rows: int


def export_fields(with_text: bool) -> tuple[CardField, ...]:
    """The columns of an export: the registry's, with text and lore (last, being long) for the
    catalogue."""
    short = tuple(field for field in EXPORT_FIELDS if not field.text_only)
    return short + tuple(field for field in EXPORT_FIELDS if field.text_only and with_text)


def card_row(card: Card, columns: tuple[CardField, ...]) -> list[Any]:
    values = card.to_dict()
    return [_cell(values[field.key or field.name]) for field in columns]


def _cell(value: Any) -> Any:
    """A JSON value as a spreadsheet shows it: traits joined, a Hero as 'yes'."""
    if isinstance(value, list):
        return TRAIT_SEPARATOR.join(value)
    if isinstance(value, bool):
        return "yes" if value else ""
    return value


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
    progress: Progress = quiet,
) -> ExportReport:
    """Write `cards_to_export(what)` to `path`; the file is refused before the search runs.
    `progress` hears "Searching", "Writing" (row by row) and, for a workbook, "Saving"."""
    from cardbase.bulk import paused_gc

    columns = export_fields(with_text=what == "catalogue")
    headers = [field.export or field.name for field in columns]
    sheet = SHEET_NAMES[what]
    workbook = path.suffix.lower() != ".csv"
    with output_file(path, force=force, suffixes=SUFFIXES) as temporary:
        cards = step("Searching", progress, lambda: cards_to_export(conn, what, query_text))
        writing = Stage("Writing", len(cards), progress)

        def rows() -> Iterator[list[Any]]:
            yield from writing.over(card_row(card, columns) for card in cards)
            writing.finish()
            if workbook:  # what is left is zipping the workbook up, in one call
                progress("Saving", 0, 1)

        with paused_gc():
            if not workbook:
                count = write_csv(temporary, Table(sheet, headers, rows()), bom=bom)
            else:
                tables = [Table(sheet, headers, rows()), totals_table(cards)]
                count = write_xlsx(temporary, tables, WIDTHS)
                progress("Saving", 1, 1)
    return ExportReport(path, count)


def cards_to_export(conn: sqlite3.Connection, what: str, query_text: str | None) -> list[Card]:
    """'collection' (owned cards), 'catalogue' (every card), or 'query' (search results)."""
    from cardbase.bulk import paused_gc
    from cardbase.query import search

    text = {"catalogue": "", "query": query_text or ""}.get(what, "is:owned")
    with paused_gc():
        return search.search(conn, search.build_query(text))
