"""SQLModel tables: the schema and the write side.

Column and table names come from `cardbase.db.tables`, which the statements use too; a test
checks that the two agree.
Ownership keeps one row per owned card with foil and non-foil counts side by side; every
change to it is a `HistoryRow` inside a `BatchRow` (one command or one import), which is
what undo reverts.
"""

from __future__ import annotations

from sqlalchemy import CheckConstraint, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from cardbase.db import tables
from cardbase.fields import FINISHES, MAX_GEMS, RARITY_LETTERS
from cardbase.games import DEFAULT_GAME

_RARITIES = ",".join(f"'{letter}'" for letter in RARITY_LETTERS)
_FINISHES = ",".join(f"'{finish}'" for finish in FINISHES)


class CardRow(SQLModel, table=True):
    __tablename__ = tables.CARD_TABLE
    __table_args__ = (
        UniqueConstraint("game", "series", "number", name="uq_card_code"),
        Index("ix_card_name_key", "name_key"),
        Index("ix_card_series_number", "series", "number"),
        # No indexes on cost/attack/defense/name for sorting: this SQLite has no STAT4, so
        # its planner cannot tell cost:2..4 (half the cards) from atk>=12 (a handful) and
        # picked the wrong index for one or the other (25 ms and 120 ms on 100k cards, where
        # a plain scan takes 1-15 ms). See benchmarks/run.py --only query.
        CheckConstraint("series > 0 AND number > 0", name="ck_card_code_positive"),
        CheckConstraint(f"rarity IN ({_RARITIES})", name="ck_card_rarity"),
        CheckConstraint(f"length(gems) <= {MAX_GEMS}", name="ck_card_gems"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(default=DEFAULT_GAME)
    series: int
    rarity: str
    number: int
    name: str
    name_key: str
    type: str
    hero: bool = False
    sphere: str | None = None
    traits: str = ""
    cost: int | None = None
    attack: int | None = None
    defense: int | None = None
    gems: str = ""
    text: str = ""
    lore: str = ""


class OwnershipRow(SQLModel, table=True):
    __tablename__ = tables.OWNERSHIP_TABLE
    __table_args__ = (
        CheckConstraint("nonfoil >= 0 AND foil >= 0", name="ck_ownership_not_negative"),
    )

    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id", primary_key=True)
    nonfoil: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    foil: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class BatchRow(SQLModel, table=True):
    __tablename__ = tables.BATCH_TABLE

    id: int | None = Field(default=None, primary_key=True)
    created_at: str
    source: str
    undone: bool = False


class HistoryRow(SQLModel, table=True):
    __tablename__ = tables.HISTORY_TABLE
    __table_args__ = (
        CheckConstraint(f"finish IN ({_FINISHES})", name="ck_history_finish"),
        Index("ix_history_batch", "batch_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    batch_id: int = Field(foreign_key=f"{tables.BATCH_TABLE}.id")
    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id")
    finish: str
    delta: int


class DeckRow(SQLModel, table=True):
    """A saved deck; its name is unique ignoring case and spacing (`name_key`)."""

    __tablename__ = tables.DECK_TABLE
    __table_args__ = (UniqueConstraint("name_key", name="uq_deck_name"),)

    id: int | None = Field(default=None, primary_key=True)
    name: str
    name_key: str
    format: str
    created_at: str
    updated_at: str


class DeckEntryRow(SQLModel, table=True):
    __tablename__ = tables.DECK_ENTRY_TABLE
    __table_args__ = (
        CheckConstraint("copies > 0", name="ck_deck_entry_copies"),
        Index("ix_deck_entry_deck", "deck_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    deck_id: int = Field(foreign_key=f"{tables.DECK_TABLE}.id")
    section: str
    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id")
    copies: int
    line: int


# Every table, in the order they are created (a table after those it refers to).
TABLES = tuple(
    SQLModel.metadata.tables[name]
    for name in (
        tables.CARD_TABLE,
        tables.OWNERSHIP_TABLE,
        tables.BATCH_TABLE,
        tables.HISTORY_TABLE,
        tables.DECK_TABLE,
        tables.DECK_ENTRY_TABLE,
    )
)
