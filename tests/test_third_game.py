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
        ["deck", "code", str(tmp_path / "deck.txt")],
    )
    codes = [step["code"] for step in said]
    assert codes == [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0], said
    imported, moon, ranked, glamour, added, sheet, deck, bad, stats, games, show, coded = said
    from cardbase.decks.deckcode import decode

    game, cards = decode(coded["out"].strip())  # a user's game: named in the code by its key
    assert game == "pixie-duel" and {c.section for c in cards} == {"main", "side"}
    assert "9 added" in imported["out"]
    names = lambda step: [card["name"] for card in json.loads(step["out"])]  # noqa: E731
    assert names(moon) == ["Hollowmoon Page", "Nightshade Dancer", "Owl Knight"]
    assert names(ranked) == ["Queen of Noon", "Owl Knight", "The Moon Itself"]
    assert names(glamour) == ["Queen of Noon", "Owl Knight"]
    assert "The Moon Itself (pixie-duel:7 U 9) non-foil: 0 -> 1" in added["out"]
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


# After the commands: the library's reading of the same database, and the web search page.
AFTER = """
from cardbase.library import Library
from tests.web_helpers import Pages
library = Library(Path(sys.argv[1]))
card = library.card("pixie-duel:7 C 4")
page = Pages(Path(sys.argv[1])).get("/search", params={"dust": "5..6", "wings": "moth"}).text
print(json.dumps({
    "search": [c.name for c in library.search("dust>3")],
    "options": [c.name for c in library.search(dust="3..", shiny=True)],
    "values": dict(card.values),
    "page": page,
}))
"""


