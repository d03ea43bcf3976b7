"""What an old .xls workbook claims, checked before calamine reads it.

An .xls is a little file system (OLE compound file: sectors chained by a table) holding a
"Workbook" stream of BIFF records. calamine follows the chains as they are written, so a
chain that loops makes it read for ever and grow without limit, and it reserves room for
what a sheet's DIMENSIONS record claims (a few bytes claiming four billion rows abort the
process), then lays every cell out on a grid from A1 to the farthest cell, with a shared
text copied for each cell that uses it. So the chains are followed here first, with loops
and out-of-range sectors refused, and the Workbook stream's records checked against
`cardbase.limits`: sheets, claimed and real cell positions, and text.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Callable, Iterator

from cardbase.errors import SheetError
from cardbase.limits import (
    MAX_COLUMNS,
    MAX_SHEET_CELLS,
    MAX_SHEET_ROWS,
    MAX_SHEET_TEXT,
    MAX_SHEETS,
)

ENDOFCHAIN, RESERVED = 0xFFFFFFFE, 0xFFFFFFFA
STREAM_NAMES = ("Workbook", "Book", "WORKBOOK", "BOOK")  # calamine's order
CELL_RECORDS = {0x0203, 0x0204, 0x0205, 0x027E, 0x00FD, 0x00D6, 0x0006}
BOF, EOF, CONTINUE, BOUNDSHEET, SST = 0x0809, 0x000A, 0x003C, 0x0085, 0x00FC
DIMENSIONS, MULRK, LABELSST = 0x0200, 0x00BD, 0x00FD
MINI_SECTOR, MINI_CUTOFF = 64, 4096


def check_xls(data: bytes, source: str) -> None:
    """Refuse an .xls whose file structure or records would cost calamine unbounded memory."""
    stream = _workbook_stream(data, source)
    positions, texts = _globals(stream, source)
    if len(positions) > MAX_SHEETS:
        raise SheetError(
            f"{source}: {len(positions):,} sheets, more than a workbook of cards has "
            f"(at most {MAX_SHEETS}); split the workbook"
        )
    for position in positions:
        if position >= len(stream):
            raise _damaged(source)
        _check_sheet(stream, position, texts, source)


def _damaged(source: str) -> SheetError:
    return SheetError(
        f"{source}: not a readable spreadsheet (a damaged or crafted .xls file); "
        "open it in your spreadsheet program and save it as .xlsx"
    )


def _workbook_stream(data: bytes, source: str) -> bytes:
    """The Workbook stream, read as calamine reads it, but refusing loops and stray sectors."""
    if len(data) < 512:
        raise _damaged(source)
    shift, fat_sectors, first_dir = struct.unpack_from("<H12xII", data, 30)
    if shift not in (9, 12):
        raise _damaged(source)
    size = 1 << shift
    sectors = len(data) // size - 1
    (odd_difat_length,) = struct.unpack_from("<I", data, 62)  # calamine reserves this many
    mini_fat_start, mini_fat_sectors, difat_start = struct.unpack_from("<III", data, 60)
    if fat_sectors > sectors or mini_fat_sectors > sectors or odd_difat_length >= 1 << 26:
        raise _damaged(source)

    def sector(index: int) -> bytes:
        if index >= sectors:
            raise _damaged(source)
        return data[(index + 1) * size : (index + 2) * size]

    difat = list(struct.unpack_from("<109I", data, 76))
    seen: set[int] = set()
    index = difat_start
    while index < RESERVED:  # calamine's walk: the last entry of each sector is the next
        if index in seen:
            raise _damaged(source)
        seen.add(index)
        difat += struct.unpack(f"<{size // 4}I", sector(index))
        index = difat.pop()
    fat: list[int] = []
    for index in difat:
        if index < 0xFFFFFFFC:
            fat += struct.unpack(f"<{size // 4}I", sector(index))
    chain = _Chains(fat, sector, source)
    directory = chain.read(first_dir, None)
    entries = [_entry(directory[at : at + 128], shift) for at in range(0, len(directory), 128)]
    if not entries:
        raise _damaged(source)
    wanted = next((e for name in STREAM_NAMES for e in entries if e[0] == name), None)
    if wanted is None:
        raise SheetError(f"{source}: no Workbook stream; not an Excel .xls workbook")
    _, start, length = wanted
    if length > len(data):
        raise _damaged(source)
    if length >= MINI_CUTOFF:
        return chain.read(start, length)
    mini_fat_bytes = (
        chain.read(mini_fat_start, mini_fat_sectors * size) if mini_fat_sectors else b""
    )
    mini_fat = list(
        struct.unpack(
            f"<{len(mini_fat_bytes) // 4}I", mini_fat_bytes[: len(mini_fat_bytes) // 4 * 4]
        )
    )
    ministream = chain.read(entries[0][1], min(entries[0][2], len(data)))
    mini = _Chains(mini_fat, lambda i: ministream[i * MINI_SECTOR : (i + 1) * MINI_SECTOR], source)
    return mini.read(start, length)


def _entry(raw: bytes, shift: int) -> tuple[str, int, int]:
    """A directory entry's (name, first sector, length)."""
    name = raw[:64].decode("utf-16-le", "replace").split("\x00", 1)[0]
    start = struct.unpack_from("<I", raw, 116)[0] if len(raw) >= 120 else ENDOFCHAIN
    length = 0
    if len(raw) >= 128:
        length = struct.unpack_from("<I" if shift == 9 else "<Q", raw, 120)[0]
    return name, start, length


