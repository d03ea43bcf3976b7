"""Cards as read commands see them, fetched with plain sqlite3.

`Card` is the one shape every command renders and every JSON consumer gets, so its
`to_dict` is the documented card object. Its attributes are the registry's stored fields
(`cardbase.fields.STORED_FIELDS`), the code's parts made one `code`; the row reader and the
JSON object are made from the registry, and an import-time check says so if `Card` and the
registry part.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from cardbase.codes import CollectorCode, format_code
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.fields import (
    DETAIL_FIELDS,
    FIELD_BY_KEY,
    JSON_KEYS,
    NAMES,
    STORED_FIELDS,
    VALUE_FIELDS,
    value_sql,
)
from cardbase.fieldtypes import FieldType
from cardbase.gamefile import GAME_FIELDS
from cardbase.games import DEFAULT_GAME, GAMES, game_prefix, set_name
from cardbase.text import plural

# Named, not ``c.*``: a table made by an older schema and upgraded has its later columns
# last, where a new one has them in the registry's order.
# The games' own fields (`VALUE_FIELDS`) follow the card table's columns, each the scalar
# subquery its field reads (a flag's as its number, 1 or none).
VALUE_KEYS: tuple[str, ...] = tuple(f.key for f in VALUE_FIELDS if f.key)
VALUE_COLUMNS_SQL = "".join(f", {f.sql if f.kind else value_sql(f.name, 'number')}"
                            for f in VALUE_FIELDS)  # fmt: skip
CARD_COLUMNS_SQL = (
    ", ".join(f"c.{column}" for column in tables.CARD_COLUMNS)
    + VALUE_COLUMNS_SQL
    + ", coalesce(o.nonfoil, 0) AS nonfoil, coalesce(o.foil, 0) AS foil"
)
NO_VALUES: Mapping[str, Any] = MappingProxyType({})  # a card of a game without fields of its own
CARD_FROM_SQL = f"{tables.CARD_TABLE} AS c"
OWNERSHIP_JOIN_SQL = f"LEFT JOIN {tables.MY_OWNERSHIP} AS o ON o.card_id = c.id"
SELECT_CARDS = f"SELECT {CARD_COLUMNS_SQL} FROM {CARD_FROM_SQL} {OWNERSHIP_JOIN_SQL}"
CATALOGUE_ORDER = "c.game, c.series, c.number, c.rarity"
ID_CHUNK = 5_000  # ids per IN (...) list; well under SQLite's limit on parameters
CODE_PARTS = ("series", "rarity", "number")  # stored apart, held as one `Card.code`


@dataclass(slots=True)
class Card:
    id: int
    game: str
    code: CollectorCode
    name: str
    type: str
    hero: bool
    sphere: str | None
    traits: tuple[str, ...]
    cost: int | None
    attack: int | None
    defense: int | None
    gems: str
    text: str
    lore: str
    artist: str = ""
    names: str = ""  # its names in other languages: `split_names` reads them
    nonfoil: int = 0
    foil: int = 0
    # Its values of the games' own fields (`VALUE_KEYS`: key -> number, word or flag; none
    # where it has none), read with `value`.
    values: Mapping[str, Any] = dataclasses.field(default_factory=lambda: NO_VALUES)

    @property
    def owned(self) -> int:
        return self.nonfoil + self.foil

    @property
    def sphere_shown(self) -> str:
        """A Hero has no sphere and is shown as one: 'Hero', else its sphere ('' for none).
        Tables, card faces, deck workbooks and stats all show it so."""
        return "Hero" if self.hero else (self.sphere or "")

    @property
    def stats_shown(self) -> str:
        """Attack and defense as a card prints them, '3/4'; '' for a card without them."""
        return f"{self.attack}/{self.defense}" if self.attack is not None else ""

    @property
    def code_shown(self) -> str:
        """The code as tables, trade lists and exports show it: with its game's prefix
        (``wh:1 C 41``) for a card of a game other than the default one, whose codes repeat
        the default game's; what `add`, `show` and an import read back as that card."""
        if self.game == DEFAULT_GAME:
            return format_code(self.code, self.game)
        return f"{game_prefix(self.game)}:{format_code(self.code, self.game)}"

    @property
    def code_prefixed(self) -> str:
        """The code with its game's prefix whatever the game (``fr:1 C 41``): what a page
        sends back, which reads as this card whichever game the server or the user chose."""
        return f"{game_prefix(self.game)}:{self.code}"

    def value(self, key: str) -> Any:
        """A field's value by its key, an attribute or one of the games' own fields."""
        return self.values[key] if key in self.values else getattr(self, key)

    def label(self) -> str:
        """How messages name a card: its name and its code as tables show it (``wh:1 C 41``
        for another game's), so a message about two games' 1 C 41 says which it changed."""
        return f"{self.name} ({self.code_shown})"

    def name_in(self, language: str) -> str:
        return name_in_language(self.name, self.names, language)

    def to_dict(self) -> dict[str, Any]:
        """The JSON card object: `cardbase.fields.JSON_KEYS`, in order, each value as its
        field's type writes it."""
        code = self.code
        derived = {"code": str(code), "series": code.series, "rarity": code.rarity,
                   "number": code.number, "set_name": set_name(self.game, code.series)}  # fmt: skip
        if self.values:
            derived.update(self.values)
        found = {key: derived[key] if key in derived else getattr(self, key) for key in JSON_KEYS}
        for key, to_json in _TO_JSON:
            found[key] = to_json(found[key])
        return found


