"""Files cardbase writes, and the values that go into them.

Every command that writes a file goes through `output_file`, so they all refuse the same
things in the same words, and none can leave a half-written file behind: the writer fills a
temporary file beside the target, which replaces the target only once it is complete. A
failed, interrupted or killed export therefore leaves the old file as it was (or no file),
and what the system refuses (a missing folder, no permission, a full disk) is one
`SheetError` line naming the file, never a traceback.

Every cell goes through `xlsx_cell` (workbooks) or `safe_text` (CSV): a spreadsheet must
show what a card, deck or player is called, never evaluate it, and a stray control
character in catalogue text must not stop an export.
"""

from __future__ import annotations

import csv
import errno
import os
import re
import secrets
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.errors import SheetError
from cardbase.limits import MAX_CELL
from cardbase.text import shown

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# The characters an xlsx file cannot hold (openpyxl's ILLEGAL_CHARACTERS_RE; a test keeps
# the two equal): control characters other than tab, line feed and carriage return.
ILLEGAL_CHARACTERS = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")
REPLACEMENT = "\ufffd"
# Text openpyxl would store as something other than text: a formula, or an error value.
NOT_TEXT_WHEN_PLAIN = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A")
WHY_NOT = {
    errno.ENOENT: "its folder does not exist",
    errno.EACCES: "permission denied; choose a folder you can write to",
    errno.EPERM: "permission denied; choose a folder you can write to",
    errno.ENOSPC: "the disk is full; free some space and try again",
    errno.EDQUOT: "the disk quota is used up; free some space and try again",
    errno.EISDIR: "it is a folder; give a file name",
    errno.EROFS: "the disk is read-only",
}


class Table(NamedTuple):
    """One sheet to write: its name, header and rows."""

    name: str
    headers: Sequence[str]
    rows: Iterable[Sequence[Any]]
    # How the sheet prints: wide tables across the page, narrow ones down it.
    landscape: bool = False


# Column widths (in characters) past which a sheet prints landscape; a sheet printed by
# people (an export, a registration sheet) is fitted to the page's width, never cut into
# bands of columns, and repeats its header row on every page.
LANDSCAPE_FROM = 90
MAX_FITTED_WIDTH = 60  # a long note wraps to the next line rather than widen a column
# Headers of columns that hold numbers (exports, trade lists, totals).
NUMBER_HEADERS = frozenset(
    {"Series", "Number", "Cost", "Attack", "Defense", "Nonfoil", "Foil", "Count", "Copies"}
)
PAPER_SIZES = {"letter": "1", "a4": "9"}  # the codes of ECMA-376 (openpyxl PAPERSIZE_*)


def print_setup(
    sheet: Any,
    *,
    landscape: bool,
    title_rows: str | None = "1:1",
    paper: str = "a4",
    gridlines: bool = True,
) -> None:
    """Fit `sheet` to the width of one page (as many pages down as it needs), landscape or
    portrait, with `title_rows` repeated at the top of every page."""
    setup = sheet.page_setup
    setup.orientation = "landscape" if landscape else "portrait"
    setup.paperSize = PAPER_SIZES.get(paper, PAPER_SIZES["a4"])
    setup.fitToWidth = 1
    setup.fitToHeight = 0  # as many pages down as the rows need
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.print_options.gridLines = gridlines  # a printed table is read along its lines
    if title_rows:
        sheet.print_title_rows = title_rows


def check_target(path: Path, force: bool, suffixes: Sequence[str] | None) -> None:
    """Refuse, before any work, a file that `output_file` would refuse or fail to write."""
    try:
        _check_target(path, force, suffixes)
    except OSError as exc:  # a folder that may not be looked into (Permission denied)
        raise SheetError(
            f"{shown(path)}: cannot write the file ({exc.strerror or exc}); check the "
            "folder's permissions or choose another"
        ) from None


def _check_target(path: Path, force: bool, suffixes: Sequence[str] | None) -> None:
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise SheetError(
            f"{shown(path)}: can write {' or '.join(suffixes)}, "
            f"not '{shown(path.suffix) or 'no extension'}'"
        )
    if path.is_dir():
        raise SheetError(f"{shown(path)}: is a folder; give a file name")
    if path.exists() and not force:
        raise SheetError(f"{shown(path)}: the file exists; add --force to overwrite it")
    if not path.parent.is_dir():
        raise SheetError(
            f"{shown(path)}: the folder {shown(path.parent)} does not exist; "
            "create it or choose another"
        )


