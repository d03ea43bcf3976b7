"""What a change to the collection is: plain values shared by the write side
(`cardbase.collection.store`) and the read side (`cardbase.collection.stats`), importing neither
SQLAlchemy nor anything slow."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from cardbase.catalog.cards import CardLike
from cardbase.collection.attributes import (
    DEFAULT_CONDITION,
    DEFAULT_LANGUAGE,
    NO_LOCATION,
    tag_list,
)
from cardbase.fields import FINISHES


class Mode(StrEnum):
    ADD = "add"  # counts go up by the request
    REMOVE = "remove"  # counts go down, never below zero
    SET = "set"  # listed cards get exactly the requested counts
    REPLACE = "replace"  # the whole collection becomes the request


class ImportMode(StrEnum):
    """The modes a sheet can be imported in: a sheet lists what you have, never what to remove."""

    ADD = Mode.ADD.value
    SET = Mode.SET.value
    REPLACE = Mode.REPLACE.value

    @property
    def mode(self) -> Mode:
        return Mode(self.value)


class Holding(NamedTuple):
    """Which copies: a card in one finish, condition, language, location, with one set of
    tags (stored spelling, `cardbase.collection.attributes`). A collector's key to a count."""

    card_id: int
    finish: str
    condition: str = DEFAULT_CONDITION
    language: str = DEFAULT_LANGUAGE
    location: str = NO_LOCATION
    tags: str = ""

    def describe(self) -> str:
        """'non-foil', or 'foil LP fr in Binder 1 #trade': what sets it apart from the plain
        Near Mint English copy, so a collection of plain copies reads as it always did."""
        words = [FINISHES[self.finish]]
        if self.condition != DEFAULT_CONDITION:
            words.append(self.condition)
        if self.language != DEFAULT_LANGUAGE:
            words.append(self.language)
        if self.location:
            words.append(f"in {self.location}")
        words += [f"#{tag}" for tag in tag_list(self.tags)]
        return " ".join(words)

    def attributes(self) -> dict[str, object]:
        return {
            "finish": self.finish,
            "condition": self.condition,
            "language": self.language,
            "location": self.location,
            "tags": tag_list(self.tags),
        }


class Selector(NamedTuple):
    """Which holdings a request means: None is any (removing, setting, moving, tagging) or
    the default (adding). `tags` are tags a holding must have, or an added copy gets."""

    condition: str | None = None
    language: str | None = None
    location: str | None = None
    tags: str | None = None

    def describe(self) -> str:
        words = [value for value in (self.condition, self.language) if value]
        if self.location is not None:
            words.append(f"in {self.location}" if self.location else "with no location")
        words += [f"#{tag}" for tag in tag_list(self.tags or "")]
        return " ".join(words)


ANY = Selector()


class Request(NamedTuple):
    card: CardLike
    finish: str
    copies: int
    selector: Selector = ANY
    note: str | None = None  # None: leave the holding's note as it is


class Change(NamedTuple):
    card: CardLike
    holding: Holding
    old: int
    new: int
    note: str = ""  # the holding's note afterwards
    note_before: str | None = None  # what it was, when this change replaced or dropped it

    @property
    def finish(self) -> str:
        return self.holding.finish

    @property
    def delta(self) -> int:
        return self.new - self.old

    def describe(self) -> str:
        return f"{self.card.label()} {self.holding.describe()}: {self.old} -> {self.new}"

    def to_dict(self) -> dict[str, object]:
        return {
            "code": str(self.card.code),
            "name": self.card.name,
            **self.holding.attributes(),
            "old": self.old,
            "new": self.new,
        }


# A batch's `undone` is APPLIED, UNDONE (`redo_last` can re-apply it) or STALE: undone,
# and then a newer change was made on top of what it left, so redoing it would replay a
# change onto a collection it was never made on (as an editor's redo forgets once you type).
APPLIED, UNDONE, STALE = 0, 1, 2


class Batch(NamedTuple):
    id: int
    created_at: str
    source: str
    undone: bool
    changes: list[Change]

    def to_dict(self) -> dict[str, object]:
        return {
            "batch": self.id,
            "created_at": self.created_at,
            "source": self.source,
            "undone": self.undone,
            "changes": [
                {
                    "code": str(c.card.code),
                    "name": c.card.name,
                    **c.holding.attributes(),
                    "delta": c.delta,
                }
                for c in self.changes
            ],  # history keeps deltas; old and new counts are not recorded
        }
