"""Every card field once, and the game's vocabulary beside it.

A card field appears in many places: the query language (`cost>=2`), the plain search
options (`--cost 2..4`), the sort keys, the JSON card object, the catalogue CSV, spreadsheet
exports and the tables a terminal shows. Each of those reads its list from `FIELDS`, so a
new field, or a renamed header, is one entry here rather than fifteen edits that drift.

Read commands import this on every start: it holds plain data and imports nothing slow.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from cardbase.errors import Remedy
from cardbase.fieldtypes import (
    Choice,
    FieldType,
    Flag,
    Gems,
    Names,
    Number,
    Text,
    Traits,
    Words,
)
from cardbase.games import DEFAULT_GAME, GAMES, all_rarities, declared_field, value_fields

# The games' vocabulary, from their files (cardbase/gamefiles).
RARITY_NAMES: dict[str, str] = all_rarities()
RARITY_LETTERS = "".join(RARITY_NAMES)  # catalogue order: CURESP
RANKED_RARITIES = GAMES[DEFAULT_GAME].ranked  # C < U < R < E; promos and starters stand outside
# The games whose order ranks a letter otherwise than the default game's (their file's
# [rarity_order]), so `r>=u` compares each game's cards by its own order; Wildhearts' C < U
# < R ranks as Free Realms does, and is not among them.
RANKED_OTHERWISE: dict[str, str] = {
    key: game.ranked
    for key, game in GAMES.items()
    if any(RANKED_RARITIES.find(letter) != at for at, letter in enumerate(game.ranked))
}


def letter_rank(column: str, letters: str) -> str:
    """SQL, the same on both engines, for the place of `column`'s letter in `letters`, from
    1; 0 for a letter not among them."""
    whens = " ".join(f"WHEN '{letter}' THEN {n}" for n, letter in enumerate(letters, 1))
    return f"(CASE {column} {whens} ELSE 0 END)"


# A copy's condition, best first: the scale `cond>=lp` reads and the schema checks.
CONDITIONS: tuple[str, ...] = ("M", "NM", "LP", "MP", "HP", "DMG")
NONFOIL, FOIL = "nonfoil", "foil"
FINISHES: dict[str, str] = {NONFOIL: "non-foil", FOIL: "foil"}  # stored value -> label
# The default game's first format: its copies of a name a deck may hold are what a
# collector keeps.
_DEFAULT_FORMAT = GAMES[DEFAULT_GAME].formats[0]
PLAYSET: int = _DEFAULT_FORMAT["copy_limit"]
DEFAULT_FORMAT: str = _DEFAULT_FORMAT["key"]
NO_SPHERE = "none"  # sphere:none, the Heroes
FLAGS: dict[str, str] = {  # is:hero ... and the plain flag options --hero ...
    "hero": "Heroes only.",
    "owned": "Cards you own (foil or not).",
    "foil": "Cards you own in foil.",
    "nonfoil": "Cards you own in non-foil.",
    "playset": f"Names you own {PLAYSET} or more of.",
}
# The languages of the client whose card names the catalogue carries beside the English
# name (BCP 47 tags, as a copy's language is written); `name_column` names their columns.
NAME_LANGUAGES: tuple[str, ...] = ("de", "en-GB", "es", "es-MX", "fr", "pt-BR", "zh-CN")


NAMES = Names(NAME_LANGUAGES)  # the type of a card's `names`


def name_column(language: str) -> str:
    """The catalogue column of a language's names: ``name_de``, ``name_pt_br``."""
    return "name_" + language.lower().replace("-", "_")


