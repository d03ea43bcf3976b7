"""Deck codes: every deck comes back exactly, and a damaged or foreign code is one line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardbase.codes import CollectorCode
from cardbase.decks.deckcode import CODE_GAMES, CODE_SECTIONS, CodedCard, decode, encode
from cardbase.errors import CardbaseError
from cardbase.fields import RARITY_LETTERS

cards = st.builds(
    CodedCard,
    st.sampled_from(CODE_SECTIONS),
    st.builds(
        CollectorCode, st.integers(1, 9), st.sampled_from(RARITY_LETTERS), st.integers(1, 400)
    ),
    st.integers(1, 60),
)


def canonical(deck: list[CodedCard]) -> set[tuple[str, CollectorCode, int]]:
    """A deck as a code holds it: its cards, each with its section and copies."""
    return {(c.section, c.code, c.copies) for c in deck}


@given(st.sampled_from(CODE_GAMES), st.lists(cards, unique_by=lambda c: (c.section, c.code)))
def test_every_deck_comes_back(game: str, deck: list[CodedCard]) -> None:
    code = encode(game, deck)
    assert code.startswith("CB1") and code.isascii() and " " not in code
    back_game, back = decode(code)
    assert back_game == game and canonical(back) == canonical(deck)
    assert encode(game, list(reversed(deck))) == code


def test_a_forty_card_deck_is_short() -> None:
    singles = [
        CodedCard("main", CollectorCode(1 + n % 3, "CURE"[n % 4], 3 * n + 1), 1) for n in range(40)
    ]
    triples = [CodedCard("main", CollectorCode(1, "C", n + 1), 3) for n in range(14)]
    assert len(encode("free-realms", singles)) < 200
    assert len(encode("free-realms", triples)) < 60


@given(st.lists(cards, min_size=1, max_size=20, unique_by=lambda c: (c.section, c.code)), st.data())
def test_a_damaged_code_is_refused(deck: list[CodedCard], data: st.DataObject) -> None:
    code = encode("free-realms", deck)
    cut = data.draw(st.integers(3, len(code) - 1))
    with pytest.raises(CardbaseError, match="damaged or cut short"):
        decode(code[:cut])
    place = data.draw(st.integers(3, len(code) - 1))
    letter = data.draw(st.sampled_from("ABCabc019-_").filter(lambda ch: ch != code[place]))
    try:
        changed = decode(code[:place] + letter + code[place + 1 :])
    except CardbaseError as refused:
        assert "damaged" in str(refused) or "does not know" in str(refused)
    else:  # a 16-bit check lets one change in 65,536 through: it must still be a deck
        assert changed[0] in CODE_GAMES


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("ydke://o6lXBQ==!!", "not a cardbase deck code (it starts 'ydke://o6lXB"),
        ("AAECAR8GxwPJBLsFmQfZB/gIDI0B", "not a cardbase deck code"),
        ("", "not a cardbase deck code"),
        ("CB1", "damaged or cut short"),
        ("CB1!!!!", "damaged or cut short"),
    ],
)
def test_codes_from_elsewhere_are_named(text: str, said: str) -> None:
    with pytest.raises(CardbaseError, match=said.replace("(", r"\(").replace("?", r"\?")):
        decode(text)


def test_what_a_code_cannot_hold_is_said() -> None:
    """A section of a user's format ('maybe') is held by name; one no format could name
    is not."""
    maybe = [CodedCard("maybe", CollectorCode(1, "C", 1), 1)]
    assert decode(encode("free-realms", maybe)) == ("free-realms", maybe)
    with pytest.raises(CardbaseError, match=r"cannot hold the section 'may\\nbe'"):
        encode("free-realms", [CodedCard("may\nbe", CollectorCode(1, "C", 1), 1)])


# Codes made before games and sections could be named: they decode as they always did.
GOLDEN = [
    ("CB1AAIAAgIBAgEBIQMBAQABDgEBAQEBAgEUndI", "free-realms",
     {("main", "1 C 14", 3), ("main", "2 U 33", 2), ("side", "1 R 20", 1)}),
    ("CB1AQQAAQIBAQABKQIBAQEBAAEsAwEBAQECAQMEAQEBAQEBHoLE", "wildhearts",
     {("main", "1 C 41", 2), ("familiars", "1 R 3", 1), ("judge", "1 C 44", 1),
      ("fields", "1 U 30", 1)}),
    ("CB1AgIAAgIBAgEBIQMBAQABDgEBAQEBAgEUUd0", "cardbase-sample",
     {("main", "1 C 14", 3), ("main", "2 U 33", 2), ("side", "1 R 20", 1)}),
]  # fmt: skip


@pytest.mark.parametrize(("code", "game", "deck"), GOLDEN)
def test_the_codes_of_before_decode_and_encode_as_they_did(code: str, game: str, deck) -> None:
    back_game, back = decode(code)
    assert back_game == game and {(c.section, str(c.code), c.copies) for c in back} == deck
    assert encode(game, back) == code


keys = st.text(st.characters(codec="utf-8", categories=("L", "N", "Pd")), min_size=1, max_size=20)


@given(keys.filter(lambda k: k not in CODE_GAMES), keys, st.lists(cards, max_size=10,
       unique_by=lambda c: (c.section, c.code)))  # fmt: skip
def test_a_users_game_and_its_own_sections_come_back_by_name(
    game: str, section: str, deck: list[CodedCard]
) -> None:
    mine = [c._replace(section=section) if n % 2 else c for n, c in enumerate(deck)]
    mine = list({(c.section, c.code): c for c in mine}.values())
    code = encode(game, mine)
    back_game, back = decode(code)
    assert back_game == game and canonical(back) == canonical(mine)
    assert encode(game, list(reversed(mine))) == code


def test_a_named_games_key_is_in_its_code_and_a_long_one_is_refused() -> None:
    code = encode("pixie-duel", [CodedCard("sideboard", CollectorCode(7, "U", 9), 1)])
    assert decode(code) == ("pixie-duel", [CodedCard("sideboard", CollectorCode(7, "U", 9), 1)])
    with pytest.raises(CardbaseError, match="cannot hold the game"):
        encode("x" * 65, [])


def test_a_code_of_a_game_this_cardbase_lacks_says_the_game(tmp_path) -> None:
    from tests.helpers import Run, assert_one_line, new_database

    run = Run(new_database(tmp_path / "deck.db"))
    code = encode("pixie-duel", [CodedCard("main", CollectorCode(7, "U", 9), 2)])
    line = assert_one_line(run("deck", "import", code, "-n", "Pixies"))
    assert "a deck of the game 'pixie-duel', which this cardbase does not have" in line
