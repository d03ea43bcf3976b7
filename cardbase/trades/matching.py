"""The trades two collectors can do: what one offers that the other wants, both ways, and a
proposal that keeps the two sides as even in value as the cards allow.

Cards match by name and finish (any printing of a name is as good in a deck). What changes
hands is always the offering side's copies, so an item keeps the condition and language of
the copies it came from.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.progress import Progress, Stage, quiet
from cardbase.trades.items import TheirList, TradeItem


class TradeMatch(NamedTuple):
    they_offer_i_want: list[TradeItem]
    they_want_i_spare: list[TradeItem]
    proposal_get: list[TradeItem]
    proposal_give: list[TradeItem]

    def summary(self) -> dict[str, int]:
        """The proposal's size and value, each side."""
        return {
            "get_cards": sum(i.copies for i in self.proposal_get),
            "give_cards": sum(i.copies for i in self.proposal_give),
            "get_value": sum(i.value for i in self.proposal_get),
            "give_value": sum(i.value for i in self.proposal_give),
        }

    def to_dict(self) -> dict[str, Any]:
        def items(values: list[TradeItem]) -> list[dict[str, Any]]:
            return [item.to_dict() for item in values]

        return {
            "they_offer_i_want": items(self.they_offer_i_want),
            "they_want_i_can_spare": items(self.they_want_i_spare),
            "proposal": {
                "get": items(self.proposal_get),
                "give": items(self.proposal_give),
                **self.summary(),
            },
        }


def _overlap(offered: list[TradeItem], wanted: list[TradeItem]) -> list[TradeItem]:
    """The offered items that the wanted ones match by name and finish, as many copies as
    both sides have."""
    available: Counter[tuple[str, str]] = Counter()
    for item in wanted:
        available[(name_key(item.card.name), item.finish)] += item.copies
    matched = []
    for item in offered:
        key = (name_key(item.card.name), item.finish)
        copies = min(item.copies, available[key])
        if copies > 0:
            available[key] -= copies
            matched.append(item._replace(copies=copies))
    return matched


def match_trades(
    theirs: TheirList,
    my_haves: list[TradeItem],
    my_wants: list[TradeItem],
    progress: Progress = quiet,
) -> TradeMatch:
    """What we can swap, and a proposal that keeps the two sides as even as the cards allow.

    Each side's value is kept as a running total rather than summed again for every copy
    placed (which made big lists quadratic); `progress` hears the copies placed ("Matching").
    """
    get = _overlap(theirs.offered, my_wants)
    give = _overlap(my_haves, theirs.wanted)
    sides = {"get": _units(get), "give": _units(give)}
    chosen: dict[str, list[TradeItem]] = {"get": [], "give": []}
    value = {"get": 0, "give": 0}
    stage = Stage("Matching", len(sides["get"]) + len(sides["give"]), progress)
    # Add the most valuable card still free to whichever side is behind, while it can.
    while True:
        behind = min(chosen, key=lambda side: (value[side], side))
        if len(chosen[behind]) == len(sides[behind]):
            break
        unit = sides[behind][len(chosen[behind])]
        chosen[behind].append(unit)
        value[behind] += unit.value
        stage.tick()
    stage.finish()
    # Then, while that brings the sides closer, swap the ahead side's cheapest card for one
    # it left out (a common rather than a rare), or drop it.
    ahead = max(chosen, key=lambda side: value[side])
    other = "give" if ahead == "get" else "get"
    left_out = sides[ahead][len(chosen[ahead]) :]
    while chosen[ahead]:
        gap = value[ahead] - value[other]
        last = chosen[ahead][-1]
        swap = min(left_out, key=lambda unit: abs(gap - last.value + unit.value), default=None)
        if swap and abs(gap - last.value + swap.value) < min(abs(gap), abs(gap - last.value)):
            left_out[left_out.index(swap)] = last
            chosen[ahead][-1] = swap
            value[ahead] += swap.value - last.value
        elif abs(gap - last.value) < abs(gap):
            value[ahead] -= chosen[ahead].pop().value
        else:
            break
    if not chosen["get"] or not chosen["give"]:
        return TradeMatch(get, give, [], [])
    return TradeMatch(get, give, _regroup(chosen["get"]), _regroup(chosen["give"]))


def _units(items: list[TradeItem]) -> list[TradeItem]:
    """One entry a copy, most valuable first (then in list order, for a stable proposal)."""
    units = [item._replace(copies=1) for item in items for _ in range(item.copies)]
    return sorted(units, key=lambda unit: (-unit.value, unit.order()))


def _regroup(units: list[TradeItem]) -> list[TradeItem]:
    """Copies of one card, finish, condition and language back into one item."""
    counts: Counter[tuple[int, str, str | None, str | None]] = Counter()
    first: dict[tuple[int, str, str | None, str | None], TradeItem] = {}
    for unit in units:
        key = (unit.card.id, unit.finish, unit.condition, unit.language)
        counts[key] += 1
        first.setdefault(key, unit)
    return sorted((first[key]._replace(copies=n) for key, n in counts.items()), key=TradeItem.order)
