"""Table and column names: what every SQL statement names, and the schema's version stamp.

Statements run on plain ``sqlite3`` connections so that commands start fast; the SQLModel
models (`cardbase.db.models`) declare the same tables for creating the schema, and a test
checks that they have exactly these columns, so the two cannot drift apart.
"""

from __future__ import annotations

from cardbase.fields import CARD_COLUMN_TYPES, VALUE_TABLE

CARD_TABLE = "card"
CARD_FTS_TABLE = "card_fts"
COLLECTOR_TABLE = "collector"
HOLDING_TABLE = "holding"
OWNERSHIP_TABLE = "ownership"
BATCH_TABLE = "batch"
HISTORY_TABLE = "history"
DECK_TABLE = "deck"
DECK_ENTRY_TABLE = "deck_entry"
DECK_VERSION_TABLE = "deck_version"
DECK_VERSION_ENTRY_TABLE = "deck_version_entry"
DECK_SLEEVE_TABLE = "deck_sleeve"
CARD_NAME_TABLE = "card_name"
CARD_TEXT_TABLE = "card_text"
CARD_VALUE_TABLE = VALUE_TABLE  # a game's own fields' values (`cardbase.fields`)
EVENT_TABLE = "event"
EVENT_PLAYER_TABLE = "event_player"
EVENT_ROUND_TABLE = "event_round"
EVENT_PAIRING_TABLE = "event_pairing"
EVENT_REPORT_TABLE = "event_report"


# The card table's columns, in order: the id, then `cardbase.fields.CARD_COLUMN_TYPES`.
CARD_COLUMNS: tuple[str, ...] = ("id", *CARD_COLUMN_TYPES)
# A card's names in the client's other languages (`cardbase.fields.NAME_LANGUAGES`); the
# card's `names` column holds them too, one a line, for the full-text index to read.
CARD_NAME_COLUMNS: tuple[str, ...] = ("card_id", "language", "name", "name_key")
# A card's game text and lore in the client's other languages, read from the user's client
# (`catalog import-client`); the English ones are the card row's `text` and `lore`.
CARD_TEXT_COLUMNS: tuple[str, ...] = ("card_id", "language", "text", "lore")
# A card's value of one of its game's own fields, a row a field it has (schema 10): a
# number (a flag's is 1) or a word of the field's list.
CARD_VALUE_COLUMNS: tuple[str, ...] = ("card_id", "field", "number", "word")

# Columns the full-text index covers: what the game client's search box looked at, and the
# names in other languages. A `name:` term searches `NAME_FTS_COLUMNS`.
FTS_COLUMNS: tuple[str, ...] = ("name", "names", "traits", "text")
NAME_FTS_COLUMNS: tuple[str, ...] = ("name", "names")

