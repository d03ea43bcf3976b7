"""Spreadsheet files in: rows of plain values, nothing about cards (`writing` is the way out).

Reading uses python-calamine (xlsx, xlsm, xls, ods; about ten times faster than openpyxl
on large sheets, and it reads formula cells as their cached values) and the csv module
(with BOM and encoding detection, Excel's ``sep=`` line and delimiter sniffing). Anything
that is not a readable spreadsheet becomes one `SheetError` naming the file.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.errors import CardbaseError

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods")
TEXT_SUFFIXES = (".csv", ".tsv", ".txt")
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # old .xls, and the wrapper of password-protected workbooks


class SheetError(CardbaseError):
    """A file that cannot be read as a spreadsheet, or cannot be written (any file we write)."""


HEAD_ROWS = 30  # rows read ahead, where a header row is looked for


class Sheet(NamedTuple):
    name: str
    rows: list[list[Any]]


class SheetStream(NamedTuple):
    """A sheet read as it is used: its first rows, then an iterator over the rest.

    A 100k-row import never holds every raw row at once, only the rows it has made of them.
    """

    name: str
    head: list[list[Any]]
    rest: Iterator[list[Any]]


def read_sheets(path: Path, only: str | None = None) -> list[Sheet]:
    """Every sheet of a workbook (or the one CSV table), as lists of cell values."""
    return [Sheet(s.name, [*s.head, *s.rest]) for s in stream_sheets(path, only)]


def stream_sheets(path: Path, only: str | None = None) -> Iterator[SheetStream]:
    """The sheets of a workbook (or the one CSV table), each parsed when it is reached."""
    _check_file(path)
    if path.suffix.lower() in TEXT_SUFFIXES:
        rows = iter(read_csv(path))
        yield SheetStream(path.stem, list(islice(rows, HEAD_ROWS)), rows)
        return
    yield from _stream_workbook(path, only)


def _check_file(path: Path) -> None:
    """Refuse, in one line, what cannot be a spreadsheet before any parser sees it."""
    suffix = path.suffix.lower()
    try:
        head = path.open("rb").read(8)
    except OSError as exc:
        raise SheetError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc
    if not head:
        raise SheetError(f"{path}: the file is empty")
    if suffix in TEXT_SUFFIXES:
        return
    if suffix not in WORKBOOK_SUFFIXES:
        raise SheetError(
            f"{path}: unknown kind of file '{suffix or 'no extension'}'; "
            f"use {', '.join(WORKBOOK_SUFFIXES + TEXT_SUFFIXES)}"
        )
    if suffix in (".xlsx", ".xlsm", ".ods") and head.startswith(OLE_MAGIC):
        raise SheetError(
            f"{path}: the workbook is password-protected; save a copy without a password"
        )
    if suffix in (".xlsx", ".xlsm", ".ods") and not head.startswith(ZIP_MAGIC):
        raise SheetError(
            f"{path}: not a {suffix} workbook (the file is damaged or of another kind)"
        )


def _stream_workbook(path: Path, only: str | None) -> Iterator[SheetStream]:
    import python_calamine as calamine

    with _calamine_errors(path):
        book = calamine.CalamineWorkbook.from_path(str(path))
        names = book.sheet_names
    if only is not None:
        if only not in names:
            raise SheetError(f"{path}: no sheet named '{only}'; its sheets are {', '.join(names)}")
        names = [only]
    for name in names:
        with _calamine_errors(path):
            rows = book.get_sheet_by_name(name).iter_rows()  # the parse: it frees the GIL
            head = list(islice(rows, HEAD_ROWS))
        yield SheetStream(name, head, _guarded(rows, path))


def _guarded(rows: Iterator[list[Any]], path: Path) -> Iterator[list[Any]]:
    with _calamine_errors(path):
        yield from rows


@contextmanager
def _calamine_errors(path: Path) -> Iterator[None]:
    """calamine's errors, and the odd ValueError, as one `SheetError` line naming the file."""
    import python_calamine as calamine

    try:
        yield
    except SheetError:
        raise
    except calamine.PasswordError as exc:
        raise SheetError(
            f"{path}: the workbook is password-protected; save a copy without a password"
        ) from exc
    except (calamine.CalamineError, ValueError, OSError) as exc:
        reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise SheetError(f"{path}: not a readable spreadsheet ({reason})") from exc


def decode(raw: bytes, source: str) -> str:
    """Text from bytes: a BOM decides; else UTF-8; else Windows-1252, as Excel saves CSV."""
    for bom, encoding in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError as exc:
                raise SheetError(f"{source}: not valid {encoding} text (byte {exc.start})") from exc
    if b"\x00" in raw[:4096]:
        raise SheetError(
            f"{source}: not a text file (it has NUL bytes); "
            "is it a workbook with the wrong extension?"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def read_csv(path: Path) -> list[list[Any]]:
    source = str(path)
    text = decode(path.read_bytes(), source)
    lines = text.splitlines(keepends=True)
    delimiter = None
    if lines and lines[0].strip().lower().startswith("sep=") and len(lines[0].strip()) == 5:
        delimiter = lines[0].strip()[4]
        lines = lines[1:]
    body = "".join(lines)
    if delimiter is None:
        delimiter = _sniff(body[:8192], path)
    try:
        return [row for row in csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)]
    except csv.Error as exc:
        raise SheetError(f"{source}: not a readable CSV file ({exc})") from exc


def _sniff(sample: str, path: Path) -> str:
    if path.suffix.lower() == ".tsv":
        return "\t"
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def unsafe_text(value: Any) -> Any:
    """Undo `writing.safe_text` when reading a sheet we (or a careful tool) wrote."""
    if isinstance(value, str) and value.startswith("'") and value[1:2] and value[1] in "=+-@\t\r":
        return value[1:]
    return value
