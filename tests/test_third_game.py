"""A third game from files in tests/ alone (tests/data/games/pixie-duel.toml and
tests/data/pixie-duel-cards.csv), through the commands a new game's collector runs: its
catalogue imported, searched by its own words, added to and imported into a collection,
its decks checked against its own format, its stats.

The games are read when cardbase is imported, so the commands run in one child process
whose ``$CARDBASE_GAMES`` names the test's games folder (one process, not one a command:
the whole walk costs one start).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import DATA, MINI_CATALOGUE, new_database, subprocess_env

GAMES = DATA / "games"
CATALOGUE = DATA / "pixie-duel-cards.csv"
# Runs each command of argv[2] (JSON) through typer's runner on the database argv[1].
DRIVER = """
import json, sys
from pathlib import Path
from tests.helpers import Run
run = Run(Path(sys.argv[1]))
said = []
for args in json.loads(sys.argv[2]):
    result = run(*args)
    said.append({"code": result.exit_code, "out": result.stdout, "err": result.stderr})
print(json.dumps(said))
"""
DECK = """Format: pixie-duel-standard
Main:
2 Dawnwing Sprite
2 Dewdrop Squire
2 Hollowmoon Page
2 Nightshade Dancer
2 Queen of Noon
2 Owl Knight
Sideboard:
1 Glimmer Charm
"""
BAD_DECK = DECK.replace("2 Dawnwing Sprite", "3 Dawnwing Sprite").replace(
    "2 Owl Knight\nSideboard:\n1 Glimmer Charm", "1 Owl Knight\nSideboard:\n1 Owl Knight"
)


def run_all(tmp_path: Path, *commands: list[str]) -> list[dict[str, Any]]:
    db = new_database(tmp_path / "three.db", MINI_CATALOGUE)
    env = {
        **subprocess_env(),
        "CARDBASE_GAMES": str(GAMES),
        "CARDBASE_CONFIG": os.devnull,
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(db), json.dumps(commands)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    said: list[dict[str, Any]] = json.loads(done.stdout)
    return said


@pytest.mark.slow  # a child process that imports every command, and eleven commands
def test_a_third_game_from_files_in_tests_alone(tmp_path: Path) -> None:
    (tmp_path / "deck.txt").write_text(DECK)
    (tmp_path / "bad.txt").write_text(BAD_DECK)
    (tmp_path / "sheet.csv").write_text("Name,Qty\nDawnwing Sprite,3\nShadow Veil,1\n")
    said = run_all(
        tmp_path,
        ["catalog", "import", str(CATALOGUE)],
        ["search", "court:moon", "t:duelist", "-o", "json"],  # its words and its alias
        ["search", "game:pixie-duel", "r>=u", "-o", "json"],  # its rarity order: C < U < R
        ["search", "glamour>=4", "game:pixie-duel", "-o", "json"],
        ["add", "7 U 9", "Owl Knight x2"],
        ["import", str(tmp_path / "sheet.csv")],
        ["deck", "check", str(tmp_path / "deck.txt")],
        ["deck", "check", str(tmp_path / "bad.txt"), "-o", "json"],
        ["stats", "--game", "pixie-duel", "-o", "json"],
        ["games", "-o", "json"],
        ["show", "7 U 9", "-o", "json"],
    )
    codes = [step["code"] for step in said]
    assert codes == [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], said
    imported, moon, ranked, glamour, added, sheet, deck, bad, stats, games, show = said
    assert "9 added" in imported["out"]
    names = lambda step: [card["name"] for card in json.loads(step["out"])]  # noqa: E731
    assert names(moon) == ["Hollowmoon Page", "Nightshade Dancer", "Owl Knight"]
    assert names(ranked) == ["Queen of Noon", "Owl Knight", "The Moon Itself"]
    assert names(glamour) == ["Queen of Noon", "Owl Knight"]
    assert "The Moon Itself (7 U 9) non-foil: 0 -> 1" in added["out"]
    assert "2 cards were added" in sheet["out"]
    assert deck["out"].startswith("\u2714 valid: deck.txt, 13 cards, Pixie Duel Standard")
    problems = {p["code"]: p["message"] for p in json.loads(bad["out"])["problems"]}
    assert problems == {
        "wrong-type": "line 10 'Owl Knight' is a Duelist; the side section takes only Charm",
        "too-many-copies": "Dawnwing Sprite x3 (line 3: 7 C 1 x3), at most 2",
    }
    totals = json.loads(stats["out"])
    assert totals["totals"] == {"cards": 7, "nonfoil": 7, "foil": 0, "distinct": 4}
    assert [row["group"] for row in totals["sphere"]] == ["Moon", "Sun"]
    third = json.loads(games["out"])[2]
    assert (third["key"], third["cards"], third["file"]) == (
        "pixie-duel", 9, str(GAMES / "pixie-duel.toml")
    )  # fmt: skip
    card = json.loads(show["out"])
    assert (card["game"], card["set_name"], card["rarity"]) == ("pixie-duel", "Moonrise", "U")
