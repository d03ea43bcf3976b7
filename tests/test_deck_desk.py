"""The tournament desk: `deck check FILES... | DIR`, one line a deck, and its report workbook."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from openpyxl import load_workbook

from cardbase.catalog.update import import_catalogue
from cardbase.library import Library
from tests.helpers import DATA, MINI_CATALOGUE, Run, new_database
from tests.test_decks import BASE, wildhearts


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("desk") / "decks.db"
    new_database(path, MINI_CATALOGUE)
    import_catalogue(Library(path), DATA / "wildhearts_cards.csv")
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An event's entries: valid, invalid, unreadable, a sheet, and files that are no deck."""
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "ada.txt").write_text("Player: Ada\n" + BASE + "\n1 Ninja Blade Adept\n")
    (entries / "bo.txt").write_text("Player: Bo\n" + BASE + "\n")  # 39 cards
    (entries / "cy.csv").write_text(
        "Player: Cy,,\n,,\nSection,Qty,Name\n"
        + "\n".join(f"Main,{line[:1]},{line[2:]}" for line in BASE.splitlines())
        + "\nSide,1,Ninja Blade Adept\n"
    )
    (entries / "dee.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    (entries / "wh.txt").write_text("Player: Wren\nFormat: wildhearts-ffa\n" + wildhearts())
    (entries / "notes.md").write_text("not a deck")
    (entries / ".hidden.txt").write_text("3 Nothing")
    (entries / "~$ada.xlsx").write_text("lock file")
    return entries


def test_a_folder_one_line_a_deck(both: Path, folder: Path) -> None:
    result = Run(both)("deck", "check", str(folder))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"\u2714 Ada ({folder / 'ada.txt'}): Free Realms Constructed, valid"
    assert lines[1] == f"\u2718 Bo ({folder / 'bo.txt'}): Free Realms Constructed, too-few-cards"
    assert lines[2].endswith("Free Realms Constructed, unknown-section too-few-cards")
    assert lines[2].startswith("\u2718 Cy (")
    assert lines[3].startswith(f"\u2718 {folder / 'dee.xlsx'}: unreadable: ")
    assert lines[4].endswith("Wildhearts Free-For-All, valid")
    assert len(lines) == 5
    assert "5 decks: 2 valid, 3 not valid" in result.stderr


def test_json_and_csv(both: Path, folder: Path) -> None:
    run = Run(both)
    data = json.loads(run("deck", "check", str(folder), "-o", "json").stdout)
    assert [(d["player"], d["valid"], d["codes"]) for d in data] == [
        ("Ada", True, []),
        ("Bo", False, ["too-few-cards"]),
        ("Cy", False, ["unknown-section", "too-few-cards"]),
        (None, False, ["unreadable"]),
        ("Wren", True, []),
    ]
    assert data[3]["error"].startswith(str(folder / "dee.xlsx"))
    assert data[4]["format"] == "wildhearts-ffa"
    rows = list(csv.reader(io.StringIO(run("deck", "check", str(folder), "-o", "csv").stdout)))
    assert rows[0] == ["file", "player", "format", "cards", "valid", "problems", "error"]
    assert rows[2][1:6] == ["Bo", "free-realms", "39", "no", "too-few-cards"]


def test_all_valid_exits_0_and_files_may_be_listed(both: Path, folder: Path) -> None:
    result = Run(both)("deck", "check", str(folder / "ada.txt"), str(folder / "wh.txt"))
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda f: [str(f / "missing.txt")], "missing.txt: no such file or folder"),
        (lambda f: [str(f.parent / "empty")], "no deck files"),
        (lambda f: [str(f), "--format", "chess"], "unknown format 'chess'"),
        (lambda f: [""], "an empty deck name"),  # not the current folder's files
        (lambda f: [str(f), " "], "an empty deck name"),
    ],
)
def test_bad_arguments_check_nothing(both: Path, folder: Path, make, message: str) -> None:
    (folder.parent / "empty").mkdir()
    result = Run(both)("deck", "check", *make(folder), "--report", str(folder / "r.xlsx"))
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (folder / "r.xlsx").exists()


def test_report_workbook(both: Path, folder: Path, tmp_path: Path) -> None:
    report = folder / "desk.xlsx"  # inside the folder: not read back as a deck next time
    run = Run(both)
    assert run("deck", "check", str(folder), "--report", str(report)).exit_code == 1
    book = load_workbook(report)
    assert book.sheetnames == ["Decks", "Bo", "Cy", "dee", *[]]
    decks = [row for row in book["Decks"].iter_rows(values_only=True)]
    assert decks[0] == ("Player", "File", "Format", "Cards", "Verdict", "Problems")
    assert decks[2][0] == "Bo"
    assert decks[2][3:] == (39, "NOT VALID", "too-few-cards")
    assert decks[1][4] == "valid"
    bo = [row for row in book["Bo"].iter_rows(values_only=True) if any(row)]
    assert bo[0] == ("Player: Bo", None, None, None)
    assert ("Problem", "What is wrong", "Lines", "Fix") in bo
    assert bo[-1][0] == "too-few-cards" and bo[-1][3] == "add 1"
    assert book["Decks"].print_title_rows == "$1:$1"
    again = run("deck", "check", str(folder), "--report", str(report))
    assert again.exit_code == 2
    assert "add --force" in again.stderr
    forced = run("deck", "check", str(folder), "--report", str(report), "--force")
    assert forced.exit_code == 1
    assert "5 decks" in forced.stderr


def test_sheet_names_are_excel_safe_and_distinct() -> None:
    from cardbase.decks.deskreport import _sheet_name

    taken: set[str] = set()
    names = [_sheet_name(who, taken) for who in ["a/b:c?", "Ada", "ada", "x" * 40, "x" * 40]]
    assert names[0] == "a_b_c_"
    assert names[1:3] == ["Ada", "ada (2)"]
    assert len(names[3]) == 31 and names[4].endswith(" (2)") and len(names[4]) == 31


@pytest.mark.parametrize(
    ("args", "heavy"),
    [
        (["deck", "check", "{folder}"], []),
        (["deck", "check", "{folder}/cy.csv"], []),
        (["deck", "stats", "{folder}/cy.csv", "-o", "csv"], []),
        (["deck", "check", "{folder}", "--report", "{folder}/r.xlsx"], ["openpyxl"]),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_the_desk_reads_without_write_libraries(
    both: Path, folder: Path, tmp_path: Path, args: list[str], heavy: list[str]
) -> None:
    from tests.test_cli_foundation import imports_of

    found = imports_of(both, tmp_path, *[arg.format(folder=folder) for arg in args])
    assert found["heavy"] == heavy


def test_one_deck_with_a_report_says_1_deck(both: Path, folder: Path, tmp_path: Path) -> None:
    result = Run(both)(
        "deck", "check", str(folder / "ada.txt"), "--report", str(tmp_path / "r.xlsx")
    )
    assert result.exit_code == 0, result.output
    assert "1 deck: 1 valid, 0 not valid" in result.stderr


def test_an_empty_deck_name_is_refused_alone_too(both: Path) -> None:
    result = Run(both)("deck", "check", "")
    assert result.exit_code == 2 and "an empty deck name" in result.stderr