def run_with_library(tmp_path: Path, *commands: list[str]) -> tuple[list[dict[str, Any]], Any]:
    """`run_all`'s commands, then `AFTER` in the same child process."""
    db = new_database(tmp_path / "three.db", MINI_CATALOGUE)
    env = {**subprocess_env(), "CARDBASE_GAMES": str(GAMES), "CARDBASE_CONFIG": os.devnull,
           "XDG_CACHE_HOME": str(tmp_path / "cache")}  # fmt: skip
    driver = DRIVER.replace("print(json.dumps(said))", "print(json.dumps(said))" + AFTER)
    done = subprocess.run(
        [sys.executable, "-c", driver, str(db), json.dumps(commands)],
        env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said, after = done.stdout.splitlines()[-2:]
    return json.loads(said), json.loads(after)


@pytest.mark.slow  # a child process that imports every command and the web app
def test_a_third_games_own_fields_are_searched_shown_and_exported(tmp_path: Path) -> None:
    """Pixie Duel's dust (a number), wings (a word of its list), shiny (a flag) and aura
    (colours of its own), fields the card table has no column for: loaded from its catalogue (wings under its header,
    Wing Kind), searched, sorted and filtered as every field is, shown, in JSON, exported
    under their headers and read back; a bad value refused with its row and column."""
    bad = tmp_path / "bad.csv"
    good = CATALOGUE.read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join([good[0], good[1].replace(",2,Moth,yes", ",lots,Moth,yes"),
                              good[2].replace(",Butterfly,", ",Beetle,"),
                              good[4].replace(",VV", ",VRVR")]) + "\n")  # fmt: skip
    changed = tmp_path / "changed.csv"
    changed.write_text(f"{good[0]}\n{good[1].replace(',2,Moth,yes', ',9,Moth,yes')}\n")
    without = tmp_path / "without.csv"  # no column of the game's own fields: they are kept
    without.write_text("code,name,type,sphere,cost,attack,defense,game\n"
                       "7 C 1,Dawnwing Sprite,Duelist,Sun,1,2,1,pixie-duel\n")  # fmt: skip
    export = tmp_path / "out.csv"
    said, after = run_with_library(
        tmp_path,
        ["catalog", "import", str(CATALOGUE)],
        ["search", "dust>3", "-o", "json"],
        ["search", "game:pixie-duel", "pd:2..4", "order:-dust", "-o", "json"],
        ["search", "--dust", "3..", "--shiny", "-o", "json"],
        ["search", "wings:moth", "-o", "json"],
        ["search", "is:shiny", "-wings:moth", "-o", "json"],
        ["search", "dust>cost", "order:wings", "-o", "json"],
        ["show", "7 C 4"],
        ["show", "7 C 4", "-o", "json"],
        ["search", "wings:beetle"],
        ["catalog", "import", str(bad)],
        ["add", "7 C 4 x2", "7 R 7"],
        ["export", str(export)],
        ["import", str(export)],
        ["catalog", "import", str(export)],
        ["search", "wings:moth", "game:pixie-duel"],
        ["search", "aura:rv", "-o", "json"],
        ["search", "aura:violet", "--aura", "v", "-o", "json"],
        ["catalog", "import", str(changed)],
        ["catalog", "import", str(without)],
        ["search", "dust=9", "is:shiny", "wings:moth", "-o", "json"],
    )
    codes = [step["code"] for step in said]
    assert codes == [0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], said
    (_, over3, ranged, options, moths, shiny, versus, show, shown, beetle, refused, _, _,
     imported, catalogued, table, rose_violet, violet, change, kept, nine) = said  # fmt: skip
    assert "0 added, 1 updated, 0 unchanged" in change["out"]  # its dust alone changed
    assert "0 added, 0 updated, 1 unchanged" in kept["out"]
    assert [card["name"] for card in json.loads(nine["out"])] == ["Dawnwing Sprite"]
    names = lambda step: [card["name"] for card in json.loads(step["out"])]  # noqa: E731
    assert names(over3) == ["Dewdrop Squire", "Nightshade Dancer", "Queen of Noon"]
    assert names(ranged) == ["Dewdrop Squire", "Owl Knight", "Dawnwing Sprite"]
    assert names(options) == ["Nightshade Dancer", "Queen of Noon"]
    assert names(moths) == ["Dawnwing Sprite", "Nightshade Dancer"]
    assert names(shiny) == ["Queen of Noon"]
    # by wings' words as bytes order them: Butterfly, Moth, Moth
    assert names(versus) == ["Dewdrop Squire", "Queen of Noon", "Dawnwing Sprite",
                             "Nightshade Dancer"]  # fmt: skip
    assert "Pixie Dust  5\n" in show["out"] and "Wing Kind   Moth\n" in show["out"]
    assert "Shiny       yes\n" in show["out"]
    card = json.loads(shown["out"])
    assert (card["dust"], card["wings"], card["shiny"]) == (5, "Moth", True)
    assert list(card).index("dust") == list(card).index("gems") + 1  # in the registry's order
    assert beetle["err"].startswith("cardbase: unknown wings 'beetle'")
    assert refused["err"].startswith(f"cardbase: {bad}: 3 bad rows, so nothing was imported")
    assert f"{bad}, row 4: aura 'VRVR' has 4 aura; a card has at most 3" in refused["err"]
    assert f"{bad}, row 2: dust 'lots' is not a whole number" in refused["err"]
    assert (
        f"{bad}, row 3: wings 'Beetle' is not one of Moth, Butterfly, Dragonfly" in refused["err"]
    )
    header = export.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[header.index("Gems") + 1 : header.index("Gems") + 4] == [
        "Pixie Dust", "Wing Kind", "Shiny"
    ]  # fmt: skip
    assert ",5,Moth,yes," in export.read_text(encoding="utf-8")
    assert "Pixie Dust, Wing Kind, Shiny" in imported["out"]  # the card's, as its other columns
    assert "0 added, 0 updated, 2 unchanged" in catalogued["out"]  # the same values read back
    assert "Moth" in table["out"].splitlines()[1] and "yes" in table["out"].splitlines()[1]
    assert names(rose_violet) == ["Dewdrop Squire", "Queen of Noon"]
    assert names(violet) == ["Dewdrop Squire", "Nightshade Dancer", "Queen of Noon",
                             "The Moon Itself"]  # fmt: skip
    assert "Aura        VV (2)\n" in show["out"]
    assert card["aura"] == "VV"
    # after the changed catalogue, whose Dawnwing Sprite has 9 dust
    assert after["search"] == ["Dawnwing Sprite", *names(over3)]
    assert after["options"] == ["Dawnwing Sprite", *names(options)]
    assert after["values"] == {"dust": 5, "wings": "Moth", "shiny": True, "aura": "VV"}
    page = after["page"]
    assert 'name="dust"' in page and '<select name="wings"' in page and 'name="shiny"' in page
    assert "Nightshade Dancer" in page and "Dawnwing Sprite" not in page


@pytest.mark.slow  # a PostgreSQL database and a child process
def test_a_third_games_own_fields_on_postgresql(tmp_path: Path, pg_url: Any) -> None:
    """The same terms, sorts and catalogue checks on PostgreSQL: the fields' SQL is the
    same on both engines, a word sorts by its bytes on both."""
    env = {**subprocess_env(), "CARDBASE_GAMES": str(GAMES), "CARDBASE_CONFIG": os.devnull,
           "XDG_CACHE_HOME": str(tmp_path / "cache")}  # fmt: skip
    commands = [
        ["catalog", "import", str(CATALOGUE)],
        ["search", "dust>cost", "order:wings", "-o", "json"],
        ["search", "pd:2..4", "order:-dust", "is:shiny", "aura:r", "-o", "json"],
        ["show", "7 R 7", "-o", "json"],
        ["search", "dust>2", "-wings:moth", "-o", "json"],
    ]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER.replace("Run(Path(sys.argv[1]))", "Run(sys.argv[1])"),
         pg_url.url, json.dumps(commands)],
        env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert [step["code"] for step in said] == [0, 0, 0, 0, 0], said
    names = lambda step: [card["name"] for card in json.loads(step["out"])]  # noqa: E731
    assert names(said[1]) == ["Dewdrop Squire", "Queen of Noon", "Dawnwing Sprite",
                              "Nightshade Dancer"]  # fmt: skip
    assert names(said[2]) == ["Dawnwing Sprite"]
    card = json.loads(said[3]["out"])
    assert (card["dust"], card["wings"], card["shiny"]) == (7, "Butterfly", True)
    assert names(said[4]) == ["Dewdrop Squire", "Queen of Noon", "Owl Knight"]  # no wings too


