"""The bundled catalogue is the real game: every printed card, from the client's own files.

cards.csv is rebuilt from the client folder byte for byte (tools/build_catalogue.py), and a
fresh database holds the 707 cards of sets 1 to 5 with their codes, facts and names in every
client language.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from cardbase.catalog.choice import REAL, built_in
from cardbase.catalog.load import read_catalogue
from tests.helpers import ROOT, Run, new_database, ok, subprocess_env

CLIENT = Path(
    os.environ.get("CARDBASE_CLIENT_DIR") or ROOT.parent / "shared" / "free-realms-client"
)


@pytest.fixture(scope="module")
def cards():  # type: ignore[no-untyped-def]
    parsed = read_catalogue(built_in(REAL))
    assert parsed.problems == []
    assert parsed.ignored_columns == []
    return parsed.cards


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Run:
    path = tmp_path_factory.mktemp("real") / "real.db"
    new_database(path, built_in(REAL))
    return Run(path)


def test_the_tool_rebuilds_cards_csv_from_the_client_byte_for_byte(tmp_path: Path) -> None:
    if not CLIENT.is_dir():
        if os.environ.get("CARDBASE_REQUIRE_CLIENT"):
            pytest.fail(f"{CLIENT}: the client folder is missing")
        pytest.skip(f"{CLIENT}: no client folder here (set CARDBASE_CLIENT_DIR)")
    rebuilt = subprocess.run(
        [sys.executable, "tools/build_catalogue.py", str(CLIENT)],
        cwd=ROOT, env=subprocess_env(), capture_output=True, check=True,
    ).stdout  # fmt: skip
    committed = (ROOT / "cards.csv").read_bytes()
    assert rebuilt.decode().splitlines() == committed.decode().splitlines()  # which rows differ
    assert rebuilt == committed


def test_the_tool_refuses_a_folder_that_is_not_a_client(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "tools/build_catalogue.py", str(tmp_path)],
        cwd=ROOT, env=subprocess_env(), capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stdout == ""
    assert "not a Free Realms client folder" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_every_card_of_the_five_sets(cards) -> None:  # type: ignore[no-untyped-def]
    assert len(cards) == 707
    assert Counter(card.code.series for card in cards) == {1: 253, 2: 161, 3: 137, 4: 78, 5: 78}
    assert Counter(card.code.rarity for card in cards) == {
        "P": 185, "R": 164, "U": 164, "C": 160, "E": 20, "S": 14,
    }  # fmt: skip
    assert Counter(card.type for card in cards) == {"Creature": 384, "Trick": 163, "Resource": 160}
    assert sum(card.hero for card in cards) == 94
    assert [card.name for card in cards if card.hero and card.sphere] == []
    assert {card.sphere for card in cards} == {"Chaos", "Nature", "Machine", "Order", None}


def test_field_completeness(cards) -> None:  # type: ignore[no-untyped-def]
    """The real catalogue's figures (the old README's catalogue section gave them; no docs
    page does)."""
    named_artist = [card for card in cards if card.artist and not card.artist.startswith("#")]
    assert sum(bool(card.traits) for card in cards) == 542
    assert len(named_artist) == 336
    assert sum(card.artist.startswith("#") for card in cards) == 253
    assert sum(not card.artist for card in cards) == 118
    assert sum(bool(card.gems) for card in cards) == 705
    assert sum(any(t.startswith("#") for t in card.traits) for card in cards) == 65
    creatures = [card for card in cards if card.type == "Creature"]
    assert [c.name for c in creatures if None in (c.cost, c.attack, c.defense)] == []
    assert [card.code for card in cards if card.text or card.lore] == []  # no prose here


def test_names_in_every_client_language(cards) -> None:  # type: ignore[no-untyped-def]
    from cardbase.catalog.cards import split_names

    counts = Counter(language for card in cards for language in split_names(card.names))
    assert counts == {
        "de": 707, "en-GB": 707, "es": 707, "es-MX": 707, "fr": 707, "pt-BR": 707, "zh-CN": 532,
    }  # fmt: skip


def test_the_numbering_anomalies_as_decided(cards) -> None:  # type: ignore[no-untyped-def]
    by_code = {str(card.code): card for card in cards}
    # P cards are numbered on their own: two cards at series 1, number 5
    assert by_code["1 P 5"].name != by_code["1 R 5"].name
    # the three Heroes the data gives set 1 sit in set 2's block and take its free P codes
    assert [by_code[code].name for code in ("2 P 39", "2 P 44", "2 P 49")] == [
        "Miss Artie", "Darrel", "Vittorio",
    ]  # fmt: skip
    assert [by_code[code].name for code in ("1 P 39", "1 P 44", "1 P 49")] == [
        "POD Ninja", "POD Blacksmith", "POD Pet Trainer",
    ]  # fmt: skip
    # Steam Engineer's rebalanced variant is not a printing of its own
    assert [str(card.code) for card in cards if card.name == "Steam Engineer"] == ["1 R 72"]


def test_search_show_and_stats_are_the_real_game(real: Run) -> None:
    found = json.loads(ok(real, "search", "chugawug", "-o", "json"))
    assert "Chugawug Cook" in {card["name"] for card in found}
    assert all("Chugawug" in card["name"] or "Chugawug" in card["traits"] for card in found)
    shown = ok(real, "show", "1 U 139")
    assert "Chugawug Bodyguard" in shown
    assert "FreeRealms" in shown
    assert "Fehr / Dillon" in shown
    assert "de: Chugawug-Leibwächter" in shown
    # the names' later lines stand under the first, in the value's column
    names = shown[shown.index("Names") :].splitlines()
    column = names[0].index("de:")
    assert names[1].index("es:") == column and names[1][:column].strip() == ""
    stats = ok(real, "stats")
    for name in ("1 FreeRealms", "2 Shattered Past", "3 Baron Von Darkcheat", "4 Heroes",
                 "5 Rumbledome"):  # fmt: skip
        assert name in stats


def test_two_cards_share_series_and_number(real: Run) -> None:
    assert json.loads(ok(real, "show", "1 P 5", "-o", "json"))["rarity"] == "P"
    assert json.loads(ok(real, "show", "1 R 5", "-o", "json"))["rarity"] == "R"
    wrong = real("show", "1 C 5")
    assert wrong.exit_code == 2
    assert "that number is 1 P 5 (Sam Potts) or 1 R 5 (Michi)" in wrong.output
    one = real("code", "1 U 157")  # only 1 C 157 is numbered so: found, with a warning
    assert one.exit_code == 0
    assert "Soaring Eagle" in one.output
    assert "is Common, not Uncommon" in one.output


def test_a_card_by_any_of_its_names(real: Run) -> None:
    assert json.loads(ok(real, "show", "Hochfliegender Adler", "-o", "json"))["code"] == "1 C 157"
    assert json.loads(ok(real, "show", "aigle planant", "-o", "json"))["code"] == "1 C 157"
    assert "Soaring Eagle" in ok(real, "search", "name:hochfliegender")
    assert "Soaring Eagle" in ok(real, "search", "Águila voladora")
    card = json.loads(ok(real, "show", "1 C 157", "-o", "json"))
    assert card["names"]["de"] == "Hochfliegender Adler"
    assert card["names"]["zh-CN"]


def test_a_german_sheet_imports_to_the_right_cards(real: Run, tmp_path: Path) -> None:
    sheet = tmp_path / "sammlung.csv"
    sheet.write_text("Anzahl,Name\n2,Hochfliegender Adler\n1,Chugawug-Leibwächter\n", "utf-8")
    result = real("import", str(sheet))
    assert result.exit_code == 0, result.output
    owned = json.loads(ok(real, "collection", "-o", "json"))
    assert {(card["code"], card["nonfoil"]) for card in owned} == {("1 C 157", 2), ("1 U 139", 1)}
    ok(real, "undo")


def test_a_sheets_set_column_must_agree_with_the_card(real: Run, tmp_path: Path) -> None:
    """A set given by number or by the printed set's name chooses among a name's printings,
    and a set the card is not in is a bad row, not ignored."""
    sheet = tmp_path / "sets.csv"
    sheet.write_text("Name,Set,Quantity\nChugawug Cook,FreeRealms,1\nChugawug Cook,2,1\n", "utf-8")
    result = real("import", str(sheet), "--dry-run")
    assert result.exit_code == 2
    assert "row 3: 'Chugawug Cook' is 1 C 143, not a card of series 2" in result.output
    sheet.write_text("Name,Set,Quantity\nBaron von Darkcheat,Heroes,1\n", "utf-8")
    assert "4 P 16" in ok(real, "import", str(sheet), "--dry-run")  # printed in sets 3 and 4


def test_a_german_sheet_in_german_words(real: Run, tmp_path: Path) -> None:
    """Languages and conditions as a German collector writes them."""
    sheet = tmp_path / "sammlung.csv"
    sheet.write_text(
        "Anzahl,Name,Sprache,Zustand\n1,Hochfliegender Adler,Englisch,Nahezu neuwertig\n"
        "1,Hochfliegender Adler,Französisch,Leicht bespielt\n1,Soaring Eagle,中文,Beschädigt\n",
        "utf-8",
    )
    result = real("import", str(sheet))
    assert result.exit_code == 0, result.output
    copies = json.loads(ok(real, "collection", "--copies", "-o", "json"))
    assert sorted((c["language"], c["condition"], c["local_name"]) for c in copies) == [
        ("en", "NM", "Soaring Eagle"), ("fr", "LP", "Aigle planant"), ("zh", "DMG", "飞翔的雄鹰"),
    ]  # fmt: skip
    ok(real, "undo")
