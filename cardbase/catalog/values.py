"""One catalogue row's values, checked and turned into the row the card table stores.

A catalogue repeats a handful of values a hundred thousand times (types, spheres, hero
flags, costs, traits, gems), so `RowReader` checks each distinct value once and remembers
the verdict: a 100k-row file costs one dictionary lookup per repeated value, not the
whole check. Rows come out as plain tuples in the card table's column order, ready for one
prepared INSERT, rather than as a `Card`, its code and its traits tuple per row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from operator import itemgetter

from cardbase.catalog.cards import join_names, name_key
from cardbase.codes import parse_code
from cardbase.errors import CardbaseError
from cardbase.fields import (
    CATALOGUE_COLUMNS,
    GEM_COLOURS,
    MAX_GEMS,
    NAME_COLUMNS,
    TRAIT_SEPARATOR,
)
from cardbase.games import DEFAULT_GAME, GAMES, Game
from cardbase.limits import MAX_CELL
from cardbase.similar import closest

TRUE_WORDS = frozenset({"yes", "y", "true", "t", "1", "x", "hero"})
FALSE_WORDS = frozenset({"", "no", "n", "false", "f", "0"})
NO_SPHERE_WORDS = frozenset({"", "none", "hero", "-"})
# C0 controls but tab, line feed and carriage return; DEL; C1 controls (U+009B is CSI).
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# The order `RowReader` takes a row's values in; every catalogue column, once.
_ORDER = ("game", "code", "name", "type", "hero", "sphere", "cost", "attack", "defense",
          "traits", "gems", "text", "lore", "artist", *NAME_COLUMNS)  # fmt: skip
assert sorted(_ORDER) == sorted((*CATALOGUE_COLUMNS, *NAME_COLUMNS)), "_ORDER misses a column"

Row = tuple[object, ...]  # the card table's columns but the id, in `tables.CARD_COLUMNS` order


class RowError(CardbaseError):
    """One bad value in one row; collected, never shown alone."""


class RowReader:
    """Turns a CSV row into a card-table row, or raises `RowError` naming its first bad value.

    Built for one file's header (`columns`: catalogue column -> position). `controls` says
    whether the text may hold control characters at all (a caller that searched the whole
    file and found none lets every row skip that check).
    """

    def __init__(self, columns: dict[str, int], controls: bool = True) -> None:
        self._width = max(columns.values()) + 1
        # A column the file lacks reads the "" appended to every row (position -1).
        self._values = itemgetter(*(columns.get(name, -1) for name in _ORDER))
        self._mapped = tuple(columns.items())
        self._controls = controls
        self._games: dict[str, Game] = {}
        self._kinds: dict[tuple[str, str, str, str], tuple[str, bool, str | None]] = {}
        self._stats: dict[str, int | None] = {"": None}
        self._traits: dict[str, str] = {}
        self._gems: dict[str, str] = {}

    def __call__(self, row: list[str]) -> Row:
        if len(row) < self._width:
            row.extend([""] * (self._width - len(row)))
        row.append("")
        if self._controls or max(map(len, row)) > MAX_CELL:
            self._check_characters(row)
        (game_text, code_text, name, type_text, hero_text, sphere_text, cost_text, attack_text,
         defense_text, traits, gems, text, lore, artist, *names) = self._values(row)  # fmt: skip
        game = self._games.get(game_text)
        if game is None:
            game = self._games[game_text] = _game(game_text)
        code = parse_code(code_text)
        name = " ".join(name.split())
        if not name:
            raise RowError("the name is empty")
        kind_key = (game.key, type_text, hero_text, sphere_text)
        kind = self._kinds.get(kind_key)
        if kind is None:
            kind = self._kinds[kind_key] = _kind(game, type_text, hero_text, sphere_text)
        card_type, hero, sphere = kind
        cost = self._stat("cost", cost_text)
        attack = self._stat("attack", attack_text)
        defense = self._stat("defense", defense_text)
        if card_type in game.fighting_types:
            if attack is None or defense is None:
                raise RowError(f"a {card_type} needs attack and defense")
        elif attack is not None or defense is not None:
            raise RowError(f"a {card_type} has no attack or defense; leave them empty")
        traits = _remembered(self._traits, traits, _traits)
        gems = _remembered(self._gems, gems, _gems)
        return (game.key, code.series, code.rarity, code.number, name, name_key(name),
                card_type, hero, sphere, traits, cost, attack, defense, gems, text.strip(),
                lore.strip(), " ".join(artist.split()), join_names(names))  # fmt: skip

    def _stat(self, column: str, text: str) -> int | None:
        try:
            return self._stats[text]
        except KeyError:  # the column is named only in an error, so a text's number is shared
            number = self._stats[text] = _stat(column, text)
            return number

    def _check_characters(self, row: list[str]) -> None:
        """Refuse control characters (ESC and the rest), which a terminal would obey when
        `show` prints the card. Tab and line breaks are text (a card's text may span lines);
        so is anything printable. A value longer than a spreadsheet cell holds is refused."""
        for column, position in self._mapped:
            value = row[position]
            if len(value) > MAX_CELL:
                raise RowError(f"{column} has {len(value):,} characters (at most {MAX_CELL:,})")
            bad = CONTROL.search(value)
            if bad:
                raise RowError(
                    f"{column} has the control character U+{ord(bad.group()):04X} at character "
                    f"{bad.start() + 1}; remove it (tabs and line breaks are fine)"
                )


def _remembered(cache: dict[str, str], text: str, check: Callable[[str], str]) -> str:
    found = cache.get(text)
    if found is None:
        found = cache[text] = check(text)
    return found


def _game(text: str) -> Game:
    wanted = text.strip().lower()
    if not wanted:
        return GAMES[DEFAULT_GAME]
    for game in GAMES.values():
        if wanted in (game.key, game.title.lower()):
            return game
    raise RowError(f"game '{text.strip()}' is not one of {', '.join(GAMES)}")


def _kind(
    game: Game, type_text: str, hero_text: str, sphere_text: str
) -> tuple[str, bool, str | None]:
    card_type, hero = _type_and_hero(game, type_text, hero_text)
    return card_type, hero, _sphere(game, sphere_text, hero)


def _choice(kind: str, text: str, choices: Iterable[str]) -> str:
    options = list(choices)
    for option in options:
        if text.strip().lower() == option.lower():
            return option
    close = closest(text.strip(), options)
    hint = f"; did you mean {close}?" if close else ""
    raise RowError(f"{kind} '{text.strip()}' is not one of {', '.join(options)}{hint}")


def _type_and_hero(game: Game, type_text: str, hero_text: str) -> tuple[str, bool]:
    hero = _flag("hero", hero_text)
    word = type_text.strip().lower()
    if word == "hero":  # lists often say "Hero" where the card says "Creature - Hero"
        return game.fighting_types[0], True
    card_type = game.type_synonyms.get(word) or _choice("type", type_text, game.types)
    if hero and card_type not in game.fighting_types:
        raise RowError(f"a Hero must be a {' or '.join(game.fighting_types)}, not a {card_type}")
    return card_type, hero


def _sphere(game: Game, text: str, hero: bool) -> str | None:
    if text.strip().lower() in NO_SPHERE_WORDS:
        if not hero and game.spheres:
            raise RowError(
                f"the sphere is empty; only Heroes have none ({', '.join(game.spheres)})"
            )
        return None
    if hero:
        raise RowError(f"Heroes have no sphere, but this row says '{text.strip()}'")
    return _choice("sphere", text, game.spheres)


def _flag(column: str, text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise RowError(f"{column} '{text.strip()}' is not yes or no")


def _stat(column: str, raw: str) -> int | None:
    text = raw.strip()
    if not text:
        return None
    try:
        number = int(text)
    except ValueError:
        raise RowError(f"{column} '{text}' is not a whole number") from None
    if not 0 <= number <= 999:
        raise RowError(f"{column} {number} is out of range (0 to 999)")
    return number


def _traits(text: str) -> str:
    traits = (" ".join(t.split()) for t in text.replace(";", ",").split(",") if t.strip())
    return TRAIT_SEPARATOR.join(traits)


def _gems(text: str) -> str:
    letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch not in ",;-/")
    bad = sorted({ch for ch in letters if ch not in GEM_COLOURS})
    if bad:
        raise RowError(f"gems '{text.strip()}' has {', '.join(bad)}; gems are R, G, B, Y")
    if len(letters) > MAX_GEMS:
        raise RowError(
            f"gems '{text.strip()}' has {len(letters)} gems; a card has at most {MAX_GEMS}"
        )
    return letters