@pytest.mark.slow  # a child process that imports every command
def test_each_games_cards_show_what_their_types_carry(tmp_path: Path) -> None:
    """A table of other games' cards has no column of Pixie Duel's own fields (they would be
    empty), a table of its cards has them; a card shows the fields its type carries in its
    game's file (no Gems line for a game without gems, no Sphere for a Wildhearts Judge),
    its cost in coins only where the game counts coins, and its game by title."""
    said = run_all(
        tmp_path,
        ["catalog", "import", str(CATALOGUE)],
        ["catalog", "import", "wildhearts"],
        ["search", "chugawug"],
        ["search", "game:pixie-duel", "is:shiny"],
        ["search", "game:wildhearts", "t:ally"],
        ["show", "7 R 7"],
        ["show", "wh:1 C 41"],
        ["show", "1 C 14"],
        ["search", "t:spell", "-o", "json"],
    )
    assert [step["code"] for step in said[:8]] == [0] * 8, said[-1]
    fr_table, pixie_table, wh_table = said[2]["out"], said[3]["out"], said[4]["out"]
    assert "Chugawug Cook" in fr_table and "Pixie Dust" not in fr_table
    assert fr_table.split()[:10] == ["Code", "Rarity", "Name", "Type", "Sphere", "Cost",
                                     "Atk/Def", "Gems", "Owned", "Foil"]  # fmt: skip
    # a table of one game's cards in its words, without columns of fields it has not
    assert pixie_table.split()[:12] == ["Code", "Rarity", "Name", "Type", "Court", "Cost",
                                        "Glamour/Grace", "Pixie", "Dust", "Wing", "Kind",
                                        "Shiny"]  # fmt: skip
    assert wh_table.split()[:9] == ["Code", "Rarity", "Name", "Type", "Cost", "Attack/Defense",
                                    "Gems", "Owned", "Foil"]  # fmt: skip
    pixie = dict(line.split(maxsplit=1) for line in said[5]["out"].splitlines() if " " in line)
    assert pixie["Cost"].strip() == "4" and "Gems" not in pixie
    assert "Game        Pixie Duel" in said[5]["out"]
    judge = said[6]["out"]
    assert "Judge: High Winds" in judge and "Sphere" not in judge
    assert "Game   Wildhearts TCG" in judge
    assert "Chugawug Cook" in said[7]["out"] and "2 coins" in said[7]["out"]
    # a type's synonyms in its game's file are query words too: Pixie Duel's spell, its Charm
    assert said[8]["code"] == 0, said[8]
    assert {card["type"] for card in json.loads(said[8]["out"])} == {"Charm"}


@pytest.mark.slow  # a child process that imports every command
def test_a_games_own_rarity_order_is_what_its_rarity_terms_compare(tmp_path: Path) -> None:
    """Pixie Duel ranked C < R < U (its [rarity_order]): r>=r is its rares and uncommons,
    r<r its commons, while Free Realms' r>=r stays R and E (C < U < R < E)."""
    games = tmp_path / "games"
    games.mkdir()
    source = (GAMES / "pixie-duel.toml").read_text(encoding="utf-8")
    assert 'ranked = "CUR"' in source
    (games / "pixie-duel.toml").write_text(
        source.replace('ranked = "CUR"', 'ranked = "CRU"').replace(
            'catalogue = "../pixie-duel-cards.csv"', f'catalogue = "{CATALOGUE.as_posix()}"'
        ),
        encoding="utf-8",
    )
    db = new_database(tmp_path / "order.db", MINI_CATALOGUE)
    env = {**subprocess_env(), "CARDBASE_GAMES": str(games), "CARDBASE_CONFIG": os.devnull,
           "XDG_CACHE_HOME": str(tmp_path / "cache")}  # fmt: skip
    commands = [
        ["catalog", "import", str(CATALOGUE)],
        ["search", "game:pixie-duel", "r>=r", "-o", "json"],
        ["search", "game:pixie-duel", "r<r", "-o", "json"],
        ["search", "game:free-realms", "r>=r", "-o", "json"],
    ]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(db), json.dumps(commands)],
        env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert [step["code"] for step in said] == [0, 0, 0, 0], said
    rarities = [sorted({card["rarity"] for card in json.loads(step["out"])}) for step in said[1:]]
    assert rarities == [["R", "U"], ["C"], ["E", "R"]]
