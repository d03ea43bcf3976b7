"""What a zipped workbook (.xlsx, .xlsm, .ods) claims, checked before calamine reads it.

calamine trusts a workbook, and a few kilobytes can make it allocate without limit: a cell at
XFD1048576 makes it size a grid of 549 GB and abort the whole process; a 3 MB file can unpack
to gigabytes of text; a shared text used by a million cells is copied a million times. So
the parts of a zipped workbook are checked here first: how many there are, their packing
method, their sizes and compression ratios as the zip directory states them, then each part
unpacked on its own (never past its stated size, itself capped, so a lying directory is
caught too) and scanned (`cardbase.fileio.sheetxml`) for the cells and text it would make.
Every refusal is one `SheetError` naming the file and the part, with the fix.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import PurePosixPath

from cardbase.errors import SheetError
from cardbase.fileio import sheetxml
from cardbase.fileio.bounded import check_size
from cardbase.limits import (
    MAX_WORKBOOK_PART,
    MAX_WORKBOOK_PARTS,
    MAX_WORKBOOK_UNPACKED,
    MAX_ZIP_RATIO,
)

RATIO_FROM = 1_000_000  # parts smaller than this may compress as well as they like
STORED, DEFLATED = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED
LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature, then name and extra field lengths
PIECE = 1 << 20  # packed bytes fed to zlib at a time


def check_zipped(data: bytes, source: str) -> None:
    """Refuse a zipped workbook whose parts would cost calamine unbounded memory or time."""
    infos = _directory(data, source)
    names = {info.filename for info in infos}
    if "xl/workbook.xml" not in names and "content.xml" not in names:
        kind = "an .xlsb workbook" if "xl/workbook.bin" in names else "a zip file"
        raise SheetError(
            f"{source}: {kind}, not an .xlsx or .ods workbook; "
            "save it from your spreadsheet program as .xlsx"
        )
    _check_claims(infos, source)
    shared = [i for i in infos if PurePosixPath(i.filename).name.lower() == "sharedstrings.xml"]
    if len(shared) > 1:
        raise SheetError(f"{source}: two shared-text parts; the file is damaged or crafted")
    texts = sheetxml.SharedTexts.none()
    if shared:
        texts = sheetxml.SharedTexts.read(
            _unpack(data, shared[0], source), _part(source, shared[0])
        )
    for info in infos:
        if info in shared:
            continue
        part = _unpack(data, info, source)
        where = _part(source, info)
        sheetxml.check_part(part, where, texts)
        if info.filename == "content.xml":
            sheetxml.check_ods_content(part, where)
        elif info.filename.lower().endswith("workbook.xml"):
            sheetxml.check_sheet_count(part, where)


def _part(source: str, info: zipfile.ZipInfo) -> str:
    return f"{source}, part {info.filename}"


def _directory(data: bytes, source: str) -> list[zipfile.ZipInfo]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise SheetError(
            f"{source}: not a readable spreadsheet (a damaged zip file: {exc}); "
            "open it in your spreadsheet program and save it again"
        ) from exc
    if len(infos) > MAX_WORKBOOK_PARTS:
        raise SheetError(
            f"{source}: {len(infos):,} files inside the workbook; a workbook of cards has "
            f"far fewer (at most {MAX_WORKBOOK_PARTS:,})"
        )
    return infos


def _check_claims(infos: list[zipfile.ZipInfo], source: str) -> None:
    """Methods, sizes and ratios as the zip directory states them, before unpacking any."""
    total = 0
    for info in infos:
        where = _part(source, info)
        if info.flag_bits & 0x1:
            raise SheetError(f"{where}: encrypted; save a copy of the workbook without a password")
        if info.compress_type not in (STORED, DEFLATED):
            raise SheetError(
                f"{where}: packed with method {info.compress_type}, which spreadsheet "
                "programs do not use; save the workbook again from one"
            )
        check_size(where, info.file_size, MAX_WORKBOOK_PART, "part of a workbook")
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_FROM and ratio > MAX_ZIP_RATIO:
            raise SheetError(
                f"{where}: unpacks {ratio:,.0f} times larger than it is packed "
                f"(at most {MAX_ZIP_RATIO}); a workbook of cards does not, a zip bomb does"
            )
        total += info.file_size
    check_size(source, total, MAX_WORKBOOK_UNPACKED, "workbook, unpacked,")


def _unpack(data: bytes, info: zipfile.ZipInfo, source: str) -> bytes | bytearray:
    """One part, unpacked from its own bytes: never more than the directory says it holds.

    zipfile stops reading at the stated size; a crafted part can hold more, which a reader
    that trusts the packed stream would unpack. So the stream is inflated here, and a part
    whose stream is longer or shorter than stated is refused.
    """
    where = _part(source, info)
    damaged = SheetError(f"{where}: damaged (not as long as the zip directory says)")
    offset = info.header_offset
    try:
        signature, name_length, extra_length = LOCAL_HEADER.unpack_from(data, offset)
    except struct.error:
        raise damaged from None
    start = offset + LOCAL_HEADER.size + name_length + extra_length
    packed = memoryview(data)[start : start + info.compress_size]
    if signature != b"PK\x03\x04" or len(packed) != info.compress_size:
        raise damaged
    if info.compress_type == STORED:
        if len(packed) != info.file_size:
            raise damaged
        return packed.tobytes()
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    out = bytearray(info.file_size)  # filled in place: growing it would copy it, twice the size
    view, filled = memoryview(out), 0
    try:
        for at in range(0, len(packed), PIECE):
            pending: bytes | memoryview = packed[at : at + PIECE]
            while pending:
                chunk = inflater.decompress(pending, min(PIECE, info.file_size + 1 - filled))
                pending = inflater.unconsumed_tail
                if filled + len(chunk) > info.file_size:
                    raise damaged
                view[filled : filled + len(chunk)] = chunk
                filled += len(chunk)
        if inflater.flush() or not inflater.eof:
            raise damaged
    except zlib.error:
        raise damaged from None
    finally:
        view.release()
    if filled != info.file_size:
        raise damaged
    return out  # a bytearray: copying a 200 MB part to bytes would double it
