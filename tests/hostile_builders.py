"""Hostile workbooks, built small: zip bombs from repeated deflate blocks, far cells, shared
texts used a hundred thousand times, an .xls with a claimed four billion rows or a looping
sector chain. Used by tests/test_hostile_files.py and tests/corpus/make_corpus.py.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path

from openpyxl import Workbook

SHEET = "xl/worksheets/sheet1.xml"
MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def small_workbook() -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(["Name", "Qty"])
    sheet.append(["Chugawug Elder", 1])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def parts_of(workbook: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(workbook)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


class Deflated:
    """A part given as its raw deflate stream: (packed bytes, CRC-32, unpacked size)."""

    def __init__(self, packed: bytes, crc: int, size: int, stated: int | None = None) -> None:
        self.packed, self.crc, self.size = packed, crc, size
        self.stated = size if stated is None else stated  # what the zip directory says


def deflate(data: bytes) -> Deflated:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return Deflated(packer.compress(data) + packer.flush(), zlib.crc32(data), len(data))


def repeated(head: bytes, unit: bytes, times: int, tail: bytes) -> Deflated:
    """head + unit * times + tail, packed in time and space of one unit: after a full flush
    the packer forgets what came before, so every unit packs to the same bytes."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = packer.compress(head) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(unit) + packer.flush(zlib.Z_FULL_FLUSH)
    end = packer.compress(tail) + packer.flush()
    crc = zlib.crc32(head)
    for _ in range(times):
        crc = zlib.crc32(unit, crc)
    crc = zlib.crc32(tail, crc)
    return Deflated(start + block * times + end, crc, len(head) + len(unit) * times + len(tail))


def write_zip(path: Path, parts: dict[str, bytes | Deflated]) -> Path:
    """A zip file written by hand, so that a part may be a bomb or state a size it has not."""
    out, directory = bytearray(), bytearray()
    for name, part in parts.items():
        packed = part if isinstance(part, Deflated) else deflate(part)
        raw = name.encode()
        fields = (20, 0, 8, 0, 0, packed.crc, len(packed.packed), packed.stated, len(raw), 0)
        directory += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, *fields, 0, 0, 0, 0,
                                 len(out)) + raw  # fmt: skip
        out += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", *fields) + raw + packed.packed
    end = struct.pack(
        "<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(parts), len(parts), len(directory), len(out), 0
    )
    path.write_bytes(bytes(out + directory + end))
    return path


def with_sheet(path: Path, sheet: bytes | Deflated, extra: dict[str, bytes] | None = None) -> Path:
    """The small workbook with its sheet replaced (and parts added)."""
    parts: dict[str, bytes | Deflated] = dict(parts_of(small_workbook()))
    parts[SHEET] = sheet
    parts.update(extra or {})
    return write_zip(path, parts)


def sheet_xml(rows: str) -> bytes:
    return f'<worksheet xmlns="{MAIN_NS}"><sheetData>{rows}</sheetData></worksheet>'.encode()


HEADER_ROWS = (
    '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t>Qty</t></is></c></row>'
)


def far_cell(path: Path) -> Path:
    """The 4.7 KB workbook that made calamine allocate 549,755,813,888 bytes and abort."""
    sheet = parts_of(small_workbook())[SHEET].replace(
        b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'
    )
    return with_sheet(path, sheet)


def cell_bomb(path: Path, megabytes: int) -> Path:
    """One inline-string cell of `megabytes` MB of 'A', in a file of about a thousandth."""
    head = sheet_xml(HEADER_ROWS).split(b"</sheetData>")[0]
    head += b'<row r="2"><c r="A2" t="inlineStr"><is><t>'
    tail = b'</t></is></c><c r="B2"><v>1</v></c></row></sheetData></worksheet>'
    return with_sheet(path, repeated(head, b"A" * (1 << 20), megabytes, tail))


def row_bomb(path: Path, rows: int) -> Path:
    """`rows` rows of the same card, as far down as Excel goes."""
    body = "".join(
        f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>Chugawug Elder</t></is></c>'
        f'<c r="B{n}"><v>1</v></c></row>'
        for n in range(2, rows + 2)
    )
    return with_sheet(path, sheet_xml(HEADER_ROWS + body))


def shared_text_bomb(path: Path, cells: int, length: int) -> Path:
    """One shared text of `length` characters used by `cells` cells: calamine copies it."""
    strings = (
        f'<sst xmlns="{MAIN_NS}" count="{cells}" uniqueCount="1"><si><t>{"x" * length}</t></si>'
        "</sst>"
    ).encode()
    body = "".join(f'<row r="{n}"><c r="A{n}" t="s"><v>0</v></c></row>' for n in range(2, cells))
    return with_sheet(path, sheet_xml(HEADER_ROWS + body), {"xl/sharedStrings.xml": strings})