class Kind(Enum):
    """How the query language reads a field's values."""

    NUMBER = "number"  # compares, ranges, against other number fields
    RARITY = "rarity"  # ordered C < U < R < E; P and S only equal themselves
    CHOICE = "choice"  # one of a fixed list (sphere, type, game)
    WORDS = "words"  # full-text words or phrase in one column, or a /regex/
    GEM = "gem"  # gem colours: gem:rr is at least two red
    FLAG = "flag"  # is:hero, is:owned ...
    CODE = "code"  # a collector code
    SORT = "sort"  # order:cost, order:-attack (not a filter)
    # Terms about the collector's copies (holdings) rather than the printed card:
    CONDITION = "condition"  # ordered M > NM > LP > MP > HP > DMG: cond>=lp
    LANGUAGE = "language"  # ISO 639-1 code or English name: lang:fr, lang:French
    LOCATION = "location"  # a location's whole name, any case: in:"binder 1", in:none
    TAG = "tag"  # has these tags, any case: tag:trade


# Kinds whose terms test a holding `h` (the collector's copies) rather than the card: see
# `cardbase.query.holdings`.
HOLDING_KINDS = frozenset({Kind.CONDITION, Kind.LANGUAGE, Kind.LOCATION, Kind.TAG})


class CardField(NamedTuple):
    """One field: what the query language, options, JSON, files and tables call it.

    `name` is the query term and plain option (`trait:`, `--trait`); `key` the card's
    attribute, JSON key and catalogue CSV column where it has one (`traits`). A field with a
    `type` is a column of the card table, named `key`, and an attribute of `Card` (the code's
    parts are `Card.code`); its type says how it is stored, read and shown.
    """

    name: str
    kind: Kind | None = None  # None: not a query term
    aliases: tuple[str, ...] = ()
    sql: str = ""  # column expression over the card `c`, ownership `o` or a holding `h`
    key: str | None = None  # JSON key / catalogue column; None: not part of a card
    catalogue: bool = False  # a column of the catalogue CSV (cards.csv)
    required: bool = False  # ... that every catalogue row must fill
    export: str | None = None  # header in spreadsheet exports
    text_only: bool = False  # exported only with the catalogue's text (--catalogue)
    table: str | None = None  # header in card tables on the terminal
    option: str | None = None  # help of the plain option; None: no plain option
    example: str = ""
    choices: tuple[str, ...] = ()
    sort: tuple[str, ...] = ()  # sort expressions, when it sorts other than by `sql`
    type: FieldType | None = None
    detail: bool = False  # a line of the card's detail view, under its `export` header
    value: bool = False  # a game's field of its own, a row of `VALUE_TABLE` a card


def _all(attribute: str) -> tuple[str, ...]:
    """Every game's values of a choice field, as stored (Chaos, Creature), without repeats."""
    return tuple(dict.fromkeys(v for game in GAMES.values() for v in getattr(game, attribute)))


def _game_field(
    name: str,
    kind: Kind | None,
    kind_type: FieldType,
    sql: str = "",
    choices: tuple[str, ...] = (),
    detail: bool = False,
) -> CardField:
    """A field the games give their cards beyond the common ones (`cardbase.gamefile`'s
    GAME_FIELDS): a column of the card table, its query aliases and headers from the game
    files."""
    declared = declared_field(name)
    return CardField(name, kind, tuple(declared["aliases"]), sql or f"c.{name}", name, True,
                     export=declared["header"], table=declared["column"],
                     option=declared["help"], example=declared["example"], choices=choices,
                     type=kind_type, detail=detail)  # fmt: skip


OWNED_SQL = "(coalesce(o.nonfoil, 0) + coalesce(o.foil, 0))"
# A game's fields of names the card table has no column for (a number, a word of its list,
# a flag, colours): a row each of a card that has one, its `number` (a flag's is 1) or its
# `word` (a colours field's letters).
VALUE_TABLE = "card_value"


def value_sql(name: str, column: str) -> str:
    """SQL, the same on both engines, for a card `c`'s value of the field `name` (its
    `column`, number or word), NULL when it has none: a scalar subquery, so every term,
    sort and option of the query compiler reads it as it reads a column. The name is a
    lower-case word (`cardbase.gamefile` checks it), safe as a literal."""
    return (f"(SELECT cv.{column} FROM {VALUE_TABLE} AS cv "
            f"WHERE cv.card_id = c.id AND cv.field = '{name}')")  # fmt: skip


