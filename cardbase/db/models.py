"""SQLModel tables: the schema and the write side.

Column and table names come from `cardbase.db.tables`, which the statements use too; a test
checks that the two agree.
A collector's cards are holdings (copies alike in finish, condition, language, location
and tags), summed per card in `OwnershipRow`; every change to them is a `HistoryRow` inside
a `BatchRow` (one command or one import) of that collector, which is what undo reverts.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Index,
    Integer,
    Table,
    UniqueConstraint,
    text,
)
from sqlmodel import AutoString, Field, SQLModel

from cardbase.db import tables
from cardbase.fields import CARD_COLUMN_TYPES, CONDITIONS, FINISHES, RARITY_LETTERS, SORT_INDEXED
from cardbase.fieldtypes import MAX_GEMS

# A card is its game, series, rarity letter and number: `1 U 5` and `1 P 5` are two cards.
# Catalogue order is this key's, and so are the sort indexes' last columns.
CATALOGUE_KEY = ("game", "series", "number", "rarity")
_RARITIES = ",".join(f"'{letter}'" for letter in RARITY_LETTERS)
_FINISHES = ",".join(f"'{finish}'" for finish in FINISHES)
_CONDITIONS = ",".join(f"'{condition}'" for condition in CONDITIONS)


def _sort_indexes() -> list[Index]:
    """Two indexes per key of `SORT_INDEXED`, one per direction, each in the exact order a
    sorted search asks for (missing values last, then the catalogue order), so the first
    page of `order:-attack` is read off the index rather than sorted.

    They hold `(x IS NULL)` and `-x`, never the column itself, so that no filter of the
    column can read them: this SQLite has no STAT4, and with plain indexes its planner
    could not tell cost:2..4 (half the cards) from atk>=12 (a handful), taking an index for
    either (25 ms and 120 ms on 100k cards, where a scan takes 10). Whether a walk pays is
    for `cardbase.query.search` to find out."""
    indexes = []
    for key in SORT_INDEXED:
        for suffix, direction in (("up", " DESC"), ("down", "")):
            parts = (f"({key} IS NULL)", f"(-{key}){direction}", *CATALOGUE_KEY)
            indexes.append(Index(f"ix_card_{key}_{suffix}", *(text(part) for part in parts)))
    return indexes


def _card_table() -> Table:
    """The card table, a column for each of `CARD_COLUMN_TYPES` (the registry's stored
    fields, `cardbase.fields`): a new card field is a registry entry, not a column here too.
    A plain table in SQLModel's metadata, as the models' own are: nothing reads cards
    through the ORM, and SQLModel's str, int and bool become these same column types."""
    column_types: dict[type, Any] = {str: AutoString, int: Integer, bool: Boolean}
    columns = [
        Column(name, column_types[kind.python], nullable=kind.nullable)
        for name, kind in CARD_COLUMN_TYPES.items()
    ]
    return Table(
        tables.CARD_TABLE,
        SQLModel.metadata,
        Column("id", Integer, primary_key=True),
        *columns,
        UniqueConstraint(*CATALOGUE_KEY, name="uq_card_code"),
        Index("ix_card_name_key", "name_key"),
        Index("ix_card_series_number", "series", "number"),
        *_sort_indexes(),
        CheckConstraint("series > 0 AND number > 0", name="ck_card_code_positive"),
        CheckConstraint(f"rarity IN ({_RARITIES})", name="ck_card_rarity"),
        CheckConstraint(f"length(gems) <= {MAX_GEMS}", name="ck_card_gems"),
    )


CARD = _card_table()


class CardNameRow(SQLModel, table=True):
    """A card's name in one of the client's other languages: German sheets and searches
    find the card by it, and a copy in that language shows it."""

    __tablename__ = tables.CARD_NAME_TABLE
    __table_args__ = (Index("ix_card_name_name_key", "name_key"),)

    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id", primary_key=True)
    language: str = Field(primary_key=True)
    name: str
    name_key: str


class CardTextRow(SQLModel, table=True):
    """A card's game text and lore in one of the client's other languages: the game's prose,
    which the repository never carries, read from the user's client folder."""

    __tablename__ = tables.CARD_TEXT_TABLE

    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id", primary_key=True)
    language: str = Field(primary_key=True)
    text: str = ""
    lore: str = ""


