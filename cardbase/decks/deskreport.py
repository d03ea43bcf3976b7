"""The tournament desk's workbook: a Decks sheet with every deck and its verdict, then one
sheet per deck that is not valid, listing what to tell its player.

The organiser prints the first sheet for the wall and hands each player their own sheet, so
both print on A4 fitted to width, with their header rows repeated.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from cardbase.decks.batch import DeskLine
from cardbase.decks.workbooks import align_columns, put, wrap_row
from cardbase.fileio.writing import output_file, print_setup, save_workbook
from cardbase.text import plural

SUMMARY_HEADERS = ("Player", "File", "Format", "Cards", "Verdict", "Problems")
SUMMARY_WIDTHS = (18, 28, 24, 7, 11, 50)
DECK_HEADERS = ("Problem", "What is wrong", "Lines", "Fix")
DECK_WIDTHS = (16, 70, 12, 24)
SHEET_NAME_LIMIT = 31  # characters Excel allows in a sheet's name
NOT_IN_SHEET_NAMES = re.compile(r"[\[\]:*?/\\']")


def write_desk_report(path: Path, lines: list[DeskLine], *, force: bool = False) -> None:
    with output_file(path, force=force, suffixes=(".xlsx",)) as temporary:
        save_workbook(_workbook(lines), temporary)


def _workbook(lines: list[DeskLine]) -> Any:
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    sheet = book.active
    sheet.title = "Decks"
    put(sheet, 1, list(SUMMARY_HEADERS), Font(bold=True))
    red = Font(color="C00000")
    for row, line in enumerate(lines, start=2):
        report = line.report
        put(sheet, row, [
            line.player or "",
            line.file,
            report.format.title if report else "",
            report.cards if report else None,
            "valid" if line.valid else "NOT VALID",
            ", ".join(line.codes()),
        ])  # fmt: skip
        wrap_row(sheet, row, [line.player, line.file, "", "", "", ", ".join(line.codes())],
                 SUMMARY_WIDTHS)  # fmt: skip
        if not line.valid:
            sheet.cell(row=row, column=5).font = red
    align_columns(sheet, 1, len(lines) + 1, centred=(4,))
    for column, width in enumerate(SUMMARY_WIDTHS, start=1):
        sheet.column_dimensions[get_column_letter(column)].width = width
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:F{len(lines) + 1}"
    print_setup(sheet, landscape=True)
    names = {"decks"}
    for line in lines:
        if not line.valid:
            _deck_sheet(book, line, _sheet_name(line.who, names))
    return book


def _sheet_name(who: str, taken: set[str]) -> str:
    """A sheet name from a player or file: without the characters Excel refuses, short
    enough, and unlike the others (ignoring case, as Excel compares them)."""
    base = NOT_IN_SHEET_NAMES.sub("_", Path(who).stem if "." in who else who).strip() or "Deck"
    name, number = base[:SHEET_NAME_LIMIT], 1
    while name.lower() in taken:
        number += 1
        suffix = f" ({number})"
        name = base[: SHEET_NAME_LIMIT - len(suffix)] + suffix
    taken.add(name.lower())
    return name


def _deck_sheet(book: Any, line: DeskLine, name: str) -> None:
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    sheet = book.create_sheet(name)
    report = line.report
    about = [f"Player: {line.player}"] if line.player else []
    about.append(f"File: {line.file}")
    if report is not None:
        about.append(f"Format: {report.format.title}, {plural(report.cards, 'card')}")
    for row, text in enumerate(about, start=1):
        put(sheet, row, [text], Font(bold=row == 1))
    head = len(about) + 2
    put(sheet, head, list(DECK_HEADERS), Font(bold=True))
    for row, problem in enumerate(line.problems, start=head + 1):
        lines = " ".join(map(str, problem.lines))
        values = [problem.code, problem.message, lines, problem.fix or ""]
        put(sheet, row, values)
        wrap_row(sheet, row, values, DECK_WIDTHS)
    for column, width in enumerate(DECK_WIDTHS, start=1):
        sheet.column_dimensions[get_column_letter(column)].width = width
    sheet.freeze_panes = f"A{head + 1}"
    print_setup(sheet, landscape=True, title_rows=f"{head}:{head}")
