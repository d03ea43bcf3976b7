"""What each game's cards may say (types, spheres, rarities, codes, formats), from its file.

A game is a data file (`cardbase/gamefiles/*.toml`, or a user's own: `cardbase.gamesources`
finds and caches them, `cardbase.gamefile` reads and checks one), so a second game is a new
file, not new branches in the importer or the deck checker.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cardbase import gamesources, notices

DEFAULT_GAME = gamesources.DEFAULT_GAME


class Game(NamedTuple):
    """A NamedTuple rather than a dataclass: every command imports this, and a dataclass
    costs a millisecond to define."""

    key: str
    title: str
    types: tuple[str, ...]
    spheres: tuple[str, ...]
    # Types whose cards carry attack and defense (and so a coin cost).
    fighting_types: tuple[str, ...]
    # Other words card lists use for a type, folded to lower case.
    type_synonyms: dict[str, str] = {}  # noqa: RUF012 (read-only data)
    # The printed sets' names, by series number.
    set_names: dict[int, str] = {}  # noqa: RUF012 (read-only data)
    # Cards in an opening hand, and drawn each turn after (the first player skips the first
    # turn's draw); None where the rules known to us do not say.
    opening_hand: int | None = None
    draws_per_turn: int | None = None
    # letter -> name, in the catalogue's order; `ranked`: the letters `r>=u` orders, lowest
    # first.
    rarities: dict[str, str] = {}  # noqa: RUF012 (read-only data)
    ranked: str = ""
    # The collector code's pattern, the fields beyond the common ones, the deck formats,
    # as the game file says them (`cardbase.gamefile`'s normal shape).
    code: dict[str, Any] = {}  # noqa: RUF012 (read-only data)
    fields: dict[str, dict[str, Any]] = {}  # noqa: RUF012 (read-only data)
    formats: tuple[dict[str, Any], ...] = ()
    catalogue: str | None = None  # the game's catalogue file, beside its game file
    source: str = ""  # the game file
    prefix: str = ""  # what a code is prefixed with to say its game (wh:1 C 41); "": its key
    # Each type's fields beyond the common ones (its `carries`): what a card of it may say.
    carries: dict[str, tuple[str, ...]] = {}  # noqa: RUF012 (read-only data)


def _game(data: dict[str, Any]) -> Game:
    types: dict[str, dict[str, Any]] = data["types"]
    sphere = data["fields"].get("sphere")
    return Game(
        key=data["key"],
        title=data["title"],
        types=tuple(types),
        spheres=tuple(sphere["words"]) if sphere else (),
        fighting_types=tuple(
            name for name, kind in types.items() if {"attack", "defense"} <= set(kind["carries"])
        ),
        type_synonyms={word: name for name, kind in types.items() for word in kind["synonyms"]},
        set_names=data["sets"],
        opening_hand=data["opening_hand"],
        draws_per_turn=data["draws_per_turn"],
        rarities=data["rarities"],
        ranked=data["ranked"],
        code=data["code"],
        fields=data["fields"],
        formats=tuple(data["formats"]),
        catalogue=data["catalogue"],
        source=data["source"],
        prefix=data["prefix"] or data["key"],
        carries={name: tuple(kind["carries"]) for name, kind in types.items()},
    )


_LOADED, _SKIPPED = gamesources.load_games()
for _said in _SKIPPED:
    notices.tell(_said)
_FROM_FILES = {data["key"]: _game(data) for data in _LOADED}

FREE_REALMS = _FROM_FILES[DEFAULT_GAME]
WILDHEARTS = _FROM_FILES["wildhearts"]

# The invented cards of cardbase's old sample catalogue, where a database moved to the real
# catalogue keeps those it has copies, decks or history of (`cardbase.catalog.move`).
OLD_SAMPLE = FREE_REALMS._replace(
    key=gamesources.OLD_SAMPLE,
    title="cardbase's old sample (invented cards)",
    set_names={},
    formats=(),
    catalogue=None,
    source="",
    prefix="",
)

# The shipped games, the old sample, then the user's own in the order they were read.
GAMES: dict[str, Game] = {
    FREE_REALMS.key: FREE_REALMS,
    WILDHEARTS.key: WILDHEARTS,
    OLD_SAMPLE.key: OLD_SAMPLE,
    **_FROM_FILES,
}


def game_title(key: str) -> str:
    """How messages and pages name a game: its title (Wildhearts TCG), its key for one this
    cardbase lacks."""
    return GAMES[key].title if key in GAMES else key


def set_name(game: str, series: int) -> str | None:
    """The name of `game`'s set numbered `series`, where the game's data names it."""
    known = GAMES.get(game)
    return known.set_names.get(series) if known else None


def set_label(game: str, series: int) -> str:
    """How tables name a series: its number and its set's name, ``1 FreeRealms``."""
    name = set_name(game, series)
    return f"{series} {name}" if name else f"series {series}"


