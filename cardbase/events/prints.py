"""The current round on paper for the tables: pairings by table and by name for the wall,
a match slip per table to hand to its two players, and the standings, as one workbook.

Made to be printed (checked by printing it with LibreOffice, tests/test_event_prints.py):
each sheet fits the page's width with its header on every page, and the slips are five
to a page with a page break between, so none is cut in two. The wall's sheets carry no
code; a slip carries its own two players' codes, each by the player's name, because it is
handed to them alone (`codes=False` leaves them off).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.events.standings import Standing, percent
from cardbase.events.state import Snapshot
from cardbase.events.store import Seat

PRINTS = ("pairings", "slips", "standings", "all")
SLIPS_A_PAGE = 5
SLIP_ROWS = 8  # a slip's rows, with the blank ones around it
_BYE = "(bye)"


def write_prints(
    state: Snapshot, path: Path, what: str = "all", *, codes: bool = True, force: bool = False
) -> Path:
    """The workbook of `what` (pairings, slips, standings or all) for the current round;
    an existing file is replaced only with `force`."""
    from cardbase.fileio.writing import check_target, output_file, save_workbook

    if what not in PRINTS:
        raise CardbaseError(f"--what '{what[:20]}': print one of {', '.join(PRINTS)}")
    check_target(path, force, (".xlsx",))
    if what != "standings" and not state.round_seats():
        raise CardbaseError(
            f"'{state.event.name}' has no round paired yet: pair round 1, then print it"
        )
    book = _workbook(state, what, codes)
    with output_file(path, force=force, suffixes=(".xlsx",)) as temporary:
        save_workbook(book, temporary)
    return path


def _workbook(state: Snapshot, what: str, codes: bool) -> Any:
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    if what in ("pairings", "all"):
        _by_table(book, state)
        _by_name(book, state)
    if what in ("slips", "all"):
        _slips(book, state, codes)
    if what in ("standings", "all"):
        _standings(book, state)
    return book


def _title(state: Snapshot) -> str:
    seats = state.round_seats()
    stage = " (top cut)" if seats and seats[0].stage == "cut" else ""
    return f"{state.event.name}, round {state.last_round}{stage}"


def _table_sheet(
    book: Any, name: str, title: str, headers: list[str], rows: list[list[Any]],
    widths: tuple[int, ...],
) -> Any:  # fmt: skip
    """A titled sheet of a header and rows, fitted to a portrait page's width with the
    header on every page."""
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    from cardbase.decks.workbooks import align_columns, put
    from cardbase.fileio.writing import print_setup

    sheet = book.create_sheet(name)
    put(sheet, 1, [title], Font(bold=True, size=14))
    put(sheet, 3, headers, Font(bold=True))
    for row, values in enumerate(rows, start=4):
        put(sheet, row, values)
    numbers = tuple(n for n, h in enumerate(headers, 1) if h in ("Table", "Points", "Place"))
    align_columns(sheet, 3, 3 + len(rows), centred=numbers)
    for column, width in enumerate(widths, start=1):
        longest = max((len(str(r[column - 1])) for r in rows if len(r) >= column), default=0)
        sheet.column_dimensions[get_column_letter(column)].width = min(45, max(width, longest + 2))
    print_setup(sheet, landscape=False, title_rows="3:3")
    return sheet


def _points(state: Snapshot) -> dict[str, int]:
    """Each player's match points before the round: what the wall shows beside them."""
    return {row.record.player: row.record.points for row in state.standings(state.last_round)}


def _by_table(book: Any, state: Snapshot) -> None:
    points = _points(state)
    rows = [
        [s.number, s.first, points.get(s.first, 0), s.second or _BYE,
         points.get(s.second, "") if s.second else ""]
        for s in state.round_seats()
    ]  # fmt: skip
    _table_sheet(book, "By table", f"{_title(state)}: pairings by table",
                 ["Table", "Player", "Points", "Opponent", "Points"], rows,
                 (8, 30, 9, 30, 9))  # fmt: skip


