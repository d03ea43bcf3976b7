"""The Deck Builder Helper: legal decks from what you own, or an exact account of what is short."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardbase.decks.builder import build_deck
from cardbase.decks.check import check_deck
from cardbase.decks.lists import parse_deck_text
from cardbase.decks.saved import deck_text
from cardbase.library import Library
from tests.helpers import Run, new_database


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled catalogue; three of every Chaos card, one of each Hero, five Order cards."""
    path = tmp_path_factory.mktemp("builder") / "builder.db"
    new_database(path)
    run = Run(path)
    for query, copies in (("s:chaos", 3), ("is:hero", 1), ("s:order t:creature order:cost", 1)):
        cards = json.loads(
            run("search", query, "--limit", "5" if "order" in query else "100", "-o", "json").stdout
        )
        items = "\n".join(f"{copies}x{card['code']}" for card in cards)
        assert run("add", "-", input=items).exit_code == 0
    return path


def test_builds_a_legal_deck(collection: Path) -> None:
    conn = Library(collection).connect()
    result = build_deck(conn, "chaos", heroes=3)
    assert result.shortage is None
    assert result.cards == 40
    text = deck_text(conn, result.placed())
    report = check_deck(conn, parse_deck_text(text, "built"), owned=True)
    assert report.valid, [p.describe() for p in report.problems]
    cards = [choice.card for choice in result.choices]
    assert {card.sphere for card in cards if not card.hero} == {"Chaos"}
    assert sum(c.copies for c in result.choices if c.card.hero) == 3
    assert [c.card.name for c in result.choices if c.card.hero and c.copies != 1] == []
    by_type = {
        t: sum(c.copies for c in result.choices if c.card.type == t)
        for t in ("Creature", "Resource", "Trick")
    }
    assert by_type == {"Creature": 22, "Resource": 8, "Trick": 10}
    creatures = [c for c in result.choices if c.card.type == "Creature" and not c.card.hero]
    cheap = sum(c.copies for c in creatures if (c.card.cost or 0) <= 2)
    dear = sum(c.copies for c in creatures if (c.card.cost or 0) >= 5)
    assert cheap > dear
    assert result.left_out
    assert [note for note in result.left_out if ":" not in note] == []


def test_prefers_more_gems_among_equals(collection: Path) -> None:
    conn = Library(collection).connect()
    tricks = [c.card for c in build_deck(conn, "chaos").choices if c.card.type == "Trick"]
    chaos_tricks = json.loads(Run(collection)("search", "s:chaos t:trick", "-o", "json").stdout)
    fewest_taken = min(len(card.gems) for card in tricks)
    taken = {card.name for card in tricks}
    passed_over_with_more_gems = [
        card["name"]
        for card in chaos_tricks
        if card["name"] not in taken and len(card["gems"]) > fewest_taken
    ]
    assert passed_over_with_more_gems == []


def test_is_deterministic(collection: Path) -> None:
    conn = Library(collection).connect()
    assert build_deck(conn, "chaos") == build_deck(conn, "chaos")


def test_says_exactly_what_is_short(collection: Path) -> None:
    conn = Library(collection).connect()
    result = build_deck(conn, "order")
    assert (
        result.shortage
        and result.shortage.cli
        == result.shortage.web
        == "only 19 Order cards and Heroes owned (up to 3 of a name count); 21 more needed"
    )
    assert result.choices == []


def test_cli_build_save_and_fail(collection: Path, tmp_path: Path) -> None:
    from tests.helpers import copy_database

    path = copy_database(collection, tmp_path / "b.db")
    run = Run(path)
    built = run("deck", "build", "--sphere", "chaos", "--save", "--name", "Pack Rats")
    assert built.exit_code == 0, built.output
    assert built.stdout.startswith("Main:\n")
    assert "\u2714 valid: 40 cards" in built.stderr
    assert run("deck", "check", "Pack Rats", "--owned").exit_code == 0
    out = tmp_path / "deck.txt"
    assert run("deck", "build", "--sphere", "c", "--out", str(out)).exit_code == 0
    assert run("deck", "check", str(out)).exit_code == 0
    short = run("deck", "build", "--sphere", "order")
    assert short.exit_code == 1
    assert "21 more needed" in short.stderr
    wrong = run("deck", "build", "--sphere", "fire")
    assert wrong.exit_code == 2
    assert "use one of chaos, nature, machine, order" in wrong.stderr


