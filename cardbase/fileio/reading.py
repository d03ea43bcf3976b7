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

from cardbase.errors import SheetError
from cardbase.limits import MAX_COLUMNS, MAX_CSV_FILE, MAX_WORKBOOK_FILE
from cardbase.text import shown

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods")
TEXT_SUFFIXES = (".csv", ".tsv", ".txt")
ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # old .xls, and the wrapper of password-protected workbooks


HEAD_ROWS = 30  # rows read ahead, where a header row is looked for
STDIN = Path("-")  # `cardbase import -`: a CSV file on standard input


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
    text_file = path == STDIN or path.suffix.lower() in TEXT_SUFFIXES
    if only is not None and text_file:  # it used to be ignored without a word
        name = "standard input" if path == STDIN else shown(path)
        raise SheetError(
            f"{name}: --sheet is for workbooks; a CSV file is one table, so leave it out"
        )
    if path == STDIN:
        rows = iter(read_csv(path, read_stdin()))
        yield SheetStream("standard input", list(islice(rows, HEAD_ROWS)), rows)
        return
    data = _check_file(path)
    if path.suffix.lower() in TEXT_SUFFIXES:
        rows = iter(read_csv(path, data))
        yield SheetStream(path.stem, list(islice(rows, HEAD_ROWS)), rows)
        return
    yield from _stream_workbook(path, data, only)


def _check_file(path: Path) -> bytes:
    """The file's bytes, once nothing in them can cost a parser unbounded time or memory.

    Only a regular file within its kind's size cap is read; a workbook's parts are then
    checked against `cardbase.limits` (`cardbase.fileio.zipped`, `cardbase.fileio.oldxls`).
    """
    from cardbase.fileio.bounded import read_bounded

    suffix = path.suffix.lower()
    if suffix not in WORKBOOK_SUFFIXES + TEXT_SUFFIXES:
        raise SheetError(
            f"{shown(path)}: unknown kind of file '{suffix or 'no extension'}'; "
            f"use {', '.join(WORKBOOK_SUFFIXES + TEXT_SUFFIXES)}"
        )
    text = suffix in TEXT_SUFFIXES
    data = read_bounded(
        path, MAX_CSV_FILE if text else MAX_WORKBOOK_FILE, "CSV file" if text else "workbook"
    )
    if not data:
        raise SheetError(f"{shown(path)}: the file is empty")
    if text:
        return data
    if suffix in (".xlsx", ".xlsm", ".ods") and data.startswith(OLE_MAGIC):
        raise SheetError(
            f"{shown(path)}: the workbook is password-protected; save a copy without a password"
        )
    if suffix in (".xlsx", ".xlsm", ".ods") and not data.startswith(ZIP_MAGIC):
        raise SheetError(
            f"{shown(path)}: not a {suffix} workbook (the file is damaged or of another kind)"
        )
    if data.startswith(ZIP_MAGIC):
        from cardbase.fileio.zipped import check_zipped

        check_zipped(data, shown(path))
    elif data.startswith(OLE_MAGIC):
        from cardbase.fileio.oldxls import check_xls

        check_xls(data, shown(path))
    else:
        raise SheetError(
            f"{shown(path)}: not a {suffix} workbook (the file is damaged or of another kind)"
        )
    return data


def _stream_workbook(path: Path, data: bytes, only: str | None) -> Iterator[SheetStream]:
    import python_calamine as calamine

    with _calamine_errors(path):
        # The bytes checked, not the path again: what calamine parses is what was checked.
        book = calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        names = book.sheet_names
    del data
    if only is not None:
        named = [name for name in names if name.casefold() == only.strip().casefold()]
        if not named:
            raise SheetError(
                f"{shown(path)}: no sheet named '{only}'; its sheets are {', '.join(names)}"
            )
        names = named[:1]
    for name in names:
        with _calamine_errors(path):
            rows = book.get_sheet_by_name(name).iter_rows()  # the parse: it frees the GIL
            head = list(islice(rows, HEAD_ROWS))
        yield SheetStream(name, head, _guarded(rows, path))


