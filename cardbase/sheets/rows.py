"""Collection sheets read into rows: the sheets with a header found, each row's card and counts.

`read_workbook` finds every sheet with a card header and turns each row below into a
`SheetRow` (or a row-numbered problem), naming the sheets it skipped; `read_collection` reads
the first such sheet, as deck lists kept in a sheet and trade lists want. The import, deck
lists and trade lists all read rows this way, so a sheet means the same to each of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.collection.changes import Selector
from cardbase.collection.plan import Defaults
from cardbase.errors import CardbaseError, SheetError
from cardbase.fileio.reading import STDIN, stream_sheets
from cardbase.limits import MAX_ROWS
from cardbase.sheets.cells import blank, cell, is_total, text
from cardbase.sheets.columns import LIST_KINDS, fold
from cardbase.sheets.finishes import RowReader
from cardbase.sheets.header import Columns, NoHeader, find_header
from cardbase.sheets.rowcopies import AttributeReader
from cardbase.text import shown


class SheetRow(NamedTuple):
    row: int  # as the spreadsheet numbers it, from 1
    code: str
    name: str
    series: int | None
    nonfoil: int
    foil: int
    selector: Selector | None = None  # which copies, when the reader was asked for them
    note: str | None = None  # None: the sheet has no note column
    trade: int = 0  # how many of the copies are offered for trade (non-foil ones first)
    traded: Selector | None = None  # which copies those are: `selector`, tagged for trade


class CollectionSheet(NamedTuple):
    source: str  # "Collection.xlsx, sheet 'Cards'"
    rows: list[SheetRow]
    problems: list[str]
    columns: Columns | None = None
    wanted: int = 0  # rows of a wish list (ManaBox's Binder Type "list"), left out


class Workbook(NamedTuple):
    """The card sheets of a file, and a line for each sheet left out and why."""

    sheets: list[CollectionSheet]
    skipped: list[str]


def read_collection(
    path: Path, sheet_name: str | None = None, defaults: Defaults | None = None
) -> CollectionSheet:
    """The first sheet (or the named one) with a card column, read into `SheetRow`s.

    With `defaults`, each row also says which copies it holds (`SheetRow.selector`, the
    defaults where the sheet does not say); without, only cards and counts are read, as a
    deck list in a sheet needs.
    """
    problem: CardbaseError | None = None
    for sheet in stream_sheets(path, sheet_name):
        source = sheet_source(path, sheet.name)
        try:
            columns = find_header(sheet.head, source)
        except NoHeader as exc:
            problem = problem or exc
            continue
        after_header = chain(sheet.head[columns.header_row + 1 :], sheet.rest)
        return rows_from_sheet(after_header, columns, source, defaults)
    raise problem or SheetError(f"{shown(path)}: no sheets")


def read_workbook(path: Path, sheet_name: str | None, defaults: Defaults) -> Workbook:
    """Every sheet with a card header (or the named one) read; the others named as skipped.

    A workbook of a cover sheet and a sheet a sphere reads both spheres; a file with no
    card sheet at all is the first sheet's problem, as with one sheet.
    """
    sheets: list[CollectionSheet] = []
    skipped: list[str] = []
    problem: CardbaseError | None = None
    for sheet in stream_sheets(path, sheet_name):
        source = sheet_source(path, sheet.name)
        try:
            columns = find_header(sheet.head, source)
            after_header = chain(sheet.head[columns.header_row + 1 :], sheet.rest)
            sheets.append(rows_from_sheet(after_header, columns, source, defaults))
        except NoHeader as exc:
            problem = problem or exc
            skipped.append(f"sheet '{sheet.name}': no header row with a card name or code")
        except EmptySheet as exc:
            problem = problem or exc
            skipped.append(f"sheet '{sheet.name}': no card rows below its header")
    if not sheets:
        raise problem or SheetError(f"{shown(path)}: no sheets")
    return Workbook(sheets, skipped)


def sheet_source(path: Path, sheet_name: str) -> str:
    """How messages name a sheet: the file, and the sheet when a workbook has sheets."""
    if path == STDIN:
        return "standard input"
    if path.suffix.lower() in (".csv", ".tsv", ".txt"):
        return shown(path.name)
    return f"{shown(path.name)}, sheet '{sheet_name}'"


class EmptySheet(CardbaseError):
    """A header and nothing under it."""


def rows_from_sheet(
    data: Iterable[list[Any]], columns: Columns, source: str, defaults: Defaults | None = None
) -> CollectionSheet:
    """`SheetRow`s from the rows below the header (numbered as the spreadsheet numbers them)."""
    reader = RowReader(columns)
    copies = None if defaults is None else AttributeReader(columns, defaults)
    selector, note, traded = None, None, None
    rows: list[SheetRow] = []
    problems: list[str] = []
    kind = columns.positions.get("kind")
    wanted = 0
    for number, row in enumerate(data, start=columns.header_row + 2):
        if number - columns.header_row - 1 > MAX_ROWS:
            raise CardbaseError(
                f"{source}: more than {MAX_ROWS:,} rows, which is more than a collection "
                "sheet holds; split the file"
            )
        first = next((value for value in row if not blank(value)), None)
        if first is None:
            continue
        if kind is not None and fold(text(cell(row, kind))) in LIST_KINDS:
            wanted += 1  # a card on a wish list: wanted, not owned
            continue
        try:
            code, name = reader.code_of(row), text(cell(row, reader.name))
            if is_total(first) or is_total(name):
                continue
            nonfoil, foil, special, trade = reader.counts(row)
            series = reader.series(row)
            if copies is not None:
                selector, note = copies.selector(row, special), copies.row_note(row)
                traded = copies.traded(selector) if trade else None
        except CardbaseError as exc:
            problems.append(f"{source}, row {number}: {exc}")
            continue
        if not code and not name:
            if nonfoil or foil:
                problems.append(f"{source}, row {number}: a count but no card name or code")
            continue
        rows.append(
            SheetRow(number, code, name, series, nonfoil, foil, selector, note, trade, traded)
        )
    if not rows and not problems and not wanted:
        raise EmptySheet(f"{source}: no card rows below the header (row {columns.header_row + 1})")
    return CollectionSheet(source, rows, problems, columns, wanted)
