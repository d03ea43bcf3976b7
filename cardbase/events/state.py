"""An event as read at one moment, and what follows from its rows: the results as matches,
the standings, who may be paired next and as what, whether the round is over.

Nothing here writes: `cardbase.events.operations` reads a `Snapshot` inside its transaction,
decides, and writes.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from cardbase.events.standings import Match, Standing, standings
from cardbase.events.store import Event, Player, Seat
from cardbase.events.swiss import BYE, Entrant


class Snapshot(NamedTuple):
    event: Event
    players: list[Player]
    seats: list[Seat]

    @property
    def last_round(self) -> int:
        return self.seats[-1].round if self.seats else 0

    @property
    def swiss_rounds_paired(self) -> int:
        return max((s.round for s in self.seats if s.stage == "swiss"), default=0)

    def round_seats(self, number: int | None = None) -> list[Seat]:
        wanted = self.last_round if number is None else number
        return [s for s in self.seats if s.round == wanted]

    @property
    def round_open(self) -> bool:
        """The last round has a table without a result."""
        return any(not s.reported for s in self.round_seats())

    def matches(self, before: int | None = None) -> list[Match]:
        """The Swiss results reported (of the rounds before `before`, if given)."""
        return [
            Match(s.round, s.first, BYE if s.second is None else s.second,
                  s.first_games or 0, s.second_games or 0, s.drawn_games or 0)
            for s in self.seats
            if s.stage == "swiss" and s.reported and (before is None or s.round < before)
        ]  # fmt: skip

    def standings(self, before: int | None = None) -> list[Standing]:
        """Everyone registered in order, dropped players with their results kept; late
        entrants as of the round they entered (a player not yet entered is left out)."""
        upto = self.last_round + 1 if before is None else before
        names = [p.name for p in self.players if p.entered_round <= max(upto, 1)]
        dropped = [p.name for p in self.players if p.dropped_after is not None]
        return standings(names, self.matches(before), self.event.tiebreakers, dropped)

    def entrants(self, number: int, among: set[str] | None = None) -> list[Entrant]:
        """Who round `number` pairs, in standings order: everyone entered and not dropped
        (or the players `among`, as a round already paired seated them), with the opponents
        they have met and the byes they have had in the Swiss rounds."""
        met: dict[str, set[str]] = defaultdict(set)
        byes: dict[str, int] = defaultdict(int)
        for seat in self.seats:
            if seat.stage != "swiss" or seat.round >= number:
                continue
            if seat.second is None:
                byes[seat.first] += 1
            else:
                met[seat.first].add(seat.second)
                met[seat.second].add(seat.first)
        active = among if among is not None else {p.name for p in self.active(number)}
        return [
            Entrant(row.record.player, row.record.points,
                    frozenset(met[row.record.player]), byes[row.record.player])
            for row in self.standings(number)
            if row.record.player in active
        ]  # fmt: skip

    def active(self, number: int) -> list[Player]:
        """Players round `number` may pair: entered by then, not dropped."""
        return [p for p in self.players if p.entered_round <= number and p.dropped_after is None]

    def player_id(self, name: str) -> int:
        return next(p.id for p in self.players if p.name == name)
