"""Upgrades of a PostgreSQL database, one function per version, each frozen as it shipped.

PostgreSQL's counterpart of `cardbase.db.migrations`: schema 4 is the first PostgreSQL
schema, so its steps start at 5. Each is plain DDL written out in full, so it keeps meaning
what it meant when that version shipped, whatever the models and `schema.FTS_DDL` become.

`cardbase.db.postgres.schema.prepare` runs them inside its one transaction, under the write
lock: PostgreSQL's DDL is transactional, so a step that fails leaves the database as it was,
and a league's other commands wait for the upgrade rather than see half of it. Tables are
altered in place (PostgreSQL's ALTER TABLE can, where SQLite's rebuilds them), so every
card keeps its id and nothing that points at one is touched.
tests/test_postgres_upgrade.py upgrades a database made by version 4 and checks that its
schema equals a new one's and that nothing was lost.
"""

from __future__ import annotations

from collections.abc import Callable

from cardbase.db.postgres.connection import PgConnection

FIRST_VERSION = 4  # the first schema cardbase made on PostgreSQL

_V5_SORT_KEYS = ("cost", "attack", "defense")
_V5_CARD = (
    # A constant default fills the old rows without rewriting the table; a new database's
    # columns have none, so it goes again at once.
    "ALTER TABLE card ADD COLUMN artist VARCHAR NOT NULL DEFAULT '', "
    "ADD COLUMN names VARCHAR NOT NULL DEFAULT ''",
    "ALTER TABLE card ALTER COLUMN artist DROP DEFAULT, ALTER COLUMN names DROP DEFAULT",
    "ALTER TABLE card DROP CONSTRAINT uq_card_code",
    "ALTER TABLE card ADD CONSTRAINT uq_card_code UNIQUE (game, series, number, rarity)",
    *(f"DROP INDEX ix_card_{key}_{suffix}" for key in _V5_SORT_KEYS for suffix in ("up", "down")),
    *(
        f"CREATE INDEX ix_card_{key}_{suffix} ON card"
        f" (({key} IS NULL), (-{key}){direction}, game, series, number, rarity)"
        for key in _V5_SORT_KEYS
        for suffix, direction in (("up", " DESC"), ("down", ""))
    ),
)
_V5_NEW_TABLES = (
    """CREATE TABLE card_name (
        card_id INTEGER NOT NULL,
        language VARCHAR NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        PRIMARY KEY (card_id, language),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "CREATE INDEX ix_card_name_name_key ON card_name (name_key)",
    """CREATE TABLE card_text (
        card_id INTEGER NOT NULL,
        language VARCHAR NOT NULL,
        text VARCHAR NOT NULL,
        lore VARCHAR NOT NULL,
        PRIMARY KEY (card_id, language),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
)
# The name vector reads the names in other languages too. The function's text is a new
# database's to the character, so the two compare equal however they are read.
_V5_VECTORS = (
    "to_tsvector('cardbase', coalesce({row}.name, '') || ' ' || coalesce({row}.names, '')), "
    "to_tsvector('cardbase', coalesce({row}.traits, '')), "
    "to_tsvector('cardbase', coalesce({row}.text, ''))"
)
_V5_FTS = (
    "CREATE OR REPLACE FUNCTION card_fts_sync() RETURNS trigger LANGUAGE plpgsql AS $$\n"
    "    BEGIN\n"
    "        INSERT INTO card_fts (id, name_v, traits_v, text_v) VALUES (new.id, "
    f"{_V5_VECTORS.format(row='new')})\n"
    "        ON CONFLICT (id) DO UPDATE SET\n"
    "            name_v = excluded.name_v, traits_v = excluded.traits_v, "
    "text_v = excluded.text_v;\n"
    "        RETURN NULL;\n"
    "    END $$",
    # Every card's vectors as the new function makes them (and a row for any card without
    # one), so the doctor finds the index in sync.
    "INSERT INTO card_fts (id, name_v, traits_v, text_v) "
    f"SELECT c.id, {_V5_VECTORS.format(row='c')} FROM card AS c "
    "ON CONFLICT (id) DO UPDATE SET "
    "name_v = excluded.name_v, traits_v = excluded.traits_v, text_v = excluded.text_v",
)


def _to_v5(conn: PgConnection) -> None:
    """Version 5 (cardbase 0.5, the real catalogue): a card is its series, rarity letter and
    number (`1 U 5` and `1 P 5` are two cards); cards have an artist and names in other
    languages (empty for the old cards), which the name vector reads too; two new tables of
    names and texts in other languages."""
    for statement in (*_V5_CARD, *_V5_NEW_TABLES, *_V5_FTS):
        conn.execute(statement)


# The vectors without a Latin letter's accents: 'café' finds 'Cafe', as on SQLite.
_V6_VECTORS = (
    "to_tsvector('cardbase', regexp_replace(normalize(coalesce({row}.name, '') || ' ' || "
    "coalesce({row}.names, ''), NFD), U&'([A-Za-z])[\\0300-\\036F]+', '\\1', 'g')), "
    "to_tsvector('cardbase', regexp_replace(normalize(coalesce({row}.traits, ''), NFD), "
    "U&'([A-Za-z])[\\0300-\\036F]+', '\\1', 'g')), "
    "to_tsvector('cardbase', regexp_replace(normalize(coalesce({row}.text, ''), NFD), "
    "U&'([A-Za-z])[\\0300-\\036F]+', '\\1', 'g'))"
)
_V6_FTS = (
    "CREATE OR REPLACE FUNCTION card_fts_sync() RETURNS trigger LANGUAGE plpgsql AS $$\n"
    "    BEGIN\n"
    "        INSERT INTO card_fts (id, name_v, traits_v, text_v) VALUES (new.id, "
    f"{_V6_VECTORS.format(row='new')})\n"
    "        ON CONFLICT (id) DO UPDATE SET\n"
    "            name_v = excluded.name_v, traits_v = excluded.traits_v, "
    "text_v = excluded.text_v;\n"
    "        RETURN NULL;\n"
    "    END $$",
    "INSERT INTO card_fts (id, name_v, traits_v, text_v) "
    f"SELECT c.id, {_V6_VECTORS.format(row='c')} FROM card AS c "
    "ON CONFLICT (id) DO UPDATE SET "
    "name_v = excluded.name_v, traits_v = excluded.traits_v, text_v = excluded.text_v",
)


def _to_v6(conn: PgConnection) -> None:
    """Version 6 (cardbase 0.6): the full-text vectors drop accents, as SQLite's index does,
    so that both engines find 'Cafe' for 'café'; and the imitations of SQLite's functions
    that version 4 made, which nothing calls now, are dropped."""
    for statement in _V6_FTS:
        conn.execute(statement)
    for function in ("casefold(text)", "instr(text, text)", "regexp(text, text)"):
        conn.execute(f"DROP FUNCTION IF EXISTS {function}")


def _to_v7(conn: PgConnection) -> None:
    """Version 7 (cardbase 0.6): the `nocase` collation, made for SQLite's COLLATE NOCASE,
    is dropped; names sort by their folded keys, in byte order, as on SQLite."""
    conn.execute("DROP COLLATION IF EXISTS nocase")


_V8_EVENTS = (
    """CREATE TABLE event (
        id SERIAL NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        format VARCHAR NOT NULL,
        rounds INTEGER,
        cut INTEGER NOT NULL,
        best_of INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        tiebreakers VARCHAR NOT NULL,
        state VARCHAR NOT NULL,
        created_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_event_name UNIQUE (name_key),
        CONSTRAINT ck_event_best_of CHECK (best_of IN (1, 3, 5)),
        CONSTRAINT ck_event_state CHECK (state IN ('registration', 'swiss', 'cut', 'finished'))
    )""",
    """CREATE TABLE event_player (
        id SERIAL NOT NULL,
        event_id INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        deck VARCHAR,
        verdict VARCHAR,
        locked BOOLEAN NOT NULL,
        dropped_after INTEGER,
        entered_round INTEGER NOT NULL,
        registered_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_event_player_name UNIQUE (event_id, name_key),
        FOREIGN KEY(event_id) REFERENCES event (id)
    )""",
    """CREATE TABLE event_round (
        id SERIAL NOT NULL,
        event_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        stage VARCHAR NOT NULL,
        paired_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_event_round_number UNIQUE (event_id, number),
        CONSTRAINT ck_event_round_stage CHECK (stage IN ('swiss', 'cut')),
        FOREIGN KEY(event_id) REFERENCES event (id)
    )""",
    """CREATE TABLE event_pairing (
        id SERIAL NOT NULL,
        round_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        first_id INTEGER NOT NULL,
        second_id INTEGER,
        first_games INTEGER,
        second_games INTEGER,
        drawn_games INTEGER,
        intentional_draw BOOLEAN NOT NULL,
        confirmed BOOLEAN NOT NULL,
        reported_at VARCHAR,
        PRIMARY KEY (id),
        CONSTRAINT uq_event_pairing_number UNIQUE (round_id, number),
        FOREIGN KEY(round_id) REFERENCES event_round (id),
        FOREIGN KEY(first_id) REFERENCES event_player (id),
        FOREIGN KEY(second_id) REFERENCES event_player (id)
    )""",
    "CREATE INDEX ix_event_pairing_round ON event_pairing (round_id)",
)


def _to_v8(conn: PgConnection) -> None:
    """Version 8 (cardbase 0.7): fan tournaments, their players and deck lists, rounds and
    tables with results; new tables (their ids serial, as a new database's), nothing
    altered."""
    for statement in _V8_EVENTS:
        conn.execute(statement)


_V9_NEW_TABLES = (
    """CREATE TABLE deck_version (
        id SERIAL NOT NULL,
        deck_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        format VARCHAR NOT NULL,
        saved_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_deck_version_number UNIQUE (deck_id, number),
        FOREIGN KEY(deck_id) REFERENCES deck (id)
    )""",
    """CREATE TABLE deck_version_entry (
        id SERIAL NOT NULL,
        version_id INTEGER NOT NULL,
        section VARCHAR NOT NULL,
        card_id INTEGER NOT NULL,
        copies INTEGER NOT NULL,
        line INTEGER NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT ck_deck_version_entry_copies CHECK (copies > 0),
        FOREIGN KEY(version_id) REFERENCES deck_version (id),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "CREATE INDEX ix_deck_version_entry_version ON deck_version_entry (version_id)",
    """CREATE TABLE deck_sleeve (
        deck_id INTEGER NOT NULL,
        card_id INTEGER NOT NULL,
        finish VARCHAR NOT NULL,
        condition VARCHAR NOT NULL,
        language VARCHAR NOT NULL,
        location VARCHAR NOT NULL,
        tags VARCHAR NOT NULL,
        copies INTEGER NOT NULL,
        PRIMARY KEY (deck_id, card_id, finish, condition, language, location, tags),
        CONSTRAINT ck_deck_sleeve_copies CHECK (copies > 0),
        CONSTRAINT ck_deck_sleeve_finish CHECK (finish IN ('nonfoil','foil')),
        FOREIGN KEY(deck_id) REFERENCES deck (id),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "CREATE INDEX ix_deck_sleeve_card ON deck_sleeve (card_id)",
    """CREATE TABLE event_report (
        id SERIAL NOT NULL,
        pairing_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL,
        first_games INTEGER NOT NULL,
        second_games INTEGER NOT NULL,
        drawn_games INTEGER NOT NULL,
        intentional_draw BOOLEAN NOT NULL,
        reported_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_event_report_player UNIQUE (pairing_id, player_id),
        FOREIGN KEY(pairing_id) REFERENCES event_pairing (id),
        FOREIGN KEY(player_id) REFERENCES event_player (id)
    )""",
    # Every deck saved so far becomes its version 1, as it is now.
    "INSERT INTO deck_version (deck_id, number, format, saved_at) "
    "SELECT id, 1, format, updated_at FROM deck ORDER BY id",
    "INSERT INTO deck_version_entry (version_id, section, card_id, copies, line) "
    "SELECT v.id, e.section, e.card_id, e.copies, e.line FROM deck_entry AS e "
    "JOIN deck_version AS v ON v.deck_id = e.deck_id ORDER BY e.deck_id, e.line, e.id",
    # A constant default fills the old rows; a new database's columns have none.
    "ALTER TABLE event ADD COLUMN lists_published BOOLEAN NOT NULL DEFAULT false",
    "ALTER TABLE event ALTER COLUMN lists_published DROP DEFAULT",
    "ALTER TABLE event_player ADD COLUMN code VARCHAR",
)


def _to_v9(conn: PgConnection) -> None:
    """Version 9 (cardbase 0.8): a deck's versions (each deck so far its version 1) and the
    copies sleeved in built decks; an event's lists published or not (not, so far), each
    player's code for reporting from a phone (drawn now for the players there are), and the
    results players sent. The codes are drawn as SQLite's step draws them."""
    from cardbase.db.migrations import v9_player_codes

    for statement in _V9_NEW_TABLES:
        conn.execute(statement)
    players = conn.execute("SELECT event_id, id FROM event_player ORDER BY event_id, id").fetchall()
    for event_id in sorted({row[0] for row in players}):
        theirs = [row[1] for row in players if row[0] == event_id]
        for player_id, code in zip(theirs, v9_player_codes(len(theirs)), strict=True):
            conn.execute("UPDATE event_player SET code = ? WHERE id = ?", (code, player_id))
    conn.execute("ALTER TABLE event_player ALTER COLUMN code SET NOT NULL")
    conn.execute(
        "ALTER TABLE event_player ADD CONSTRAINT uq_event_player_code UNIQUE (event_id, code)"
    )


_V10_CARD_VALUE = (
    """CREATE TABLE card_value (
        card_id INTEGER NOT NULL,
        field VARCHAR NOT NULL,
        number INTEGER,
        word VARCHAR,
        PRIMARY KEY (card_id, field),
        CONSTRAINT ck_card_value_one CHECK ((number IS NULL) <> (word IS NULL)),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "CREATE INDEX ix_card_value_number ON card_value (field, number)",
    "CREATE INDEX ix_card_value_word ON card_value (field, word)",
)


def _to_v10(conn: PgConnection) -> None:
    """Version 10 (cardbase 0.9): a game's fields of names the card table has no column for,
    a row of card_value each a card has; a new table, nothing altered."""
    for statement in _V10_CARD_VALUE:
        conn.execute(statement)


# MIGRATIONS[n] upgrades a PostgreSQL database at schema version n - 1 to version n.
MIGRATIONS: dict[int, Callable[[PgConnection], None]] = {
    5: _to_v5, 6: _to_v6, 7: _to_v7, 8: _to_v8, 9: _to_v9, 10: _to_v10,
}  # fmt: skip