@contextmanager
def output_file(
    path: Path, *, force: bool, suffixes: Sequence[str] | None = None
) -> Iterator[Path]:
    """The temporary file to write `path`'s content into; it becomes `path` on success.

    On any failure, KeyboardInterrupt included, the temporary file is removed and `path` is
    untouched; a kill can leave only a hidden ``.NAME.*.partial`` file beside it.
    """
    check_target(path, force, suffixes)
    final = Path(os.path.realpath(path))  # through a symlink, as writing in place would go
    temporary = final.with_name(f".{final.name[:40]}.{secrets.token_hex(6)}.partial")
    try:
        # Created here, not by the writer, so that it takes the umask's permissions.
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        raise cannot_write(path, exc) from exc
    try:
        yield temporary
        _flush_to_disk(temporary)
        os.replace(temporary, final)
    except OSError as exc:
        _close_abandoned(exc)
        raise cannot_write(path, exc) from exc
    finally:
        with suppress(OSError):
            temporary.unlink(missing_ok=True)


def _close_abandoned(exc: BaseException) -> None:
    """Close every zip file the failed write left open (openpyxl's `Workbook.save` leaves its
    own open when a write fails, a full disk's ENOSPC most often).

    Left open, the zip file is closed when the error is collected, after the one-line error
    is printed: its close writes the zip's directory, fails again on the same full disk, and
    Python prints "Exception ignored in: ZipFile.__del__" and a traceback. The writers are
    openpyxl's and several modules', so the frames the error passed through are searched
    here, where every file cardbase writes goes, rather than in each of them.
    """
    from zipfile import ZipFile

    trace = exc.__traceback__
    while trace is not None:
        for value in list(trace.tb_frame.f_locals.values()):
            if isinstance(value, ZipFile):
                close_quietly(value)
        trace = trace.tb_next


def close_quietly(archive: Any) -> None:
    """Close a zip file whose writing failed; the close's own error is the same one again.

    The file beneath is closed even when the close fails (`zipfile.ZipFile.close` closes it
    in a ``finally``), so nothing is left for the garbage collector to retry.
    """
    with suppress(Exception):
        archive.close()
    handle = getattr(archive, "fp", None)
    if handle is not None:
        with suppress(Exception):
            handle.close()


def _flush_to_disk(path: Path) -> None:
    """Make the content durable before the rename makes it visible, so that a power cut
    never leaves an empty file where a good one was (and a late disk-full error shows)."""
    handle = os.open(path, os.O_RDWR)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def cannot_write(path: Path, exc: OSError) -> SheetError:
    reason = WHY_NOT.get(exc.errno or 0) or exc.strerror or str(exc)
    return SheetError(f"{shown(path)}: cannot write the file ({reason}); nothing was written")


def write_text(path: Path, text: str, *, force: bool, suffixes: Sequence[str] = (".txt",)) -> None:
    with output_file(path, force=force, suffixes=suffixes) as temporary:
        temporary.write_text(text, encoding="utf-8")


