"""The one rule for names people give (`cardbase.naming`): collector names, deck names,
locations and tags are NFC, hold no invisible characters, have their spaces folded, and a
new collector or deck may not look like another one."""

from __future__ import annotations

import json
import sqlite3
import string
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import given
from hypothesis import strategies as st

from cardbase import naming
from cardbase.collection import attributes as attrs
from cardbase.collection import collectors
from cardbase.errors import CardbaseError
from cardbase.library import Library
from tests.helpers import Run


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


CAFE = nfc("Café")
ZOE = nfc("Zoë")


def stored(db_path: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db_path) as conn:
        return conn.execute(sql).fetchall()


def refused(result: Result, *words: str) -> None:
    """A CLI refusal: exit 2 and one line on stderr that holds every word."""
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


# The normaliser ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("  Binder   1 ", "Binder 1"), (nfd("Café"), CAFE), (CAFE, CAFE),
     ("a\u00a0b", "a b"), ("\u3000x\u2003\u2003y ", "x y"), ("A\u2000B", "A B"),
     ("\u2764\ufe0f", "\u2764\ufe0f"), ("", "")],
)  # fmt: skip
def test_clean_keeps_one_spelling(typed: str, kept: str) -> None:
    assert naming.clean(typed, "location") == kept


@pytest.mark.parametrize(
    ("typed", "code", "where"),
    [("Ali\tce", "U+0009", 4), ("Alice\n", "U+000A", 6), ("a\x07b", "U+0007", 2),
     ("Zo\u200bë", "U+200B ZERO WIDTH SPACE", 3), ("a\u2028b", "U+2028", 2),
     ("\u202eecila", "U+202E RIGHT-TO-LEFT OVERRIDE", 1), ("x\u2066y", "U+2066", 2),
     ("\ufeffBox", "U+FEFF", 1), ("soft\u00adhyphen", "U+00AD SOFT HYPHEN", 5),
     ("a\u3164b", "U+3164 HANGUL FILLER", 2), ("Alice\ufe0f", "U+FE0F", 6),
     ("Al\u200dice", "U+200D ZERO WIDTH JOINER", 3), ("x\ue000", "U+E000", 2),
     ("a\u034fb", "U+034F", 2)],
)  # fmt: skip
def test_invisible_characters_are_refused_by_name_and_place(
    typed: str, code: str, where: int
) -> None:
    with pytest.raises(CardbaseError) as caught:
        naming.clean(typed, "location")
    message = str(caught.value)
    assert code in message and f"at character {where}" in message, message
    assert message.startswith("location '") and len(message.splitlines()) == 1


@given(st.text(max_size=30))
def test_clean_is_idempotent_nfc_and_shows_everything(text: str) -> None:
    try:
        kept = naming.clean(text, "tag")
    except CardbaseError:
        assert naming.refused_character(text) is not None
        return
    assert naming.clean(kept, "tag") == kept
    assert unicodedata.is_normalized("NFC", kept)
    assert naming.refused_character(kept) is None
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in kept)
    assert kept == kept.strip() and "  " not in kept
    assert all(ch == " " or not ch.isspace() for ch in kept)


# Look-alikes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [("Alice", "\u0410lice"), ("Alice", "\uff21\uff2c\uff29\uff23\uff25"), ("Bog Stew", "\u0412\u043eg \u0405t\u0435w"),
     ("Kate", "\u041a\u0410\u0422\u0415"), ("TOP", "\u03a4\u039f\u03a1"),
     ("xylophone", "\u0445\u0443lophone"), ("Zoë", "Zo\u0435\u0308"), ("joy", "\u0458\u043e\u0443")],
)  # fmt: skip
def test_look_alikes_have_one_skeleton(one: str, other: str) -> None:
    assert one != other
    assert naming.skeleton(one) == naming.skeleton(other)


@pytest.mark.parametrize(
    ("one", "other"), [("Alice", "Alina"), ("Olga", "\u041e\u043b\u044c\u0433\u0430"),
                       ("Bob", "Rob")]
)  # fmt: skip
def test_different_names_have_different_skeletons(one: str, other: str) -> None:
    assert naming.skeleton(one) != naming.skeleton(other)


