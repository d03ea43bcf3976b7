"""Standings: match points, then tiebreakers that are data, each with how it was reckoned.

The usual defaults, as fan events and the big organisers reckon them: opponents' match-win
percentage, game-win percentage, opponents' game-win percentage, every percentage floored at
a third so that one weak opponent does not sink a player. A bye is a match won 2-0 that
gives no opponent. A dropped player keeps their results, and stays an opponent in others'
figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from cardbase.errors import CardbaseError, shorten
from cardbase.events.swiss import BYE

WIN, DRAW, LOSS = 3, 1, 0  # match points; a game won is 3 game points, a game drawn 1
FLOOR = Fraction(1, 3)
BYE_GAMES = (2, 0)


class Match(NamedTuple):
    """One table's result: games won by each side and games drawn; `second` is BYE for the
    bye."""

    round: int
    first: str
    second: str
    first_games: int = 0
    second_games: int = 0
    drawn_games: int = 0

    def points_of(self, player: str) -> int:
        mine, theirs = self.games_of(player)
        return WIN if mine > theirs else DRAW if mine == theirs else LOSS

    def games_of(self, player: str) -> tuple[int, int]:
        if self.second == BYE:
            return BYE_GAMES
        if player == self.first:
            return self.first_games, self.second_games
        return self.second_games, self.first_games


class Record(NamedTuple):
    """A player's own figures, from which everyone's tiebreakers are reckoned."""

    player: str
    points: int
    matches: int
    game_points: int
    games: int
    opponents: tuple[str, ...]  # in round order, byes left out

    @property
    def match_win(self) -> Fraction:
        return max(FLOOR, Fraction(self.points, 3 * self.matches)) if self.matches else FLOOR

    @property
    def game_win(self) -> Fraction:
        return max(FLOOR, Fraction(self.game_points, 3 * self.games)) if self.games else FLOOR


class Tiebreaker(NamedTuple):
    key: str
    title: str
    value: Callable[[Record, dict[str, Record]], Fraction]
    explain: Callable[[Record, dict[str, Record]], str]


def _mean(values: Sequence[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else FLOOR


def _opponents_match_win(record: Record, records: dict[str, Record]) -> Fraction:
    return _mean([records[o].match_win for o in record.opponents])


def _opponents_game_win(record: Record, records: dict[str, Record]) -> Fraction:
    return _mean([records[o].game_win for o in record.opponents])


def _explain_mean(figure: str) -> Callable[[Record, dict[str, Record]], str]:
    def explain(record: Record, records: dict[str, Record]) -> str:
        parts = [f"{o} {percent(getattr(records[o], figure))}" for o in record.opponents]
        return f"mean of {', '.join(parts)}" if parts else "no opponents yet: the floor"

    return explain


def _explain_game_win(record: Record, _records: dict[str, Record]) -> str:
    if not record.games:
        return "no games yet: the floor"
    raw = Fraction(record.game_points, 3 * record.games)
    floor = " (below a third: the floor)" if raw < FLOOR else ""
    return f"{record.game_points} game points of {3 * record.games} possible{floor}"


TIEBREAKERS: dict[str, Tiebreaker] = {
    tiebreaker.key: tiebreaker
    for tiebreaker in (
        Tiebreaker("omw", "opponents' match-win %", _opponents_match_win,
                   _explain_mean("match_win")),
        Tiebreaker("gw", "game-win %", lambda record, _records: record.game_win,
                   _explain_game_win),
        Tiebreaker("ogw", "opponents' game-win %", _opponents_game_win,
                   _explain_mean("game_win")),
        Tiebreaker("mw", "match-win %", lambda record, _records: record.match_win,
                   lambda record, _records: f"{record.points} match points of "
                   f"{3 * record.matches} possible"),
    )
}  # fmt: skip
DEFAULT_TIEBREAKERS = ("omw", "gw", "ogw")


class Standing(NamedTuple):
    place: int
    record: Record
    tiebreaks: tuple[Fraction, ...]
    reckoned: tuple[str, ...]  # how each tiebreaker was reckoned, in words
    dropped: bool

    def to_dict(self, keys: Sequence[str]) -> dict[str, object]:
        return {
            "place": self.place, "player": self.record.player, "points": self.record.points,
            "matches": self.record.matches, "dropped": self.dropped,
            **{key: float(value) for key, value in zip(keys, self.tiebreaks, strict=True)},
            "reckoned": dict(zip(keys, self.reckoned, strict=True)),
        }  # fmt: skip


def tiebreakers_named(keys: Sequence[str]) -> list[Tiebreaker]:
    unknown = [key for key in keys if key not in TIEBREAKERS]
    if unknown:
        raise CardbaseError(
            f"unknown tiebreaker '{shorten(unknown[0], 20)}': use {', '.join(TIEBREAKERS)}"
        )
    return [TIEBREAKERS[key] for key in keys]


def percent(value: Fraction) -> str:
    return f"{float(value) * 100:.2f}%"


def records(players: Iterable[str], matches: Iterable[Match]) -> dict[str, Record]:
    """Every player's record: points, games, opponents, from the results so far."""
    tally: dict[str, list] = {p: [0, 0, 0, 0, []] for p in players}
    for match in matches:
        for player in (match.first, match.second):
            if player == BYE:
                continue
            mine = tally[player]
            won, lost = match.games_of(player)
            mine[0] += match.points_of(player)
            mine[1] += 1
            mine[2] += 3 * won + (0 if match.second == BYE else match.drawn_games)
            mine[3] += won + lost + (0 if match.second == BYE else match.drawn_games)
            other = match.second if player == match.first else match.first
            if other != BYE:
                mine[4].append(other)
    return {p: Record(p, t[0], t[1], t[2], t[3], tuple(t[4])) for p, t in tally.items()}


def standings(
    players: Sequence[str],
    matches: Iterable[Match],
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
    dropped: Iterable[str] = (),
) -> list[Standing]:
    """Everyone in order: match points, then each tiebreaker, then name."""
    chosen = tiebreakers_named(tiebreakers)
    found = records(players, matches)
    gone = set(dropped)
    rows = []
    for player in players:
        record = found[player]
        values = tuple(t.value(record, found) for t in chosen)
        words = tuple(t.explain(record, found) for t in chosen)
        rows.append((record, values, words))
    rows.sort(key=lambda row: (-row[0].points, *(-v for v in row[1]), row[0].player.casefold()))
    return [
        Standing(place, record, values, words, record.player in gone)
        for place, (record, values, words) in enumerate(rows, 1)
    ]
