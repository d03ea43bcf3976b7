"""Standings and their tiebreakers: worked examples, and random events recomputed by a plain
reading of the rules."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.errors import CardbaseError
from cardbase.events.standings import FLOOR, Match, records, standings
from cardbase.events.swiss import BYE

# Four players, three rounds, everyone meets everyone: Ada wins all three; Bo and Cy each
# beat Di, lose to Ada and draw with each other; Di wins one game in all.
LEAGUE = [
    Match(1, "Ada", "Bo", 2, 1), Match(1, "Cy", "Di", 2, 0),
    Match(2, "Ada", "Cy", 2, 0), Match(2, "Bo", "Di", 2, 1),
    Match(3, "Ada", "Di", 2, 0), Match(3, "Bo", "Cy", 1, 1, 1),
]  # fmt: skip
PLAYERS = ["Ada", "Bo", "Cy", "Di"]


def test_match_points_and_order() -> None:
    table = standings(PLAYERS, LEAGUE)
    assert [(s.record.player, s.record.points) for s in table] == [
        ("Ada", 9), ("Bo", 4), ("Cy", 4), ("Di", 0)
    ]  # fmt: skip
    bo, cy = table[1], table[2]  # level on opponents' match-win %, Bo ahead on games
    assert bo.tiebreaks[0] == cy.tiebreaks[0] == (1 + FLOOR + Fraction(4, 9)) / 3
    assert bo.tiebreaks[1] == Fraction(13, 27) > cy.tiebreaks[1] == Fraction(10, 21)


@pytest.mark.parametrize(
    ("player", "omw", "gw", "ogw"),
    [
        # Ada's opponents: Bo 4/9, Cy 4/9, Di 0 -> the floor, a third.
        ("Ada", (Fraction(4, 9) + Fraction(4, 9) + FLOOR) / 3, Fraction(18, 21), None),
        # Di lost every game but one: 3 of 21 game points, floored to a third.
        ("Di", None, FLOOR, None),
    ],
)
def test_tiebreakers_by_hand(player: str, omw, gw, ogw) -> None:
    row = next(s for s in standings(PLAYERS, LEAGUE) if s.record.player == player)
    if omw is not None:
        assert row.tiebreaks[0] == omw
    if gw is not None:
        assert row.tiebreaks[1] == gw


def test_each_tiebreaker_says_how_it_was_reckoned() -> None:
    ada = standings(PLAYERS, LEAGUE)[0]
    assert ada.reckoned[0] == "mean of Bo 44.44%, Cy 44.44%, Di 33.33%"
    assert ada.reckoned[1] == "18 game points of 21 possible"
    di = standings(PLAYERS, LEAGUE)[-1]
    assert di.reckoned[1] == "3 game points of 21 possible (below a third: the floor)"


def test_a_bye_is_a_win_two_nil_with_no_opponent() -> None:
    [row] = [
        r for r in records(["Ada", "Bo"], [Match(1, "Ada", BYE)]).values() if r.player == "Ada"
    ]
    assert (row.points, row.game_points, row.games, row.opponents) == (3, 6, 2, ())


def test_a_dropped_player_keeps_their_results() -> None:
    table = standings(PLAYERS, LEAGUE, dropped=["Bo"])
    bo = next(s for s in table if s.record.player == "Bo")
    assert bo.dropped and bo.record.points == 4 and bo.place == 2


def test_tiebreakers_are_data_and_named() -> None:
    table = standings(PLAYERS, LEAGUE, tiebreakers=("mw",))
    assert table[0].reckoned == ("9 match points of 9 possible",)
    with pytest.raises(CardbaseError, match="unknown tiebreaker 'xyz': use omw, gw, ogw, mw"):
        standings(PLAYERS, LEAGUE, tiebreakers=("xyz",))


@st.composite
def played(draw: st.DrawFn) -> tuple[list[str], list[Match]]:
    count = draw(st.integers(2, 12))
    players = [f"p{i}" for i in range(count)]
    matches = []
    for round_number in range(1, draw(st.integers(1, 6)) + 1):
        order = draw(st.permutations(players))
        for k in range(0, count - 1, 2):
            games = draw(st.sampled_from([(2, 0), (2, 1), (1, 2), (0, 2), (1, 1), (0, 0)]))
            drawn = draw(st.integers(0, 1)) if games[0] == games[1] else 0
            matches.append(Match(round_number, order[k], order[k + 1], *games, drawn))
        if count % 2:
            matches.append(Match(round_number, order[-1], BYE))
    return players, matches


def reference(players: list[str], matches: list[Match]) -> dict[str, tuple]:
    """The rules read plainly, without the module's code: points, MW%, GW%, OMW%, OGW%."""
    points = {p: 0 for p in players}
    rounds = {p: 0 for p in players}
    game_points = {p: 0 for p in players}
    games = {p: 0 for p in players}
    met: dict[str, list[str]] = {p: [] for p in players}
    for m in matches:
        if m.second == BYE:
            points[m.first] += 3
            rounds[m.first] += 1
            game_points[m.first] += 6
            games[m.first] += 2
            continue
        for me, other, won, lost in ((m.first, m.second, m.first_games, m.second_games),
                                     (m.second, m.first, m.second_games, m.first_games)):  # fmt: skip
            points[me] += 3 if won > lost else 1 if won == lost else 0
            rounds[me] += 1
            game_points[me] += 3 * won + m.drawn_games
            games[me] += won + lost + m.drawn_games
            met[me].append(other)
    mw = {
        p: max(FLOOR, Fraction(points[p], 3 * rounds[p])) if rounds[p] else FLOOR for p in players
    }
    gw = {
        p: max(FLOOR, Fraction(game_points[p], 3 * games[p])) if games[p] else FLOOR
        for p in players
    }

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else FLOOR

    return {
        p: (points[p], mean([mw[o] for o in met[p]]), gw[p], mean([gw[o] for o in met[p]]))
        for p in players
    }


@settings(max_examples=120, deadline=None)
@given(played())
def test_standings_equal_a_plain_reckoning(event: tuple[list[str], list[Match]]) -> None:
    players, matches = event
    expected = reference(players, matches)
    table = standings(players, matches)
    for row in table:
        assert (row.record.points, *row.tiebreaks) == expected[row.record.player]
    keys = [
        (-expected[r.record.player][0], *(-v for v in expected[r.record.player][1:])) for r in table
    ]
    assert keys == sorted(keys)
    assert [r.place for r in table] == list(range(1, len(players) + 1))
