"""What a change to the collection is: plain values shared by the write side
(`cardbase.collection.store`) and the read side (`cardbase.collection.stats`), importing neither
SQLAlchemy nor anything slow."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from cardbase.catalog.cards import CardLike
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


class Request(NamedTuple):
    card: CardLike
    finish: str
    copies: int


class Change(NamedTuple):
    card: CardLike
    finish: str
    old: int
    new: int

    @property
    def delta(self) -> int:
        return self.new - self.old

    def describe(self) -> str:
        return f"{self.card.label()} {FINISHES[self.finish]}: {self.old} -> {self.new}"

    def to_dict(self) -> dict[str, object]:
        return {
            "code": str(self.card.code),
            "name": self.card.name,
            "finish": self.finish,
            "old": self.old,
            "new": self.new,
        }


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
                    "finish": c.finish,
                    "delta": c.delta,
                }
                for c in self.changes
            ],  # history keeps deltas; old and new counts are not recorded
        }