_DISGUISES: dict[str, list[str]] = {}
for _fake, _latin in naming.LOOKALIKES.items():
    _DISGUISES.setdefault(_latin, []).append(_fake)


@st.composite
def disguised(draw: st.DrawFn) -> tuple[str, str]:
    """A Latin name and the same name with some letters swapped for their look-alikes."""
    name = draw(st.text(alphabet=string.ascii_letters + " -", min_size=1, max_size=20))
    fake = "".join(
        draw(st.sampled_from([ch, *_DISGUISES[ch]])) if ch in _DISGUISES else ch for ch in name
    )
    return name, fake


@given(disguised())
def test_every_disguise_of_a_latin_name_has_its_skeleton(pair: tuple[str, str]) -> None:
    name, fake = pair
    assert naming.skeleton(fake) == naming.skeleton(name)


@pytest.mark.parametrize(
    ("name", "word"),
    [("\u0410lice", "\u0410lice"), ("Bob \u0410lice", "\u0410lice"),
     ("P\u03b1xos", "P\u03b1xos"), ("Alice", None), ("Alice \u0410\u043b\u0438\u0441\u0430", None),
     ("\u041a\u0410\u0422\u0415", None), ("Zoë", None), ("Ann-\u0410\u043d\u043d\u0430", None)],
)  # fmt: skip
def test_a_word_that_mixes_alphabets_is_found(name: str, word: str | None) -> None:
    assert naming.mixed_script(name) == word


# Collectors -------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [(nfc, nfd), (nfd, nfc)])
def test_zoe_either_way_round_is_one_collector_stored_in_nfc(
    run: Run, db_path: Path, first: Callable[[str], str], second: Callable[[str], str]
) -> None:
    added = run("collectors", "add", first(ZOE))
    assert added.exit_code == 0, added.output
    refused(run("collectors", "add", second(ZOE)), "already a collector")
    assert stored(db_path, "SELECT name FROM collector ORDER BY id") == [("me",), (ZOE,)]


@pytest.mark.parametrize(
    ("name", "words"),
    [("Ali\tce", ["U+0009", "character 4"]), ("Zo\u200bë", ["U+200B"]),
     ("\u202eecilA", ["U+202E"]), ("\u0410lice", ["mixes alphabets", "U+0410 CYRILLIC"])],
)  # fmt: skip
def test_a_collector_name_that_hides_something_is_refused(
    run: Run, db_path: Path, name: str, words: list[str]
) -> None:
    run("collectors", "add", "Alice")
    refused(run("collectors", "add", name), *words)
    refused(run("collectors", "rename", "Alice", name), *words)
    assert stored(db_path, "SELECT name FROM collector ORDER BY id") == [("me",), ("Alice",)]


def test_a_collector_name_keeps_its_spaces_folded(run: Run, db_path: Path) -> None:
    assert run("collectors", "add", "\u00a0Ann\u2003 Lee ").exit_code == 0
    assert stored(db_path, "SELECT name FROM collector WHERE id > 1") == [("Ann Lee",)]


def test_a_collector_that_looks_like_another_is_refused(
    db_path: Path, conn: sqlite3.Connection
) -> None:
    """`refuse_confusable` is what adding and renaming should call ('KATE' in Cyrillic
    letters is one alphabet, so only the skeleton tells it from 'Kate')."""
    from cardbase.collection.roster import add_collector

    kate = add_collector(Library(db_path), "Kate")
    fake = collectors.check_name("\u041a\u0410\u0422\u0415")
    with pytest.raises(CardbaseError, match="looks the same as the collector 'Kate'"):
        collectors.refuse_confusable(conn, fake)
    collectors.refuse_confusable(conn, fake, but=kate.id)  # Kate renamed to it: no twin
    collectors.refuse_confusable(conn, "KATE")  # the same name: the caller says taken
    collectors.refuse_confusable(conn, "Katie")


# Decks ------------------------------------------------------------------------------------


@pytest.fixture
def deck(tmp_path: Path) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text("3 Chugawug Cook\n")
    return path


