"""Checking deck lists and describing them: the reports `cardbase deck` prints.

A deck list's lines are resolved to cards (names may be any printing: the copy rule counts
by name across series anyway), then the format's rules (`cardbase.decks.formats`) and, if asked,
the collection judge it. The report keeps every problem, never only the first.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, NamedTuple

from cardbase import notices
from cardbase.catalog.cards import cards_by_id, name_key
from cardbase.catalog.names import NameResolver, Printing
from cardbase.codes import looks_like_code
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.decks.formats import FORMATS, Format, Placed, Problem, check
from cardbase.decks.lists import DeckLine, DeckList
from cardbase.errors import CardbaseError, shorten
from cardbase.fields import DEFAULT_FORMAT
from cardbase.fieldtypes import GEM_COLOURS
from cardbase.games import FREE_REALMS, GAMES


class DeckReport(NamedTuple):
    source: str
    format: Format
    players: int | None
    cards: int
    sections: dict[str, int]
    problems: list[Problem]
    player: str | None = None  # from the deck's "Player:" line

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.source,
            "player": self.player,
            "format": self.format.key,
            "players": self.players,
            "valid": self.valid,
            "cards": self.cards,
            "sections": self.sections,
            "problems": [problem.to_dict() for problem in self.problems],
        }


def get_format(key: str) -> Format:
    """A format by its key or its title ("Wildhearts Free-For-All", as a sheet may say)."""
    wanted = " ".join(key.split()).lower()
    for fmt in FORMATS.values():
        if wanted in (fmt.key, fmt.title.lower()):
            return fmt
    raise CardbaseError(f"unknown format '{key}'; formats: {', '.join(FORMATS)}")


def own_format(source: str, said: str | None, default: str) -> Format:
    """The format a deck names for itself ("Format: wildhearts-ffa"), else `default`; a
    format the deck names wrongly is its own error, naming the deck."""
    if not said:
        return get_format(default)
    try:
        return get_format(said)
    except CardbaseError as exc:
        raise CardbaseError(f"{source}: Format: {exc}") from None


def cards_game(conn: Connection, deck: DeckList) -> str | None:
    """The one game whose cards the deck names, or None: the lines naming a card of one game
    alone all name that game's (a code, or a name that several games print, says nothing;
    cards of two games, or none known, give None)."""
    resolver = NameResolver(conn)
    resolver.game = None  # every game's printings, whatever the user prefers
    games: set[str] = set()
    for line in deck.lines:
        if looks_like_code(line.card):
            continue
        found = {printing.game for printing in resolver.named(line.card)}
        if len(found) == 1:
            games |= found
    return games.pop() if len(games) == 1 else None


def format_of_cards(
    conn: Connection, deck: DeckList, fallback: Format, *, tell: bool = True
) -> Format:
    """The format of a deck that names none: `fallback`, unless its cards are all another
    game's (`cards_game`), then that game's first format, a notice saying so (`tell`)."""
    game = cards_game(conn, deck)
    if game is None or game == fallback.game:
        return fallback
    fmt = next(f for f in FORMATS.values() if f.game == game)
    if tell:
        title = GAMES[game].title if game in GAMES else game
        notices.tell(
            f"{deck.source} names no format and its cards are {title} cards: read as "
            f"{fmt.title} (a 'Format: {fmt.key}' line or --format chooses)"
        )
    return fmt


def place(
    conn: Connection,
    deck: DeckList,
    game: str | None = None,
    resolver: NameResolver | None = None,
) -> tuple[list[Placed], list[Problem]]:
    """Each line's card (of `game` where a code or name is in several games; a name printed in
    several series is its first printing, as the copy rule counts by name); lines that name no
    card, or are not deck lines, become problems. A `resolver` shared by many decks (of
    `game`) looks each name up once."""
    resolver = resolver or NameResolver(conn, game)
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
    conn: Connection,
    deck: DeckList,
    format_key: str = DEFAULT_FORMAT,
    players: int | None = None,
    owned: bool = False,
    resolver: NameResolver | None = None,
    placed_as: tuple[list[Placed], list[Problem]] | None = None,
    *,
    own: int | None = None,
) -> DeckReport:
    """The deck's report in `format_key`; with `owned`, the copies the collector lacks
    free (`own`: the saved deck being checked, whose sleeved copies are its own);
    `placed_as`, what `place` made of the deck already (the Deck Builder shows the cards
    too, and placing a 60-card deck twice cost each update 1.5 ms)."""
    fmt = get_format(format_key)
    placed, problems = placed_as or place(conn, deck, fmt.game, resolver)
    problems = list(problems)
    sections: dict[str, int] = defaultdict(int)
    for line in deck.lines:
        sections[line.section] += line.copies
    problems += check(fmt, placed, players, dict(sections))
    if owned:
        problems += shortfall(conn, placed, own)
    total = sum(sections.values())
    return DeckReport(
        deck.source,
        fmt,
        fmt.default_players if players is None else players,
        total,
        dict(sections),
        problems,
        deck.player,
    )


def shortfall(conn: Connection, placed: list[Placed], own: int | None = None) -> list[Problem]:
    """Cards the deck needs beyond the collection's free copies, by name (any printing or
    finish): copies sleeved in another built deck are that deck's (`own`, the saved deck
    checked: its copies count as its own), and the problem names the decks."""
    from cardbase.collection.sleeved import in_decks_by_name

    needed: Counter[str] = Counter()
    lines: dict[str, list[int]] = defaultdict(list)
    shown: dict[str, str] = {}
    for item in placed:
        key = name_key(item.card.name)
        needed[key] += item.line.copies
        lines[key].append(item.line.line)
        shown[key] = item.card.name
    owned = owned_by_name(conn, list(needed))
    elsewhere = in_decks_by_name(conn, list(needed), own)
    problems = []
    for key, count in needed.items():
        decks = elsewhere.get(key, {})
        held = min(owned.get(key, 0), sum(decks.values()))
        have = owned.get(key, 0) - held
        if have < count:
            problems.append(_not_owned(shown[key], count, have + held, decks, tuple(lines[key])))
    return problems


def _not_owned(
    name: str, count: int, owned: int, decks: dict[str, int], lines: tuple[int, ...]
) -> Problem:
    """A card short: "you own 1", or, when built decks hold some, which and how many."""
    held = min(owned, sum(decks.values()))
    have = owned - held
    said = f"{name}: the deck needs {count}, you own {owned}"
    fix = f"get {count - have} more"
    if held:
        where = ", ".join(f"{n} in '{deck}'" for deck, n in decks.items())
        said += f", {held} of them sleeved in built decks ({where})"
        fix += f", or unsleeve {' or '.join(repr(deck) for deck in decks)}"
    return Problem("not-owned", "the deck can be built from your collection", said, lines,
                   (name,), fix=fix)  # fmt: skip


def owned_by_name(conn: Connection, keys: list[str]) -> dict[str, int]:
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
    spheres: dict[str, int]  # of the cards of games that have spheres
    types: dict[str, int]
    heroes: int
    cost_curve: dict[int, int]  # fighting cards (Creatures; Allies, Familiars) by cost
    sections: dict[str, int] = {}  # noqa: RUF012 (read-only)
    curve_types: tuple[str, ...] = ("Creature",)  # what the cost curve counts

    def to_dict(self) -> dict[str, Any]:
        data = self._asdict()
        data["average_gems"] = round(self.average_gems, 2)
        data["cost_curve"] = {str(cost): n for cost, n in self.cost_curve.items()}
        data["curve_types"] = list(self.curve_types)
        return data

    def csv_rows(self) -> list[tuple[str, str, int | float]]:
        """Rows under `STATS_CSV_HEADER`: a number a row, each counted thing its own row
        (a spreadsheet sums and charts these; a cell of dict text it cannot)."""
        rows: list[tuple[str, str, int | float]] = [
            ("cards", "", self.cards),
            ("average_gems", "", round(self.average_gems, 2)),
            ("heroes", "", self.heroes),
        ]
        for stat, counts in (
            ("section", self.sections),
            ("gem_colour", self.gem_colours),
            ("sphere", self.spheres),
            ("type", self.types),
            ("cost", self.cost_curve),
        ):
            rows += [(stat, str(key), count) for key, count in counts.items()]
        return rows


STATS_CSV_HEADER = ("stat", "key", "value")


def deck_stats(placed: list[Placed]) -> DeckStats:
    """What a deck builder shows. The cost curve counts the cards that fight (a game's
    `fighting_types`): Creatures in Free Realms, Allies and Familiars in Wildhearts."""
    cards = sum(item.line.copies for item in placed)
    gems = sum(len(item.card.gems) * item.line.copies for item in placed)
    colours: Counter[str] = Counter()
    spheres: Counter[str] = Counter()
    types: Counter[str] = Counter()
    sections: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    heroes = 0
    fighting: list[str] = []
    for item in placed:
        copies, card = item.line.copies, item.card
        game = GAMES.get(card.game, FREE_REALMS)
        for gem in card.gems:
            colours[gem] += copies
        if game.spheres:
            spheres["Hero" if card.hero else card.sphere or "None"] += copies
        types[card.type] += copies
        sections[item.line.section] += copies
        heroes += copies if card.hero else 0
        fighting += [t for t in game.fighting_types if t not in fighting]
        if card.type in game.fighting_types and card.cost is not None:
            curve[card.cost] += copies
    return DeckStats(
        cards,
        gems / cards if cards else 0.0,
        {colour: colours[colour] for colour in GEM_COLOURS if colours[colour]},
        dict(spheres.most_common()),
        dict(types.most_common()),
        heroes,
        {cost: curve[cost] for cost in range(min(curve, default=0), max(curve, default=-1) + 1)},
        dict(sections),
        tuple(fighting) or FREE_REALMS.fighting_types,
    )
