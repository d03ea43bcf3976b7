"""Swiss pairings as one weighted matching, so no early choice can force a rematch later.

Every possible table (and the bye, a table with nobody) gets a cost, and the round is the
perfect matching of least total cost (networkx's `max_weight_matching`, Edmonds' blossom
algorithm, on integer weights). The cost is lexicographic: each rule outweighs all the
rules below it together, so a worse rule is broken only where every pairing breaks it:

1. no rematch;
2. no second bye;
3. the bye to the lowest-ranked player who has not had one;
4. the fewest pair-downs (a table of players with different match points);
5. the smallest pair-downs (their match points' differences, summed);
6. within what is left, a random choice from the event's seed: the same seed and the same
   standings give the same round.

Large rounds first try a graph of the tables the rules can want (players of the same or a
neighbouring score group, the lowest-ranked for the bye), a tenth of the complete graph for
256 players; when its best round breaks rule 1 or 2, the complete graph decides.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from cardbase.errors import CardbaseError, shorten

BYE = ""  # the bye's node: no player's id is empty
RANDOM_SPAN = 1 << 8  # of the random tier: ties broken, never a rule outweighed
COMPLETE_UP_TO = 64  # players: a complete graph is quick enough (2,016 tables)
BYE_CANDIDATES = 8  # in the pruned graph: the lowest-ranked players who may take the bye
FLOATERS = 6  # in the pruned graph: a group's players who may pair down to another group
REACH = 3  # in the pruned graph: the lower groups FLOATERS may pair down to
FAR_FLOATERS = 2  # in the pruned graph: a group's players who may pair down further
GROUP_WHOLE = 24  # in the pruned graph: a score group this small has every table within it
GROUP_DEGREE = 8  # in the pruned graph: random opponents of each player in a larger group


class Entrant(NamedTuple):
    """A player as pairing sees them: standings order is the order of the list given."""

    id: str
    points: int
    opponents: frozenset[str] = frozenset()
    byes: int = 0


class Table(NamedTuple):
    first: str
    second: str  # BYE for the bye


class Pairing(NamedTuple):
    tables: list[Table]  # by the better-ranked player's place; the bye last

    @property
    def bye(self) -> str | None:
        return next((t.first for t in self.tables if t.second == BYE), None)


class Costs(NamedTuple):
    """A round's cost by rule, compared as a tuple: what `explain` and the tests read."""

    rematches: int
    second_byes: int
    bye_rank: int  # eligible players ranked below the one given the bye
    pair_downs: int
    pair_down_points: int


def default_rounds(players: int) -> int:
    """Swiss rounds for an event of `players`, as organisers' tables set them: enough that
    one player can finish alone on top (2 to 8 players: 3; to 16: 4; to 32: 5; ...)."""
    rounds = 3
    while players > 2**rounds:
        rounds += 1
    return rounds


def pair(entrants: Sequence[Entrant], seed: int, round_number: int) -> Pairing:
    """The next round's tables for `entrants` in standings order (dropped players left out)."""
    players = list(entrants)
    _check(players)
    if len(players) < 2:
        return Pairing([Table(p.id, BYE) for p in players])
    weights = _Weights(players, seed, round_number)
    if len(players) > COMPLETE_UP_TO:
        pairing = weights.match(_pruned_tables(players, weights.random))
        costs = round_costs(players, pairing)
        if costs.rematches == 0 and costs.second_byes == 0:
            return pairing
    return weights.match(_all_tables(players))


def _check(players: list[Entrant]) -> None:
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids) or BYE in ids:
        raise ValueError("each player once, each with an id")


def _all_tables(players: list[Entrant]) -> Iterable[tuple[int, int]]:
    count = len(players)
    for i in range(count):
        for j in range(i + 1, count):
            yield i, j
    if count % 2:
        for i in range(count):
            yield i, count  # count: the bye's index