def value_test(name: str, column: str, condition: str) -> str:
    """SQL, the same on both engines, for the cards whose value of the field `name` (its
    `column`) meets `condition` (``> ?``): the ids of its rows that do, which SQLite reads
    from card_value's index of (field, number) or (field, word) rather than asking every
    card's row in turn, as `value_sql` does. A card without the value does not match, as a
    column's NULL does not."""
    return (f"c.id IN (SELECT cv.card_id FROM {VALUE_TABLE} AS cv "
            f"WHERE cv.field = '{name}' AND cv.{column} {condition})")  # fmt: skip


def _value_field(name: str, settings: dict[str, Any]) -> CardField:
    """A game's field of its own (`cardbase.games.value_fields`) as the registry's entry: a
    number or a word of its list is a query term, plain option and sort key; a flag is an
    is: word and a plain flag (`FLAGS`); each a JSON key, a catalogue column, an export
    column, a table column and a detail line under its header."""
    kind, header = settings["kind"], settings["header"]
    words = tuple(settings.get("words", ()))
    table = settings["column"] or header
    if kind == "flag":
        return CardField(name, None, (), value_sql(name, "number"), name, True, export=header,
                         table=table, type=Flag(), detail=True, value=True)  # fmt: skip
    if kind == "colours":  # its letters, sorted, as a word; aura:rr is at least two red
        colours = settings["colours"]
        return CardField(name, Kind.GEM, tuple(settings["aliases"]), value_sql(name, "word"),
                         name, True, export=header, table=table,
                         option=settings["help"] or f"{header} colours it has at least",
                         example=settings["example"] or next(iter(colours)).lower() * 2,
                         type=Gems(colours, settings["most"]), detail=True,
                         value=True)  # fmt: skip
    number = kind == "number"
    example = settings["example"] or ("3.." if number else words[0].lower())
    help_text = settings["help"] or (f"{header}, a number or range" if number
                                     else f"{header}: {', '.join(words)}")  # fmt: skip
    return CardField(name, Kind.NUMBER if number else Kind.CHOICE, tuple(settings["aliases"]),
                     value_sql(name, "number" if number else "word"), name, True,
                     export=header, table=table, option=help_text, example=example,
                     choices=words, type=Number() if number else Choice(nullable=True),
                     detail=True, value=True)  # fmt: skip


VALUE_FIELDS: tuple[CardField, ...] = tuple(
    _value_field(name, settings) for name, settings in value_fields().items()
)

