"""The top cut: single elimination among the best of the Swiss standings, seeded so that the
first and second seeds can meet only in the final (1-8, 4-5, 2-7, 3-6 for eight)."""

from __future__ import annotations

from collections.abc import Sequence

from cardbase.errors import CardbaseError
from cardbase.events.swiss import Table

CUT_SIZES = (2, 4, 8, 16, 32, 64)


def seed_order(size: int) -> list[int]:
    """Seeds (1 first) in bracket order: each table is two neighbours, each half of the list
    a half of the bracket, the better seeds kept apart for as long as they can be."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for first in order for seed in (first, total - first)]
    return order


def first_round(seeded: Sequence[str], size: int) -> list[Table]:
    """The cut's first tables for the top `size` of `seeded` (standings order)."""
    if size not in CUT_SIZES:
        raise CardbaseError(f"a top cut of {size}: use {', '.join(map(str, CUT_SIZES))}")
    if len(seeded) < size:
        raise CardbaseError(
            f"a top cut of {size} needs {size} players; the standings have {len(seeded)}"
        )
    order = seed_order(size)
    return [Table(seeded[order[k] - 1], seeded[order[k + 1] - 1]) for k in range(0, size, 2)]


def next_round(winners: Sequence[str]) -> list[Table]:
    """The next tables: the winners of neighbouring tables, in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise CardbaseError("the cut's next round needs the winners of every table")
    return [Table(winners[k], winners[k + 1]) for k in range(0, len(winners), 2)]