def _pruned_tables(players: list[Entrant], luck: random.Random) -> Iterable[tuple[int, int]]:
    """The tables rules 1 to 5 can prefer, few enough for a quick matching: within a score
    group, a few seeded random opponents each (any of them costs the same, and the seed was
    to choose among them anyway); between two groups, the lowest-ranked of the higher and
    the highest-ranked of the lower (a lone floater may pair down past an even group: 3, 1,
    1, 0 is 3-0 and 1-1, one pair-down, not two); every table for a player who has met
    nearly all of their group; the bye for the lowest-ranked players."""
    groups: dict[int, list[int]] = {}
    for index, player in enumerate(players):
        groups.setdefault(player.points, []).append(index)
    ordered = [groups[points] for points in sorted(groups, reverse=True)]
    tables: set[tuple[int, int]] = set()
    for g, group in enumerate(ordered):
        tables.update(_within(players, group, luck))
        for reach, lower in enumerate(ordered[g + 1 :], 1):
            some = FLOATERS if reach <= REACH else FAR_FLOATERS
            tables.update(itertools.product(group[-some:], lower[:some]))
        for i in _cornered(players, group):  # every table, wherever the matching wants it
            tables.update((min(i, j), max(i, j)) for j in range(len(players)) if j != i)
    count = len(players)
    if count % 2:
        eligible = [i for i in range(count) if not players[i].byes] or list(range(count))
        tables.update((i, count) for i in eligible[-BYE_CANDIDATES:])
    return sorted(tables)


def _cornered(players: list[Entrant], group: list[int]) -> list[int]:
    """Players who have met all but one of their score group or more: where they play is
    decided by the other groups, so every table is open to them."""
    cornered = []
    for i in group:
        met = sum(players[j].id in players[i].opponents for j in group if j != i)
        if len(group) - 1 - met < 2:
            cornered.append(i)
    return cornered


def _within(
    players: list[Entrant], group: list[int], luck: random.Random
) -> Iterable[tuple[int, int]]:
    if len(group) <= GROUP_WHOLE:
        yield from itertools.combinations(group, 2)
        return
    for place, i in enumerate(group):
        yield from ((min(i, j), max(i, j)) for j in group[place + 1 : place + 3])
        fresh = [j for j in group if j != i and players[j].id not in players[i].opponents]
        for j in luck.sample(fresh, min(GROUP_DEGREE, len(fresh))):
            yield min(i, j), max(i, j)


class _Weights:
    """Each table's weight: a constant less its cost, the rules as tiers of one integer."""

    def __init__(self, players: list[Entrant], seed: int, round_number: int) -> None:
        self.players = players
        self.random = random.Random(f"{seed}:{round_number}")
        count = len(players)
        tables = count // 2 + 1
        widest = max(p.points for p in players) - min(p.points for p in players)
        self.tier_points = tables * RANDOM_SPAN
        self.tier_downs = self.tier_points * (tables * widest + 1)
        self.tier_bye_rank = self.tier_downs * (tables + 1)
        self.tier_second_bye = self.tier_bye_rank * (count + 1)
        self.tier_rematch = self.tier_second_bye * 2
        self.top = self.tier_rematch * (tables + 1)
        self.below = _eligible_below(players)

    def cost(self, i: int, j: int) -> int:
        first = self.players[i]
        luck = self.random.randrange(RANDOM_SPAN)
        if j == len(self.players):  # the bye
            if first.byes:
                return self.tier_second_bye + luck
            return self.below[i] * self.tier_bye_rank + luck
        second = self.players[j]
        cost = luck
        if second.id in first.opponents or first.id in second.opponents:
            cost += self.tier_rematch
        if first.points != second.points:
            cost += self.tier_downs + abs(first.points - second.points) * self.tier_points
        return cost

    def match(self, tables: Iterable[tuple[int, int]]) -> Pairing:
        import networkx as nx

        graph = nx.Graph()
        graph.add_weighted_edges_from((i, j, self.top - self.cost(i, j)) for i, j in tables)
        matched = nx.max_weight_matching(graph, maxcardinality=True)
        return _tables(self.players, matched)


