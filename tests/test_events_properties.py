"""Whole random events through the library (players, late entries, drops, draws and
intentional draws): every round checked against what could have been paired, and the
standings recomputed here from the stored results by code of their own.

- no rematch where a round without one exists (a perfect matching of the tables not yet
  played, found here with networkx independently of the pairing's weights);
- no second bye where a round without a rematch and without one exists;
- match points and game-win percentages, reckoned here, equal the library's, and the
  standings are in order of points;
- the same seed gives the same round (paired again on a copy of the database).

8 to 64 players by default; up to 256 under `slow`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.events.state import Snapshot
from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE, copy_database, new_database

RESULTS = ("2-0", "2-1", "1-2", "0-2", "1-1", "1-1-1", "id", "1-0")


def _perfect(players: list[str], allowed: set[frozenset[str]], bye_to: set[str]) -> bool:
    """Whether the players can all be seated at tables of `allowed` pairs, the bye (an odd
    count) going to one of `bye_to`."""
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(tuple(pair) for pair in allowed)
    if len(players) % 2:
        graph.add_edges_from(("BYE", p) for p in bye_to)
    tables = (len(players) + 1) // 2
    return len(nx.max_weight_matching(graph, maxcardinality=True)) == tables


def check_round(state: Snapshot, number: int) -> None:
    seats = state.round_seats(number)
    seated = [p for s in seats for p in (s.first, s.second) if p]
    assert len(seated) == len(set(seated)), "a player seated twice"
    earlier = [s for s in state.seats if s.stage == "swiss" and s.round < number]
    met = {frozenset((s.first, s.second)) for s in earlier if s.second}
    had_bye = {s.first for s in earlier if s.second is None}
    fresh = {frozenset((a, b)) for i, a in enumerate(seated) for b in seated[i + 1 :]} - met
    rematches = [s for s in seats if s.second and frozenset((s.first, s.second)) in met]
    if _perfect(seated, fresh, set(seated)):
        assert rematches == [], f"round {number}: an avoidable rematch"
    byes = [s.first for s in seats if s.second is None]
    assert len(byes) == len(seated) % 2
    if byes and _perfect(seated, fresh, set(seated) - had_bye):
        assert byes[0] not in had_bye, f"round {number}: an avoidable second bye"


def recompute(state: Snapshot) -> dict[str, tuple[int, Fraction]]:
    """Each player's match points and game-win percentage (floored at a third), from the
    stored tables, reckoned without the library's standings code."""
    points: dict[str, int] = defaultdict(int)
    game_points: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    for s in state.seats:
        if s.stage != "swiss" or not s.reported:
            continue
        if s.second is None:
            points[s.first] += 3
            game_points[s.first] += 6
            games[s.first] += 2
            continue
        a, b, d = s.first_games or 0, s.second_games or 0, s.drawn_games or 0
        for player, mine, theirs in ((s.first, a, b), (s.second, b, a)):
            points[player] += 3 if mine > theirs else 1 if mine == theirs else 0
            game_points[player] += 3 * mine + d
            games[player] += a + b + d
    third = Fraction(1, 3)
    return {
        p.name: (points[p.name],
                 max(third, Fraction(game_points[p.name], 3 * games[p.name]))
                 if games[p.name] else third)
        for p in state.players
    }  # fmt: skip


def run_event(library: Library, folder: Path, data: st.DataObject, players: int) -> None:
    name = "Random Open"
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    library.create_event(name, "free-realms", seed=seed, rounds=data.draw(st.integers(2, 5)))
    for n in range(players):
        library.register(name, f"P{n:03d}")
    rounds = 0
    while True:
        state = library.event(name)
        if state.event.rounds is not None and rounds >= state.event.rounds:
            break
        if rounds == 1:  # the same seed pairs the same round, on a copy
            twin = Library(copy_database(Path(str(library.location)), folder / "twin.db"))
            again = [(s.first, s.second) for s in twin.pair(name).tables]
        paired = library.pair(name)
        rounds = paired.round
        if rounds == 2:
            assert [(s.first, s.second) for s in paired.tables] == again
        check_round(library.event(name), rounds)
        for seat in paired.tables:
            if seat.second is not None:
                library.report(name, data.draw(st.sampled_from(RESULTS)), table=seat.number)
        active = [p.name for p in library.event(name).players if p.dropped_after is None]
        if data.draw(st.booleans(), label="drop") and len(active) > 4:
            library.drop(name, data.draw(st.sampled_from(active), label="who drops"))
        last = rounds >= (library.event(name).event.rounds or 0)
        if not last and data.draw(st.booleans(), label="late entry"):
            library.register(name, f"Late{rounds}")
    state = library.event(name)
    expected = recompute(state)
    _event, rows = library.standings(name)
    found = {row.record.player: (row.record.points, row.tiebreaks[1]) for row in rows}
    assert found == {player: expected[player] for player in found}
    assert [row.record.points for row in rows] == sorted(
        (row.record.points for row in rows), reverse=True
    )


def _event_in_a_new_database(data: st.DataObject, players: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="cardbase-events-"))
    try:
        path = new_database(folder / "event.db", MINI_CATALOGUE)
        run_event(Library(path), folder, data, players)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(8, 64))
def test_random_events_pair_and_stand_as_they_should(data: st.DataObject, players: int) -> None:
    _event_in_a_new_database(data, players)


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(65, 256))
def test_large_random_events(data: st.DataObject, players: int) -> None:
    _event_in_a_new_database(data, players)