def read_stdin() -> bytes:
    """Standard input's bytes, at most a CSV file's cap: what `cardbase import -` reads."""
    import sys

    from cardbase.fileio.bounded import check_size

    if sys.stdin is None or sys.stdin.isatty():
        raise SheetError(
            "standard input: nothing is piped in; give a file, or pipe CSV in "
            "(cardbase export - | cardbase import -)"
        )
    stream = getattr(sys.stdin, "buffer", None)
    data = stream.read(MAX_CSV_FILE + 1) if stream is not None else _text_bytes(sys.stdin)
    check_size("standard input", len(data), MAX_CSV_FILE, "CSV file", read=True)
    if not data:
        raise SheetError("standard input: it is empty; pipe a CSV file in")
    return data


def _text_bytes(stream: Any) -> bytes:
    """A text stream's content as bytes (test runners replace stdin with one)."""
    return str(stream.read(MAX_CSV_FILE + 1)).encode("utf-8")


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
            f"{shown(path)}: the workbook is password-protected; save a copy without a password"
        ) from exc
    except (calamine.CalamineError, ValueError, OSError) as exc:
        reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise SheetError(f"{shown(path)}: not a readable spreadsheet ({reason})") from exc


def decode(raw: bytes, source: str) -> str:
    """Text from bytes: a BOM decides; else UTF-8; else Windows-1252, as Excel saves CSV.

    A NUL anywhere is refused: no text file has one, and a CSV reader would take it as data.
    """
    for bom, encoding in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                text = raw.decode(encoding)
            except UnicodeDecodeError as exc:
                raise SheetError(f"{source}: not valid {encoding} text (byte {exc.start})") from exc
            if "\x00" in text:
                raise _nul(source, text.index("\x00"))
            return text
    if b"\x00" in raw:
        raise _nul(source, raw.index(b"\x00"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        _one_encoding(raw, source)
        return raw.decode("cp1252", errors="replace")
    return text


def _one_encoding(raw: bytes, source: str) -> None:
    """Refuse a file whose lines are in two encodings, some UTF-8 and some Windows-1252.

    Such a file comes of appending to a sheet from two programs. Read whole as either, one
    kind of line would be wrong without a word ("cafÃ©", or "caf\ufffd"), and guessing a line
    at a time could read a name either way: so it is refused, naming one line of each, and
    the fix (save it again as UTF-8) is one step in any editor. A file that is valid UTF-8
    throughout is taken as it says, "cafÃ©" included: that may be what a collector typed, and
    cardbase's own exports must read back as they were written.
    """
    utf8 = latin = 0
    for number, line in enumerate(raw.splitlines(), start=1):
        if line.isascii():
            continue
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            latin = latin or number
        else:
            utf8 = utf8 or number
        if utf8 and latin:
            raise SheetError(
                f"{source}: line {utf8} is UTF-8 text but line {latin} is Windows-1252 "
                "(Latin-1): the file mixes two encodings, so some names would be misread; "
                "open it in an editor and save it again as UTF-8"
            )


def _nul(source: str, at: int) -> SheetError:
    return SheetError(
        f"{source}: not a text file (a NUL byte at byte {at:,}); "
        "is it a workbook with the wrong extension?"
    )


def read_csv(path: Path, raw: bytes | None = None) -> list[list[Any]]:
    """The rows of a CSV file (`raw`, its bytes, if already read), none wider than the limit."""
    from cardbase.fileio.bounded import read_bounded

    source = "standard input" if path == STDIN else shown(path)
    if raw is None:
        raw = read_bounded(path, MAX_CSV_FILE, "CSV file")
    text = decode(raw, source)
    del raw
    lines = text.splitlines(keepends=True)
    delimiter = None
    if lines and lines[0].strip().lower().startswith("sep=") and len(lines[0].strip()) == 5:
        delimiter = lines[0].strip()[4]
        lines = lines[1:]
    body = "".join(lines)
    del lines, text
    if delimiter is None:
        delimiter = _sniff(body[:8192], path)
    rows: list[list[Any]] = []
    try:
        for row in csv.reader(io.StringIO(body, newline=""), delimiter=delimiter):
            if len(row) > MAX_COLUMNS:
                raise SheetError(
                    f"{source}: row {len(rows) + 1} has {len(row):,} columns, more than a "
                    f"sheet of cards has (at most {MAX_COLUMNS}); is it the right file?"
                )
            rows.append(row)
    except csv.Error as exc:
        raise SheetError(f"{source}: not a readable CSV file ({exc})") from exc
    return rows


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