def declared_field(name: str) -> dict[str, Any]:
    """A game field's settings for the registry (`cardbase.fields`): as the first game that
    gives its cards the field says (the default game first), with every game's aliases."""
    declaring = [game.fields[name] for game in GAMES.values() if name in game.fields]
    if not declaring:
        return {"aliases": [], "header": name.capitalize(), "column": None, "help": None,
                "example": ""}  # fmt: skip
    aliases = [alias for settings in declaring for alias in settings["aliases"]]
    return {**declaring[0], "aliases": list(dict.fromkeys(aliases))}


def value_fields() -> dict[str, dict[str, Any]]:
    """The games' fields the card table has no column for, kept in its card_value table
    (schema 10), for the registry (`cardbase.fields`): each as the first game that gives
    its cards the field says it, with every such game's aliases, words and colours."""
    found: dict[str, dict[str, Any]] = {}
    for game in GAMES.values():
        for name, settings in game.fields.items():
            if not settings.get("in_card_value"):
                continue
            known = found.setdefault(name, {**settings, "aliases": [], "words": []})
            for part in ("aliases", "words"):
                known[part] = list(dict.fromkeys([*known[part], *settings.get(part, [])]))
            if "colours" in settings:  # every game's letters, the first one's names
                known["colours"] = {**settings["colours"], **known["colours"]}
                known["most"] = max(known["most"], settings["most"])
    return found


def all_rarities() -> dict[str, str]:
    """Every game's rarity letters and names, the default game's first (its order is the
    catalogue's: C U R E P S)."""
    letters: dict[str, str] = {}
    for game in GAMES.values():
        for letter, name in game.rarities.items():
            letters.setdefault(letter, name)
    return letters


def all_colours() -> tuple[dict[str, str], int]:
    """Every game's gem colours (letter -> name) and the most gems a card of any has."""
    colours: dict[str, str] = {}
    most = 0
    for game in GAMES.values():
        gems = game.fields.get("gems")
        if gems:
            for letter, name in gems["colours"].items():
                colours.setdefault(letter, name)
            most = max(most, gems["most"])
    return colours, most


def game_prefix(key: str) -> str:
    """What a code is prefixed with to say its game: ``wh:1 C 41``."""
    game = GAMES.get(key)
    return game.prefix if game and game.prefix else key


def game_of_prefix(prefix: str) -> str | None:
    """The game a code's prefix names (its `prefix` or its key, any case), None for none."""
    wanted = prefix.lower()
    for game in GAMES.values():
        if wanted in (game.key, game.prefix):
            return game.key
    return None


def known_game(text: str) -> str:
    """The key of the game `text` names (its key or prefix, any case), or one line saying
    which games there are."""
    from cardbase.errors import CardbaseError

    key = game_of_prefix(text.strip())
    if key is None:
        known = ", ".join(f"{game.key} ({game.prefix})" if game.prefix else game.key
                          for game in GAMES.values())  # fmt: skip
        raise CardbaseError(f"no game '{text.strip()}'; the games are {known}")
    return key
