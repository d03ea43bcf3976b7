"""The top cut's bracket and the Swiss event's default length."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardbase.errors import CardbaseError
from cardbase.events.cut import CUT_SIZES, first_round, next_round, seed_order
from cardbase.events.swiss import Table, default_rounds


@pytest.mark.parametrize(
    ("size", "order"),
    [(2, [1, 2]), (4, [1, 4, 2, 3]), (8, [1, 8, 4, 5, 2, 7, 3, 6])],
)
def test_seed_order(size: int, order: list[int]) -> None:
    assert seed_order(size) == order


@given(st.sampled_from(CUT_SIZES))
def test_the_best_seeds_meet_as_late_as_they_can(size: int) -> None:
    """Every seed once; seeds 1 and 2 in opposite halves; each table's seeds add up to
    size + 1 (the best plays the worst)."""
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert (1 in order[: size // 2]) != (2 in order[: size // 2])
    assert all(order[k] + order[k + 1] == size + 1 for k in range(0, size, 2))


def test_a_cut_is_played_to_the_final() -> None:
    players = [f"s{i}" for i in range(1, 11)]
    tables = first_round(players, 8)
    assert tables[0] == Table("s1", "s8") and tables[2] == Table("s2", "s7")
    semis = next_round([t.first for t in tables])
    assert semis == [Table("s1", "s4"), Table("s2", "s3")]
    assert next_round(["s1", "s2"]) == [Table("s1", "s2")]


@pytest.mark.parametrize(
    ("size", "players", "said"),
    [(6, 10, "a top cut of 6: use 2, 4, 8"), (8, 5, "needs 8 players; the standings have 5")],
)
def test_a_cut_that_cannot_be_made_is_refused(size: int, players: int, said: str) -> None:
    with pytest.raises(CardbaseError, match=said):
        first_round([f"p{i}" for i in range(players)], size)


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 3), (8, 3), (9, 4), (16, 4), (17, 5), (64, 6), (65, 7), (256, 8)]
)
def test_default_rounds(players: int, rounds: int) -> None:
    assert default_rounds(players) == rounds
