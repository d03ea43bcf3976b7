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
    with pytest.raises(CardbaseError, match="cannot hold the section 'maybe'"):
        encode("free-realms", [CodedCard("maybe", CollectorCode(1, "C", 1), 1)])