@pytest.mark.parametrize("heroes", [0, 1, 2, 5, None])
def test_never_more_heroes_than_asked(collection: Path, heroes: int | None) -> None:
    conn = Library(collection).connect()
    result = build_deck(conn, "chaos", heroes)
    assert result.cards == 40
    in_deck = sum(c.copies for c in result.choices if c.card.hero)
    assert in_deck == (2 if heroes is None else heroes)
    assert result.notes[0].startswith(f"Heroes: {in_deck} (")


def test_gaps_are_filled_with_heroes_only_within_the_limit(tmp_path: Path) -> None:
    """The issue's case: few Machine cards, many Heroes. Without --heroes the gaps go to
    Heroes, and a note says so; --heroes 0 refuses, saying what would fill it."""
    path = tmp_path / "m.db"
    new_database(path)
    run = Run(path)
    machine = json.loads(run("search", "s:machine t:creature", "-o", "json").stdout)[:12]
    heroes = json.loads(run("search", "is:hero", "-o", "json", "--limit", "100").stdout)
    items = [f"2x{c['code']}" for c in machine] + [f"3x{c['code']}" for c in heroes]
    assert run("add", "-", input="\n".join(items)).exit_code == 0
    conn = Library(path).connect()
    default = build_deck(conn, "machine")
    in_deck = sum(c.copies for c in default.choices if c.card.hero)
    assert default.cards == 40 and in_deck == 40 - 24
    assert default.notes[-1] == f"{in_deck - 2} filled with Heroes (no --heroes limit)"
    assert any("not enough owned" in note for note in default.notes)
    none = build_deck(conn, "machine", heroes=0)
    assert none.choices == []
    assert none.shortage and none.shortage.cli == (
        "only 24 Machine cards owned (up to 3 of a name count) and --heroes 0 allows 0 "
        "Heroes; 16 more needed; --heroes 16 would fill it"
    )
    assert none.shortage.web == (  # the page's Heroes box, not the command line's option
        "only 24 Machine cards owned (up to 3 of a name count) and Heroes 0 allows 0 "
        "of them; 16 more needed; Heroes 16 would fill it"
    )
    assert sum(c.copies for c in build_deck(conn, "machine", 16).choices if c.card.hero) == 16
    refused = run("deck", "build", "--sphere", "machine", "--heroes", "0")
    assert refused.exit_code == 1
    assert "--heroes 16 would fill it" in refused.stderr
    explained = run("deck", "build", "--sphere", "machine")
    assert "filled with Heroes (no --heroes limit)" in explained.stderr


def test_no_cards_of_the_sphere_is_no_deck_of_it(tmp_path: Path) -> None:
    """Heroes have no sphere: a collection of Heroes and Nature cards builds no Chaos deck,
    rather than 40 Heroes called one."""
    path = tmp_path / "h.db"
    new_database(path)
    run = Run(path)
    nature = json.loads(run("search", "s:nature", "-o", "json", "--limit", "30").stdout)
    heroes = json.loads(run("search", "is:hero", "-o", "json", "--limit", "100").stdout)
    items = [f"3x{c['code']}" for c in nature] + [f"3x{c['code']}" for c in heroes]
    assert run("add", "-", input="\n".join(items)).exit_code == 0
    with Library(path).reading() as conn:
        result = build_deck(conn, "chaos")
    assert result.choices == [] and result.shortage
    owned = 3 * len({c["name"] for c in heroes})  # up to 3 of a name count
    assert result.shortage.cli == (
        f"no Chaos cards owned; a Chaos deck needs its sphere's cards, and Heroes ({owned} "
        "owned) only go beside them"
    )
    refused = run("deck", "build", "--sphere", "chaos")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr.startswith("\u2718 cannot build a Chaos deck: no Chaos cards owned;")
    assert run("deck", "build", "--sphere", "nature").exit_code == 0


def test_out_and_save_follow_the_overwrite_rule(collection: Path, tmp_path: Path) -> None:
    from tests.helpers import copy_database

    run = Run(copy_database(collection, tmp_path / "b.db"))
    out = tmp_path / "deck.txt"
    out.write_text("mine")
    refused = run("deck", "build", "--sphere", "chaos", "--out", str(out), "--save")
    assert refused.exit_code == 2
    assert "add --force" in refused.stderr
    assert out.read_text() == "mine"
    assert json.loads(run("deck", "list", "-o", "json").stdout) == []
    assert run("deck", "build", "--sphere", "chaos", "--save").exit_code == 0
    again = run("deck", "build", "--sphere", "chaos", "--save")
    assert again.exit_code == 2 and "add --force" in again.stderr
    forced = run("deck", "build", "--sphere", "chaos", "--save", "--out", str(out), "--force")
    assert forced.exit_code == 0
    assert out.read_text().startswith("Main:")