# The fields whose JSON value is not the attribute itself (traits as a list, names as an
# object): only these are converted, a search's JSON being thousands of cards.
_TO_JSON: tuple[tuple[str, Callable[[Any], Any]], ...] = tuple(
    (key, field.type.json)
    for key, field in FIELD_BY_KEY.items()
    if field.type and type(field.type).json is not FieldType.json
)
_HELD = frozenset({"id", "code", "nonfoil", "foil", "values"})  # besides the stored fields
_ATTRIBUTES = {f.key for f in STORED_FIELDS if f.key and f.key not in CODE_PARTS}
if {f.name for f in dataclasses.fields(Card)} != _HELD | _ATTRIBUTES:  # pragma: no cover
    raise TypeError(
        f"Card's attributes and the registry's stored fields differ: "
        f"{sorted({f.name for f in dataclasses.fields(Card)} ^ (_HELD | _ATTRIBUTES))}; a "
        "stored field (cardbase.fields) needs its typed attribute on Card"
    )


_NOT_ASCII_ALNUM = re.compile(r"[^0-9a-z]+")


def name_key(name: str) -> str:
    """Fold a name for exact lookups: case, accents, spaces and punctuation do not count."""
    folded = name.casefold()
    if folded.isascii():  # the common case, five times faster than the general one
        return _NOT_ASCII_ALNUM.sub("", folded)
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(ch for ch in decomposed if ch.isalnum())


def join_names(names: Iterable[str]) -> str:
    """A card's `names` column: its name in each of `NAME_LANGUAGES`, a line each in that
    order ("" where it has none), without the empty lines at the end."""
    return NAMES.joined(names)


def split_names(names: str) -> dict[str, str]:
    """`join_names` read back: language -> name, for the languages the card has a name in."""
    result: dict[str, str] = NAMES.json(names)
    return result


def name_in_language(name: str, names: str, language: str) -> str:
    """A card's name in `language` (a copy's language tag), from its `names` column, else
    `name`, which is the English one (`translation_tag` says which of its names is meant)."""
    translations = split_names(names)
    tag = translation_tag(translations, language)
    return translations[tag] if tag else name


def translation_tag(translations: dict[str, str], language: str) -> str | None:
    """Which of a card's translations (by tag) a copy in `language` reads: the same tag, the
    language without its region (es for es-AR), else another region or script of the same
    language (zh-CN for zh-Hans or zh, pt-BR for pt); None when the card has none of it."""
    base = language.split("-")[0].lower()
    if language in translations:
        return language
    if base in translations:
        return base
    return next((tag for tag in translations if tag.split("-")[0].lower() == base), None)


_VALUES_AT = len(tables.CARD_COLUMNS)
_OWNED_AT = _VALUES_AT + len(VALUE_KEYS)
_make_code = functools.partial(tuple.__new__, CollectorCode)  # skips NamedTuple's __new__


