"""Decks in spreadsheets: sections (a Section column, its synonyms, section rows), the lines
about a deck (Player:, Format:), and export -> check giving the saved deck's own report."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook

from cardbase.catalog.update import import_catalogue
from cardbase.decks.lists import parse_deck_text
from cardbase.decks.sheetdecks import read_deck_file
from cardbase.library import Library
from tests.helpers import DATA, MINI_CATALOGUE, Run, copy_database, new_database
from tests.test_decks import BASE, wildhearts
from tests.test_spreadsheets import ods


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sheets") / "decks.db"
    new_database(path, MINI_CATALOGUE)
    import_catalogue(Library(path), DATA / "wildhearts_cards.csv")
    return path


def report_of(result) -> dict:
    """A JSON report without what names the deck or points at its lines: a file's lines are
    its rows, a saved deck's the lines it was saved from."""
    data = json.loads(result.stdout)
    for problem in data["problems"]:
        problem["message"] = re.sub(r"lines? [\d, ]+", "line N", problem["message"])
        problem["lines"] = []
    del data["deck"]
    return data


# Saved decks and what their report says: valid and invalid, in both games.
DECKS = [
    ("free-realms", BASE + "\n1 Ninja Blade Adept\n", True),
    ("free-realms", BASE + "\n", False),
    ("wildhearts-ffa", wildhearts(judge=8), True),
    ("wildhearts-ffa", wildhearts(fields=2, side=6), False),
]


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".txt", ".ods"])
@pytest.mark.parametrize(("fmt", "text", "valid"), DECKS)
def test_export_then_check_is_the_saved_decks_report(
    both: Path, tmp_path: Path, suffix: str, fmt: str, text: str, valid: bool
) -> None:
    run = Run(copy_database(both, tmp_path / "db.db"))
    deck = tmp_path / "deck.txt"
    deck.write_text(text)
    assert run("deck", "save", str(deck), "--name", "Pack", "--format", fmt).exit_code == 0
    saved = run("deck", "check", "Pack", "-o", "json")
    assert saved.exit_code == (0 if valid else 1)
    exported = tmp_path / f"pack{suffix}"
    if suffix == ".ods":  # cardbase writes no .ods: the xlsx's cells, as LibreOffice saves them
        run("deck", "export", "Pack", str(tmp_path / "pack.xlsx"))
        rows = load_workbook(tmp_path / "pack.xlsx")["Deck"].iter_rows(values_only=True)
        ods(exported, [[value if value is not None else "" for value in row] for row in rows])
    else:
        assert run("deck", "export", "Pack", str(exported)).exit_code == 0
    checked = run("deck", "check", str(exported), "-o", "json")
    assert checked.exit_code == saved.exit_code, checked.output
    assert report_of(checked) == report_of(saved)


WH_MAIN = ["Ember Fox", "River Otter Scout", "Thornback Badger", "Moss Sprite", "Storm Hawk",
           "Cinder Wolf", "Tide Turtle", "Glade Stag", "Young Tamer Ilsa", "Tamer Brannoc",
           "Tamer Quill", "Old Tamer Hessa", "Call the Pack", "Sudden Squall", "Wild Leap"]  # fmt: skip
SECTION_SHEET = [
    ["Player: Ada"],
    [],
    ["Board", "Qty", "Card Name"],
    *[["Main deck" if i == 0 else "", 2, name] for i, name in enumerate(WH_MAIN)],
    ["Familiar", 1, "Blazewing Familiar"],
    ["familiars", 1, "Frostfang Familiar"],
    ["Field", 1, "Ashen Plains"],
    ["Judge Deck", 1, "Judge Card 1"],
    *[["", 1, f"Judge Card {n}"] for n in range(2, 9)],
]


@pytest.mark.parametrize(
    ("word", "section"),
    [("SB", "side"), ("Sideboard", "side"), ("side board", "side"), ("MD", "main"),
     ("Mainboard", "main"), ("Judges", "judge"), ("Fields (2)", "fields"), ("Familiar", "familiars")],
)  # fmt: skip
def test_section_synonyms(word: str, section: str) -> None:
    from cardbase.decks.lists import section_of

    assert section_of(word) == section