def _eligible_below(players: list[Entrant]) -> list[int]:
    """For each player, how many players ranked below them have had no bye."""
    below, seen = [0] * len(players), 0
    for index in range(len(players) - 1, -1, -1):
        below[index] = seen
        seen += not players[index].byes
    return below


def _tables(players: list[Entrant], matched: Iterable[tuple[int, int]]) -> Pairing:
    count = len(players)
    tables: list[tuple[int, Table]] = []
    for a, b in matched:
        i, j = min(a, b), max(a, b)
        if j == count:
            tables.append((count, Table(players[i].id, BYE)))
        else:
            tables.append((i, Table(players[i].id, players[j].id)))
    tables.sort(key=lambda placed: placed[0])
    return Pairing([table for _, table in tables])


def round_costs(players: Sequence[Entrant], pairing: Pairing) -> Costs:
    """What a round breaks, rule by rule: for the checks, `--why`, and a swap by hand."""
    by_id = {p.id: p for p in players}
    below = dict(zip((p.id for p in players), _eligible_below(list(players)), strict=True))
    rematches = second_byes = bye_rank = downs = down_points = 0
    for table in pairing.tables:
        first = by_id[table.first]
        if table.second == BYE:
            second_byes += first.byes > 0
            bye_rank += below[first.id] if not first.byes else 0
            continue
        second = by_id[table.second]
        rematches += second.id in first.opponents or first.id in second.opponents
        if first.points != second.points:
            downs += 1
            down_points += abs(first.points - second.points)
    return Costs(rematches, second_byes, bye_rank, downs, down_points)


def explain(players: Sequence[Entrant], pairing: Pairing) -> list[str]:
    """Each table in words, with the rule that made it what it is: what `event pair --why`
    prints, so an organiser can answer "why am I playing them again?"."""
    by_id = {p.id: p for p in players}
    place = {p.id: n for n, p in enumerate(players, 1)}
    lines = []
    for number, table in enumerate(pairing.tables, 1):
        first = by_id[table.first]
        if table.second == BYE:
            why = SECOND_BYE if first.byes else "the lowest-ranked player without a bye"
            lines.append(f"bye: {first.id} (#{place[first.id]}, {first.points}): {why}")
            continue
        second = by_id[table.second]
        if first.points == second.points:
            why = f"same points ({first.points})"
        else:
            gap = abs(first.points - second.points)
            why = f"pair-down of {gap} point{'s' * (gap != 1)} ({first.points} v {second.points})"
        if second.id in first.opponents:
            why += "; a rematch: no round without one exists"
        lines.append(
            f"table {number}: {first.id} (#{place[first.id]}) v {second.id} "
            f"(#{place[second.id]}): {why}"
        )
    return lines


def swapped(pairing: Pairing, one: str, other: str) -> Pairing:
    """The round with two players' seats exchanged, as an organiser swaps them by hand."""
    seated = {pid for table in pairing.tables for pid in table if pid != BYE}
    for player in (one, other):
        if player not in seated:
            raise CardbaseError(f"'{shorten(player, 40)}' is not in this round's pairings")
    if one == other:
        raise CardbaseError("a swap needs two different players")
    trade = {one: other, other: one}
    return Pairing([Table(trade.get(t.first, t.first), trade.get(t.second, t.second))
                    for t in pairing.tables])  # fmt: skip


SECOND_BYE = "a second bye: every player has had one, or no other round works"
RULES = ("rematches", "second byes", "the bye's rank", "pair-downs", "pair-down points")


def broken_by(players: Sequence[Entrant], best: Pairing, changed: Pairing) -> list[str]:
    """What a hand-made round breaks that the paired one did not, rule by rule."""
    before, after = round_costs(players, best), round_costs(players, changed)
    return [f"{rule}: {was} -> {now}" for rule, was, now in zip(RULES, before, after, strict=True)
            if now > was]  # fmt: skip
