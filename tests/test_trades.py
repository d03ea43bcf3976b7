"""Trade lists: haves, wants, export in the import's conventions, and matching another list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from tests.conftest import Run


@pytest.fixture
def trader(run: Run, tmp_path: Path) -> Run:
    assert (
        run(
            "add", "Chugawug Elder x5", "Robgoblin Scrapper x4 foil", "Old Mossbeard", "1 U 132"
        ).exit_code
        == 0
    )
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Ninja Blade Adept\n3 Chugawug Elder\n2 Undead Drummer\n")
    assert run("deck", "save", str(deck), "--name", "Fast").exit_code == 0
    return run


def items(listing: list[dict]) -> set[tuple[str, str, int]]:
    return {(item["code"], item["finish"], item["copies"]) for item in listing}


def test_haves_beyond_a_playset_and_wants_for_decks(trader: Run) -> None:
    data = json.loads(trader("trade", "list", "-o", "json").stdout)
    assert items(data["offered"]) == {("1 U 15", "nonfoil", 2), ("1 C 41", "foil", 1)}
    assert items(data["wanted"]) == {("1 U 132", "nonfoil", 2), ("1 U 42", "nonfoil", 2)}


def test_keep_decks_and_complete_series(trader: Run) -> None:
    data = json.loads(
        trader("trade", "list", "--keep-decks", "--complete-series", "2", "-o", "json").stdout
    )
    assert items(data["offered"]) == {
        ("1 U 15", "nonfoil", 2),
        ("1 C 41", "foil", 4),
        ("1 E 162", "nonfoil", 1),
    }
    assert ("2 C 101", "nonfoil", 1) in items(data["wanted"])
    assert ("2 U 102", "nonfoil", 1) in items(data["wanted"])


def test_export_reads_back_as_their_list(trader: Run, tmp_path: Path) -> None:
    path = tmp_path / "mine.xlsx"
    assert trader("trade", "export", str(path)).exit_code == 0
    book = load_workbook(path)
    assert book.sheetnames == ["Offered", "Wanted"]
    assert [c.value for c in book["Offered"][1]] == ["Code", "Name", "Finish", "Qty"]
    csv_path = tmp_path / "mine.csv"
    assert trader("trade", "export", str(csv_path)).exit_code == 0
    assert csv_path.read_text().splitlines()[0] == "List,Code,Name,Finish,Qty"


def their_workbook(path: Path) -> Path:
    book = Workbook()
    offered = book.active
    offered.title = "Offered"
    for row in (
        ["Trade list of Bo"],
        [],
        ["Card Name", "Quantity", "Printing"],
        ["Ninja Blade Adept", 2, "normal"],
        ["Temple Bell", 1, ""],
    ):
        offered.append(row)
    wanted = book.create_sheet("Wanted")
    for row in (
        ["Card", "Qty", "Foil?"],
        ["Chugawug Elder", 1, "no"],
        ["Robgoblin Scrapper", 1, "yes"],
        ["Perfect Block", 1, "no"],
        ["Chugawug Eldr", 1, "no"],
    ):
        wanted.append(row)
    book.save(path)
    return path


def test_match_their_lists(trader: Run, tmp_path: Path) -> None:
    result = trader("trade", "match", str(their_workbook(tmp_path / "bo.xlsx")), "-o", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert items(data["they_offer_i_want"]) == {("1 U 132", "nonfoil", 2)}
    assert items(data["they_want_i_can_spare"]) == {("1 U 15", "nonfoil", 1), ("1 C 41", "foil", 1)}
    proposal = data["proposal"]
    assert (proposal["get_cards"], proposal["give_cards"]) == (2, 2)
    assert abs(proposal["get_value"] - proposal["give_value"]) <= 1
    assert any("Chugawug Eldr" in problem for problem in data["problems"]), data["problems"]
    text = trader("trade", "match", str(tmp_path / "bo.xlsx")).stdout
    assert "They offer, you want: 2 cards" in text
    assert "Proposal: get 2 cards" in text


def test_match_a_csv_with_a_list_column(trader: Run, tmp_path: Path) -> None:
    path = tmp_path / "theirs.csv"
    path.write_text(
        "List,Name,Finish,Qty\nwant,Chugawug Elder,normal,2\nhave,Ninja Blade Adept,normal,1\n"
    )
    data = json.loads(trader("trade", "match", str(path), "-o", "json").stdout)
    assert items(data["they_offer_i_want"]) == {("1 U 132", "nonfoil", 1)}
    assert items(data["they_want_i_can_spare"]) == {("1 U 15", "nonfoil", 2)}


def test_match_needs_lists(trader: Run, tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("Name,Qty\nChugawug Elder,1\n")
    result = trader("trade", "match", str(path))
    assert result.exit_code == 2
    assert "no Offered and Wanted lists" in result.stderr