@pytest.mark.parametrize("suffix", [".csv", ".ods", ".xlsx"])
def test_section_column_and_its_synonyms(both: Path, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"ada{suffix}"
    if suffix == ".csv":
        with path.open("w", newline="") as handle:
            csv.writer(handle).writerows(SECTION_SHEET)
    elif suffix == ".ods":
        ods(path, SECTION_SHEET)
    else:
        from openpyxl import Workbook

        book = Workbook()
        for row in SECTION_SHEET:
            book.active.append(row)
        book.save(path)
    deck = read_deck_file(path)
    assert deck.player == "Ada"
    sections: dict[str, int] = {}
    for line in deck.lines:
        sections[line.section] = sections.get(line.section, 0) + line.copies
    assert sections == {"main": 30, "familiars": 2, "fields": 1, "judge": 8}
    result = Run(both)("deck", "check", str(path), "-f", "wildhearts-ffa", "-o", "json")
    data = json.loads(result.stdout)
    assert (result.exit_code, data["player"], data["problems"]) == (0, "Ada", [])


def test_section_rows_without_a_section_column(both: Path, tmp_path: Path) -> None:
    """A sheet laid out like a text list: a row holding only "Sideboard" starts that section."""
    path = tmp_path / "deck.csv"
    path.write_text("Qty,Name\n3,Pixie Dewdancer\nSideboard:,\n2,Chugawug Elder\n")
    deck = read_deck_file(path)
    assert [(line.section, line.copies, line.card) for line in deck.lines] == [
        ("main", 3, "Pixie Dewdancer"),
        ("side", 2, "Chugawug Elder"),
    ]


def test_free_realms_side_rows_are_not_main_deck_cards(both: Path, tmp_path: Path) -> None:
    """The issue's sheet: Side rows were counted in the main deck and the deck said valid."""
    path = tmp_path / "deck.csv"
    rows = "\n".join(f"Main,3,{line[2:]}" for line in BASE.splitlines())
    path.write_text(f"Section,Qty,Name\n{rows}\nSide,3,Ninja Blade Adept\n")
    result = Run(both)("deck", "check", str(path), "-o", "json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1
    assert data["sections"] == {"main": 39, "side": 3}
    assert [p["code"] for p in data["problems"]] == ["unknown-section", "too-few-cards"]


def test_an_unknown_section_is_a_row_problem(both: Path, tmp_path: Path) -> None:
    path = tmp_path / "deck.csv"
    path.write_text("Section,Qty,Name\nMain,3,Pixie Dewdancer\nMaybe,3,Chugawug Elder\n")
    deck = read_deck_file(path)
    assert [line.card for line in deck.lines] == ["Pixie Dewdancer"]
    assert "row 3: section 'Maybe' is not one of familiars, fields, judge, main, side" in (
        deck.problems[0].message
    )


def test_lines_about_the_deck() -> None:
    deck = parse_deck_text("Player:  Ada  Lovelace\nFormat: Wildhearts Free-For-All\n3 X\n", "d")
    assert (deck.player, deck.format, len(deck.lines), deck.problems) == (
        "Ada Lovelace",
        "Wildhearts Free-For-All",
        1,
        [],
    )


def test_a_files_format_line_is_its_own_unless_told(both: Path, tmp_path: Path) -> None:
    run = Run(both)
    path = tmp_path / "wh.txt"
    path.write_text("Format: wildhearts-ffa\n" + wildhearts())
    assert "Wildhearts Free-For-All" in run("deck", "check", str(path)).stdout
    told = run("deck", "check", str(path), "-f", "free-realms", "-o", "json")
    assert json.loads(told.stdout)["format"] == "free-realms"
    path.write_text("Format: chess\n3 Ember Fox\n")
    bad = run("deck", "check", str(path))
    assert bad.exit_code == 2
    assert "wh.txt: Format: unknown format 'chess'" in bad.stderr


def test_deck_stats_csv_has_real_columns(both: Path, tmp_path: Path) -> None:
    path = tmp_path / "wh.txt"
    path.write_text(wildhearts(judge=8))
    result = Run(both)("deck", "stats", str(path), "-f", "wildhearts-ffa", "-o", "csv")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["stat", "key", "value"]
    assert all(len(row) == 3 and "{" not in row[2] for row in rows)
    assert ["type", "Ally", "16"] in rows
    assert ["section", "judge", "8"] in rows
    assert ["cards", "", "41"] in rows


def test_saved_wildhearts_deck_stats_use_its_own_cards(both: Path, tmp_path: Path) -> None:
    """A saved deck's lines name cards by code; '1 C 1' is a card in both games."""
    run = Run(copy_database(both, tmp_path / "db.db"))
    deck = tmp_path / "wh.txt"
    deck.write_text(wildhearts())
    run("deck", "save", str(deck), "--name", "Pack", "--format", "wildhearts-ffa")
    data = json.loads(run("deck", "stats", "Pack", "-o", "json").stdout)
    assert data["types"] == {"Ally": 16, "Tamer": 8, "Action": 6, "Familiar": 2, "Field": 1}
    assert data["spheres"] == {}
    assert data["curve_types"] == ["Ally", "Familiar"]


def test_deck_workbook_chart_references_its_table(both: Path, tmp_path: Path) -> None:
    """The series is titled by the count header (not a blank cell: the legend read "Column
    B"), and its categories are the costs, not the header row (an empty "Cost" bar)."""
    run = Run(copy_database(both, tmp_path / "db.db"))
    deck = tmp_path / "d.txt"
    deck.write_text(BASE + "\n1 Ninja Blade Adept\n")
    run("deck", "save", str(deck), "--name", "Bog")
    path = tmp_path / "bog.xlsx"
    assert run("deck", "export", "Bog", str(path)).exit_code == 0
    stats = load_workbook(path)["Stats"]
    chart = stats._charts[0]
    series = chart.series[0]
    title_ref = series.tx.strRef.f
    values_ref = series.val.numRef.f
    categories_ref = series.cat.numRef.f
    head = int(re.fullmatch(r"'Stats'!\$?B\$?(\d+)", title_ref).group(1))
    assert stats[f"B{head}"].value == "Creatures"
    assert stats[f"A{head}"].value == "Cost"
    first, last = map(int, re.findall(r"\$(\d+)", values_ref))
    assert (first, last) == (head + 1, stats.max_row)
    assert re.findall(r"\$(\d+)", categories_ref) == [str(head + 1), str(stats.max_row)]
    assert all(isinstance(stats[f"A{row}"].value, int) for row in range(first, last + 1))
