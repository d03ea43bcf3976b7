"""Swiss pairings: the best round by the rules, checked against every possible round for
small events, and the rules' guarantees on large ones."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.errors import CardbaseError
from cardbase.events.swiss import (
    BYE,
    Entrant,
    Pairing,
    Table,
    broken_by,
    explain,
    pair,
    round_costs,
    swapped,
)


def standings(players: list[Entrant]) -> list[Entrant]:
    return sorted(players, key=lambda p: -p.points)


@st.composite
def events(draw: st.DrawFn, low: int = 2, high: int = 10) -> list[Entrant]:
    """Players with match points, past opponents (each meeting seen by both) and byes."""
    count = draw(st.integers(low, high))
    ids = [f"p{i}" for i in range(count)]
    met = draw(st.sets(st.tuples(st.sampled_from(ids), st.sampled_from(ids)), max_size=count * 2))
    opponents: dict[str, set[str]] = {i: set() for i in ids}
    for a, b in met:
        if a != b:
            opponents[a].add(b)
            opponents[b].add(a)
    players = [
        Entrant(i, draw(st.sampled_from([0, 1, 3, 4, 6, 9])), frozenset(opponents[i]),
                draw(st.sampled_from([0, 0, 0, 1])))
        for i in ids
    ]  # fmt: skip
    return standings(players)


def every_round(players: list[Entrant]) -> Iterator[Pairing]:
    """Every perfect matching of the players (and the bye, for an odd count)."""
    ids = [p.id for p in players] + ([BYE] if len(players) % 2 else [])

    def matchings(rest: list[str]) -> Iterator[list[Table]]:
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for k, second in enumerate(others):
            for tail in matchings(others[:k] + others[k + 1 :]):
                table = Table(second, BYE) if first == BYE else Table(first, second)
                yield [table, *tail]

    for tables in matchings(ids):
        yield Pairing(tables)


def assert_a_round(players: list[Entrant], pairing: Pairing) -> None:
    seated = [pid for table in pairing.tables for pid in table if pid != BYE]
    assert sorted(seated) == sorted(p.id for p in players)
    assert sum(table.second == BYE for table in pairing.tables) == len(players) % 2


@settings(max_examples=150, deadline=None)
@given(events())
def test_the_round_is_the_best_of_every_possible_round(players: list[Entrant]) -> None:
    """No avoidable rematch, no avoidable second bye, the bye to the lowest-ranked player
    without one, the fewest and smallest pair-downs: as good as the best of them all."""
    pairing = pair(players, seed=7, round_number=3)
    assert_a_round(players, pairing)
    best = min(round_costs(players, other) for other in every_round(players))
    assert round_costs(players, pairing) == best


@settings(max_examples=40, deadline=None)
@given(events(), st.integers(0, 2**31))
def test_the_same_seed_gives_the_same_round(players: list[Entrant], seed: int) -> None:
    assert pair(players, seed, 2) == pair(list(players), seed, 2)


def test_the_seed_chooses_among_equals() -> None:
    """Eight players on the same points: several seeds give several first rounds."""
    players = [Entrant(f"p{i}", 0) for i in range(8)]
    rounds = {tuple(pair(players, seed, 1).tables) for seed in range(12)}
    assert len(rounds) > 3


@pytest.mark.parametrize(
    ("players", "bye"),
    [
        ([Entrant("a", 3), Entrant("b", 3), Entrant("c", 0)], "c"),
        ([Entrant("a", 3), Entrant("b", 3), Entrant("c", 0, byes=1)], "b"),
        ([Entrant("a", 3, byes=1), Entrant("b", 3, byes=1), Entrant("c", 0, byes=1)], "c"),
        ([Entrant("solo", 0)], "solo"),
    ],
)
def test_the_bye_goes_to_the_lowest_ranked_without_one(players: list[Entrant], bye: str) -> None:
    assert pair(players, 1, 2).bye == bye


def test_a_rematch_is_avoided_by_pairing_down() -> None:
    a, b = Entrant("a", 6, frozenset({"b"})), Entrant("b", 6, frozenset({"a"}))
    c, d = Entrant("c", 3), Entrant("d", 3)
    pairing = pair([a, b, c, d], 1, 3)
    assert round_costs([a, b, c, d], pairing).rematches == 0
    assert {frozenset(t) for t in pairing.tables} in (
        {frozenset("ac"), frozenset("bd")}, {frozenset("ad"), frozenset("bc")}
    )  # fmt: skip


def test_a_rematch_nobody_can_avoid_is_made() -> None:
    a, b = Entrant("a", 3, frozenset({"b"})), Entrant("b", 0, frozenset({"a"}))
    assert pair([a, b], 1, 2).tables == [Table("a", "b")]


def test_bad_entrants_are_refused() -> None:
    with pytest.raises(ValueError, match="each player once"):
        pair([Entrant("a", 0), Entrant("a", 0)], 1, 1)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(events(low=65, high=256))
def test_large_rounds_keep_the_hard_rules(players: list[Entrant]) -> None:
    """Past the complete graph's size, the pruned graph's round breaks no rule more than
    the complete graph's best round does."""
    from cardbase.events import swiss

    pairing = pair(players, 3, 4)
    assert_a_round(players, pairing)
    complete = swiss._Weights(players, 3, 4).match(swiss._all_tables(players))
    assert round_costs(players, pairing) == round_costs(players, complete)


@settings(max_examples=150, deadline=None)
@given(events(low=4, high=10))
def test_the_pruned_graph_finds_the_best_round_too(players: list[Entrant]) -> None:
    """The graph large rounds try first, tried on events small enough to check whole."""
    from unittest import mock

    with mock.patch("cardbase.events.swiss.COMPLETE_UP_TO", 0):
        pairing = pair(players, seed=5, round_number=2)
    best = min(round_costs(players, other) for other in every_round(players))
    assert round_costs(players, pairing) == best


def test_why_each_table_is_what_it_is() -> None:
    players = [Entrant("Ada", 6, frozenset({"Bo"})), Entrant("Bo", 6, frozenset({"Ada"})),
               Entrant("Cy", 3), Entrant("Di", 3), Entrant("Ed", 0)]  # fmt: skip
    pairing = pair(players, 1, 3)
    said = explain(players, pairing)
    assert said[-1] == "bye: Ed (#5, 0): the lowest-ranked player without a bye"
    assert all("pair-down of 3 points (6 v 3)" in line for line in said[:2])


def test_a_swap_by_hand_says_what_rule_it_breaks() -> None:
    players = [Entrant("Ada", 6, frozenset({"Bo"})), Entrant("Bo", 6, frozenset({"Ada"})),
               Entrant("Cy", 3), Entrant("Di", 3)]  # fmt: skip
    best = pair(players, 1, 3)
    partner = next(t.second for t in best.tables if t.first == "Ada")
    changed = swapped(best, partner, "Bo")
    assert Table("Ada", "Bo") in changed.tables
    assert broken_by(players, best, changed) == ["rematches: 0 -> 1"]  # and no pair-downs
    with pytest.raises(CardbaseError, match="'Zed' is not in this round's pairings"):
        swapped(best, "Ada", "Zed")
