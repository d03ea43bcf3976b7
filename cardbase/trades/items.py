"""What a trade list is made of: items (copies of a card in one finish, and, when they come
from particular holdings, their condition and language), and which copies may be offered.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cardbase.catalog.cards import Card
from cardbase.codes import format_code
from cardbase.collection.attributes import condition_rank, has_tags

OFFERED, WANTED = "Offered", "Wanted"
# What a card is worth in a balanced trade, by rarity: a rough, public rule of thumb.
RARITY_VALUE = {"C": 1, "S": 1, "U": 2, "R": 3, "P": 3, "E": 4}


def value_rule() -> str:
    """What "value" counts, in words, from `RARITY_VALUE`: a page and `-o json` explain it."""
    from cardbase.fields import RARITY_NAMES

    by_value: dict[int, list[str]] = {}
    for letter, value in RARITY_VALUE.items():
        by_value.setdefault(value, []).append(RARITY_NAMES.get(letter, letter))
    points = "; ".join(f"{' and '.join(names)} {n}" for n, names in sorted(by_value.items()))
    return (f"value: each copy counts by its rarity ({points}), summed over the copies; "
            "a rough rule of thumb for an even trade, not a price")  # fmt: skip


HEADERS = ("Code", "Name", "Finish", "Qty")
# Written after HEADERS when a list offers particular copies; readers ignore what they do not
# know, so a list with them is still read by any `trade match FILE`.
DETAIL_HEADERS = ("Condition", "Language")


class TradeItem(NamedTuple):
    card: Card
    finish: str
    copies: int
    condition: str | None = None  # set when the copies are particular holdings' copies
    language: str | None = None

    @property
    def value(self) -> int:
        return RARITY_VALUE.get(self.card.code.rarity, 1) * self.copies

    def row(self, detail: bool = False, game: bool = False) -> list[Any]:
        """Cells under HEADERS, then DETAIL_HEADERS when `detail` ('' where not known), then
        the card's game when `game` (a file of several games' cards: the code as printed,
        its game beside it, as exports write them); the code as tables show it otherwise."""
        code = format_code(self.card.code, self.card.game) if game else self.card.code_shown
        cells: list[Any] = [code, self.card.name, self.finish, self.copies]
        if detail:
            cells += [self.condition or "", self.language or ""]
        return [*cells, self.card.game] if game else cells

    def to_dict(self) -> dict[str, Any]:
        data = {"code": str(self.card.code), "game": self.card.game, "name": self.card.name,
                "finish": self.finish, "copies": self.copies, "value": self.value}  # fmt: skip
        if self.condition is not None:
            data.update(condition=self.condition, language=self.language)
        return data

    def order(self) -> tuple[Any, ...]:
        """Lists are in catalogue code order; one card's copies best condition first."""
        rank = condition_rank(self.condition) if self.condition else -1
        return (self.card.code, self.finish, rank, self.language or "")


def has_detail(*lists: list[TradeItem]) -> bool:
    """Whether any item names a condition, so tables and files need those columns."""
    return any(item.condition is not None for items in lists for item in items)


class TheirList(NamedTuple):
    """The other side of a trade: their Offered and Wanted lists, and rows of their file that
    could not be read."""

    offered: list[TradeItem]
    wanted: list[TradeItem]
    problems: list[str]


class Offer(NamedTuple):
    """Which copies may be offered: those with every one of `tags` (stored form), in
    `location` (ignoring case), and in `min_condition` or better. The default offers any copy,
    and lists are then per card and finish, as before holdings had attributes."""

    tags: str = ""
    location: str | None = None
    min_condition: str | None = None

    @property
    def particular(self) -> bool:
        """Whether the offer picks copies by their attributes, so items carry them."""
        return bool(self.tags) or self.location is not None or self.min_condition is not None

    def admits(self, condition: str, location: str, tags: str) -> bool:
        if self.min_condition is not None and condition_rank(condition) > condition_rank(
            self.min_condition
        ):
            return False
        if self.location is not None and location.casefold() != self.location.casefold():
            return False
        return has_tags(tags, self.tags)


ANY_COPY = Offer()
