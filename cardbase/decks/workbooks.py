"""Decks as workbooks: a deck sheet with a stats sheet and cost-curve chart, and a printable
tournament registration sheet.

Decks are small, so these use openpyxl's ordinary (not write-only) mode, which charts and
page setup need. Every value goes in through `_append`, so a card, deck or player name is
always text, never a formula.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from cardbase.decks.check import DeckStats, deck_stats
from cardbase.decks.formats import Format, Placed
from cardbase.fields import FIELD_BY_KEY
from cardbase.sheets.writing import output_file, xlsx_cell

DECK_SUFFIXES = (".txt", ".xlsx")
DECK_CARD_KEYS = ("code", "name", "type", "sphere", "cost", "gems")  # after Section and Qty
DECK_HEADERS = ("Section", "Qty", *(FIELD_BY_KEY[key].export or key for key in DECK_CARD_KEYS))
TYPE_ORDER = ("Creature", "Resource", "Trick")


def _append(sheet: Any, values: list[Any]) -> None:
    sheet.append([xlsx_cell(sheet, value) for value in values])


def _bold_row(sheet: Any, row: int) -> None:
    from openpyxl.styles import Font

    for cell in sheet[row]:
        cell.font = Font(bold=True)


def write_deck(
    path: Path, name: str, placed: list[Placed], text: str, *, force: bool = False
) -> None:
    """The deck as its text list (.txt) or as a workbook with stats and a cost chart (.xlsx)."""
    with output_file(path, force=force, suffixes=DECK_SUFFIXES) as temporary:
        if path.suffix.lower() == ".txt":
            temporary.write_text(text, encoding="utf-8")
        else:
            _deck_workbook(name, placed, deck_stats(placed)).save(temporary)


def _deck_workbook(name: str, placed: list[Placed], stats: DeckStats) -> Any:
    from openpyxl import Workbook
    from openpyxl.chart import BarChart, Reference

    book = Workbook()
    sheet = book.active
    sheet.title = "Deck"
    _append(sheet, list(DECK_HEADERS))
    _bold_row(sheet, 1)
    sheet.freeze_panes = "A2"
    for item in placed:
        values = item.card.to_dict()
        values["sphere"] = "Hero" if item.card.hero else item.card.sphere or ""
        cells = [values[key] for key in DECK_CARD_KEYS]
        _append(sheet, [item.line.section.title(), item.line.copies, *cells])
    for column, width in zip("ABCDEFGH", (10, 6, 10, 30, 10, 9, 6, 7), strict=True):
        sheet.column_dimensions[column].width = width
    info = book.create_sheet("Stats")
    _append(info, ["Deck", name])
    _append(info, ["Cards", stats.cards])
    _append(info, ["Average gems per card", round(stats.average_gems, 2)])
    _append(info, ["Heroes", stats.heroes])
    for colour, count in stats.gem_colours.items():
        _append(info, [f"Gems {colour}", count])
    _append(info, [])
    start = info.max_row + 1
    _append(info, ["Cost", "Creatures"])
    _bold_row(info, start)
    for cost, count in stats.cost_curve.items():
        _append(info, [cost, count])
    info.column_dimensions["A"].width = 24
    if stats.cost_curve:
        chart = BarChart()
        chart.title = "Creature cost curve"
        chart.x_axis.title = "Cost"
        chart.y_axis.title = "Creatures"
        chart.add_data(
            Reference(info, min_col=2, min_row=start, max_row=info.max_row), titles_from_data=True
        )
        chart.set_categories(Reference(info, min_col=1, min_row=start + 1, max_row=info.max_row))
        info.add_chart(chart, "D2")
    return book


def write_registration_sheet(
    path: Path,
    deck_name: str,
    fmt: Format,
    placed: list[Placed],
    player: str,
    paper: str = "a4",
    *,
    force: bool = False,
) -> None:
    """A one-page list a tournament organiser can read: cards grouped by type, with totals."""
    with output_file(path, force=force, suffixes=(".xlsx",)) as temporary:
        _registration_workbook(deck_name, fmt, placed, player, paper).save(temporary)


def _registration_workbook(
    deck_name: str, fmt: Format, placed: list[Placed], player: str, paper: str
) -> Any:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    sheet = book.active
    sheet.title = "Registration"
    _append(sheet, ["Deck registration"])
    sheet["A1"].font = Font(bold=True, size=14)
    for label, value in (
        ("Player", player),
        ("Deck", deck_name),
        ("Format", fmt.title),
        ("Date", date.today().isoformat()),
    ):
        _append(sheet, [label, value])
        sheet.cell(row=sheet.max_row, column=1).font = Font(bold=True)
    groups: dict[str, list[Placed]] = {}
    for item in placed:
        key = item.card.type if item.line.section == "main" else item.line.section.title()
        groups.setdefault(key, []).append(item)
    order = [t for t in TYPE_ORDER if t in groups] + [g for g in groups if g not in TYPE_ORDER]
    for group in order:
        items = sorted(groups[group], key=lambda p: (p.card.name, str(p.card.code)))
        _append(sheet, [])
        _append(sheet, [f"{group}s" if group in TYPE_ORDER else group, "Qty", "Code"])
        _bold_row(sheet, sheet.max_row)
        for item in items:
            name = item.card.name + (" (Hero)" if item.card.hero else "")
            _append(sheet, [name, item.line.copies, str(item.card.code)])
        _append(sheet, [f"Total {group.lower()}", sum(i.line.copies for i in items)])
        sheet.cell(row=sheet.max_row, column=1).font = Font(italic=True)
    _append(sheet, [])
    _append(sheet, ["Total cards", sum(item.line.copies for item in placed)])
    _bold_row(sheet, sheet.max_row)
    sheet.column_dimensions["A"].width = 36
    sheet.column_dimensions["B"].width = 8
    sheet.column_dimensions["C"].width = 10
    sheet.page_setup.orientation = "portrait"
    sheet.page_setup.paperSize = sheet.PAPERSIZE_LETTER if paper == "letter" else sheet.PAPERSIZE_A4
    sheet.page_setup.fitToWidth = 1
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.print_title_rows = "1:5"
    return book
