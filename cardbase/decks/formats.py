"""Deck formats as data, and the one generic checker that reads them.

A format says which sections a deck has, how many cards each may hold, which card types
belong where, whether a section's cards must all differ, and how many copies of a name the
deck may hold. Player-count variants replace section rules (Wildhearts Free-For-All has two
Fields for three players, one for four). The formats are their games' data: adding one is
adding a `[[formats]]` table to a game file (`cardbase/gamefiles`); the checker has no
branch for any particular format.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, NamedTuple

from cardbase.catalog.cards import Card
from cardbase.decks.lists import MAIN, DeckLine
from cardbase.games import GAMES, game_title
from cardbase.text import a, plural


class SectionRule(NamedTuple):
    name: str
    min_cards: int | None = None
    max_cards: int | None = None
    required: bool = True  # an optional section is checked only when the deck has it
    distinct: bool = False  # no two cards of the same name
    types: tuple[str, ...] = ()  # only these card types (empty: any)
    excluded_types: tuple[str, ...] = ()  # never these


class Format(NamedTuple):
    key: str
    title: str
    game: str
    sections: tuple[SectionRule, ...]
    copy_limit: int  # copies of one name, counted over `copy_sections`, all series and finishes
    copy_sections: tuple[str, ...]
    players: tuple[int, ...] = ()
    default_players: int | None = None
    variants: dict[int, tuple[SectionRule, ...]] = {}  # noqa: RUF012 (read-only data)

    def rules_for(self, players: int | None) -> dict[str, SectionRule]:
        rules = {rule.name: rule for rule in self.sections}
        for rule in self.variants.get(players or self.default_players or 0, ()):
            rules[rule.name] = rule
        return rules


def _rule(data: dict[str, Any]) -> SectionRule:
    return SectionRule(
        data["name"],
        min_cards=data["min"],
        max_cards=data["max"],
        required=data["required"],
        distinct=data["distinct"],
        types=tuple(data["types"]),
        excluded_types=tuple(data["excluded_types"]),
    )


def _format(game: str, data: dict[str, Any]) -> Format:
    """A format as its game's file says it (`cardbase.gamefile`'s normal shape)."""
    return Format(
        key=data["key"],
        title=data["title"],
        game=game,
        sections=tuple(map(_rule, data["sections"])),
        copy_limit=data["copy_limit"],
        copy_sections=tuple(data["copy_sections"]),
        players=tuple(data["players"]),
        default_players=data["default_players"],
        variants={players: tuple(map(_rule, rules)) for players, rules in data["variants"].items()},
    )


# Every game's formats, the default game's first (its first is DEFAULT_FORMAT).
FORMATS: dict[str, Format] = {
    fmt["key"]: _format(game.key, fmt) for game in GAMES.values() for fmt in game.formats
}


class Problem(NamedTuple):
    code: str  # stable, for scripts: too-few-cards, too-many-copies, unknown-card ...
    rule: str
    message: str
    lines: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    fix: str | None = None

    def describe(self) -> str:
        return f"{self.code}: {self.message}" + (f" ({self.fix})" if self.fix else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
            "lines": list(self.lines),
            "cards": list(self.cards),
            "fix": self.fix,
        }


class Placed(NamedTuple):
    """A deck line and the card it names."""

    line: DeckLine
    card: Card


def check(
    fmt: Format,
    placed: list[Placed],
    players: int | None = None,
    listed: dict[str, int] | None = None,
) -> list[Problem]:
    """Every problem with the deck's shape under `fmt`; an empty list means it is legal.

    `listed` is how many cards each section lists, unknown cards included, when the deck
    had lines that named no card: sizes are about what the list says.
    """
    if players is not None and fmt.players and players not in fmt.players:
        allowed = " or ".join(map(str, fmt.players))
        return [
            Problem(
                "wrong-players",
                f"{fmt.title} is for {allowed} players",
                f"{plural(players, 'player')}; {fmt.title} is for {allowed}",
            )
        ]
    rules = fmt.rules_for(players)
    problems: list[Problem] = []
    by_section: dict[str, list[Placed]] = defaultdict(list)
    for item in placed:
        by_section[item.line.section].append(item)
    for section, items in by_section.items():
        if section not in rules:
            lines = tuple(item.line.line for item in items)
            problems.append(
                Problem(
                    "unknown-section",
                    f"{fmt.title} decks have {', '.join(rules)}",
                    f"section '{section}' ({_lines(lines)}) is not part of {a(fmt.title)} deck",
                    lines,
                    fix=f"move the cards to {', '.join(rules)} or remove them",
                )
            )
    for item in placed:
        if item.card.game != fmt.game:
            problems.append(
                Problem(
                    "wrong-game",
                    f"{fmt.title} uses {game_title(fmt.game)} cards",
                    f"line {item.line.line} '{item.card.name}' is {a(game_title(item.card.game))} "
                    "card",
                    (item.line.line,),
                    (item.card.name,),
                )
            )
    for rule in rules.values():
        items = by_section.get(rule.name, [])
        count = (listed or {}).get(rule.name, sum(item.line.copies for item in items))
        problems += _check_section(rule, items, count)
    problems += _check_copies(fmt, placed)
    return problems


def _lines(lines: tuple[int, ...] | list[int]) -> str:
    """'line 2', 'lines 2, 5': a deck's lines, named as many as they are."""
    return ("line " if len(lines) == 1 else "lines ") + ", ".join(str(line) for line in lines)


