"""Decks as files to share: a text list, a CSV, or a workbook with a stats sheet and a cost
chart; each reads back (`deck check`, `deck save`) as the same deck, sections and format
included.

Decks are small, so workbooks use openpyxl's ordinary (not write-only) mode, which charts and
page setup need. Every value goes in through `put`, so a card, deck or player name is always
text, never a formula.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from cardbase.decks.check import DeckStats, deck_stats
from cardbase.decks.formats import Placed
from cardbase.fields import FIELD_BY_KEY
from cardbase.fileio.writing import (
    output_file,
    print_setup,
    safe_text,
    save_workbook,
    xlsx_cell,
)

DECK_SUFFIXES = (".txt", ".xlsx", ".csv")
DECK_CARD_KEYS = ("code", "name", "type", "sphere", "cost", "gems")  # after Section and Qty
DECK_HEADERS = ("Section", "Qty", *(FIELD_BY_KEY[key].export or key for key in DECK_CARD_KEYS))
DECK_WIDTHS = (10, 6, 10, 30, 10, 9, 6, 7)
LINE_HEIGHT = 15  # points: one line of the default 11-point font


def put(sheet: Any, row: int, values: list[Any], font: Any = None) -> None:
    """`values` into `row` from column A: text as text (never a formula), in `font`."""
    for column, value in enumerate(values, start=1):
        if value is None:
            continue
        cell = sheet.cell(row=row, column=column)
        safe = xlsx_cell(sheet, value)  # cleaned text, or a cell holding it as text
        cell.value = safe if isinstance(safe, str | int | float) else safe.value
        if isinstance(value, str):
            cell.data_type = "s"  # "=1+2" is a card's name here, not a formula
        if font is not None:
            cell.font = font


def align_columns(
    sheet: Any, first: int, last: int, centred: tuple[int, ...], indented: tuple[int, ...] = ()
) -> None:
    """Numbers centred under their headers, and the text column after them indented: a
    right-aligned 3 beside a left-aligned "1 C 17" prints as "31 C 17"."""
    from openpyxl.styles import Alignment

    for row in range(first, last + 1):
        for column in centred:
            sheet.cell(row=row, column=column).alignment = Alignment(horizontal="center")
        for column in indented:
            sheet.cell(row=row, column=column).alignment = Alignment(horizontal="left", indent=1)


def wrap_row(sheet: Any, row: int, values: list[Any], widths: tuple[int, ...]) -> None:
    """Wrap `row`'s cells and make it tall enough for its longest: LibreOffice and Excel print
    an openpyxl row at one line's height, wrapped text overlapping the next row."""
    from openpyxl.styles import Alignment

    lines = 1
    for column, (value, width) in enumerate(zip(values, widths, strict=False), start=1):
        sheet.cell(row=row, column=column).alignment = Alignment(wrap_text=True, vertical="top")
        lines = max(lines, -(-len(str(value or "")) // max(1, width - 2)))
    sheet.row_dimensions[row].height = LINE_HEIGHT * lines


def deck_rows(placed: list[Placed]) -> list[list[Any]]:
    """A row under `DECK_HEADERS` for each deck line: its section, copies and card."""
    rows = []
    for item in placed:
        values = item.card.to_dict()
        values["sphere"] = item.card.sphere_shown
        cells = [values[key] for key in DECK_CARD_KEYS]
        rows.append([item.line.section.title(), item.line.copies, *cells])
    return rows


def about_rows(about: dict[str, str]) -> list[str]:
    """The cells above a deck sheet's header: "Format: wildhearts-ffa", one to a row (one cell,
    so that no value, such as a player called "Cards", can look like a header)."""
    return [f"{key.title()}: {value}" for key, value in about.items() if value]


def write_deck(
    path: Path,
    name: str,
    placed: list[Placed],
    text: str,
    about: dict[str, str] | None = None,
    *,
    force: bool = False,
) -> None:
    """The deck as its text list (.txt), a sheet (.csv) or a workbook with stats and a cost
    chart (.xlsx); `about` ("format", "player") goes above the cards, read back by
    `cardbase.decks.lists`."""
    with output_file(path, force=force, suffixes=DECK_SUFFIXES) as temporary:
        suffix = path.suffix.lower()
        if suffix == ".txt":
            temporary.write_text(text, encoding="utf-8")
        elif suffix == ".csv":
            _deck_csv(temporary, placed, about or {})
        else:
            save_workbook(_deck_workbook(name, placed, deck_stats(placed), about or {}), temporary)


def _deck_csv(path: Path, placed: list[Placed], about: dict[str, str]) -> None:
    width = len(DECK_HEADERS)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        # Padded to the table's width, so that the delimiter sniffer sees one shape.
        for line in about_rows(about):
            writer.writerow([safe_text(line)] + [""] * (width - 1))
        writer.writerow(DECK_HEADERS)
        writer.writerows([safe_text(value) for value in row] for row in deck_rows(placed))


def _deck_workbook(name: str, placed: list[Placed], stats: DeckStats, about: dict[str, str]) -> Any:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = "Deck"
    above = about_rows(about)
    for row, line in enumerate(above, start=1):
        put(sheet, row, [line])
    header = len(above) + 2 if above else 1  # a blank row between them and the table
    put(sheet, header, list(DECK_HEADERS), Font(bold=True))
    rows = deck_rows(placed)
    for row, values in enumerate(rows, start=header + 1):
        put(sheet, row, values)
    align_columns(sheet, header, header + len(rows), centred=(2, 7), indented=(3,))
    for column, width in enumerate(DECK_WIDTHS, start=1):
        sheet.column_dimensions[get_column_letter(column)].width = width
    sheet.freeze_panes = f"A{header + 1}"
    print_setup(sheet, landscape=False, title_rows=f"{header}:{header}")
    _stats_sheet(book, name, stats)
    return book


def _stats_sheet(book: Any, name: str, stats: DeckStats) -> None:
    """The deck's numbers, and its cost curve as a table and a bar chart of that table."""
    from openpyxl.styles import Font

    info = book.create_sheet("Stats")
    summary: list[list[Any]] = [
        ["Deck", name],
        ["Cards", stats.cards],
        ["Average gems per card", round(stats.average_gems, 2)],
        ["Heroes", stats.heroes],
        *([f"Gems {colour}", count] for colour, count in stats.gem_colours.items()),
        *([f"{card_type} cards", count] for card_type, count in stats.types.items()),
    ]
    for row, values in enumerate(summary, start=1):
        put(info, row, values)
    fighters = " and ".join(f"{t}s" for t in stats.curve_types)
    head = len(summary) + 2  # the curve's header row, after a blank row
    put(info, head, ["Cost", fighters], Font(bold=True))
    for row, (cost, count) in enumerate(stats.cost_curve.items(), start=head + 1):
        put(info, row, [cost, count])
    align_columns(info, head, head + len(stats.cost_curve), centred=(1, 2))
    info.column_dimensions["A"].width = 24
    info.column_dimensions["B"].width = max(12, len(fighters) + 2)
    print_setup(info, landscape=True, title_rows=None, gridlines=False)
    if stats.cost_curve:
        info.add_chart(cost_chart(info, head, len(stats.cost_curve), fighters), "D2")


def cost_chart(sheet: Any, head: int, costs: int, fighters: str) -> Any:
    """A bar chart of the table whose header is row `head` (Cost | count) and whose `costs`
    rows follow it: the series is titled by the header's count cell, its categories are the
    costs below the header (never the header itself)."""
    from openpyxl.chart import BarChart, Reference

    chart = BarChart()
    chart.title = f"{fighters} by cost"
    chart.x_axis.title = "Cost"
    chart.y_axis.title = fighters
    data = Reference(sheet, min_col=2, min_row=head, max_row=head + costs)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=1, min_row=head + 1, max_row=head + costs))
    return chart
