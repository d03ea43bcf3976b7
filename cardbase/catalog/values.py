"""One catalogue row's values, checked and turned into the row the card table stores.

A catalogue repeats a handful of values a hundred thousand times (types, spheres, hero
flags, costs, traits, gems), so `RowReader` checks each distinct value once and remembers
the verdict: a 100k-row file costs one dictionary lookup per repeated value, not the
whole check. Rows come out as plain tuples in the card table's column order, ready for one
prepared INSERT, rather than as a `Card`, its code and its traits tuple per row.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any

from cardbase.catalog.cards import name_key
from cardbase.codes import game_code, parse_code
from cardbase.db.tables import CARD_COLUMNS
from cardbase.fields import FIELDS, NAME_COLUMNS, NAMES, VALUE_FIELDS, CardField
from cardbase.fieldtypes import Choice, Flag, Gems, Names, RowError
from cardbase.games import DEFAULT_GAME, GAMES, Game
from cardbase.limits import MAX_CELL
from cardbase.similar import closest

NO_SPHERE_WORDS = frozenset({"", "none", "hero", "-"})
# C0 controls but tab, line feed and carriage return; DEL; C1 controls (U+009B is CSI).
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# The catalogue's fields (code, name, type ... game), in the registry's order. Those whose
# value is their own cell's are read by their types; the code, game, type, hero, sphere and
# names are read together by `RowReader`'s rules, a Hero's sphere depending on its type.
CATALOGUE_FIELDS = tuple(field for field in FIELDS if field.catalogue and field.key)
_BY_RULE = (Choice, Flag, Names)
_HERO = Flag()
PLAIN_FIELDS = tuple(
    field
    for field in CATALOGUE_FIELDS
    if field.type
    and field.key != "code"
    and not isinstance(field.type, _BY_RULE)
    and not field.value
)
_ORDER: tuple[str, ...] = (*(field.key or "" for field in CATALOGUE_FIELDS), *NAME_COLUMNS)
_STORED = CARD_COLUMNS[1:]  # the card table's columns but the id, in its order
_RULE_KEYS = ("game", "code", "type", "hero", "sphere")
# The stored columns the rules make, in the order `RowReader` makes them.
_MADE = ("game", "series", "rarity", "number", "name_key", "type", "hero", "sphere", "names")

# The card table's columns but the id, in `tables.CARD_COLUMNS` order, then the card's
# values of the games' own fields (`VALUE_FIELDS`: a number, a word, a flag or colours;
# none where it has none), which `cardbase.catalog.load` keeps in card_value.
Row = tuple[object, ...]


def _plain_reader(at: dict[str, int]) -> Callable[[Sequence[str]], tuple[object, ...]]:
    """The plain fields' values out of a row's cells (`at`: key -> place), each read by its
    type, a repeating type's verdicts remembered by text: compiled into one function for
    one file, as `cardbase.catalog.cards` compiles its row reader, since a loop over the
    fields cost a 100k-row catalogue a tenth more."""
    namespace: dict[str, Any] = {"_missing": object()}
    lines = ["def read(cells):"]
    for number, field in enumerate(PLAIN_FIELDS):
        assert field.key and field.type  # PLAIN_FIELDS have both
        namespace[f"parse{number}"] = field.type.parse
        lines.append(f"    text = cells[{at[field.key]}]")
        read = f"parse{number}(text, {field.key!r})"
        if field.type.repeats:
            namespace[f"seen{number}"] = {}
            lines += [
                f"    v{number} = seen{number}.get(text, _missing)",
                f"    if v{number} is _missing:",
                f"        v{number} = seen{number}[text] = {read}",
            ]
        else:
            lines.append(f"    v{number} = {read}")
    values = ", ".join(f"v{number}" for number in range(len(PLAIN_FIELDS)))
    lines.append(f"    return ({values},)")
    exec("\n".join(lines), namespace)
    made: Callable[[Sequence[str]], tuple[object, ...]] = namespace["read"]
    return made


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
        at = {key: position for position, key in enumerate(_ORDER)}
        self._plain = _plain_reader({key: position for position, key in enumerate(_ORDER)})
        self._rules = itemgetter(*(at[key] for key in _RULE_KEYS))
        self._names_at = len(CATALOGUE_FIELDS)
        plain_keys = [field.key for field in PLAIN_FIELDS]
        self._name_at, self._attack_at, self._defense_at = (
            plain_keys.index(key) for key in ("name", "attack", "defense")
        )
        self._own = tuple((f, at[f.key]) for f in VALUE_FIELDS if f.key)
        # The stored row out of the rules' values, then the plain ones.
        self._stored = itemgetter(
            *(_MADE.index(c) if c in _MADE else len(_MADE) + plain_keys.index(c) for c in _STORED)
        )

    def __call__(self, row: list[str]) -> Row:
        if len(row) < self._width:
            row.extend([""] * (self._width - len(row)))
        row.append("")
        if self._controls or max(map(len, row)) > MAX_CELL:
            self._check_characters(row)
        cells = self._values(row)
        game_text, code_text, type_text, hero_text, sphere_text = self._rules(cells)
        game = self._games.get(game_text)
        if game is None:
            game = self._games[game_text] = _game(game_text)
        code = game_code(code_text, parse_code(code_text), game.key)  # the game's pattern
        plain = self._plain(cells)
        kind_key = (game.key, type_text, hero_text, sphere_text)
        kind = self._kinds.get(kind_key)
        if kind is None:
            kind = self._kinds[kind_key] = _kind(game, type_text, hero_text, sphere_text)
        card_type, hero, sphere = kind
        attack, defense = plain[self._attack_at], plain[self._defense_at]
        if card_type in game.fighting_types:
            if attack is None or defense is None:
                raise RowError(f"a {card_type} needs attack and defense")
        elif attack is not None or defense is not None:
            raise RowError(f"a {card_type} has no attack or defense; leave them empty")
        made = (game.key, code.series, code.rarity, code.number,
                name_key(str(plain[self._name_at])), card_type, hero, sphere,
                NAMES.joined(cells[self._names_at :]))  # fmt: skip
        stored: Row = self._stored((*made, *plain))
        if self._own:
            return (*stored, *own_values(game, self._own, cells))
        return stored

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


def own_values(game: Game, own: tuple[tuple[CardField, int], ...], cells: Sequence[str],
               ) -> tuple[object, ...]:  # fmt: skip
    """A row's values of the games' own fields (`own`: each field with its cell's place),
    checked by the field's kind as the row's game declares it: a number as a card's
    numbers are, a word among the game's words, a flag as yes or no, colours among its
    letters. A game that has not the field takes no value of it."""
    found: list[object] = []
    for field, at in own:
        text, key = cells[at], str(field.key)
        settings = game.fields.get(key)
        if settings is None:
            if text.strip() and not (isinstance(field.type, Flag) and not _HERO.parse(text, key)):
                raise RowError(f"{key} '{text.strip()}': a {game.title} card has no {key}")
            found.append(False if isinstance(field.type, Flag) else None)
        elif settings["kind"] == "word":
            found.append(_choice(key, text, settings["words"]) if text.strip() else None)
        elif settings["kind"] == "colours":  # the game's own letters, not every game's
            found.append(Gems(settings["colours"], settings["most"]).parse(text, key) or None)
        else:
            assert field.type  # every value field has its type
            found.append(field.type.parse(text, key))
    return tuple(found)


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
    hero = _HERO.parse(hero_text, "hero")
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
