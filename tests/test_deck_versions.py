"""A saved deck's versions: history, diff against NAME@N, restore; bad version tokens."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardbase.errors import CardbaseError
from cardbase.library import Library
from tests.helpers import Run, assert_one_line, database_checksum, ok
from tests.test_decks import BASE


@pytest.fixture
def saved(db_path: Path, tmp_path: Path) -> Path:
    """'Bog Stew' saved three times: the base, one Mistfen Bog fewer and a Temple Bell,
    then a Side section."""
    texts = [
        BASE + "\n1 Ninja Blade Adept\n",
        BASE.replace("3 Mistfen Bog", "2 Mistfen Bog") + "\n2 Temple Bell\n",
        BASE + "\n2 Temple Bell\nSide:\n1 Overclock\n",
    ]
    for number, text in enumerate(texts, 1):
        file = tmp_path / f"v{number}.txt"
        file.write_text(text)
        Library(db_path).save_deck(file, "Bog Stew", replace=number > 1)
    return db_path


def test_history_lists_every_save_with_what_it_changed(saved: Path) -> None:
    deck, versions = Library(saved).deck_history("bog stew")
    assert deck.name == "Bog Stew"
    summary = [(v.number, v.cards, v.added, v.removed, v.changed) for v in versions]
    assert summary == [(1, 40, 14, 0, 0), (2, 40, 1, 1, 1), (3, 42, 1, 0, 1)]
    said = json.loads(ok(Run(saved), "deck", "history", "Bog Stew", "-o", "json"))
    assert said == {"deck": "Bog Stew", "versions": [v.to_dict() for v in versions]}
    table = ok(Run(saved), "deck", "history", "Bog Stew")
    assert "1 added, 1 removed, 1 changed" in table


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Bog Stew@1", "Bog Stew@2", ["changed", "removed", "added"]),
        ("Bog Stew@2", "Bog Stew", ["changed", "added"]),
        ("Bog Stew@3", "Bog Stew", []),
    ],
)
def test_diff_reads_a_version(saved: Path, old: str, new: str, expected: list[str]) -> None:
    changes = Library(saved).diff_decks(old, new)
    assert sorted(c.kind for c in changes) == sorted(expected)
    said = json.loads(ok(Run(saved), "deck", "diff", old, new, "-o", "json"))
    assert said == [c.to_dict() for c in changes]


def test_restore_saves_an_old_version_as_the_newest(saved: Path) -> None:
    library = Library(saved)
    said = ok(Run(saved), "deck", "restore", "Bog Stew", "1")
    assert said == "Restored 'Bog Stew' version 1 as version 4: 40 cards\n"
    _deck, versions = library.deck_history("Bog Stew")
    assert [v.number for v in versions] == [1, 2, 3, 4]
    assert library.diff_decks("Bog Stew@1", "Bog Stew") == []
    assert library.diff_decks("Bog Stew@3", "Bog Stew@3") == []
    done = json.loads(ok(Run(saved), "deck", "restore", "Bog Stew", "3", "-o", "json"))
    assert done == {"deck": "Bog Stew", "restored": 3, "version": 5, "cards": 42,
                    "format": "free-realms"}  # fmt: skip


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["deck", "history", "Nope"], "no deck file or saved deck named 'Nope'"),
        (["deck", "restore", "Nope", "1"], "no deck file or saved deck named 'Nope'"),
        (["deck", "restore", "Bog Stew", "0"], "has no version 0"),
        (["deck", "restore", "Bog Stew", "99"], "'Bog Stew' has versions 1 to 3"),
        (["deck", "restore", "Bog Stew", "x"], "'@x': a version is a number"),
        (["deck", "diff", "Bog Stew@0", "Bog Stew"], "has no version 0"),
        (["deck", "diff", "Bog Stew@99", "Bog Stew"], "'Bog Stew' has versions 1 to 3"),
        (["deck", "diff", "Bog Stew", "Bog Stew@x"], "'@x': a version is a number"),
        (["deck", "diff", "Nope@1", "Bog Stew"], "no deck file or saved deck named 'Nope'"),
    ],
)
def test_bad_versions_are_one_line_and_change_nothing(
    saved: Path, args: list[str], said: str
) -> None:
    before = database_checksum(saved)
    assert said in assert_one_line(Run(saved)(*args))
    assert database_checksum(saved) == before


def test_a_deck_named_with_an_at_sign_is_that_deck(db_path: Path, tmp_path: Path) -> None:
    file = tmp_path / "d.txt"
    file.write_text(BASE + "\n")
    library = Library(db_path)
    library.save_deck(file, "Stew @ Regionals")
    assert library.diff_decks("Stew @ Regionals", str(file)) == []
    with pytest.raises(CardbaseError, match="a version is a number"):
        library.diff_decks("Stew @ Regionals@two", str(file))
