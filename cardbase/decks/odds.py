"""Draw odds, exact: the chance that a shuffled deck gives at least so many cards of each
group (cards a query matches, or named cards) within so many draws, by the multivariate
hypergeometric law, in fractions; and sample opening hands dealt from a seed.

"What are my chances of a 2-cost creature in my opening hand?" is `at_least(40, [(8, 1)],
6)`: 8 such cards in 40, at least one in 6 draws.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import NamedTuple

from cardbase.errors import CardbaseError
from cardbase.games import Game
from cardbase.text import plural


class Group(NamedTuple):
    """Cards of the deck counted together, and how many of them are wanted."""

    label: str
    copies: int
    wanted: int = 1


def at_least(deck_size: int, groups: Sequence[Group], draws: int) -> Fraction:
    """The chance of at least `wanted` of every group (the groups share no card) among the
    first `draws` cards of a shuffled deck of `deck_size`."""
    _check(deck_size, groups, draws)
    rest = deck_size - sum(g.copies for g in groups)
    ways = 0
    ranges = [range(g.wanted, min(g.copies, draws) + 1) for g in groups]
    for counts in itertools.product(*ranges):
        drawn = sum(counts)
        if drawn > draws or draws - drawn > rest:
            continue
        product = comb(rest, draws - drawn)
        for group, count in zip(groups, counts, strict=True):
            product *= comb(group.copies, count)
        ways += product
    return Fraction(ways, comb(deck_size, draws))


def _check(deck_size: int, groups: Sequence[Group], draws: int) -> None:
    counted = sum(g.copies for g in groups)
    if counted > deck_size:
        raise CardbaseError(f"the groups hold {counted} cards, more than the deck's {deck_size}")
    if not 0 <= draws <= deck_size:
        raise CardbaseError(f"{draws} draws from a deck of {deck_size}: draw 0 to {deck_size}")
    for group in groups:
        if group.wanted > group.copies:
            raise CardbaseError(
                f"{group.wanted} of {group.label} wanted, but the deck has {group.copies}"
            )


class Odds(NamedTuple):
    """A deck's chance of the groups by a draw, as `deck odds` says it."""

    deck: str
    cards: int
    draws: int
    groups: list[Group]
    chance: Fraction

    def to_dict(self) -> dict[str, object]:
        return {
            "deck": self.deck, "cards": self.cards, "draws": self.draws,
            "groups": [g._asdict() for g in self.groups],
            "chance": float(self.chance), "exact": str(self.chance),
        }  # fmt: skip

    def describe(self) -> str:
        wanted = " and ".join(
            f"{g.wanted}+ of {g.label} ({g.copies} in the deck)" for g in self.groups
        )
        chance = f"{float(self.chance):.1%}"
        drawn = plural(self.draws, "card")
        return f"{chance} to draw {wanted or 'anything'} in {drawn} of {self.cards}"


def draws_by_turn(game: Game, turn: int, first_player: bool = True) -> int:
    """Cards seen by the start of `turn`'s main phase: the opening hand and each turn's
    draw, the first player skipping the first turn's."""
    if game.opening_hand is None or game.draws_per_turn is None:
        raise CardbaseError(f"{game.title}'s rules as cardbase knows them give no hand size")
    if turn < 1:
        raise CardbaseError(f"turn {turn}: turns count from 1")
    turns_drawn = turn - 1 if first_player else turn
    return game.opening_hand + game.draws_per_turn * turns_drawn


def deal(cards: Sequence[str], size: int, seed: int) -> list[str]:
    """An opening hand from the deck's cards (a name a copy), the same for the same seed."""
    if not 0 < size <= len(cards):
        raise CardbaseError(f"a hand of {size} from a deck of {len(cards)}")
    return random.Random(seed).sample(list(cards), size)
