"""What each supported game's cards may say: their types and spheres.

Kept as data so that a second game is a new entry here, not new branches in the importer or
the deck checker.
"""

from __future__ import annotations

from typing import NamedTuple


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


FREE_REALMS = Game(
    key="free-realms",
    title="Free Realms TCG",
    types=("Creature", "Resource", "Trick"),
    spheres=("Chaos", "Nature", "Machine", "Order"),
    fighting_types=("Creature",),
    # The online client called resources "Items".
    type_synonyms={"item": "Resource", "items": "Resource"},
    # As the client names them (the first is the base set).
    set_names={
        1: "FreeRealms",
        2: "Shattered Past",
        3: "Baron Von Darkcheat",
        4: "Heroes",
        5: "Rumbledome",
    },
    opening_hand=6,  # the rules' Setup: "draw six cards for your hand"
    draws_per_turn=2,  # Ready Phase: "Draw two cards"
)

# The Wildhearts TCG, for its Free-For-All format: Familiars and Fields sit beside the deck,
# allies and tamers are in it, and a Judge Deck is brought by one player.
WILDHEARTS = Game(
    key="wildhearts",
    title="Wildhearts TCG",
    types=("Ally", "Tamer", "Action", "Familiar", "Field", "Judge"),
    spheres=(),
    fighting_types=("Ally", "Familiar"),
)

# The invented cards of cardbase's old sample catalogue, where a database moved to the real
# catalogue keeps those it has copies, decks or history of (`cardbase.catalog.move`).
OLD_SAMPLE = FREE_REALMS._replace(
    key="cardbase-sample", title="cardbase's old sample (invented cards)", set_names={}
)

GAMES: dict[str, Game] = {game.key: game for game in (FREE_REALMS, WILDHEARTS, OLD_SAMPLE)}
DEFAULT_GAME = FREE_REALMS.key


def set_name(game: str, series: int) -> str | None:
    """The name of `game`'s set numbered `series`, where the game's data names it."""
    known = GAMES.get(game)
    return known.set_names.get(series) if known else None


def set_label(game: str, series: int) -> str:
    """How tables name a series: its number and its set's name, ``1 FreeRealms``."""
    name = set_name(game, series)
    return f"{series} {name}" if name else f"series {series}"