def safe_text(value: Any) -> Any:
    """Text that a spreadsheet must show, never evaluate (formula injection): leading ' added.

    CSV has no cell types, so the apostrophe, which Excel and LibreOffice hide, is the only
    way to say "text"; the importer's `unsafe_text` takes it off again.
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def xlsx_cell(sheet: Any, value: Any, font: Any = None) -> Any:
    """A value for `sheet.append`, in write-only or ordinary mode: text always stays text.

    openpyxl stores text starting with '=' as a formula and '#N/A' and the like as error
    values; those become string cells. Characters a workbook cannot hold become U+FFFD
    rather than an IllegalCharacterError, and text is cut to Excel's limit.
    """
    if isinstance(value, str):
        value = str(value)  # a str subclass, such as an enum, as plain text
        if not value.isprintable():  # cheap: almost every cell is, and skips the pattern
            # A file name's bytes that are not UTF-8 as \xff: a workbook cannot hold them.
            value = ILLEGAL_CHARACTERS.sub(REPLACEMENT, shown(value))
        value = value[:MAX_CELL]
        if font is None and not value.startswith("=") and value not in NOT_TEXT_WHEN_PLAIN:
            return value
    elif font is None:
        return value
    from openpyxl.cell import WriteOnlyCell

    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, str):
        cell.data_type = "s"
    if font is not None:
        cell.font = font
    return cell


def write_csv(path: Path, table: Table, bom: bool = False) -> int:
    count = 0
    with path.open("w", newline="", encoding="utf-8-sig" if bom else "utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(table.headers)
        for row in table.rows:
            writer.writerow([safe_text(value) for value in row])
            count += 1
    return count


def write_xlsx(path: Path, tables: Sequence[Table], widths: dict[str, int] | None = None) -> int:
    """Write sheets with a bold frozen header and an autofilter; return the first sheet's rows.

    Write-only mode streams rows to disk, so a 100k-row export stays small in memory.
    """
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    try:
        counts = [_write_sheet(book, table, widths or {}) for table in tables]
        save_workbook(book, path)
    except BaseException:
        _abandon(book)
        raise
    return counts[0] if counts else 0


def save_workbook(book: Any, path: Path) -> None:
    """`book.save(path)`, with its zip file closed whatever happens (`close_quietly`): the
    zip file openpyxl opens itself is left open when a write fails, and its later close
    prints "Exception ignored ... OSError" after cardbase's one-line error."""
    from datetime import UTC, datetime
    from zipfile import ZIP_DEFLATED, ZipFile

    from openpyxl.writer.excel import ExcelWriter

    if book.write_only and not book.worksheets:
        book.create_sheet()  # as Workbook.save does: a workbook has at least one sheet
    book.properties.modified = datetime.now(tz=UTC).replace(tzinfo=None)
    archive = ZipFile(path, "w", ZIP_DEFLATED, allowZip64=True)
    try:
        ExcelWriter(book, archive).save()  # writes the parts, then closes the archive
    finally:
        close_quietly(archive)


def _write_sheet(book: Any, table: Table, widths: dict[str, int]) -> int:
    from openpyxl.utils import get_column_letter

    sheet = book.create_sheet(table.name)
    rows = table.rows
    if isinstance(rows, list):  # a small table (totals): its widest cells set its widths
        widths = {**_fitted_widths(table.headers, rows), **widths}
    total = 0
    for position, header in enumerate(table.headers, start=1):
        width = widths.get(header, max(10, len(header) + 2))
        sheet.column_dimensions[get_column_letter(position)].width = width
        total += width
    print_setup(sheet, landscape=table.landscape or total > LANDSCAPE_FROM)
    sheet.freeze_panes = "A2"
    sheet.append(_header_cells(sheet, table.headers))
    count = 0
    for row in rows:
        # Only text needs xlsx_cell (numbers and blanks go as they are): half the calls.
        sheet.append([xlsx_cell(sheet, v) if isinstance(v, str) else v for v in row])
        count += 1
    last = get_column_letter(max(1, len(table.headers)))
    sheet.auto_filter.ref = f"A1:{last}{count + 1}"
    return count


def _header_cells(sheet: Any, headers: Sequence[str]) -> list[Any]:
    """Bold headers; a number column's right-aligned, over its right-aligned numbers, so a
    printed "Cost" heads its column rather than the text column to its left."""
    from openpyxl.styles import Alignment, Font

    bold, right = Font(bold=True), Alignment(horizontal="right")
    cells = []
    for header in headers:
        cell = xlsx_cell(sheet, header, bold)
        if header in NUMBER_HEADERS:
            cell.alignment = right
        cells.append(cell)
    return cells


def _fitted_widths(headers: Sequence[str], rows: list[Sequence[Any]]) -> dict[str, int]:
    """Widths that show every cell of a small table whole ("Distinct cards owned" was cut
    to "Distinct c" in a ten-character column)."""
    widths = {}
    for position, header in enumerate(headers):
        cells = [len(str(row[position])) for row in rows if position < len(row)]
        widths[header] = min(max([len(header), *cells]) + 2, MAX_FITTED_WIDTH)
    return widths


def _abandon(book: Any) -> None:
    """Close the sheets of a workbook that failed half-way: a sheet left open prints
    "Exception ignored ... Traceback" when it is collected, after the one-line error."""
    for sheet in book.worksheets:
        with suppress(Exception):
            sheet.close()
