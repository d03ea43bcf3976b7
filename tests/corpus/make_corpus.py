"""Write the bad-input corpus beside this file (run once; the files are committed).

python tests/corpus/make_corpus.py
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

from openpyxl import Workbook

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))
from tests import hostile_builders as hostile  # noqa: E402


def workbook(rows: list[list], merge: str | None = None, formulas: bool = False) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in rows:
        sheet.append(row)
    if merge:
        sheet.merge_cells(merge)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


BOMB = (
    '<?xml version="1.0"?>'
    '<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{n} "{("&lol" + str(n - 1) + ";") * 10 if n > 1 else "&lol;" * 10}">'
        for n in range(1, 10)
    )
    + ']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData>'
    "</worksheet>"
)


def bomb() -> bytes:
    good = workbook([["Name", "Qty"], ["Chugawug Elder", 1]])
    source = zipfile.ZipFile(io.BytesIO(good))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = BOMB.encode()
            target.writestr(item, data)
    return out.getvalue()


def main() -> None:
    good = workbook([["Name", "Qty"], ["Chugawug Elder", 2]])
    files: dict[str, bytes] = {
        "truncated.xlsx": good[: len(good) // 2],
        "random-bytes.xlsx": bytes((n * 7919 + 13) % 256 for n in range(4096)),
        "password-protected.xlsx": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4088),
        "xml-bomb.xlsx": bomb(),
        "wrong-headers.xlsx": workbook([["Colour", "Mood"], ["red", "happy"]]),
        "duplicate-headers.csv": b"Name,Name,Qty\nChugawug Elder,Old Mossbeard,2\n",
        "empty-sheet.xlsx": workbook([]),
        "merged-header.xlsx": workbook(
            [["My cards", None], ["Name", "Qty"], ["Nope Card", 1]], merge="A1:B1"
        ),
        "formulas.xlsx": workbook(
            [["Name", "Qty"], ["Chugawug Elder", "=1/0"], ["Nobody", "=SUM(1,2)"]]
        ),
        "latin1.csv": "Name,Qty\nCaf\xe9 Goblin,1\n".encode("cp1252"),
        "utf16.csv": "Name,Qty\nNo Such Card,1\n".encode("utf-16"),
        "bom.csv": "\ufeffName,Qty\nNo Such Card,1\n".encode(),
        "negative.csv": b"Name,Qty\nChugawug Elder,-3\n",
        "fraction.csv": b"Name,Qty\nChugawug Elder,1.5\n",
        "no-cards.csv": b"Name,Qty\n",
        "nul-bytes.csv": b"Name,Qty\n\x00\x00\x00",
        "binary-deck.txt": bytes(range(256)),
        "empty-deck.txt": b"",
        "not-a-database.db": b"SQLite format 2\x00" + bytes(100),
    }
    for name, data in files.items():
        (HERE / name).write_bytes(data)
    write_hostile()


def write_hostile() -> None:
    """Files that cost a reader unbounded memory or time unless it checks them first."""
    hostile.far_cell(HERE / "far-cell.xlsx")
    hostile.shared_text_bomb(HERE / "shared-text-bomb.xlsx", 5_000, 30_000)
    hostile.lying_part(HERE / "lying-zip.xlsx")
    hostile.ods_repeat_bomb(HERE / "repeat-bomb.ods")
    (HERE / "huge-dimensions.xls").write_bytes(
        hostile.ole(hostile.biff([(0, 0)], (0, 0xFFFFFFFF, 0, 255)))
    )
    (HERE / "far-cell.xls").write_bytes(
        hostile.ole(hostile.biff([(0, 0), (65535, 255)], (0, 1, 0, 1)))
    )
    (HERE / "looping-sectors.xls").write_bytes(
        hostile.ole(hostile.biff([(0, 0)], (0, 1, 0, 1)), loop=True)
    )
    (HERE / "wide-header.csv").write_bytes(b",".join(b"Name%d" % n for n in range(5_000)) + b"\n")
    (HERE / "late-nul.csv").write_bytes(b"Name,Qty\n" + b"Chugawug Elder,1\n" * 400 + b"\x00\n")


if __name__ == "__main__":
    main()