def _by_name(book: Any, state: Snapshot) -> None:
    seated = [(s.first, s.second or _BYE, s) for s in state.round_seats()]
    seated += [(s.second, s.first, s) for s in state.round_seats() if s.second]
    seated.sort(key=lambda row: (row[0].casefold(), row[0]))
    rows = [[player, seat.number, opponent] for player, opponent, seat in seated]
    _table_sheet(book, "By name", f"{_title(state)}: pairings by name",
                 ["Player", "Table", "Opponent"], rows, (30, 8, 30))  # fmt: skip


def _slips(book: Any, state: Snapshot, codes: bool) -> None:
    """A slip a table (the bye has none), five to a page."""
    from openpyxl.worksheet.pagebreak import Break

    from cardbase.fileio.writing import print_setup

    sheet = book.create_sheet("Slips")
    code_of = {p.name: p.code for p in state.players}
    played = [s for s in state.round_seats() if s.second is not None]
    for n, seat in enumerate(played):
        top = 1 + n * SLIP_ROWS
        _slip(sheet, top, state, seat, code_of if codes else {})
        if n % SLIPS_A_PAGE == SLIPS_A_PAGE - 1 and n + 1 < len(played):
            sheet.row_breaks.append(Break(id=top + SLIP_ROWS - 1))
    for column, width in zip("ABCDE", (34, 12, 12, 10, 30), strict=True):
        sheet.column_dimensions[column].width = width
    print_setup(sheet, landscape=False, title_rows=None, gridlines=False)


def _slip(sheet: Any, top: int, state: Snapshot, seat: Seat, code_of: dict[str, str]) -> None:
    """One table's slip: who plays, a box for each player's games won and the games drawn,
    and a line to sign; the players' codes by their names when given."""
    from openpyxl.styles import Alignment, Border, Font, Side

    from cardbase.decks.workbooks import put

    line = Side(style="thin")
    box = Border(left=line, right=line, top=line, bottom=line)
    put(sheet, top, [f"{_title(state)}, table {seat.number}"], Font(bold=True, size=13))
    put(sheet, top + 1, [f"Best of {state.event.best_of}. Fill in the games each won, then "
                         "both sign."])  # fmt: skip
    put(sheet, top + 2, ["Player", "Code" if code_of else "", "Games won", "Drawn",
                         "Signature"], Font(bold=True))  # fmt: skip
    for row, player in enumerate((seat.first, seat.second or ""), start=top + 3):
        put(sheet, row, [player, code_of.get(player, "")])  # each code on its player's row
        sheet.row_dimensions[row].height = 30
        for column in (1, 2):
            sheet.cell(row=row, column=column).alignment = Alignment(
                wrap_text=True, vertical="center"
            )
        for column in (3, 5):
            sheet.cell(row=row, column=column).border = box
    sheet.cell(row=top + 3, column=4).border = box
    sheet.merge_cells(start_row=top + 3, start_column=4, end_row=top + 4, end_column=4)
    put(sheet, top + 5, ["Intentional draw: write ID in both Games won boxes"])
    for row in range(top, top + SLIP_ROWS):
        sheet.row_dimensions[row].height = sheet.row_dimensions[row].height or 18


def _standings(book: Any, state: Snapshot) -> None:
    keys = state.event.tiebreakers
    rows = [_standing_row(row) for row in state.standings()]
    titles = [f"{key.upper()} %" for key in keys]
    title = f"{state.event.name}: standings " + (
        f"in round {state.last_round}" if state.round_open else f"after round {state.last_round}"
    )
    _table_sheet(book, "Standings", title,
                 ["Place", "Player", "Points", "Matches", *titles], rows,
                 (7, 28, 8, 9, *(14 for _ in keys)))  # fmt: skip


def _standing_row(row: Standing) -> list[Any]:
    name = row.record.player + (" (dropped)" if row.dropped else "")
    return [row.place, name, row.record.points, row.record.matches,
            *(percent(value) for value in row.tiebreaks)]  # fmt: skip
