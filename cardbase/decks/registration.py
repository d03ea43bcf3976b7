"""The tournament registration sheet: a deck on one printed page, read by a judge.

A printed line must read as quantity, code, name ("3  1 C 17  Chugawug Cook"): quantity
centred in its own column, the code left-aligned after a gap, so they never run together
as "31 C 17". Totals are numbers in the quantity column, under its header. A deck that is
not legal gets a sheet only when asked (`--force`), and then the sheet says NOT VALID and
why, at the top, where a judge looks first.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from cardbase.decks.formats import Format, Placed, Problem
from cardbase.decks.workbooks import align_columns, put
from cardbase.fileio.writing import output_file, print_setup, save_workbook

TYPE_ORDER = ("Creature", "Resource", "Trick", "Ally", "Tamer", "Action")
WIDTHS = {"A": 6, "B": 11, "C": 44}
SHOWN_PROBLEMS = 8  # problems printed under NOT VALID


def write_registration_sheet(
    path: Path,
    deck_name: str,
    fmt: Format,
    placed: list[Placed],
    player: str,
    paper: str = "a4",
    *,
    problems: list[Problem] | None = None,
    force: bool = False,
) -> None:
    """A page a tournament organiser can read: cards grouped by type, with totals;
    `problems`, if any, printed under a NOT VALID banner."""
    with output_file(path, force=force, suffixes=(".xlsx",)) as temporary:
        book = _workbook(deck_name, fmt, placed, player, paper, problems or [])
        save_workbook(book, temporary)


def _groups(placed: list[Placed]) -> list[tuple[str, list[Placed]]]:
    """Main-deck cards by type (Creatures, Resources, Tricks ...), then each other section."""
    groups: dict[str, list[Placed]] = {}
    for item in placed:
        key = item.card.type if item.line.section == "main" else item.line.section.title()
        groups.setdefault(key, []).append(item)
    order = [t for t in TYPE_ORDER if t in groups] + [g for g in groups if g not in TYPE_ORDER]
    return [
        (
            f"{group}s" if group in TYPE_ORDER else group,
            sorted(groups[group], key=lambda p: (p.card.name, str(p.card.code))),
        )
        for group in order
    ]


def _workbook(
    deck_name: str,
    fmt: Format,
    placed: list[Placed],
    player: str,
    paper: str,
    problems: list[Problem],
) -> Any:
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font

    book = Workbook()
    sheet = book.active
    sheet.title = "Registration"
    bold, centre = Font(bold=True), Alignment(horizontal="center")
    put(sheet, 1, ["Deck registration" + (": NOT VALID" if problems else "")])
    sheet["A1"].font = Font(bold=True, size=14, color="C00000" if problems else None)
    row = 2
    for label, value in (
        ("Player", player),
        ("Deck", deck_name),
        ("Format", fmt.title),
        ("Date", date.today().isoformat()),
    ):
        sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=2)
        put(sheet, row, [label, None, value])
        sheet.cell(row=row, column=1).font = bold
        row += 1
    row = _problems(sheet, row, problems)
    for title, items in _groups(placed):
        row += 1
        put(sheet, row, ["Qty", "Code", title], bold)
        for item in items:
            name = item.card.name + (" (Hero)" if item.card.hero else "")
            put(sheet, row + 1, [item.line.copies, str(item.card.code), name])
            row += 1
        align_columns(sheet, row - len(items), row, centred=(1,), indented=(2,))
        row += 1
        put(sheet, row, [sum(i.line.copies for i in items), None, f"Total {title.lower()}"])
        sheet.cell(row=row, column=1).alignment = centre
        sheet.cell(row=row, column=3).font = Font(italic=True)
    row += 2
    put(sheet, row, [sum(item.line.copies for item in placed), None, "Total cards"], bold)
    sheet.cell(row=row, column=1).alignment = centre
    for column, width in WIDTHS.items():
        sheet.column_dimensions[column].width = width
    print_setup(sheet, landscape=False, title_rows="1:5", paper=paper, gridlines=False)
    return book


def _problems(sheet: Any, row: int, problems: list[Problem]) -> int:
    """The reasons a deck is not legal, under the header block; the next free row."""
    from openpyxl.styles import Alignment, Font

    red = Font(bold=True, color="C00000")
    for problem in problems[:SHOWN_PROBLEMS]:
        sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=3)
        put(sheet, row, [problem.describe()], red)
        sheet.cell(row=row, column=1).alignment = Alignment(wrap_text=True, vertical="top")
        sheet.row_dimensions[row].height = 15 * (1 + len(problem.describe()) // 60)
        row += 1
    if len(problems) > SHOWN_PROBLEMS:
        put(sheet, row, [f"... and {len(problems) - SHOWN_PROBLEMS} more problems"], red)
        row += 1
    return row
