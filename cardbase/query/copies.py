"""A collector's copies one holding a row, as `collection --copies` lists them.

A search of copies is a search of cards joined to the collector's holdings (see
`cardbase.query.search.plan`): the card terms pick the cards, the copy terms the holdings.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cardbase.catalog.cards import name_in_language
from cardbase.codes import CollectorCode, format_code
from cardbase.collection.attributes import CONDITIONS, tag_list
from cardbase.db import tables
from cardbase.games import DEFAULT_GAME, game_prefix

JOIN_SQL = f"JOIN {tables.MY_HOLDING} AS h ON h.card_id = c.id"
COLUMNS_SQL = (
    "c.id, c.series, c.rarity, c.number, c.name, h.finish, h.condition, h.language, "
    "h.location, h.tags, h.copies, h.note, c.names, c.game"
)
# A card's copies: non-foil first, then best condition first, then by language, place, tags.
_RANK = " ".join(f"WHEN '{code}' THEN {rank}" for rank, code in enumerate(CONDITIONS))
ORDER = f"h.finish = 'foil', CASE h.condition {_RANK} END, h.language, h.location, h.tags"
COPY_KEYS = (
    "code", "name", "finish", "condition", "language", "location", "tags", "copies", "note",
    "local_name",
)  # fmt: skip


class Copy(NamedTuple):
    """One holding with its card's code and name."""

    card_id: int
    code: CollectorCode
    name: str
    finish: str
    condition: str
    language: str
    location: str
    tags: str  # stored spelling: sorted, joined by ","
    copies: int
    note: str
    local_name: str  # the card's name in the copy's language (the English name if none)
    game: str = DEFAULT_GAME

    @property
    def code_shown(self) -> str:
        """The code as tables show it, with the prefix of a game other than the default
        (`Card.code_shown`): two games' 1 C 41 are two rows, each read back as its card."""
        shown = format_code(self.code, self.game)
        return shown if self.game == DEFAULT_GAME else f"{game_prefix(self.game)}:{shown}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON copy object: `COPY_KEYS`, tags as a list, then the card's game."""
        values = self._asdict()
        values["code"] = str(self.code)
        values["tags"] = tag_list(self.tags)
        return {**{key: values[key] for key in COPY_KEYS}, "game": self.game}


def copy_from_row(row: tuple[Any, ...]) -> Copy:
    (card_id, series, rarity, number, name, finish, condition, language, location, tags,
     copies, note, names, game) = row  # fmt: skip
    return Copy(card_id, CollectorCode(series, rarity, number), name, finish, condition,
                language, location, tags, copies, note,
                name_in_language(name, names or "", language), game)  # fmt: skip