def deck_names(run: Run) -> list[str]:
    return [d["name"] for d in json.loads(run("deck", "list", "-o", "json").stdout)]


def test_a_deck_name_is_stored_in_nfc_and_found_either_way(run: Run, deck: Path) -> None:
    assert run("deck", "save", str(deck), "--name", nfd("Café Stew")).exit_code == 0
    assert deck_names(run) == [nfc("Café Stew")]
    refused(run("deck", "save", str(deck), "--name", nfc("Café  Stew")), "exists")
    assert run("deck", "show", nfc("Café Stew")).exit_code == 0


@pytest.mark.parametrize(
    ("name", "words"),
    [("Bog\tStew", ["U+0009"]), ("Bog\u200bStew", ["U+200B"]),
     ("\u0412og Stew", ["mixes alphabets", "U+0412"]),
     ("\u0412\u041e\u0413 \u0405\u0422\u0415W", ["mixes alphabets"]),
     ("\u0422\u041e\u0420", ["looks the same as the deck 'TOP'"])],
)  # fmt: skip
def test_a_new_deck_name_that_hides_or_fakes_is_refused(
    run: Run, deck: Path, name: str, words: list[str]
) -> None:
    run("deck", "save", str(deck), "--name", "Bog Stew")
    run("deck", "save", str(deck), "--name", "TOP")
    refused(run("deck", "save", str(deck), "--name", name), *words)
    refused(run("deck", "save", str(deck), "--name", name, "--force"), *words)
    assert sorted(deck_names(run)) == ["Bog Stew", "TOP"]


# Locations and tags -----------------------------------------------------------------------


def test_cafe_either_way_is_one_holding_one_stats_row_and_one_match(
    run: Run, db_path: Path
) -> None:
    assert run("add", "1 C 14", "--location", CAFE, "--tag", CAFE).exit_code == 0
    assert run("add", "1 C 14", "--location", nfd(CAFE), "--tag", nfd(CAFE)).exit_code == 0
    assert stored(db_path, "SELECT location, tags, copies FROM holding") == [(CAFE, CAFE, 2)]
    rows = json.loads(run("stats", "-o", "json").stdout)["location"]
    assert [(r["key"], r["copies"]) for r in rows] == [(CAFE, 2)]
    for spelling in (CAFE, nfd(CAFE), nfd("CAFÉ")):
        for term in (f"in:{spelling}", f"tag:{spelling}"):
            assert run("collection", "--copies", "--count", term).stdout == "1\n", term


@pytest.mark.parametrize(
    ("option", "value", "code"),
    [("--location", "Box\tA", "U+0009"), ("--location", "Box\u200b", "U+200B"),
     ("--location", "\u2066Box", "U+2066"), ("--tag", "tr\u00adade", "U+00AD"),
     ("--tag", "ok,tr\u200dade", "U+200D")],
)  # fmt: skip
def test_a_label_with_an_invisible_character_is_refused(
    run: Run, db_path: Path, option: str, value: str, code: str
) -> None:
    refused(run("add", "1 C 14", option, value), code)
    assert stored(db_path, "SELECT * FROM holding") == []


def test_a_query_for_an_invisible_location_says_which_character(run: Run) -> None:
    result = run("collection", "in:Caf\u200be")
    assert result.exit_code == 2 and "U+200B" in result.stderr, result.output


@pytest.mark.parametrize(
    ("values", "kept"),
    [([CAFE, nfd(CAFE)], CAFE), ([nfd("café"), "CAFÉ"], nfc("café")),
     ([" trade ", "TRADE,Trade"], "trade")],
)  # fmt: skip
def test_tags_repeated_in_any_form_are_kept_once(values: list[str], kept: str) -> None:
    assert attrs.parse_tags(values) == kept


def test_tags_an_older_cardbase_stored_in_nfd_match_their_nfc_spelling() -> None:
    old = f"{nfd(CAFE)},trade"
    assert attrs.has_tags(old, CAFE) and attrs.has_tags(old, nfd("CAFÉ"))
    assert attrs.without_tags(old, CAFE) == "trade"
    assert attrs.label_key(nfd(CAFE)) == attrs.label_key(CAFE.upper())