def lying_part(path: Path) -> Path:
    """A sheet whose zip directory states 1 KB where its stream unpacks to 40 MB."""
    bomb = repeated(b'<worksheet xmlns="' + MAIN_NS.encode() + b'">', b" " * (1 << 20), 40,
                    b"<sheetData/></worksheet>")  # fmt: skip
    bomb.stated = 1_000
    return with_sheet(path, bomb)


ODS_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
    '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
    '<manifest:file-entry manifest:full-path="/" manifest:media-type='
    '"application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry '
    'manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>'
)


def ods_repeat_bomb(path: Path) -> Path:
    """An .ods whose one row of values repeats 16,384 columns wide, a million rows down."""
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        '<office:body><office:spreadsheet><table:table table:name="Cards">'
        '<table:table-row><table:table-cell office:value-type="string"><text:p>Name</text:p>'
        "</table:table-cell></table:table-row>"
        '<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
        'table:number-columns-repeated="16384" office:value-type="string">'
        "<text:p>Chugawug Elder</text:p></table:table-cell></table:table-row>"
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    parts = {
        "mimetype": b"application/vnd.oasis.opendocument.spreadsheet",
        "META-INF/manifest.xml": ODS_MANIFEST.encode(),
        "content.xml": content.encode(),
    }
    return write_zip(path, dict(parts))


# -- .xls: a BIFF8 Workbook stream in an OLE compound file ----------------------------------

END, FREE, FAT_SECTOR, NONE = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFF


def _record(kind: int, body: bytes = b"") -> bytes:
    return struct.pack("<HH", kind, len(body)) + body


def biff(cells: list[tuple[int, int]], dimensions: tuple[int, int, int, int]) -> bytes:
    """One sheet named Cards: a DIMENSIONS record and a NUMBER record at each (row, column)."""
    name = b"Cards"
    bof = struct.pack("<HHHHII", 0x0600, 0x0005, 0, 0, 0, 0)
    head = _record(0x0809, bof) + _record(0x0085, bytes(8 + len(name))) + _record(0x000A)
    boundsheet = _record(0x0085, struct.pack("<IBBBB", len(head), 0, 0, len(name), 0) + name)
    sheet = _record(0x0809, struct.pack("<HHHHII", 0x0600, 0x0010, 0, 0, 0, 0))
    sheet += _record(0x0200, struct.pack("<IIHHH", *dimensions, 0))
    for row, column in cells:
        sheet += _record(0x0203, struct.pack("<HHHd", row, column, 0, 1.0))
    return _record(0x0809, bof) + boundsheet + _record(0x000A) + sheet + _record(0x000A)


def ole(stream: bytes, loop: bool = False) -> bytes:
    """An OLE compound file holding `stream` as "Workbook" (in 512-byte sectors, padded past
    the 4,096 bytes below which streams live in the mini stream). `loop` chains its last
    sector back to its first, which calamine would follow for ever."""
    stream = stream.ljust(max(4096, len(stream)), b"\0")
    size, count = len(stream), (len(stream) + 511) // 512
    stream = stream.ljust(count * 512, b"\0")
    chain = [3 + i for i in range(count - 1)] + [END]
    fat = [FAT_SECTOR, 1 if loop else END, *chain]
    fat += [FREE] * (128 - len(fat))
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(16)
    header += struct.pack("<HHHHH6sIIIIIIIII", 0x3E, 3, 0xFFFE, 9, 6, bytes(6), 0, 1, 1, 0,
                          4096, END, 0, END, 0)  # fmt: skip
    header += struct.pack("<109I", 0, *([FREE] * 108))

    def entry(name: str, kind: int, child: int, start: int, length: int) -> bytes:
        raw = (name.encode("utf-16-le") + b"\0\0") if name else b""
        return (
            raw.ljust(64, b"\0")
            + struct.pack("<HBBIII", len(raw), kind, 1, NONE, NONE, child)
            + bytes(20)
            + bytes(16)
            + struct.pack("<IQ", start, length)
        )

    directory = entry("Root Entry", 5, 1, END, 0) + entry("Workbook", 2, NONE, 2, size)
    directory += entry("", 0, NONE, 0, 0) * 2
    return header + struct.pack("<128I", *fat) + directory + stream
