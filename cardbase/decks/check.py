"""Checking deck lists and describing them: the reports `cardbase deck` prints.

A deck list's lines are resolved to cards (names may be any printing: the copy rule counts
by name across series anyway), then the format's rules (`cardbase.decks.formats`) and, if asked,
the collection judge it. The report keeps every problem, never only the first.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from typing import Any, NamedTuple

from cardbase.catalog.cards import cards_by_id, name_key
from cardbase.catalog.names import NameResolver, Printing
from cardbase.codes import looks_like_code
from cardbase.db import tables
from cardbase.decks.formats import FORMATS, Format, Placed, Problem, check
from cardbase.decks.lists import DeckLine, DeckList
from cardbase.errors import CardbaseError, shorten
from cardbase.fields import DEFAULT_FORMAT, GEM_COLOURS


class DeckReport(NamedTuple):
    source: str
    format: Format
    players: int | None
    cards: int
    sections: dict[str, int]
    problems: list[Problem]

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.source,
            "format": self.format.key,
            "players": self.players,
            "valid": self.valid,
            "cards": self.cards,
            "sections": self.sections,
            "problems": [problem.to_dict() for problem in self.problems],
        }


def get_format(key: str) -> Format:
    try:
        return FORMATS[key.lower()]
    except KeyError:
        raise CardbaseError(f"unknown format '{key}'; formats: {', '.join(FORMATS)}") from None


def place(
    conn: sqlite3.Connection, deck: DeckList, game: str | None = None
) -> tuple[list[Placed], list[Problem]]:
    """Each line's card (of `game` where a code or name is in several games; a name printed in
    several series is its first printing, as the copy rule counts by name); lines that name no
    card, or are not deck lines, become problems."""
    resolver = NameResolver(conn, game)
    problems = [
        Problem(
            "bad-line",
            "one card entry a line",
            f"line {p.line} '{shorten(p.text)}': {p.message}" if p.line else p.message,
            (p.line,) if p.line else (),
        )
        for p in deck.problems
    ]
    found: list[tuple[DeckLine, Printing]] = []
    for line in deck.lines:
        try:
            printing, _copies = resolver.line_printing(
                line.card, line.whole, line.copies, any_printing=True
            )
        except CardbaseError as exc:
            # Remembered from the refusal: a bad line's suggestions are searched once.
            close = [] if looks_like_code(line.card) else resolver.suggestions(line.card)
            why = f"did you mean {', '.join(close)}?" if close else str(exc)
            problems.append(
                Problem(
                    "unknown-card",
                    "every line names a card in the catalogue",
                    f"line {line.line} '{line.card}'; {why}",
                    (line.line,),
                    (line.card,),
                )
            )
            continue
        found.append((line, printing))
    cards = cards_by_id(conn, (printing.id for _line, printing in found))  # one query a deck
    return [Placed(line, cards[printing.id]) for line, printing in found], problems


def check_deck(
    conn: sqlite3.Connection,
    deck: DeckList,
    format_key: str = DEFAULT_FORMAT,
    players: int | None = None,
    owned: bool = False,
) -> DeckReport:
    fmt = get_format(format_key)
    placed, problems = place(conn, deck, fmt.game)
    sections: dict[str, int] = defaultdict(int)
    for line in deck.lines:
        sections[line.section] += line.copies
    problems += check(fmt, placed, players, dict(sections))
    if owned:
        problems += shortfall(conn, placed)
    total = sum(sections.values())
    return DeckReport(
        deck.source, fmt, players or fmt.default_players, total, dict(sections), problems
    )


def shortfall(conn: sqlite3.Connection, placed: list[Placed]) -> list[Problem]:
    """Cards the deck needs beyond what the collection holds, by name (any printing or finish)."""
    needed: Counter[str] = Counter()
    lines: dict[str, list[int]] = defaultdict(list)
    shown: dict[str, str] = {}
    for item in placed:
        key = name_key(item.card.name)
        needed[key] += item.line.copies
        lines[key].append(item.line.line)
        shown[key] = item.card.name
    owned = owned_by_name(conn, list(needed))
    problems = []
    for key, count in needed.items():
        have = owned.get(key, 0)
        if have < count:
            problems.append(
                Problem(
                    "not-owned",
                    "the deck can be built from your collection",
                    f"{shown[key]}: the deck needs {count}, you own {have}",
                    tuple(lines[key]),
                    (shown[key],),
                    fix=f"get {count - have} more",
                )
            )
    return problems


def owned_by_name(conn: sqlite3.Connection, keys: list[str]) -> dict[str, int]:
    """Copies owned of each folded name, every printing and finish together."""
    if not keys:
        return {}
    marks = ", ".join("?" * len(keys))
    rows = conn.execute(
        f"SELECT c.name_key, sum(o.nonfoil + o.foil) FROM {tables.CARD_TABLE} AS c "
        f"JOIN {tables.MY_OWNERSHIP} AS o ON o.card_id = c.id "
        f"WHERE c.name_key IN ({marks}) GROUP BY c.name_key",
        keys,
    )
    return {key: int(total) for key, total in rows}


class DeckStats(NamedTuple):
    cards: int
    average_gems: float  # the mean gems of a flipped card, as the game's deck builder shows
    gem_colours: dict[str, int]
    spheres: dict[str, int]
    types: dict[str, int]
    heroes: int
    cost_curve: dict[int, int]  # creatures by coin cost

    def to_dict(self) -> dict[str, Any]:
        data = self._asdict()
        data["average_gems"] = round(self.average_gems, 2)
        data["cost_curve"] = {str(cost): n for cost, n in self.cost_curve.items()}
        return data


def deck_stats(placed: list[Placed]) -> DeckStats:
    cards = sum(item.line.copies for item in placed)
    gems = sum(len(item.card.gems) * item.line.copies for item in placed)
    colours: Counter[str] = Counter()
    spheres: Counter[str] = Counter()
    types: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    heroes = 0
    for item in placed:
        copies = item.line.copies
        for gem in item.card.gems:
            colours[gem] += copies
        spheres["Hero" if item.card.hero else item.card.sphere or "None"] += copies
        types[item.card.type] += copies
        heroes += copies if item.card.hero else 0
        if item.card.type == "Creature" and item.card.cost is not None:
            curve[item.card.cost] += copies
    return DeckStats(
        cards,
        gems / cards if cards else 0.0,
        {colour: colours[colour] for colour in GEM_COLOURS if colours[colour]},
        dict(spheres.most_common()),
        dict(types.most_common()),
        heroes,
        {cost: curve[cost] for cost in range(min(curve, default=0), max(curve, default=-1) + 1)},
    )