class _Chains:
    """Sector chains through one allocation table, each refused if it loops or strays."""

    def __init__(self, table: list[int], sector: Callable[[int], bytes], source: str) -> None:
        self.table, self.sector, self.source = table, sector, source

    def read(self, index: int, length: int | None) -> bytes:
        out = bytearray()
        seen: set[int] = set()
        while index != ENDOFCHAIN and (length is None or len(out) < length):
            if index in seen or index >= len(self.table):
                raise _damaged(self.source)
            seen.add(index)
            out += self.sector(index)
            index = self.table[index]
        return bytes(out if length is None else out[:length])


def _records(stream: bytes, at: int, source: str) -> Iterator[tuple[int, list[bytes]]]:
    """(type, [data, continuations...]) from `at`, as calamine joins CONTINUE records."""
    end = len(stream)
    while at + 4 <= end:
        kind, length = struct.unpack_from("<HH", stream, at)
        if at + 4 + length > end:
            raise _damaged(source)
        parts = [stream[at + 4 : at + 4 + length]]
        at += 4 + length
        while at + 4 < end and struct.unpack_from("<H", stream, at)[0] == CONTINUE:
            (length,) = struct.unpack_from("<H", stream, at + 2)
            if at + 4 + length > end:
                raise _damaged(source)
            parts.append(stream[at + 4 : at + 4 + length])
            at += 4 + length
        yield kind, parts


def _globals(stream: bytes, source: str) -> tuple[list[int], list[int]]:
    """Where each sheet starts, and the size in UTF-8 of each shared text (at most)."""
    positions: list[int] = []
    texts: list[int] = []
    for kind, parts in _records(stream, 0, source):
        if kind == BOUNDSHEET and len(parts[0]) >= 4:
            positions.append(struct.unpack_from("<I", parts[0])[0])
        elif kind == SST:
            texts = _shared_text_sizes(parts, source)
        elif kind == EOF:
            break
    return positions, texts


def _shared_text_sizes(parts: list[bytes], source: str) -> list[int]:
    """UTF-8 bytes each shared string can make: three per character, at most."""
    data = b"".join(parts)
    starts = [0]
    for part in parts:
        starts.append(starts[-1] + len(part))
    boundaries = set(starts[1:-1])
    sizes: list[int] = []
    at = 8  # after the total and unique counts
    while at + 3 <= len(data):
        length, flags = struct.unpack_from("<HB", data, at)
        at += 3
        runs = extra = 0
        if flags & 0x08:
            (runs,) = struct.unpack_from("<H", data, at) if at + 2 <= len(data) else (0,)
            at += 2
        if flags & 0x04:
            (extra,) = struct.unpack_from("<I", data, at) if at + 4 <= len(data) else (0,)
            at += 4
        wide = flags & 0x01
        left = length
        while left > 0 and at < len(data):  # characters; a CONTINUE restarts with a flag byte
            following = bisect.bisect_right(starts, at)
            stop = starts[following] if following < len(starts) else len(data)
            count = min(left, (stop - at) // (2 if wide else 1))
            at += count * (2 if wide else 1)
            left -= count
            if left and at in boundaries:
                wide = data[at] & 0x01
                at += 1
            elif left and count == 0:
                raise SheetError(f"{source}: damaged shared strings in the .xls file")
        at += 4 * runs + extra
        sizes.append(3 * length)
    return sizes


def _check_sheet(stream: bytes, position: int, texts: list[int], source: str) -> None:
    """One sheet's claimed and real cell positions and its text, against the limits."""
    rows = columns = text = depth = 0
    seen_bof = False
    for kind, parts in _records(stream, position, source):
        data = parts[0]
        if depth:  # a chart or other substream inside the sheet: calamine skips it
            depth += (kind == BOF) - (kind == EOF)
            continue
        if kind == BOF:
            depth, seen_bof = (1 if seen_bof else 0), True
        elif kind == EOF:
            break
        elif kind == DIMENSIONS and len(data) in (10, 14):
            first_row, last_row, first_column, last_column = struct.unpack_from(
                "<HHHH" if len(data) == 10 else "<IIHH", data
            )
            if first_row > last_row or first_column > last_column:
                raise _damaged(source)
            _check_area(source, last_row, last_column, "claims cells up to")
        elif kind in CELL_RECORDS and len(data) >= 4:
            row, column = struct.unpack_from("<HH", data)
            rows, columns = max(rows, row + 1), max(columns, column + 1)
            if kind == LABELSST and len(data) >= 10:
                index = struct.unpack_from("<I", data, 6)[0]
                text += texts[index] if index < len(texts) else 0
        elif kind == MULRK and len(data) >= 6:
            (row,), (last,) = struct.unpack_from("<H", data), struct.unpack_from("<H", data[-2:])
            rows, columns = max(rows, row + 1), max(columns, last + 1)
    _check_area(source, rows, columns, "has cells up to")
    if text > MAX_SHEET_TEXT:
        raise SheetError(
            f"{source}: a sheet's cells hold up to {text:,} bytes of text, each shared text "
            f"counted once for every cell that uses it (at most {MAX_SHEET_TEXT:,}); "
            "a sheet of cards holds far less"
        )


def _check_area(source: str, rows: int, columns: int, what: str) -> None:
    """Refuse a sheet whose grid from A1 (calamine lays every sheet out whole) is too large."""
    if rows > MAX_SHEET_ROWS or columns > MAX_COLUMNS or rows * columns > MAX_SHEET_CELLS:
        raise SheetError(
            f"{source}: a sheet {what} row {rows:,}, column {columns:,}: past column "
            f"{MAX_COLUMNS} (IV), row {MAX_SHEET_ROWS:,} or {MAX_SHEET_CELLS:,} cells in all; "
            "no collection reaches that far: delete what is far away and save the workbook again"
        )