def _check_section(rule: SectionRule, items: list[Placed], count: int) -> list[Problem]:
    if not count and not rule.required:
        return []
    label = "deck" if rule.name == MAIN else f"{rule.name} section"
    problems: list[Problem] = []
    if rule.min_cards is not None and count < rule.min_cards:
        exact = rule.max_cards == rule.min_cards
        problems.append(
            Problem(
                "too-few-cards",
                _size_rule(rule),
                f"{plural(count, 'card')} in the {label}, "
                + (
                    f"it must have exactly {rule.min_cards}"
                    if exact
                    else f"the minimum is {rule.min_cards}"
                ),
                fix=f"add {rule.min_cards - count}",
            )
        )
    if rule.max_cards is not None and count > rule.max_cards:
        exact = rule.max_cards == rule.min_cards
        problems.append(
            Problem(
                "too-many-cards",
                _size_rule(rule),
                f"{plural(count, 'card')} in the {label}, "
                + (
                    f"it must have exactly {rule.max_cards}"
                    if exact
                    else f"the maximum is {rule.max_cards}"
                ),
                fix=f"remove {count - rule.max_cards}",
            )
        )
    for item in items:
        card_type = item.card.type
        if (rule.types and card_type not in rule.types) or card_type in rule.excluded_types:
            where = f"only {', '.join(rule.types)}" if rule.types else f"no {card_type}"
            problems.append(
                Problem(
                    "wrong-type",
                    f"the {label} holds {where} cards",
                    f"line {item.line.line} '{item.card.name}' is {a(card_type)}; "
                    f"the {label} takes {where}",
                    (item.line.line,),
                    (item.card.name,),
                )
            )
    if rule.distinct:
        problems += _check_distinct(rule, label, items)
    return problems


def _size_rule(rule: SectionRule) -> str:
    if rule.min_cards is not None and rule.min_cards == rule.max_cards:
        return f"exactly {rule.min_cards} cards"
    parts = []
    if rule.min_cards is not None:
        parts.append(f"at least {rule.min_cards}")
    if rule.max_cards is not None:
        parts.append(f"at most {rule.max_cards}")
    return " and ".join(parts) + " cards"


def _check_distinct(rule: SectionRule, label: str, items: list[Placed]) -> list[Problem]:
    names: dict[str, list[Placed]] = defaultdict(list)
    for item in items:
        names[item.card.name].append(item)
    problems = []
    for name, group in names.items():
        copies = sum(item.line.copies for item in group)
        if copies > 1:
            lines = tuple(item.line.line for item in group)
            problems.append(
                Problem(
                    "not-distinct",
                    f"the {label}'s cards must all differ",
                    f"{name} x{copies} in the {label} ({_lines(lines)}); each must be different",
                    lines,
                    (name,),
                    fix=f"keep one {name}",
                )
            )
    return problems


def _check_copies(fmt: Format, placed: list[Placed]) -> list[Problem]:
    names: dict[str, list[Placed]] = defaultdict(list)
    for item in placed:
        if item.line.section in fmt.copy_sections:
            names[item.card.name].append(item)
    problems = []
    for name, group in names.items():
        copies = sum(item.line.copies for item in group)
        if copies > fmt.copy_limit:
            lines = tuple(item.line.line for item in group)
            where = ", ".join(f"{item.card.code} x{item.line.copies}" for item in group)
            problems.append(
                Problem(
                    "too-many-copies",
                    f"at most {fmt.copy_limit} copies of a card by the same name",
                    f"{name} x{copies} ({_lines(lines)}: {where}), at most {fmt.copy_limit}",
                    lines,
                    (name,),
                    fix=f"remove {copies - fmt.copy_limit}",
                )
            )
    return problems
