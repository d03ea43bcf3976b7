"""The cells and text a workbook part would make calamine hold, found by scanning its XML.

calamine holds a sheet whole: a grid as large as the area from A1 to the farthest cell
(32 bytes a cell), and every cell's text, with a shared text copied for each cell that uses
it. So each unpacked part of a zipped workbook is scanned here, with regular expressions
rather than a parser (a parser costs a second a million cells; these scans cost a tenth),
for what decides that memory: cell addresses, the used area, text per sheet, the number of
sheets; and, in an .ods, repeated rows and cells. Every part is scanned, whatever its name,
since a workbook's own index decides which part is a sheet.

The fast scan looks only at what real collections never have (addresses with two letters or
six digits); a sheet whose rough bounds are past a limit is then measured exactly.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cardbase.errors import SheetError
from cardbase.limits import (
    MAX_COLUMNS,
    MAX_SHEET_CELLS,
    MAX_SHEET_ROWS,
    MAX_SHEET_TEXT,
    MAX_SHEETS,
)

Part = bytes | bytearray  # an unpacked part, as `cardbase.fileio.zipped` hands it over

_Q = rb"[\"']"  # XML quotes either way
_FAR = rb"([A-Za-z]{2,}\d*|[A-Za-z]{0,2}\d{6,})"  # past column Z or row 99,999


class Scan(NamedTuple):
    """The regular expressions for one way cells are written: `<c r="A1"` (as every
    spreadsheet program writes them) scans several times faster than any way XML allows."""

    far: re.Pattern[bytes]  # an address past column Z or row 99,999
    cell: re.Pattern[bytes]  # any address
    past_j: re.Pattern[bytes]  # an address in columns K to Z


PLAIN = Scan(
    re.compile(rb'<c r="' + _FAR + rb'"'),
    re.compile(rb'<c r="([A-Za-z]+)(\d+)"'),
    re.compile(rb'<c r="[K-Zk-z]\d'),
)
_R = rb"\sr\s*=\s*" + _Q
ANY = Scan(
    re.compile(_R + _FAR + _Q),
    re.compile(_R + rb"([A-Za-z]+)(\d+)" + _Q),
    re.compile(_R + rb"[K-Zk-z]\d"),
)
ODD_CELL = re.compile(rb'<c(?![A-Za-z]| r=")')  # a cell tag not written `<c r="`
PREFIXED_CELL = re.compile(rb":c[\s/>]")  # a cell tag with a namespace prefix, `<x:c `
ODD_LIMIT = 32_000_000  # bytes of a part with cells written otherwise: scanning it is slower
DIMENSION = re.compile(rb"dimension\s[^>]*?\bref\s*=\s*" + _Q + rb"([^\"']*)")
BARE_CELL = re.compile(rb"<(?:[\w.-]+:)?c(?=[\s/>])(?![^>]*\sr\s*=)")
SHARED_TYPE = re.compile(rb"\st\s*=\s*" + _Q + rb"s" + _Q)
SHARED_CELL = re.compile(
    rb"\st\s*=\s*" + _Q + rb"s" + _Q + rb"[^>]*>\s*<(?:[\w.-]+:)?v\s*>\s*(\d{1,9})\s*<"
)
SHARED_TEXT = re.compile(rb"<(?:[\w.-]+:)?si[\s/>]")
UNIQUE_COUNT = re.compile(rb"<(?:[\w.-]+:)?sst\s[^>]*?\buniqueCount\s*=\s*" + _Q + rb"(\d+)")
SHEET = re.compile(rb"<(?:[\w.-]+:)?sheet\s")
UTF16_STARTS = (b"\xff\xfe", b"\xfe\xff", b"<\x00", b"\x00<")
FEW_ROWS, FEW_COLUMNS = 99_999, 26  # the bounds where no address has six digits, two letters
FAR_HINT = (
    "no collection reaches that far; delete what is there (Ctrl+End shows the last cell) "
    "and save the workbook again"
)


class SharedTexts(NamedTuple):
    """The workbook's shared texts: where each starts in its part, and the longest's size."""

    starts: list[int]
    end: int
    longest: int

    @classmethod
    def none(cls) -> SharedTexts:
        return cls([], 0, 0)

    @classmethod
    def read(cls, part: Part, where: str) -> SharedTexts:
        """Find each shared text, refusing a table that claims more texts than it holds.

        calamine reserves room for the claimed count before reading any.
        """
        check_encoding(part, where)
        if part.count(b"<") > 2 * MAX_SHEET_CELLS:
            raise SheetError(f"{where}: more shared texts than any workbook of cards holds")
        starts = [match.start() for match in SHARED_TEXT.finditer(part)]
        claimed = UNIQUE_COUNT.search(part)
        if claimed and int(claimed.group(1)) > len(starts) + 1_000:
            raise SheetError(
                f"{where}: claims {int(claimed.group(1)):,} shared texts but holds "
                f"{len(starts):,}; the file is damaged or crafted"
            )
        ends = [*starts[1:], len(part)]
        longest = max((end - start for start, end in zip(starts, ends, strict=True)), default=0)
        return cls(starts, len(part), longest)

    def size(self, index: int) -> int:
        """Bytes of shared text `index` in its part (at least as many as calamine makes)."""
        if index >= len(self.starts):
            return 0
        end = self.starts[index + 1] if index + 1 < len(self.starts) else self.end
        return end - self.starts[index]


def check_encoding(part: Part, where: str) -> None:
    """Refuse UTF-16 parts: the scans read UTF-8, as Excel and LibreOffice write every part."""
    if part.startswith(UTF16_STARTS) or re.match(rb"\s*<\?xml[^>]*encoding\s*=\s*.utf-16", part):
        raise SheetError(
            f"{where}: written in UTF-16, which spreadsheet programs do not write; "
            "open the workbook in one and save it again"
        )


def check_part(part: Part, where: str, texts: SharedTexts) -> None:
    """Refuse a part that, read as a sheet, would cost calamine unbounded memory."""
    check_encoding(part, where)
    scan = ANY if ODD_CELL.search(part) or PREFIXED_CELL.search(part) else PLAIN
    if scan is ANY:
        _check_odd(part, where)
    sheet_data = part.find(b"sheetData")  # calamine reads the dimension before the cells
    for dimension in DIMENSION.finditer(part, 0, sheet_data if sheet_data >= 0 else len(part)):
        for corner in dimension.group(1).split(b":"):
            letters = corner.rstrip(b"0123456789")
            _check_address(letters, corner[len(letters) :], where, "its used area ends at")
    rows, columns = FEW_ROWS, FEW_COLUMNS
    for far in scan.far.finditer(part):  # none on a sheet of 99,999 rows, columns A to Z
        address = far.group(1)
        letters = address.rstrip(b"0123456789")
        row, column = _check_address(letters, address[len(letters) :], where, "a cell at")
        rows, columns = max(rows, row), max(columns, column)
    if rows * columns > MAX_SHEET_CELLS and columns == FEW_COLUMNS and not scan.past_j.search(part):
        columns = 10  # no column past J: the usual collection
    if rows * columns > MAX_SHEET_CELLS:
        _check_area(part, where, scan)
    cells = part.count(b'<c r="') if scan is PLAIN else part.count(b"<") // 4
    if texts.starts and cells * texts.longest > MAX_SHEET_TEXT:
        _check_text(part, where, texts)


def _check_odd(part: Part, where: str) -> None:
    """A part with cells written otherwise than `<c r="`: smaller, and every cell addressed."""
    if len(part) > ODD_LIMIT:
        raise SheetError(
            f"{where}: {len(part):,} bytes of cells written in an unusual way (at most "
            f"{ODD_LIMIT:,}); open the workbook in Excel or LibreOffice and save it again"
        )
    bare = BARE_CELL.search(part)
    if bare:
        raise SheetError(
            f'{where}: a cell without an address (r="..."), at byte {bare.start():,}; '
            "open the workbook in Excel or LibreOffice and save it again"
        )


def _check_address(letters: bytes, digits: bytes, where: str, what: str) -> tuple[int, int]:
    """(row, column) of an address such as XFD1048576, refused past the limits."""
    shown = (letters + digits).decode("ascii", "replace")[:20]
    if len(letters) > 3 or len(digits) > 7:
        raise SheetError(f"{where}: {what} {shown}; {FAR_HINT}")
    column = 0
    for letter in letters.upper():
        column = column * 26 + letter - 64
    row = int(digits) if digits else 0
    if column > MAX_COLUMNS or row > MAX_SHEET_ROWS:
        raise SheetError(
            f"{where}: {what} {shown}, past column {MAX_COLUMNS} (IV) or row "
            f"{MAX_SHEET_ROWS:,}; {FAR_HINT}"
        )
    return row, column


def _check_area(part: Part, where: str, scan: Scan) -> None:
    """The exact area from A1 to the farthest cell, where the rough bound is past the limit."""
    rows = columns = 0
    for cell in scan.cell.finditer(part):  # one at a time: a list of a million costs 150 MB
        row, column = _check_address(cell.group(1), cell.group(2), where, "a cell at")
        rows, columns = max(rows, row), max(columns, column)
    if rows * columns > MAX_SHEET_CELLS:
        raise SheetError(
            f"{where}: cells from A1 to row {rows:,}, column {columns}: {rows * columns:,} "
            f"cells, more than a sheet of cards uses (at most {MAX_SHEET_CELLS:,}); "
            "delete the empty rows and columns between them, or split the sheet"
        )


def _check_text(part: Part, where: str, texts: SharedTexts) -> None:
    """Text the cells using shared texts would hold, each use counted: calamine copies it."""
    indexes = SHARED_CELL.findall(part)
    if len(indexes) != len(SHARED_TYPE.findall(part)):
        raise SheetError(
            f"{where}: shared-text cells written in a way cardbase cannot measure; "
            "open the workbook in Excel or LibreOffice and save it again"
        )
    total = sum(texts.size(int(index)) for index in indexes)
    if total > MAX_SHEET_TEXT:
        raise SheetError(
            f"{where}: its cells hold {total:,} bytes of text, each shared text counted "
            f"once for every cell that uses it (at most {MAX_SHEET_TEXT:,}); "
            "a sheet of cards holds far less"
        )


def check_sheet_count(part: Part, where: str) -> None:
    sheets = len(SHEET.findall(part))
    if sheets > MAX_SHEETS:
        raise SheetError(
            f"{where}: {sheets:,} sheets, more than a workbook of cards has "
            f"(at most {MAX_SHEETS}); split the workbook"
        )


ODS_TAG = re.compile(
    rb"<(/?)table:(table-row|table-cell|covered-table-cell|table)(?=[\s/>])([^>]*?)(/?)>"
)
ODS_REPEAT = re.compile(rb"table:number-(?:rows|columns)-repeated\s*=\s*" + _Q + rb"\s*(\d+)")
ODS_VALUE = re.compile(rb"office:(?:value|string-value|date-value|time-value|boolean-value)\b")


class _OdsTable:
    """One .ods table as calamine would lay it out: rows and columns up to the last value."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.row = self.rows = self.columns = self.text = 0
        self.row_repeat = self.column = self.row_columns = 0
        self.cell_start, self.cell_repeat = -1, 0

    def start_row(self, attributes: bytes) -> None:
        self.row_repeat, self.column, self.row_columns = _repeat(attributes), 0, 0

    def cell(self, attributes: bytes, closed: bool, at: int) -> None:
        repeat = _repeat(attributes)
        if not closed or ODS_VALUE.search(attributes) or b"table:formula" in attributes:
            self.row_columns = self.column + repeat
            self.text += (len(attributes) + 1) * repeat * self.row_repeat
        if not closed:
            self.cell_start, self.cell_repeat = at, repeat
        self.column += repeat

    def end_cell(self, at: int) -> None:
        if self.cell_start >= 0:
            self.text += (at - self.cell_start) * self.cell_repeat * self.row_repeat
            self.cell_start = -1

    def end_row(self) -> None:
        self.row += self.row_repeat
        if self.row_columns:
            self.rows, self.columns = self.row, max(self.columns, self.row_columns)
        if self.columns > MAX_COLUMNS or self.rows > MAX_SHEET_ROWS:
            raise SheetError(
                f"{self.where}: a value at row {self.rows:,}, column {self.columns:,} (counting "
                f"repeated rows and cells), past column {MAX_COLUMNS} or row "
                f"{MAX_SHEET_ROWS:,}; {FAR_HINT}"
            )
        if self.rows * self.columns > MAX_SHEET_CELLS or self.text > MAX_SHEET_TEXT:
            raise SheetError(
                f"{self.where}: its repeated rows and cells make {self.rows * self.columns:,} "
                f"cells and {self.text:,} bytes of text (at most {MAX_SHEET_CELLS:,} and "
                f"{MAX_SHEET_TEXT:,}); a sheet of cards holds far less"
            )


def _repeat(attributes: bytes) -> int:
    found = ODS_REPEAT.search(attributes)
    return int(found.group(1)) if found else 1


def check_ods_content(part: Part, where: str) -> None:
    """An .ods content.xml's tables, with their repeated rows and cells spelled out."""
    table = _OdsTable(where)
    tables = cells = 0
    for match in ODS_TAG.finditer(part):
        closing, name, attributes, closed = match.groups()
        if name == b"table-row":
            if closing:
                table.end_row()
            elif not closed:  # calamine skips a row written as one empty tag
                table.start_row(attributes)
        elif name == b"table":
            tables += not closing and not closed
            table = _OdsTable(where)
        elif closing:
            table.end_cell(match.start())
        else:
            cells += 1
            if cells > MAX_SHEET_CELLS:
                break
            table.cell(attributes, bool(closed), match.start())
    if tables > MAX_SHEETS or cells > MAX_SHEET_CELLS:
        raise SheetError(
            f"{where}: {tables:,} sheets and {cells:,} cells, more than a workbook of cards "
            f"has (at most {MAX_SHEETS} sheets, {MAX_SHEET_CELLS:,} cells); split it"
        )