def _card_maker() -> Callable[[Sequence[Any]], Card]:
    """`card_from_row`, compiled from the registry as `collections.namedtuple` makes its
    methods: each attribute's expression is its type's `load` over the row's column, the
    whole made one function, because a search can turn thousands of rows into cards on a
    cold start and a call per value would cost three times as much."""
    names = [f"v{position}" for position in range(_OWNED_AT)]
    at = dict(zip((*tables.CARD_COLUMNS, *VALUE_KEYS), names, strict=True))
    values = ", ".join(
        f"{f.key!r}: {f.type.load.format(at[f.key])}" for f in VALUE_FIELDS if f.key and f.type
    )
    sources = {
        "id": at["id"],
        "code": f"_code(({', '.join(at[part] for part in CODE_PARTS)}))",
        "nonfoil": f"(row[{_OWNED_AT}] if owned else 0)",
        "foil": f"(row[{_OWNED_AT + 1}] if owned else 0)",
        "values": f"{{{values}}}" if values else "_no_values",
    }
    for stored in STORED_FIELDS:
        key = stored.key
        if key and key in _ATTRIBUTES and stored.type:
            sources[key] = stored.type.load.format(at[key])
    arguments = ", ".join(sources[attribute.name] for attribute in dataclasses.fields(Card))
    source = (
        f"def card_from_row(row):\n"
        f"    ({', '.join(names)},) = row[:{_OWNED_AT}]\n"
        f"    owned = len(row) > {_OWNED_AT}\n"
        f"    return Card({arguments})"
    )
    namespace: dict[str, Any] = {"Card": Card, "_code": _make_code, "_no_values": NO_VALUES}
    exec(source, namespace)
    made: Callable[[Sequence[Any]], Card] = namespace["card_from_row"]
    made.__doc__ = (
        "A card from a row of `CARD_COLUMNS_SQL` (`tables.CARD_COLUMNS`, the games' own "
        "fields' values, then nonfoil and foil, which a row may leave out)."
    )
    return made


card_from_row = _card_maker()


def fetch_cards(
    conn: Connection,
    where: str = "",
    params: Sequence[Any] = (),
    order: str = CATALOGUE_ORDER,
    limit: int | None = None,
) -> list[Card]:
    sql = SELECT_CARDS
    if where:
        sql += f" WHERE {where}"
    sql += f" ORDER BY {order}"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return [card_from_row(row) for row in conn.execute(sql, tuple(params))]


def cards_named(conn: Connection, name: str) -> list[Card]:
    return fetch_cards(conn, "c.name_key = ?", (name_key(name),))


def codes_of(cards: Iterable[Card]) -> str:
    return ", ".join(str(card.code) for card in cards)


def id_chunks(card_ids: Iterable[int]) -> Iterator[tuple[list[int], str]]:
    """Distinct ids in sorted chunks, each with its ``?, ?, ...`` marks for an ``IN (...)``:
    a few thousand to a query, well under SQLite's limit on parameters."""
    ids = sorted(set(card_ids))
    for start in range(0, len(ids), ID_CHUNK):
        chunk = ids[start : start + ID_CHUNK]
        yield chunk, ", ".join("?" * len(chunk))


def cards_by_id(conn: Connection, card_ids: Iterable[int]) -> dict[int, Card]:
    """Many cards by id."""
    found: dict[int, Card] = {}
    for chunk, marks in id_chunks(card_ids):
        found.update((card.id, card) for card in fetch_cards(conn, f"c.id IN ({marks})", chunk))
    return found


class CardLike(Protocol):
    """What naming a card in a change takes: a full `Card` or a `CardRef`."""

    @property
    def id(self) -> int: ...

    @property
    def code(self) -> CollectorCode: ...

    @property
    def name(self) -> str: ...

    @property
    def nonfoil(self) -> int: ...

    @property
    def foil(self) -> int: ...

    def label(self) -> str: ...


class CardRef(NamedTuple):
    """Just enough of a card to name it and count it: a big import makes 100k of these."""

    id: int
    code: CollectorCode
    name: str
    nonfoil: int
    foil: int
    game: str = DEFAULT_GAME

    def label(self) -> str:
        """As `Card.label`: the code with its prefix for a game other than the default."""
        shown = format_code(self.code, self.game)
        prefix = "" if self.game == DEFAULT_GAME else f"{game_prefix(self.game)}:"
        return f"{self.name} ({prefix}{shown})"


