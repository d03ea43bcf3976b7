"""Spreadsheet import and export, with the mess people's sheets really have."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from tests.helpers import MINI_CATALOGUE, Run, formula_database, new_database, owned


def workbook(path: Path, rows: list[list], title: str = "Cards", extra_sheets: int = 0) -> Path:
    book = Workbook()
    sheet = book.active
    sheet.title = "Notes" if extra_sheets else title
    if extra_sheets:
        sheet.append(["These are my notes, not cards"])
        sheet = book.create_sheet(title)
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


MESSY = [
    ["My Free Realms collection"],
    [],
    ["Card #", "Card Name", " QTY ", "Foil Qty", "Notes"],
    ["1 U 15", "Chugawug Elder", 2, None, "binder 1"],
    [None, "pixie dewdancer", " 3 ", 1, None],
    ["1-c-41", None, "1", None, None],
    [None, "Chugawug Elder", 1, None, "another row of the same card"],
    [None, None, None, None, None],
    ["Total", None, "=SUM(C4:C7)", None, None],
]


def test_import_finds_header_below_titles_and_maps_synonyms(run: Run, tmp_path: Path) -> None:
    path = workbook(tmp_path / "Collection.xlsx", MESSY, extra_sheets=1)
    result = run("import", str(path))
    assert result.exit_code == 0, result.output
    assert "Collection.xlsx, sheet 'Cards': 4 rows; 3 cards were added" in result.stdout
    assert owned(run) == {
        ("1 U 15", "nonfoil"): 3,
        ("1 C 1", "nonfoil"): 3,
        ("1 C 1", "foil"): 1,
        ("1 C 41", "nonfoil"): 1,
    }
    assert run("undo").exit_code == 0
    assert owned(run) == {}


def test_finish_column_beside_one_quantity(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "moxfield.csv"
    path.write_text(
        "sep=;\nCount;Name;Printing\n2;Chugawug Elder;Foil\n1;Chugawug Elder;normal\n"
        "4;Robgoblin Scrapper;\n1;Undead Drummer;yes\n",
        encoding="utf-8",
    )
    assert run("import", str(path)).exit_code == 0
    assert owned(run) == {
        ("1 U 15", "foil"): 2,
        ("1 U 15", "nonfoil"): 1,
        ("1 C 41", "nonfoil"): 4,
        ("1 U 42", "foil"): 1,
    }


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "cp1252"])
def test_csv_encodings(run: Run, tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "list.csv"
    path.write_bytes("Name,Qty\nChugawug Elder,2\nOld Mossbeard,1\n".encode(encoding))
    assert run("import", str(path)).exit_code == 0
    assert owned(run) == {("1 U 15", "nonfoil"): 2, ("1 E 162", "nonfoil"): 1}


def test_plain_list_of_names_counts_one_per_row(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text("Card\nChugawug Elder\nChugawug Elder\nOld Mossbeard\n")
    run("import", str(path))
    assert owned(run) == {("1 U 15", "nonfoil"): 2, ("1 E 162", "nonfoil"): 1}


def test_unresolved_rows_are_reported_and_nothing_is_written(
    run: Run, tmp_path: Path, checksum
) -> None:
    path = workbook(
        tmp_path / "Collection.xlsx",
        [
            ["Name", "Qty"],
            ["Chugawug Elder", 1],
            ["Chugawug Eldr", 2],
            ["Chugawug Cook", 1],
            ["Pixie Dewdancer", -1],
            ["Robgoblin Sneak", 1.5],
        ],
    )
    before = checksum(run.db_path)
    result = run("import", str(path))
    assert result.exit_code == 2
    err = result.stderr
    assert "4 rows could not be imported, so nothing was (fix them, or add --skip-bad" in err
    assert (
        "Collection.xlsx, sheet 'Cards', row 3: no card named 'Chugawug Eldr'. "
        "Did you mean Chugawug Elder (1 U 15)"
    ) in err
    assert "row 4: 'Chugawug Cook' is printed as 1 C 14, 2 C 101; add a code column" in err
    assert "row 5: Qty '-1' must be a whole number, 0 or more" in err
    assert "row 6: Qty '1.5' must be a whole number" in err
    assert checksum(run.db_path) == before
    skipped = run("import", str(path), "--skip-bad")
    assert skipped.exit_code == 0
    assert "4 rows skipped" in skipped.stdout
    assert owned(run) == {("1 U 15", "nonfoil"): 1}


def test_code_and_name_must_agree(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    path.write_text("Code,Name,Qty\n1 U 15,Old Mossbeard,1\n")
    result = run("import", str(path))
    assert (
        "code 1 U 15 is Chugawug Elder, but the name column says 'Old Mossbeard'" in result.stderr
    )


def test_modes_set_and_replace_and_dry_run(run: Run, tmp_path: Path, checksum) -> None:
    run("add", "1 U 15 x5", "1 C 41 x2", "1 E 162 foil")
    path = tmp_path / "s.csv"
    path.write_text("Name,Qty,Foil\nChugawug Elder,1,\nPixie Dewdancer,2,1\n")
    before = checksum(run.db_path)
    plan = run("import", str(path), "--mode", "replace", "--dry-run")
    assert "would change: Chugawug Elder (1 U 15) non-foil: 5 -> 1" in plan.stdout
    assert "would change: Robgoblin Scrapper (1 C 41) non-foil: 2 -> 0" in plan.stdout
    assert checksum(run.db_path) == before
    run("import", str(path), "--mode", "set")
    assert owned(run) == {
        ("1 U 15", "nonfoil"): 1,
        ("1 C 1", "nonfoil"): 2,
        ("1 C 1", "foil"): 1,
        ("1 C 41", "nonfoil"): 2,
        ("1 E 162", "foil"): 1,
    }
    run("import", str(path), "--mode", "replace")
    assert owned(run) == {("1 U 15", "nonfoil"): 1, ("1 C 1", "nonfoil"): 2, ("1 C 1", "foil"): 1}
    assert run("import", str(path), "--mode", "sideways").exit_code == 2


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.xlsx", b"", "the file is empty"),
        ("random.xlsx", bytes(range(256)) * 40, "not a .xlsx workbook"),
        ("truncated.xlsx", None, "not a readable spreadsheet"),
        ("locked.xlsx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "password-protected"),
        ("notes.pdf", b"%PDF-1.4", "unknown kind of file '.pdf'"),
        ("binary.csv", b"Name,Qty\n\x00\x01\x02", "not a text file"),
        ("nohead.csv", b"just,some\nwords,here\n", "no header row with a card name or code"),
    ],
)
def test_unreadable_files_get_one_line(
    run: Run, tmp_path: Path, checksum, name: str, content: bytes | None, message: str
) -> None:
    path = tmp_path / name
    if content is None:
        good = workbook(tmp_path / "good.xlsx", MESSY)
        content = good.read_bytes()[:300]
    path.write_bytes(content)
    before = checksum(run.db_path)
    result = run("import", str(path))
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output
    assert checksum(run.db_path) == before


def test_missing_sheet_name(run: Run, tmp_path: Path) -> None:
    path = workbook(tmp_path / "c.xlsx", MESSY)
    assert (
        "no sheet named 'Nope'; its sheets are Cards"
        in run("import", str(path), "--sheet", "Nope").stderr
    )


# -- export -------------------------------------------------------------------------------


def test_export_xlsx_layout(run: Run, tmp_path: Path) -> None:
    run("add", "1 U 15 x2", "1 E 162 foil")
    path = tmp_path / "out.xlsx"
    result = run("export", str(path))
    assert result.exit_code == 0
    assert "2 cards written" in result.stdout
    book = load_workbook(path)
    sheet = book["Collection"]
    header = [cell.value for cell in sheet[1]]
    assert header[:5] == ["Code", "Series", "Rarity", "Number", "Name"]
    assert header[-7:] == ["Nonfoil", "Foil", "Condition", "Language", "Location", "Tags", "Note"]
    assert sheet[1][0].font.bold
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref == "A1:U3"
    row = [cell.value for cell in sheet[2]]
    assert row[0] == "1 U 15"
    assert row[1] == 1
    assert isinstance(row[9], int)
    assert header[13] == "Artist"
    assert row[14] == 2
    assert sheet.column_dimensions["E"].width >= 20
    totals = {r[0]: r[1] for r in book["Totals"].iter_rows(min_row=2, values_only=True)}
    assert totals["Copies owned"] == 3
    assert totals["Foil copies"] == 1


def test_export_refuses_to_overwrite(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("keep me")
    result = run("export", str(path))
    assert result.exit_code == 2
    assert "add --force to overwrite" in result.stderr
    assert path.read_text() == "keep me"
    assert run("export", str(path), "--force").exit_code == 0


def test_export_catalogue_csv_with_bom_and_query(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "cat.csv"
    run("export", str(path), "--catalogue", "--bom")
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert rows[0][-2:] == ["Text", "Lore"]
    assert len(rows) == 23
    query = tmp_path / "q.csv"
    run("export", str(query), "--query", "s:chaos t:creature")
    assert len(query.read_text().splitlines()) == 5


def test_formula_injection_is_written_as_text(tmp_path: Path) -> None:
    catalogue, db_path = formula_database(tmp_path)
    run = Run(db_path)
    run("add", "3 C 1")
    xlsx, csv_path = tmp_path / "e.xlsx", tmp_path / "e.csv"
    run("export", str(xlsx), "--catalogue")
    run("export", str(csv_path), "--catalogue")
    cells = {cell.value: cell.data_type for row in load_workbook(xlsx)["Catalogue"] for cell in row}
    assert cells['=HYPERLINK("http://x","y")'] == "s"
    text = csv_path.read_text()
    assert "'=HYPERLINK" in text
    assert "'@Maneuver" in text
    assert "'=1+2 attack" in text
    assert "'-lore" in text
    fresh = tmp_path / "fresh.db"
    new_database(fresh, catalogue)
    back = Run(fresh)
    assert back("import", str(csv_path), "--mode", "replace").exit_code == 0
    assert owned(back) == {("3 C 1", "nonfoil"): 1}


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_round_trip_into_a_fresh_database(run: Run, tmp_path: Path, suffix: str) -> None:
    run("add", "1 U 15 x2", "1 C 14 x3 foil", "2 C 101", "1 E 162 x4", "1 E 162 foil", "1 P 133")
    path = tmp_path / f"collection{suffix}"
    run("export", str(path))
    fresh = tmp_path / "fresh.db"
    new_database(fresh, MINI_CATALOGUE)
    back = Run(fresh)
    result = back("import", str(path), "--mode", "replace")
    assert result.exit_code == 0, result.output
    assert owned(back) == owned(run)


def test_round_trip_through_libreoffice_style_cells(run: Run, tmp_path: Path) -> None:
    """LibreOffice and Excel give numbers back as floats and codes as text with spaces."""
    run("add", "1 U 15 x2", "1 C 14 x3 foil")
    path = workbook(
        tmp_path / "lo.xlsx",
        [
            ["Code", "Name", "Nonfoil", "Foil"],
            [" 1 U 15 ", "Chugawug Elder", 2.0, 0.0],
            ["1 C 14", "Chugawug Cook", "0", "3"],
        ],
    )
    fresh = tmp_path / "fresh.db"
    new_database(fresh, MINI_CATALOGUE)
    back = Run(fresh)
    assert back("import", str(path), "--mode", "replace").exit_code == 0
    assert owned(back) == owned(run)


def ods(path: Path, rows: list[list]) -> Path:
    """A minimal OpenDocument spreadsheet, as LibreOffice saves one."""
    import zipfile
    from xml.sax.saxutils import escape

    def cell(value: object) -> str:
        if isinstance(value, int | float):
            return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'

    body = "".join(
        f"<table:table-row>{''.join(cell(v) for v in row)}</table:table-row>" for row in rows
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="Cards">{body}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(
            zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet"
        )
        archive.writestr("META-INF/manifest.xml", manifest)
        archive.writestr("content.xml", content)
    return path


def test_import_ods(run: Run, tmp_path: Path) -> None:
    path = ods(
        tmp_path / "Collection.ods",
        [["My cards"], ["Card Name", "Qty", "Foil"], ["Chugawug Elder", 2, 1]],
    )
    result = run("import", str(path))
    assert result.exit_code == 0, result.output
    assert owned(run) == {("1 U 15", "nonfoil"): 2, ("1 U 15", "foil"): 1}


@pytest.mark.parametrize("quantity", ["1e30", "9223372036854775808", "10000", 4611686018427387904])
def test_a_quantity_past_the_cap_is_a_row_error(
    run: Run, tmp_path: Path, checksum, quantity: object
) -> None:
    """One cap on copies for every way in: a sheet row, like `add`, holds at most 9,999."""
    path = tmp_path / "huge.csv"
    path.write_text(f"Name,Qty\nChugawug Elder,{quantity}\n")
    before = checksum(run.db_path)
    result = run("import", str(path))
    assert result.exit_code == 2
    assert "is more than 9,999 copies" in result.stderr
    assert "row 2" in result.stderr
    assert checksum(run.db_path) == before


@pytest.mark.parametrize("quantity", ['"1,000"', "1.000", '"12,000"'])
def test_a_quantity_with_a_thousands_separator_is_never_read_as_less(
    run: Run, tmp_path: Path, checksum, quantity: str
) -> None:
    """'1,000' is a thousand in one locale and one in another: it was read as 1 copy, without
    a word. A row error says so, and nothing is written."""
    path = tmp_path / "grouped.csv"
    path.write_text(f"Name,Qty\nChugawug Elder,{quantity}\n")
    before = checksum(run.db_path)
    result = run("import", str(path))
    assert result.exit_code == 2, result.output
    assert "row 2" in result.stderr and "separator" in result.stderr
    assert checksum(run.db_path) == before


def test_a_quantity_with_a_decimal_comma_still_reads(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "comma.csv"
    path.write_text('Name,Qty\nChugawug Elder,"3,0"\n')
    assert run("import", str(path)).exit_code == 0
    assert owned(run) == {("1 U 15", "nonfoil"): 3}


def test_export_refuses_catalogue_and_query_together(run: Run, tmp_path: Path) -> None:
    """--catalogue --query 's:chaos' wrote the whole catalogue: the query was dropped."""
    path = tmp_path / "both.csv"
    result = run("export", str(path), "--catalogue", "--query", "s:chaos")
    assert result.exit_code == 2
    assert "--catalogue" in result.stderr and "--query" in result.stderr
    assert not path.exists()


def test_export_of_a_copy_query_writes_only_the_copies_it_picks(run: Run, tmp_path: Path) -> None:
    run("add", "1 C 14 x2", "--tag", "trade")
    run("add", "1 C 14 x3 foil lp", "1 U 15")
    path = tmp_path / "trade.csv"
    assert run("export", str(path), "--query", "tag:trade").exit_code == 0
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [(r["Code"], r["Nonfoil"], r["Foil"], r["Tags"]) for r in rows] == [
        ("1 C 14", "2", "0", "trade")
    ]
    every = tmp_path / "all.csv"
    assert run("export", str(every), "--query", "chugawug").exit_code == 0
    assert (
        len([r for r in csv.DictReader(every.open(encoding="utf-8")) if r["Code"] == "1 C 14"]) == 2
    )


def test_rows_with_a_blank_or_zero_count_are_said(run: Run, tmp_path: Path) -> None:
    """A checklist leaves the count blank for cards not owned: read as none, and said."""
    path = tmp_path / "checklist.csv"
    path.write_text("Name,Qty\nChugawug Elder,\nPixie Dewdancer,2\nSudden Growth,0\n")
    result = run("import", str(path))
    assert result.exit_code == 0, result.output
    assert "0 rows skipped; 2 rows with no copies (count blank or 0)" in result.stdout
    assert json.loads(run("import", str(path), "--dry-run", "-o", "json").stdout)["no_copies"] == 2


def test_sheet_names_a_workbooks_sheet_and_a_csv_has_none(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    path.write_text("Name,Qty\nChugawug Elder,2\n")
    for source, given in ((str(path), None), ("-", "Name,Qty\nChugawug Elder,2\n")):
        result = run("import", source, "--sheet", "Chaos", input=given)
        assert result.exit_code == 2
        assert "--sheet is for workbooks; a CSV file is one table, so leave it out" in result.stderr
    assert "You own no cards" in run("collection").stderr