COLLECTOR_COLUMNS: tuple[str, ...] = ("id", "name", "name_key", "is_default", "created_at")
# What makes two copies of a card one holding.
HOLDING_KEY: tuple[str, ...] = (
    "collector_id", "card_id", "finish", "condition", "language", "location", "tags",
)  # fmt: skip
HOLDING_COLUMNS: tuple[str, ...] = (*HOLDING_KEY, "copies", "note")
OWNERSHIP_COLUMNS: tuple[str, ...] = ("collector_id", "card_id", "nonfoil", "foil")
BATCH_COLUMNS: tuple[str, ...] = ("id", "collector_id", "created_at", "source", "undone")
HISTORY_COLUMNS: tuple[str, ...] = (
    "id", "batch_id", "card_id", "finish", "condition", "language", "location", "tags",
    "delta", "note_before",
)  # fmt: skip
DECK_COLUMNS: tuple[str, ...] = (
    "id", "collector_id", "name", "name_key", "format", "created_at", "updated_at",
)  # fmt: skip
DECK_ENTRY_COLUMNS: tuple[str, ...] = ("id", "deck_id", "section", "card_id", "copies", "line")
# Every save of a deck is a version of it, numbered from 1 (`deck history`, `A@3`); the
# deck's entries are its latest version's.
DECK_VERSION_COLUMNS: tuple[str, ...] = ("id", "deck_id", "number", "format", "saved_at")
DECK_VERSION_ENTRY_COLUMNS: tuple[str, ...] = (
    "id", "version_id", "section", "card_id", "copies", "line",
)  # fmt: skip
# A built deck's copies, taken from its collector's holdings (`deck sleeve`): keyed as the
# holding they came from, so a holding's free copies are its copies less those sleeved.
DECK_SLEEVE_KEY: tuple[str, ...] = (
    "deck_id", "card_id", "finish", "condition", "language", "location", "tags",
)  # fmt: skip
DECK_SLEEVE_COLUMNS: tuple[str, ...] = (*DECK_SLEEVE_KEY, "copies")
# A fan tournament (`cardbase.events`): the event, its players and their deck lists, its
# rounds (Swiss, then the cut's), and each round's tables with their results.
EVENT_COLUMNS: tuple[str, ...] = (
    "id", "name", "name_key", "format", "rounds", "cut", "best_of", "seed", "tiebreakers",
    "state", "created_at", "lists_published",
)  # fmt: skip
EVENT_PLAYER_COLUMNS: tuple[str, ...] = (
    "id", "event_id", "name", "name_key", "deck", "verdict", "locked", "dropped_after",
    "entered_round", "registered_at", "code",
)  # fmt: skip
EVENT_ROUND_COLUMNS: tuple[str, ...] = ("id", "event_id", "number", "stage", "paired_at")
EVENT_PAIRING_COLUMNS: tuple[str, ...] = (
    "id", "round_id", "number", "first_id", "second_id", "first_games", "second_games",
    "drawn_games", "intentional_draw", "confirmed", "reported_at",
)  # fmt: skip
# A result as a player sent it from a phone (`serve --host`), for their own table only; it
# is the table's result once the organiser confirms it.
EVENT_REPORT_COLUMNS: tuple[str, ...] = (
    "id", "pairing_id", "player_id", "first_games", "second_games", "drawn_games",
    "intentional_draw", "reported_at",
)  # fmt: skip

# Per-connection views of the chosen collector's rows (`cardbase.collection.collectors`):
# every read that shows "your" cards names these, so it cannot see another's by mistake.
MY_COLLECTOR = "my_collector"
MY_OWNERSHIP = "my_ownership"
MY_HOLDING = "my_holding"
# PostgreSQL's text search configuration: English stems, as FTS5's porter tokenizer makes,
# and no stop words, since FTS5 drops none ("the", "draw a card").
PG_TEXT_SEARCH = "cardbase"
# PostgreSQL's session setting that its permanent "my" views read (`collector_views`).
COLLECTOR_SETTING = "cardbase.collector"


def collector_views(collector: str) -> dict[str, str]:
    """The SELECT of each "my" view, for `collector`: an id (SQLite's temporary views, made
    per connection) or an SQL expression giving one (PostgreSQL's, made once)."""
    return {
        MY_COLLECTOR: f"SELECT id, name FROM {COLLECTOR_TABLE} WHERE id = {collector}",
        MY_OWNERSHIP: f"SELECT card_id, nonfoil, foil FROM {OWNERSHIP_TABLE} "
        f"WHERE collector_id = {collector}",
        MY_HOLDING: f"SELECT * FROM {HOLDING_TABLE} WHERE collector_id = {collector}",
    }


# Application id stamped into every cardbase database ('CRDB'), so we never mistake
# somebody else's SQLite file for ours, nor write into it.
APPLICATION_ID = 0x43524442
# Bumped with every schema change; `cardbase.db.migrations.MIGRATIONS` knows how to get here.
SCHEMA_VERSION = 10


def copies_of(finish: str, table: str = "") -> str:
    """SQL for the copies of one finish among grouped holdings (`table`: "h." for a holding
    called h); a CASE, not `copies * (finish = ...)`, which PostgreSQL's booleans don't
    multiply."""
    return f"sum(CASE WHEN {table}finish = '{finish}' THEN {table}copies ELSE 0 END)"