def card_refs_by_id(conn: Connection, card_ids: Iterable[int]) -> dict[int, CardRef]:
    found: dict[int, CardRef] = {}
    for chunk, marks in id_chunks(card_ids):
        rows = conn.execute(
            f"SELECT c.id, c.series, c.rarity, c.number, c.name, coalesce(o.nonfoil, 0), "
            f"coalesce(o.foil, 0), c.game FROM {CARD_FROM_SQL} {OWNERSHIP_JOIN_SQL} "
            f"WHERE c.id IN ({marks})",
            chunk,
        )
        for card_id, series, rarity, number, name, nonfoil, foil, game in rows:
            found[card_id] = CardRef(
                card_id, CollectorCode(series, rarity, number), name, nonfoil, foil, game
            )
    return found


def in_language(conn: Connection, card: Card, language: str) -> Card:
    """The card as printed in `language` (a language tag): its name there, and its game
    text and lore there where `catalog import-client` read them, else the English ones.
    A tag with a region falls back to its language (es for es-AR)."""
    from dataclasses import replace

    tags = dict.fromkeys(
        (language, language.split("-")[0], translation_tag(split_names(card.names), language))
    )
    tags.pop(None, None)
    found = {
        row[0]: row[1:]
        for row in conn.execute(
            f"SELECT language, text, lore FROM {tables.CARD_TEXT_TABLE} "
            f"WHERE card_id = ? AND language IN ({', '.join('?' * len(tags))})",
            (card.id, *tags),
        )
    }
    text, lore = next((found[tag] for tag in tags if tag in found), (card.text, card.lore))
    return replace(card, name=card.name_in(language), text=text, lore=lore)


def detail_lines(card: Card) -> list[tuple[str, str]]:
    """Label/value pairs for one card shown in full, in the order a card reads: what `show`
    prints and the card page lists, so the two read the same. Between what identifies the
    card and what the collector owns come the registry's `DETAIL_FIELDS`, each under its
    export header as its type words it, left out when the card has none."""
    series = card.code.series
    named = set_name(card.game, series)
    game = GAMES.get(card.game)
    carried = _carried(card)
    lines = [
        ("Name", card.name),
        (
            "Code",
            f"{card.code} (series {series}, {card.code.rarity_name}, card {card.code.number})",
        ),
        *([("Set", named)] if named else []),
        ("Type", f"{card.type} - Hero" if card.hero else card.type),
        *([("Sphere", card.sphere or "none (Hero)")] if "sphere" in carried else []),
    ]
    for field in DETAIL_FIELDS:
        key = field.key or field.name
        if (key in GAME_FIELDS or field.value) and key not in carried:
            continue  # a field its game's type does not give its cards
        shown = _detail(card, key)
        if shown:
            lines.append((field.export or field.name, shown))
    names = {tag: name for tag, name in split_names(card.names).items() if name != card.name}
    if names:  # the ones that differ from the name shown
        lines.append(("Names", "\n".join(f"{tag}: {name}" for tag, name in names.items())))
    lines.append(("Owned", f"{card.nonfoil} non-foil, {card.foil} foil"))
    if card.game != DEFAULT_GAME:
        lines.append(("Game", game.title if game else card.game))
    return lines


def _carried(card: Card) -> frozenset[str]:
    """The fields beyond the common ones that `card` may say: its type's `carries` in its
    game's file, so a Wildhearts Judge has no Sphere line and a Pixie Duel card no Gems;
    every game's fields for a type its game does not list."""
    game = GAMES.get(card.game)
    carries = game.carries.get(card.type) if game else None
    if carries is None:
        return frozenset(GAME_FIELDS).union(*(g.fields for g in GAMES.values()))
    return frozenset(carries)


def _detail(card: Card, key: str) -> str:
    """One detail field's wording, '' for none: a cost counts the coins (stars for a trick)
    it takes; the rest are as their types word them."""
    value = card.value(key)
    if key == "cost" and value is not None and card.game == DEFAULT_GAME:
        return plural(value, "star" if card.type == "Trick" else "coin")  # the game's words
    field = FIELD_BY_KEY[key]
    if field.value and (value is None or value is False or value == ""):
        return ""  # a game's own field the card has no value of (or its game has not)
    field_type = field.type
    return field_type.detail(value) if field_type else str(value)


def holds_several_games(conn: Connection) -> bool:
    """Whether the catalogue has cards of several games, whose codes may repeat: then a
    code written for a reader (an export, a trade list, a page's form) says its game."""
    found = conn.execute(f"SELECT count(DISTINCT game) FROM {tables.CARD_TABLE}").fetchone()
    return int(found[0]) > 1
