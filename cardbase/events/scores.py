"""A match result as an organiser calls it out: `2-1` (games won by the player named, then
by their opponent), `1-1-1` (and games drawn), `id` (an intentional draw, no games played).

A match of best-of-N ends when one player has won more than half of N, so `3-0` in a
best-of-3 cannot be; fewer games are fine (time was called at 1-0).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from cardbase.errors import CardbaseError, shorten

_SCORE = re.compile(r"(\d{1,2})-(\d{1,2})(?:-(\d{1,2}))?")
INTENTIONAL_DRAW = "id"


class Score(NamedTuple):
    won: int
    lost: int
    drawn: int = 0
    intentional: bool = False

    @property
    def winner_decided(self) -> bool:
        return self.won != self.lost

    def turned(self) -> Score:
        """The same result from the opponent's side."""
        return Score(self.lost, self.won, self.drawn, self.intentional)

    def __str__(self) -> str:
        if self.intentional:
            return "intentional draw"
        return f"{self.won}-{self.lost}" + (f"-{self.drawn}" if self.drawn else "")


def parse_score(text: str, best_of: int) -> Score:
    """`text` as a result of a best-of-`best_of` match; anything else is one line saying what
    a result looks like."""
    word = text.strip().lower()
    if word == INTENTIONAL_DRAW:
        return Score(0, 0, 0, True)
    found = _SCORE.fullmatch(word)
    if not found:
        raise CardbaseError(
            f"result '{shorten(text, 20)}': write games won-lost, as 2-1, with draws as "
            "1-1-1, or id for an intentional draw"
        )
    won, lost, drawn = (int(part or 0) for part in found.groups())
    needed = best_of // 2 + 1
    if max(won, lost) > needed or won == lost == needed or drawn > best_of:
        raise CardbaseError(
            f"result '{shorten(text, 20)}': a best-of-{best_of} match ends when a player has "
            f"won {needed} games"
        )
    if won + lost + drawn == 0:
        raise CardbaseError(
            f"result '{shorten(text, 20)}': no game played; write id for an intentional draw"
        )
    return Score(won, lost, drawn)
