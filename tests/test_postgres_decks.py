"""Deck versions and built decks on PostgreSQL: the same commands as on SQLite (the sleeve
guard's reads, sums and deletes run on the server's SQL), each write one transaction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardbase.db.location import PostgresUrl
from cardbase.library import Library
from tests.conftest import Run
from tests.helpers import assert_one_line, ok


@pytest.fixture
def league(pg_mini: PostgresUrl, tmp_path: Path) -> Run:
    run = Run(pg_mini.url)  # type: ignore[arg-type]
    ok(run, "add", "1 C 14 x2", "--condition", "lp")
    ok(run, "add", "1 C 14 x2 foil")
    ok(run, "add", "1 U 15 x2")
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Cook\n2 Chugawug Elder\n")
    ok(run, "deck", "save", str(deck), "--name", "Bog Stew")
    deck.write_text("3 Chugawug Cook\n1 Chugawug Elder\n")
    ok(run, "deck", "save", str(deck), "--name", "Bog Stew", "--force")
    return run


def test_versions_on_postgresql(league: Run) -> None:
    history = json.loads(ok(league, "deck", "history", "Bog Stew", "-o", "json"))
    assert [(v["number"], v["cards"], v["changed"]) for v in history["versions"]] == [
        (1, 5, 0), (2, 4, 1),
    ]  # fmt: skip
    assert json.loads(ok(league, "deck", "diff", "Bog Stew@1", "Bog Stew", "-o", "json"))
    assert "version 1 as version 3" in ok(league, "deck", "restore", "Bog Stew", "1")
    assert "has versions 1 to 3" in assert_one_line(league("deck", "restore", "Bog Stew", "9"))


def test_sleeves_and_the_guard_on_postgresql(league: Run, pg_mini: PostgresUrl) -> None:
    said = ok(league, "deck", "sleeve", "Bog Stew")
    assert said.index("non-foil, LP") < said.index("foil, NM")  # the most worn first
    cards = {c["code"]: c for c in json.loads(ok(league, "collection", "-o", "json"))}
    assert (cards["1 C 14"]["in_decks"], cards["1 C 14"]["free"]) == (3, 1)
    refused = assert_one_line(league("remove", "1 C 14 x2", "--condition", "lp"))
    assert "'Bog Stew'" in refused and "nothing was changed" in refused
    forced = league("remove", "1 C 14 x2", "--condition", "lp", "--force")
    assert forced.exit_code == 0 and "out of the built deck 'Bog Stew'" in forced.stderr
    assert "0 -> 2" in ok(league, "undo")  # the copies back, free: the deck let them go
    assert "2 copies" in ok(league, "deck", "sleeve", "Bog Stew")  # taken again
    undo_add = assert_one_line(league("undo"))  # of the add the deck's Elder came from
    assert "Chugawug Elder" in undo_add and "deck unsleeve 'Bog Stew'" in undo_add
    ok(league, "undo", "--force")
    listed = json.loads(ok(league, "deck", "list", "-o", "json"))
    assert (listed[0]["sleeved"], listed[0]["owned"]) == (3, 3)
    assert Library(pg_mini).unsleeve_deck("Bog Stew").sleeved == 0