class CardValueRow(SQLModel, table=True):
    """A card's value of one of its game's own fields (`cardbase.fields.VALUE_FIELDS`): a
    game file may name fields the card table has no column for, and a row here holds one
    a card, its number (a flag's is 1) or its word, so a new game needs no new schema. The
    indexes serve a term on one field (dust>3, wings:moth) and a sort by it."""

    __tablename__ = tables.CARD_VALUE_TABLE
    __table_args__ = (
        CheckConstraint("(number IS NULL) <> (word IS NULL)", name="ck_card_value_one"),
        Index("ix_card_value_number", "field", "number"),
        Index("ix_card_value_word", "field", "word"),
        {"sqlite_with_rowid": False},
    )

    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id", primary_key=True)
    field: str = Field(primary_key=True)
    number: int | None = None
    word: str | None = None


class CollectorRow(SQLModel, table=True):
    """Whose cards: one database can hold a playgroup's collections over one catalogue.
    Exactly one collector is the default, the one commands use unless told otherwise."""

    __tablename__ = tables.COLLECTOR_TABLE
    __table_args__ = (
        UniqueConstraint("name_key", name="uq_collector_name"),
        Index(
            "ix_collector_default",
            "is_default",
            unique=True,
            sqlite_where=text("is_default"),
            postgresql_where=text("is_default"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str
    name_key: str
    is_default: bool = False
    created_at: str


class HoldingRow(SQLModel, table=True):
    """Copies of one card that are alike: same finish, condition, language, location and
    tags. Tags are part of what makes a holding: tagging one of four copies "trade" splits
    them into two holdings, so every copy's tags are kept exactly (and exported as such).

    The key is the primary key of a table without rowids: one B-tree, not a table and an
    index, which a 100k-row import writes once instead of twice."""

    __tablename__ = tables.HOLDING_TABLE
    __table_args__ = (
        CheckConstraint("copies > 0", name="ck_holding_copies"),
        CheckConstraint(f"finish IN ({_FINISHES})", name="ck_holding_finish"),
        CheckConstraint(f"condition IN ({_CONDITIONS})", name="ck_holding_condition"),
        {"sqlite_with_rowid": False},
    )

    collector_id: int = Field(foreign_key=f"{tables.COLLECTOR_TABLE}.id", primary_key=True)
    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id", primary_key=True)
    finish: str = Field(primary_key=True)
    condition: str = Field(primary_key=True)
    language: str = Field(primary_key=True)
    location: str = Field(default="", primary_key=True)
    tags: str = Field(default="", primary_key=True)
    copies: int
    note: str = ""


class OwnershipRow(SQLModel, table=True):
    """Each collector's totals per card, kept by the same transaction that changes the
    holdings: every search, listing and deck check joins one row per card, as fast at 100k
    holdings as it was when these counts were all there was."""

    __tablename__ = tables.OWNERSHIP_TABLE
    __table_args__ = (
        CheckConstraint("nonfoil >= 0 AND foil >= 0", name="ck_ownership_not_negative"),
    )

    collector_id: int = Field(foreign_key=f"{tables.COLLECTOR_TABLE}.id", primary_key=True)
    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id", primary_key=True)
    nonfoil: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    foil: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class BatchRow(SQLModel, table=True):
    __tablename__ = tables.BATCH_TABLE
    __table_args__ = (
        Index("ix_batch_collector", "collector_id", "undone"),
        CheckConstraint("undone IN (0, 1, 2)", name="ck_batch_undone"),
    )

    id: int | None = Field(default=None, primary_key=True)
    collector_id: int = Field(foreign_key=f"{tables.COLLECTOR_TABLE}.id")
    created_at: str
    source: str
    # 0 applied, 1 undone (redo can re-apply it), 2 undone for good (`collection.store`);
    # a BOOLEAN until schema 4, which PostgreSQL could not hold a 2 in.
    undone: int = 0


class HistoryRow(SQLModel, table=True):
    """One holding's change in a batch: its whole key, so undo restores it exactly, and the
    note it had before when the change replaced it (NULL: the note was left alone)."""

    __tablename__ = tables.HISTORY_TABLE
    __table_args__ = (
        CheckConstraint(f"finish IN ({_FINISHES})", name="ck_history_finish"),
        Index("ix_history_batch", "batch_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    batch_id: int = Field(foreign_key=f"{tables.BATCH_TABLE}.id")
    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id")
    finish: str
    condition: str
    language: str
    location: str = ""
    tags: str = ""
    delta: int
    note_before: str | None = None


class DeckRow(SQLModel, table=True):
    """A collector's saved deck; its name is unique among theirs, ignoring case and spacing."""

    __tablename__ = tables.DECK_TABLE
    __table_args__ = (UniqueConstraint("collector_id", "name_key", name="uq_deck_name"),)

    id: int | None = Field(default=None, primary_key=True)
    collector_id: int = Field(foreign_key=f"{tables.COLLECTOR_TABLE}.id")
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


class DeckVersionRow(SQLModel, table=True):
    """One save of a deck: numbered from 1 per deck, with the format it was saved in."""

    __tablename__ = tables.DECK_VERSION_TABLE
    __table_args__ = (UniqueConstraint("deck_id", "number", name="uq_deck_version_number"),)

    id: int | None = Field(default=None, primary_key=True)
    deck_id: int = Field(foreign_key=f"{tables.DECK_TABLE}.id")
    number: int
    format: str
    saved_at: str


class DeckVersionEntryRow(SQLModel, table=True):
    """A line of a deck as one version had it (as `DeckEntryRow` is the latest's)."""

    __tablename__ = tables.DECK_VERSION_ENTRY_TABLE
    __table_args__ = (
        CheckConstraint("copies > 0", name="ck_deck_version_entry_copies"),
        Index("ix_deck_version_entry_version", "version_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    version_id: int = Field(foreign_key=f"{tables.DECK_VERSION_TABLE}.id")
    section: str
    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id")
    copies: int
    line: int


class DeckSleeveRow(SQLModel, table=True):
    """Copies sleeved in a built deck, keyed as the holding of the deck's collector they were
    taken from: that holding's free copies are its copies less every deck's sleeved ones."""

    __tablename__ = tables.DECK_SLEEVE_TABLE
    __table_args__ = (
        CheckConstraint("copies > 0", name="ck_deck_sleeve_copies"),
        CheckConstraint(f"finish IN ({_FINISHES})", name="ck_deck_sleeve_finish"),
        Index("ix_deck_sleeve_card", "card_id"),
        {"sqlite_with_rowid": False},
    )

    deck_id: int = Field(foreign_key=f"{tables.DECK_TABLE}.id", primary_key=True)
    card_id: int = Field(foreign_key=f"{tables.CARD_TABLE}.id", primary_key=True)
    finish: str = Field(primary_key=True)
    condition: str = Field(primary_key=True)
    language: str = Field(primary_key=True)
    location: str = Field(default="", primary_key=True)
    tags: str = Field(default="", primary_key=True)
    copies: int


class EventRow(SQLModel, table=True):
    """A fan tournament: its format (the deck rules), Swiss rounds (None: from the player
    count once round 1 is paired), top cut (0: none), games a match, and the seed every
    round's random choices come from, recorded so that the same seed pairs the same round."""

    __tablename__ = tables.EVENT_TABLE
    __table_args__ = (
        UniqueConstraint("name_key", name="uq_event_name"),
        CheckConstraint("best_of IN (1, 3, 5)", name="ck_event_best_of"),
        CheckConstraint("state IN ('registration', 'swiss', 'cut', 'finished')",
                        name="ck_event_state"),
    )  # fmt: skip

    id: int | None = Field(default=None, primary_key=True)
    name: str
    name_key: str
    format: str
    rounds: int | None = None
    cut: int = 0
    best_of: int = 3
    seed: int
    tiebreakers: str  # the tiebreakers' keys in order, comma separated
    state: str = "registration"
    created_at: str
    lists_published: bool = False  # players may read each other's deck lists


class EventPlayerRow(SQLModel, table=True):
    """A player of an event: the deck list as registered and the desk's verdict on it (the
    deck check's report as JSON), locked when round 1 is paired; `dropped_after` the last
    round they played, `entered_round` the first round they could be paired in (late entry)."""

    __tablename__ = tables.EVENT_PLAYER_TABLE
    __table_args__ = (
        UniqueConstraint("event_id", "name_key", name="uq_event_player_name"),
        UniqueConstraint("event_id", "code", name="uq_event_player_code"),
    )

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key=f"{tables.EVENT_TABLE}.id")
    name: str
    name_key: str
    deck: str | None = None
    verdict: str | None = None
    locked: bool = False
    dropped_after: int | None = None
    entered_round: int = 1
    registered_at: str
    code: str  # the player's own code for reporting from a phone, unique in the event


class EventRoundRow(SQLModel, table=True):
    """A round as it was paired: Swiss or the cut's, numbered on from the Swiss rounds."""

    __tablename__ = tables.EVENT_ROUND_TABLE
    __table_args__ = (
        UniqueConstraint("event_id", "number", name="uq_event_round_number"),
        CheckConstraint("stage IN ('swiss', 'cut')", name="ck_event_round_stage"),
    )

    id: int | None = Field(default=None, primary_key=True)
    event_id: int = Field(foreign_key=f"{tables.EVENT_TABLE}.id")
    number: int
    stage: str
    paired_at: str


class EventPairingRow(SQLModel, table=True):
    """One table of a round and its result: games won by each side and drawn (NULL until
    reported); `second_id` NULL for the bye, which is its own result."""

    __tablename__ = tables.EVENT_PAIRING_TABLE
    __table_args__ = (
        UniqueConstraint("round_id", "number", name="uq_event_pairing_number"),
        Index("ix_event_pairing_round", "round_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key=f"{tables.EVENT_ROUND_TABLE}.id")
    number: int
    first_id: int = Field(foreign_key=f"{tables.EVENT_PLAYER_TABLE}.id")
    second_id: int | None = Field(default=None, foreign_key=f"{tables.EVENT_PLAYER_TABLE}.id")
    first_games: int | None = None
    second_games: int | None = None
    drawn_games: int | None = None
    intentional_draw: bool = False
    confirmed: bool = False
    reported_at: str | None = None


class EventReportRow(SQLModel, table=True):
    """A result a player sent from a phone for their own table (a player's code opens only
    their seat): kept apart from the table's result, which the organiser's confirmation
    sets, so nothing a player sends changes a result by itself."""

    __tablename__ = tables.EVENT_REPORT_TABLE
    __table_args__ = (UniqueConstraint("pairing_id", "player_id", name="uq_event_report_player"),)

    id: int | None = Field(default=None, primary_key=True)
    pairing_id: int = Field(foreign_key=f"{tables.EVENT_PAIRING_TABLE}.id")
    player_id: int = Field(foreign_key=f"{tables.EVENT_PLAYER_TABLE}.id")
    first_games: int
    second_games: int
    drawn_games: int
    intentional_draw: bool = False
    reported_at: str


# Every table, in the order they are created (a table after those it refers to).
TABLES = tuple(
    SQLModel.metadata.tables[name]
    for name in (
        tables.CARD_TABLE,
        tables.CARD_NAME_TABLE,
        tables.CARD_TEXT_TABLE,
        tables.CARD_VALUE_TABLE,
        tables.COLLECTOR_TABLE,
        tables.HOLDING_TABLE,
        tables.OWNERSHIP_TABLE,
        tables.BATCH_TABLE,
        tables.HISTORY_TABLE,
        tables.DECK_TABLE,
        tables.DECK_ENTRY_TABLE,
        tables.DECK_VERSION_TABLE,
        tables.DECK_VERSION_ENTRY_TABLE,
        tables.DECK_SLEEVE_TABLE,
        tables.EVENT_TABLE,
        tables.EVENT_PLAYER_TABLE,
        tables.EVENT_ROUND_TABLE,
        tables.EVENT_PAIRING_TABLE,
        tables.EVENT_REPORT_TABLE,
    )
)
