"""Draw odds against counting every draw, and sample hands."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.decks.odds import Group, at_least, deal, draws_by_turn
from cardbase.errors import CardbaseError
from cardbase.games import FREE_REALMS, WILDHEARTS


def counted(deck_size: int, groups: list[Group], draws: int) -> Fraction:
    """Every set of `draws` positions of a deck whose groups lie first, counted."""
    owner: list[int | None] = []
    for index, group in enumerate(groups):
        owner += [index] * group.copies
    owner += [None] * (deck_size - len(owner))
    hits = total = 0
    for hand in itertools.combinations(range(deck_size), draws):
        total += 1
        got = [0] * len(groups)
        for position in hand:
            if owner[position] is not None:
                got[owner[position]] += 1
        hits += all(n >= g.wanted for n, g in zip(got, groups, strict=True))
    return Fraction(hits, total)


@st.composite
def questions(draw: st.DrawFn) -> tuple[int, list[Group], int]:
    size = draw(st.integers(1, 11))
    groups, room = [], size
    for index in range(draw(st.integers(0, 3))):
        copies = draw(st.integers(0, room))
        room -= copies
        groups.append(Group(f"g{index}", copies, draw(st.integers(0, copies))))
    return size, groups, draw(st.integers(0, size))


@settings(max_examples=200, deadline=None)
@given(questions())
def test_odds_are_exact(question: tuple[int, list[Group], int]) -> None:
    size, groups, draws = question
    assert at_least(size, groups, draws) == counted(size, groups, draws)


def test_a_two_cost_creature_in_the_opening_hand() -> None:
    """8 of 40, at least one in six cards: 1 - C(32,6)/C(40,6)."""
    chance = at_least(40, [Group("2-cost creatures", 8)], 6)
    assert chance == 1 - Fraction(906192, 3838380)
    assert f"{float(chance):.1%}" == "76.4%"


@pytest.mark.parametrize(
    ("turn", "first", "cards"), [(1, True, 6), (1, False, 8), (3, True, 10), (3, False, 12)]
)
def test_cards_seen_by_turn(turn: int, first: bool, cards: int) -> None:
    assert draws_by_turn(FREE_REALMS, turn, first) == cards


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: at_least(40, [Group("a", 30), Group("b", 20)], 6), "hold 50 cards, more than"),
        (lambda: at_least(40, [Group("a", 3, 4)], 6), "4 of a wanted, but the deck has 3"),
        (lambda: at_least(40, [Group("a", 3)], 41), "41 draws from a deck of 40"),
        (lambda: draws_by_turn(WILDHEARTS, 2), "give no hand size"),
        (lambda: draws_by_turn(FREE_REALMS, 0), "turns count from 1"),
        (lambda: deal(["a", "b"], 3, 1), "a hand of 3 from a deck of 2"),
    ],
)
def test_questions_that_cannot_be_answered(call, said: str) -> None:
    with pytest.raises(CardbaseError, match=said):
        call()


def test_a_seed_deals_the_same_hand() -> None:
    deck = [f"card {n}" for n in range(40)]
    assert deal(deck, 6, 7) == deal(deck, 6, 7) != deal(deck, 6, 8)
    assert len(set(deal(deck, 6, 7))) == 6