# In the order a card's JSON object, exports and tables show them.
FIELDS: tuple[CardField, ...] = (
    CardField("code", Kind.CODE, (), "", "code", True, True, "Code", table="Code",
              option="Collector code", example="'1 U 139'",
              sort=("c.game", "c.series", "c.number", "c.rarity")),
    CardField("series", Kind.NUMBER, ("set", "e", "edition"), "c.series", "series",
              export="Series",
              option="Series number or range", example="1", type=Number(nullable=False)),
    CardField("rarity", Kind.RARITY, ("r",), "c.rarity", "rarity", export="Rarity",
              table="Rarity", option="Rarity letter or name; >=r works", example="U",
              sort=(letter_rank("c.rarity", RARITY_LETTERS),), type=Text()),
    CardField("number", Kind.NUMBER, ("num",), "c.number", "number", export="Number",
              type=Number(nullable=False)),
    # The series' printed set, named by the game's data (cardbase.games): JSON only.
    CardField("set_name", None, (), "", "set_name"),
    CardField("name", Kind.WORDS, ("n",), "c.name", "name", True, True, "Name", table="Name",
              option="Name contains these words (prefixes)", example="chug",
              sort=("c.name_key", "c.name"), type=Words(empty=False, keyed=True)),
    CardField("type", Kind.CHOICE, ("t",), "c.type", "type", True, True, "Type", table="Type",
              option="Creature, resource or trick", example="creature", choices=_all("types"),
              type=Choice()),
    _game_field("hero", None, Flag()),
    _game_field("sphere", Kind.CHOICE, Choice(nullable=True),
                choices=(*_all("spheres"), NO_SPHERE)),
    CardField("trait", Kind.WORDS, ("tr", "traits"), "c.traits", "traits", True,
              export="Traits", option="Has this trait", example="chugawug", type=Traits(),
              detail=True),
    _game_field("cost", Kind.NUMBER, Number(), detail=True),
    _game_field("attack", Kind.NUMBER, Number(), detail=True),
    _game_field("defense", Kind.NUMBER, Number(), detail=True),
    _game_field("gems", Kind.NUMBER, Gems(), "length(c.gems)", detail=True),
    CardField("gem", Kind.GEM, (), "c.gems", option="Gem colours it has at least",
              example="rr"),
    *VALUE_FIELDS,
    CardField("text", Kind.WORDS, ("o", "oracle"), "c.text", "text", True, export="Text",
              text_only=True, option="Game text has these words", example="stun", type=Text(),
              detail=True),
    CardField("lore", None, (), "c.lore", "lore", True, export="Lore", text_only=True,
              type=Text(), detail=True),
    CardField("artist", None, (), "c.artist", "artist", True, export="Artist", type=Words(),
              detail=True),
    # The card's names in other languages (NAME_LANGUAGES): language -> name in JSON.
    CardField("names", None, (), "c.names", "names", type=NAMES),
    CardField("game", Kind.CHOICE, (), "c.game", "game", True, option="Which game's cards",
              example=DEFAULT_GAME, choices=tuple(GAMES), type=Choice()),
    CardField("owned", Kind.NUMBER, (), OWNED_SQL),
    CardField("nonfoil", Kind.NUMBER, (), "coalesce(o.nonfoil, 0)", "nonfoil",
              export="Nonfoil", table="Owned"),
    CardField("foil", Kind.NUMBER, (), "coalesce(o.foil, 0)", "foil", export="Foil",
              table="Foil"),
    CardField("condition", Kind.CONDITION, ("cond",), "h.condition",
              option="Has copies in this condition; '>=lp' is LP or better", example="'>=lp'"),
    CardField("language", Kind.LANGUAGE, ("lang",), "h.language",
              option="Has copies in this language (code or English name)", example="fr"),
    CardField("location", Kind.LOCATION, ("in", "loc"), "h.location",
              option="Has copies in this location (whole name, any case; none: no location)",
              example="'Binder 1'"),
    CardField("tag", Kind.TAG, ("tags",), "h.tags", option="Has copies with this tag",
              example="trade"),
    CardField("is", Kind.FLAG, choices=tuple(FLAGS)),
    CardField("order", Kind.SORT, ("sort",)),
)  # fmt: skip

