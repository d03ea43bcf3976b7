"""Collection sheets read into rows: the sheet with a header found, each row's card and counts.

`read_collection` finds the sheet and its header and turns each row below into a `SheetRow`
(or a row-numbered problem): the import, deck lists kept in a sheet and trade lists all read
sheets this way, so a sheet means the same to each of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.collection.changes import Selector
from cardbase.collection.plan import Defaults
from cardbase.errors import CardbaseError, SheetError
from cardbase.fields import FOIL
from cardbase.limits import MAX_ROWS
from cardbase.sheets.cells import blank, cell, count, is_total, series_of, shorten, text
from cardbase.sheets.columns import FINISH_VALUES, SPECIAL_FOILS, Columns, find_header
from cardbase.sheets.files import stream_sheets
from cardbase.sheets.holdings import AttributeReader


class SheetRow(NamedTuple):
    row: int  # as the spreadsheet numbers it, from 1
    code: str
    name: str
    series: int | None
    nonfoil: int
    foil: int
    selector: Selector | None = None  # which copies, when the reader was asked for them
    note: str | None = None  # None: the sheet has no note column


class CollectionSheet(NamedTuple):
    source: str  # "Collection.xlsx, sheet 'Cards'"
    rows: list[SheetRow]
    problems: list[str]


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
        except CardbaseError as exc:
            problem = problem or exc
            continue
        after_header = chain(sheet.head[columns.header_row + 1 :], sheet.rest)
        return rows_from_sheet(after_header, columns, source, defaults)
    raise problem or SheetError(f"{path}: no sheets")


def sheet_source(path: Path, sheet_name: str) -> str:
    """How messages name a sheet: the file, and the sheet when a workbook has sheets."""
    if path.suffix.lower() in (".csv", ".tsv", ".txt"):
        return path.name
    return f"{path.name}, sheet '{sheet_name}'"


def rows_from_sheet(
    data: Iterable[list[Any]], columns: Columns, source: str, defaults: Defaults | None = None
) -> CollectionSheet:
    """`SheetRow`s from the rows below the header (numbered as the spreadsheet numbers them)."""
    reader = RowReader(columns)
    copies = None if defaults is None else AttributeReader(columns, defaults)
    selector, note = None, None
    rows: list[SheetRow] = []
    problems: list[str] = []
    for number, row in enumerate(data, start=columns.header_row + 2):
        if number - columns.header_row - 1 > MAX_ROWS:
            raise CardbaseError(
                f"{source}: more than {MAX_ROWS:,} rows, which is more than a collection "
                "sheet holds; split the file"
            )
        first = next((value for value in row if not blank(value)), None)
        if first is None:
            continue
        try:
            code, name = text(cell(row, reader.code)), text(cell(row, reader.name))
            if is_total(first) or is_total(name):
                continue
            nonfoil, foil, special = reader.counts(row)
            series = reader.series(row)
            if copies is not None:
                selector, note = copies.selector(row, special), copies.row_note(row)
        except CardbaseError as exc:
            problems.append(f"{source}, row {number}: {exc}")
            continue
        if not code and not name:
            if nonfoil or foil:
                problems.append(f"{source}, row {number}: a count but no card name or code")
            continue
        rows.append(SheetRow(number, code, name, series, nonfoil, foil, selector, note))
    if not rows and not problems:
        raise CardbaseError(
            f"{source}: no card rows below the header (row {columns.header_row + 1})"
        )
    return CollectionSheet(source, rows, problems)


class RowReader:
    """One sheet's columns by role, with positions and header labels looked up once."""

    def __init__(self, columns: Columns) -> None:
        at = columns.positions
        self.code, self.name = at.get("code"), at.get("name")
        self.nonfoil, self.foil = at.get("nonfoil"), at.get("foil")
        self.finish, self.set = at.get("finish"), at.get("series")
        self.labels = {role: columns.headers[position] or role for role, position in at.items()}
        self.quantities = self.nonfoil is not None or self.foil is not None
        self._series: dict[Any, int | None] = {}  # "Series 16" is on thousands of rows

    def counts(self, row: list[Any]) -> tuple[int, int, str]:
        """(non-foil, foil) copies a row holds, and the tag a special foil keeps ("etched")."""
        if not self.quantities:
            copies = 1  # a plain list of cards: one copy a row
        elif self.nonfoil is None:
            copies = 0
        else:
            copies = count(cell(row, self.nonfoil), self.labels["nonfoil"])
        foil = 0 if self.foil is None else count(cell(row, self.foil), self.labels["foil"])
        if self.finish is not None:
            word = text(cell(row, self.finish)).lower()
            if word in SPECIAL_FOILS:
                return 0, copies + foil, SPECIAL_FOILS[word]
            if word not in FINISH_VALUES:
                raise CardbaseError(
                    f"{self.labels['finish']} '{shorten(word)}' is not foil or normal"
                )
            if FINISH_VALUES[word] == FOIL:
                return 0, copies + foil, ""
        return copies, foil, ""

    def series(self, row: list[Any]) -> int | None:
        if self.set is None:
            return None
        value = cell(row, self.set)
        if value not in self._series:
            self._series[value] = series_of(value) or None
        return self._series[value]
