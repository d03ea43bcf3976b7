"""Other apps' real collection exports import as each app means them (tests/data/apps)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import DATA, Run
from tests.test_sheet_holdings import holdings

APPS = DATA / "apps"
NF, F = "nonfoil", "foil"
# fixture -> {(code, finish, condition, language, location, tags): copies}
EXPECTED: dict[str, dict[tuple[str, str, str, str, str, str], int]] = {
    "moxfield.csv": {
        ("2 C 101", F, "NM", "en", "", "trade"): 1,
        ("1 U 15", F, "NM", "en", "", "etched,trade"): 1,
        ("1 E 162", NF, "LP", "en", "", "trade"): 1,
        ("1 E 162", NF, "MP", "en", "", "trade"): 1,
        ("1 R 161", NF, "NM", "zh-Hans", "", "trade"): 1,
        ("1 C 1", NF, "NM", "ja", "", "trade"): 1,
    },
    "deckbox.csv": {
        ("2 C 101", F, "NM", "en", "", ""): 1,
        ("1 U 15", F, "NM", "en", "", ""): 1,
        ("1 E 162", NF, "M", "en", "", ""): 1,
        ("1 E 162", NF, "LP", "en", "", ""): 1,
        ("1 E 162", NF, "HP", "en", "", ""): 2,
        ("1 R 161", NF, "NM", "zh-Hans", "", ""): 1,
        ("1 C 1", NF, "NM", "ja", "", ""): 1,
    },
    "manabox.csv": {
        ("2 C 101", NF, "NM", "en", "Test-2023-09-12", ""): 1,
        ("1 U 15", F, "NM", "de", "Test-2023-09-12", ""): 1,
        ("1 E 162", F, "NM", "en", "Import", ""): 1,
        ("1 R 161", F, "NM", "de", "Import", ""): 1,
        ("1 C 1", NF, "NM", "en", "Test-2023-09-12", ""): 1,
    },
    "dragonshield.csv": {
        ("2 C 101", F, "NM", "en", "Test", "double rainbow foil,trade"): 1,
        ("1 U 15", F, "NM", "en", "Test", "rainbow foil,trade"): 1,
        ("1 E 82", F, "NM", "en", "Test", "gilded foil,trade"): 1,
        ("1 E 162", NF, "HP", "en", "Test", "trade"): 1,
        ("1 E 162", NF, "DMG", "en", "Test", "trade"): 1,
        ("1 E 162", NF, "MP", "en", "Test", "trade"): 1,
        ("1 R 161", NF, "NM", "de", "Test", "trade"): 1,
        ("1 C 1", NF, "NM", "zh-Hant", "Test", "trade"): 1,
    },
    "archidekt.csv": {
        ("2 C 101", F, "NM", "en", "", ""): 1,
        ("1 U 15", F, "NM", "en", "", "etched"): 1,
        ("1 R 161", NF, "NM", "zh-Hans", "", ""): 1,
        ("1 R 161", NF, "NM", "ko", "", ""): 1,
        ("1 R 161", NF, "NM", "ja", "", ""): 1,
        ("1 E 162", NF, "DMG", "en", "", ""): 1,
        ("1 E 162", NF, "MP", "en", "", ""): 1,
    },
    "tcgplayer.csv": {
        ("2 C 101", NF, "NM", "en", "", ""): 1,
        ("1 U 15", F, "NM", "en", "", ""): 1,
        ("1 E 162", NF, "NM", "en", "", ""): 1,
        ("1 C 1", NF, "NM", "en", "", ""): 1,
    },
    "tcgplayer-scanner.csv": {
        ("2 C 101", NF, "NM", "en", "", ""): 1,
        ("1 U 15", NF, "MP", "en", "", ""): 1,
        ("1 E 162", NF, "NM", "en", "", ""): 1,
    },
    "mtggoldfish.csv": {
        ("2 C 101", F, "NM", "en", "", ""): 3,
        ("1 U 15", NF, "NM", "en", "", ""): 4,
        ("1 E 162", NF, "NM", "en", "", ""): 1,
    },
    "topdecked.csv": {
        ("2 C 101", F, "NM", "en", "", ""): 1,
        ("1 U 15", F, "NM", "en", "", "etched"): 1,
        ("1 E 162", NF, "M", "en", "", ""): 1,
        ("1 E 162", NF, "LP", "en", "", ""): 1,
        ("1 E 162", NF, "MP", "en", "", ""): 1,
        ("1 E 162", NF, "HP", "en", "", ""): 1,
        ("1 R 161", NF, "NM", "es", "", ""): 1,
        ("1 C 1", NF, "NM", "ja", "", ""): 1,
    },
    "mtgo.csv": {
        ("2 C 101", F, "NM", "en", "", ""): 1,
        ("1 U 15", NF, "NM", "en", "", ""): 1,
        ("1 E 162", NF, "NM", "en", "", ""): 4,
    },
    "delver.csv": {
        ("2 C 101", F, "NM", "en", "", ""): 1,
        ("1 U 15", F, "NM", "en", "", ""): 1,
        ("1 E 162", NF, "NM", "en", "", ""): 1,
    },
    "delver-echomtg.csv": {
        ("1 U 15", NF, "NM", "en", "", ""): 1,
        ("1 E 162", NF, "NM", "en", "", ""): 5,
        ("1 E 162", F, "NM", "en", "", ""): 3,
    },
    "delver-echomtg.tsv": {
        ("1 U 15", NF, "NM", "en", "", ""): 1,
        ("1 E 162", NF, "NM", "en", "", ""): 1,
        ("1 R 161", NF, "NM", "en", "", ""): 1,
    },
    "cardmarket.csv": {
        ("1 U 15", NF, "M", "en", "", ""): 1,
        ("1 E 162", NF, "LP", "en", "", ""): 1,
        ("1 R 161", NF, "NM", "ko", "", ""): 1,
        ("1 C 1", NF, "MP", "en", "", ""): 1,
        ("1 C 91", NF, "DMG", "en", "", ""): 1,
    },
    "cardmarket-stock.csv": {("1 E 162", F, "NM", "en", "", ""): 1},
    "echomtg.csv": {
        ("1 U 15", NF, "NM", "en", "", ""): 2,
        ("1 U 15", F, "NM", "en", "", ""): 1,
        ("1 E 162", NF, "NM", "en", "", ""): 1,
    },
    "deckstats.csv": {
        ("1 U 15", NF, "NM", "en", "", ""): 1,
        ("1 E 162", F, "NM", "en", "", ""): 2,
    },
}
# Columns each export has that cardbase keeps nothing of: reported, never silently dropped.
IGNORED = {
    "moxfield.csv": ["Last Modified", "Alter", "Proxy", "Purchase Price"],
    "mtgo.csv": ["ID #", "Rarity", "Sideboarded", "Annotation"],
    "dragonshield.csv": ["Set Name", "Price Bought", "Date Bought", "LOW", "MID", "MARKET"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_an_apps_export_imports_as_the_app_means_it(run: Run, name: str) -> None:
    result = run("import", str(APPS / name), "--output", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["problems"] == []
    assert report["sheets"][0]["ignored"] == IGNORED.get(name, report["sheets"][0]["ignored"])
    found = {key[:6]: copies for key, (copies, _note) in holdings(run.db_path).items()}
    assert found == EXPECTED[name]


def test_the_dry_run_lists_columns_read_and_ignored(run: Run) -> None:
    result = run("import", str(APPS / "moxfield.csv"), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "Tradelist Count (copies for trade)" in result.stdout
    assert "Foil (finish)" in result.stdout
    assert "moxfield.csv: ignored Last Modified, Alter, Proxy, Purchase Price" in result.stdout
    assert holdings(run.db_path) == {}


def test_cardbase_own_export_round_trips(run: Run, tmp_path: Path) -> None:
    assert run("import", str(APPS / "dragonshield.csv")).exit_code == 0
    before = holdings(run.db_path)
    out = tmp_path / "mine.csv"
    assert run("export", str(out)).exit_code == 0
    assert run("import", str(out), "--mode", "replace").exit_code == 0
    assert holdings(run.db_path) == before


def test_a_misspelled_count_column_is_an_error_naming_it(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "typo.csv"
    path.write_text("Name,Quantiy,Foil Qyt\nChugawug Elder,2,1\n", encoding="utf-8")
    result = run("import", str(path))
    assert result.exit_code == 2
    assert "column 'Foil Qyt' looks like a count column" in result.stderr
    assert "Foil Qty" in result.stderr
    assert holdings(run.db_path) == {}


@pytest.mark.parametrize(
    ("header", "row", "refused"),
    [
        (
            "Name,Cuont",
            "Chugawug Elder,2",
            "column 'Cuont' looks like a count column, but cardbase does not know it (did you mean 'Count'?)",
        ),
        (
            "Name,Qty,Fiol",
            "Chugawug Elder,2,1",
            "column 'Fiol' looks like a foil count or finish column",
        ),
        (
            "Name,Qunatity",
            "Chugawug Elder,4",
            "column 'Qunatity' looks like a count column, but cardbase does not know it "
            "(did you mean 'Quantity'?)",
        ),
        ("Name,Stock", "Chugawug Elder,4", None),  # a shop's count: read as copies
        ("Name,Qty,Folio", "Chugawug Elder,2,Binder 2", None),  # near 'foil', but not numbers
        ("Name,Qty,Page", "Chugawug Elder,2,14", None),  # numbers under a header near nothing
    ],
)
def test_a_header_misspelt_over_numbers_is_refused(
    run: Run, tmp_path: Path, header: str, row: str, refused: str | None
) -> None:
    """Without 'qty' or 'count' in it, a misspelt count header was ignored, and each row
    imported one copy: it is judged by its nearness to those words, over whole numbers."""
    path = tmp_path / "typo.csv"
    path.write_text(f"{header}\n{row}\n", encoding="utf-8")
    result = run("import", str(path), "--dry-run")
    if refused is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 2
    assert refused in result.stderr


@pytest.mark.parametrize("header", ["Name,Qty,", "Name,Qty"])
def test_cells_under_no_header_are_listed_as_ignored(run: Run, tmp_path: Path, header: str) -> None:
    """A column of values whose header cell is blank, or that goes past the header row, was
    dropped without a word: the summary lists it by its place."""
    path = tmp_path / "unheaded.csv"
    path.write_text(f"{header}\nChugawug Elder,2,3\n", encoding="utf-8")
    result = run("import", str(path), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "unheaded.csv: ignored column 3" in result.stdout
    path.write_text(f"{header}\nChugawug Elder,2,foil\n", encoding="utf-8")
    refused = run("import", str(path))
    assert refused.exit_code == 2
    assert "column 3 (no header) looks like a finish column" in refused.stderr


def test_a_column_of_conditions_under_an_unknown_header_is_an_error(
    run: Run, tmp_path: Path
) -> None:
    path = tmp_path / "grades.csv"
    path.write_text("Name,Qty,Grade\nChugawug Elder,2,Near Mint\n", encoding="utf-8")
    result = run("import", str(path))
    assert result.exit_code == 2
    assert "column 'Grade' looks like a condition column" in result.stderr


def test_an_unknown_finish_is_a_row_problem(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "finish.csv"
    path.write_text("Name,Qty,Printing\nChugawug Elder,2,Sparkle\n", encoding="utf-8")
    result = run("import", str(path))
    assert result.exit_code == 2
    assert "finish.csv, row 2: Printing 'Sparkle' is not a finish cardbase knows" in result.stderr


def test_a_blank_topped_foil_column_reads_each_value(run: Run, tmp_path: Path) -> None:
    rows = "".join("Chugawug Elder,1,\n" for _ in range(35))
    path = tmp_path / "late.csv"
    path.write_text(f"Name,Count,Foil\n{rows}Old Mossbeard,2,foil\n", encoding="utf-8")
    assert run("import", str(path)).exit_code == 0, "late foil words"
    found = holdings(run.db_path)
    assert found[("1 E 162", F, "NM", "en", "", "")][0] == 2
    assert found[("1 U 15", NF, "NM", "en", "", "")][0] == 35


def test_every_card_sheet_of_a_workbook_is_read_and_the_rest_named(
    run: Run, tmp_path: Path
) -> None:
    from openpyxl import Workbook

    book = Workbook()
    cover = book.active
    cover.title = "Cover"
    cover.append(["My collection"])
    for title, card in (("Nature", "Chugawug Elder"), ("Chaos", "Robgoblin Scrapper")):
        sheet = book.create_sheet(title)
        sheet.append(["Name", "Quantity"])
        sheet.append([card, 2])
    path = tmp_path / "book.xlsx"
    book.save(path)
    result = run("import", str(path))
    assert result.exit_code == 0, result.output
    assert "skipped book.xlsx: sheet 'Cover': no header row" in result.stdout
    assert set(holdings(run.db_path)) == {
        ("1 U 15", NF, "NM", "en", "", ""),
        ("1 C 41", NF, "NM", "en", "", ""),
    }
    result = run("import", str(path), "--sheet", "chaos", "--mode", "replace")
    assert result.exit_code == 0, result.output
    assert set(holdings(run.db_path)) == {("1 C 41", NF, "NM", "en", "", "")}


def test_import_and_export_through_standard_streams(run: Run) -> None:
    text = (APPS / "moxfield.csv").read_text(encoding="utf-8")
    result = run("import", "-", input=text)
    assert result.exit_code == 0, result.output
    assert "standard input: 6 rows" in result.stdout
    before = holdings(run.db_path)
    exported = run("export", "-")
    assert exported.exit_code == 0, exported.output
    assert exported.stdout.startswith("Code,Series,")
    assert run("import", "-", "--mode", "replace", input=exported.stdout).exit_code == 0
    assert holdings(run.db_path) == before
    assert run("export", "-", "--format", "ods").exit_code == 2


def test_manabox_list_rows_are_wanted_cards_not_owned(run: Run, tmp_path: Path) -> None:
    """ManaBox exports its lists (wish lists) beside its binders, told apart by Binder Type."""
    lines = (APPS / "manabox.csv").read_text(encoding="utf-8").splitlines()
    wish = lines[1].replace("Test-2023-09-12,binder,", "Wanted,list,", 1)
    path = tmp_path / "manabox-with-list.csv"
    path.write_text("\n".join([*lines, wish, wish]) + "\n", encoding="utf-8")
    result = run("import", str(path))
    assert result.exit_code == 0, result.output
    assert "2 wish list rows left out (wanted, not owned)" in result.stdout
    found = {key[:6]: copies for key, (copies, _note) in holdings(run.db_path).items()}
    assert found == EXPECTED["manabox.csv"]


def test_a_trade_count_past_the_rows_copies_is_a_row_problem(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "trade.csv"
    path.write_text("Name,Count,Tradelist Count\nChugawug Elder,2,5\nPixie Dewdancer,3,1\n")
    result = run("import", str(path))
    assert result.exit_code == 2
    assert "row 2: Tradelist Count 5 is more than the row's 2 copies" in result.stderr
    assert holdings(run.db_path) == {}