# The games' flag fields of their own are is: words and plain flags too, each with the SQL
# that tests it (`cardbase.query.nodes.Flag`); their aliases are is: words of the same.
FLAGS.update({f.name: f"{f.export} cards only." for f in VALUE_FIELDS if isinstance(f.type, Flag)})
FLAG_SQL: dict[str, str] = {
    f.name: value_test(f.name, "number", "IS NOT NULL")
    for f in VALUE_FIELDS
    if isinstance(f.type, Flag)
}
FLAG_ALIASES: dict[str, str] = {
    alias: name
    for name, settings in value_fields().items()
    if settings["kind"] == "flag"
    for alias in settings["aliases"]
}
FIELD_BY_NAME: dict[str, CardField] = {
    key: field for field in FIELDS if field.kind for key in (field.name, *field.aliases)
}
# Scryfall's `not:foil` is `-is:foil`: a negated alias, so it is not among `is`'s aliases
# (which mean exactly their field).
NEGATED_ALIASES: dict[str, str] = {"not": "is"}
# Scryfall's terms that have no counterpart in this game's data, with what there is instead:
# a user coming from Scryfall is told why, not handed a list of every field.
ON_DECKS = Remedy(
    "formats are checked on decks: cardbase deck check --format NAME",
    "formats are checked on decks: the Decks page checks a deck against its format",
)
NOT_SEARCHED = Remedy(
    "artists are shown (cardbase show, exports) but not searched",
    "artists are shown on each card's page and in exports, but not searched",
)
LORE_SHOWN = Remedy(
    "lore (the flavour text) is shown by cardbase show but not searched",
    "lore (the flavour text) is shown on each card's page but not searched",
)
NOT_IN_DATA: dict[str, str | Remedy] = {
    "include": "every card is always searched; there are no extras to include",
    "unique": "every printing is its own card already",
    "usd": "there are no prices",
    "eur": "there are no prices",
    "tix": "there are no prices",
    "year": "there are no release dates; series: is the nearest (series:1)",
    "date": "there are no release dates; series: is the nearest (series:1)",
    "f": ON_DECKS,
    "format": ON_DECKS,
    "legal": ON_DECKS,
    "banned": ON_DECKS,
    "c": "there are no card colours; gem colours are gem: (gem:r), spheres sphere:",
    "color": "there are no card colours; gem colours are gem: (gem:r), spheres sphere:",
    "id": "there are no card colours; gem colours are gem: (gem:r), spheres sphere:",
    "a": NOT_SEARCHED,
    "artist": NOT_SEARCHED,
    "ft": LORE_SHOWN,
    "flavor": LORE_SHOWN,
}
# Sort keys with an index for each direction (cardbase.db.models), so a sorted first page is
# read in index order rather than by sorting every match: `cost:2..4 order:-attack` on 100k
# cards, 0.2 ms against 19 ms. Each is a nullable column; missing values sort last.
SORT_INDEXED: tuple[str, ...] = ("cost", "attack", "defense")
# Fields a search can sort by, with the expressions to sort on.
SORT_KEYS: dict[str, tuple[str, ...]] = {
    field.name: field.sort or (field.sql,)
    for field in FIELDS
    if field.sort or field.kind in (Kind.NUMBER, Kind.CHOICE)
}
FIELD_BY_KEY: dict[str, CardField] = {field.key: field for field in FIELDS if field.key}
# The card table's fields, a column each named by its key (`cardbase.db.tables.CARD_COLUMNS`).
STORED_FIELDS: tuple[CardField, ...] = tuple(f for f in FIELDS if f.type and f.key and not f.value)
DETAIL_FIELDS: tuple[CardField, ...] = tuple(field for field in FIELDS if field.detail)


def _card_column_types() -> dict[str, FieldType]:
    """The card table's columns but the id, each with its type: the game first (the first
    part of a card's key), then each stored field in the registry's order, a keyed name
    followed by its folded key (``name_key``)."""
    columns: dict[str, FieldType] = {}
    for field in sorted(STORED_FIELDS, key=lambda field: field.key != "game"):
        if field.key and field.type:
            columns[field.key] = field.type
            if field.type.keyed:
                columns[f"{field.key}_key"] = Text()
    return columns


CARD_COLUMN_TYPES: dict[str, FieldType] = _card_column_types()
# Sort parts that are text columns: each engine orders them by their bytes (its
# `byte_order`), so a sort is the same on both whatever the server's language; a name sorts
# by its folded key (case, accents, spaces and punctuation aside), then as spelled.
TEXT_SORT_PARTS = frozenset(
    [f"c.{column}" for column, kind in CARD_COLUMN_TYPES.items() if kind.python is str]
    + [f.sql for f in VALUE_FIELDS if f.kind is Kind.CHOICE]
)
JSON_KEYS: tuple[str, ...] = tuple(field.key for field in FIELDS if field.key)
CATALOGUE_COLUMNS: tuple[str, ...] = tuple(f.key for f in FIELDS if f.key and f.catalogue)
NAME_COLUMNS: tuple[str, ...] = tuple(name_column(language) for language in NAME_LANGUAGES)
REQUIRED_COLUMNS: tuple[str, ...] = tuple(f.key for f in FIELDS if f.key and f.required)
OPTION_FIELDS: tuple[CardField, ...] = tuple(field for field in FIELDS if field.option)
EXPORT_FIELDS: tuple[CardField, ...] = tuple(field for field in FIELDS if field.export)
TABLE_FIELDS: tuple[CardField, ...] = tuple(field for field in FIELDS if field.table)
