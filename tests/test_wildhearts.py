"""The Wildhearts sample catalogue and the docs' example deck, as a new user tries them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.helpers import ROOT, Run, new_database

# The Wildhearts deck the docs check (docs/decks.md, examples/decks/wildhearts-ada.txt), as
# the README's example did before the docs site.
DOCS_DECK = ROOT / "examples" / "decks" / "wildhearts-ada.txt"


def docs_deck() -> str:
    """The deck file the docs' Wildhearts example checks."""
    assert DOCS_DECK.is_file(), f"the docs' Wildhearts deck is gone: {DOCS_DECK}"
    return DOCS_DECK.read_text(encoding="utf-8")


def test_the_docs_example_works(tmp_path: Path) -> None:
    path = tmp_path / "wh.db"
    new_database(path)  # the bundled Free Realms catalogue, as a new user has it
    run = Run(path)
    imported = run("catalog", "import", str(ROOT / "wildhearts-cards.csv"))
    assert imported.exit_code == 0, imported.output
    assert "48 added" in imported.stdout
    deck = tmp_path / "wh.txt"
    deck.write_text(docs_deck())
    three = run("deck", "check", str(deck), "--players", "3")
    assert three.exit_code == 0, three.output
    assert three.stdout.startswith("\u2714 valid: wh.txt, 42 cards, Wildhearts Free-For-All")
    four = run("deck", "check", str(deck))
    assert four.exit_code == 1
    assert "too-many-cards: 2 cards in the fields section" in four.stdout
    owned = "\n".join(line for line in docs_deck().splitlines() if line[:1].isdigit())
    assert run("add", "-", input=owned).exit_code == 0
    assert run("add", "3 fr:1 C 1").exit_code == 0  # a Free Realms card too, by its game
    stats = json.loads(run("stats", "--game", "wildhearts", "-o", "json").stdout)
    assert stats["totals"] == {"cards": 42, "nonfoil": 42, "foil": 0, "distinct": 27}
    assert "sphere" not in stats
    types = {row["group"]: (row["either"], row["catalogue"]) for row in stats["type"]}
    assert types == {
        "Ally": (9, 16),
        "Tamer": (2, 6),
        "Action": (4, 8),
        "Familiar": (2, 4),
        "Field": (2, 4),
        "Judge": (8, 10),
    }
    assert stats["location"][0]["copies"] == 42
    free_realms = json.loads(run("stats", "-o", "json").stdout)
    assert free_realms["totals"]["cards"] == 3
    assert [row["group"] for row in free_realms["sphere"]][:1] != ["Ally"]
    table = run("stats", "--game", "wildhearts").stdout
    assert table.startswith("42 cards owned")
    assert re.search(r"^Type\s+Complete", table, re.MULTILINE)


def test_the_sample_catalogue_is_in_the_wheel_config() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"wildhearts-cards.csv" = "cardbase/data/wildhearts-cards.csv"' in pyproject


def test_a_code_two_games_print_is_asked_about_never_picked(tmp_path: Path) -> None:
    path = new_database(tmp_path / "both.db")
    run = Run(path)
    assert run("catalog", "import", str(ROOT / "wildhearts-cards.csv")).exit_code == 0
    for typed in ("1 C 41", "1C41"):
        asked = run("show", typed)
        assert asked.exit_code == 2
        assert asked.stderr == (
            "cardbase: 1 C 41 is a card in several games: Robgoblin Scrapper (Free Realms TCG), "
            "Judge: High Winds (Wildhearts TCG). Name one with its game: fr:1 C 41 or wh:1 C 41; or "
            "choose the game for every code with --game (such as --game fr) or 'cardbase "
            "config set game fr'\n"
        )
    assert run("add", "1 C 41").exit_code == 2
    shown = json.loads(run("show", "wh:1 C 41", "-o", "json").stdout)
    assert (shown["name"], shown["game"]) == ("Judge: High Winds", "wildhearts")
    added = run("add", "free-realms:1c41 x2", "WH:1-C-41")
    assert added.exit_code == 0, added.output
    assert "Robgoblin Scrapper (1 C 41) non-foil: 0 -> 2" in added.stdout
    assert "Judge: High Winds (wh:1 C 41) non-foil: 0 -> 1" in added.stdout
    missing = run("show", "wh:1 C 99")
    assert (missing.exit_code, missing.stderr) == (
        2,
        "cardbase: no Wildhearts TCG card has the code 1 C 99\n",
    )


def test_a_prefixed_code_of_a_game_not_loaded_says_how_to_load_it(tmp_path: Path) -> None:
    """1 C 41 is a Free Realms card too: the refusal is about Wildhearts' cards, which this
    database does not have, not about the code; and the command it names loads them."""
    run = Run(new_database(tmp_path / "free-realms-only.db"))
    said = (
        "cardbase: no Wildhearts TCG card has the code 1 C 41: Wildhearts TCG's catalogue is "
        "not loaded. Load it with 'cardbase catalog import wildhearts'"
    )
    missing = run("show", "wh:1 C 41")
    assert (missing.exit_code, missing.stderr) == (2, said + "\n")
    assert run("add", "wh:1 C 41").stderr == said + ". Nothing was changed.\n"
    assert run("show", "1 C 41").exit_code == 0  # the code is Free Realms' all along
    assert run("catalog", "import", "wildhearts").exit_code == 0
    shown = json.loads(run("show", "wh:1 C 41", "-o", "json").stdout)
    assert (shown["name"], shown["game"]) == ("Judge: High Winds", "wildhearts")
