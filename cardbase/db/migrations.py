"""Schema upgrades, one function per version, each frozen as it was released.

A new database is created from the current models; an old one is brought forward by these
steps, in order, inside one transaction. Each step is plain DDL written out in full, so it
keeps meaning what it meant when that version shipped, whatever the models become later.
tests/test_upgrades.py opens a database from every released version and checks that the
upgraded schema equals a new one and that nothing was lost.
"""

from __future__ import annotations

from collections.abc import Callable

from cardbase.db.engine import Connection

_V2_SAVED_DECKS = (
    """CREATE TABLE deck (
        id INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        format VARCHAR NOT NULL,
        created_at VARCHAR NOT NULL,
        updated_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_deck_name UNIQUE (name_key)
    )""",
    """CREATE TABLE deck_entry (
        id INTEGER NOT NULL,
        deck_id INTEGER NOT NULL,
        section VARCHAR NOT NULL,
        card_id INTEGER NOT NULL,
        copies INTEGER NOT NULL,
        line INTEGER NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT ck_deck_entry_copies CHECK (copies > 0),
        FOREIGN KEY(deck_id) REFERENCES deck (id),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "CREATE INDEX ix_deck_entry_deck ON deck_entry (deck_id)",
)


def _to_v2(conn: Connection) -> None:
    """Version 2 (cardbase 0.2): saved decks."""
    for statement in _V2_SAVED_DECKS:
        conn.execute(statement)


_V3_NEW_TABLES = (
    """CREATE TABLE collector (
        id INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        is_default BOOLEAN NOT NULL,
        created_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_collector_name UNIQUE (name_key)
    )""",
    "CREATE UNIQUE INDEX ix_collector_default ON collector (is_default) WHERE is_default",
    """CREATE TABLE holding (
        collector_id INTEGER NOT NULL,
        card_id INTEGER NOT NULL,
        finish VARCHAR NOT NULL,
        condition VARCHAR NOT NULL,
        language VARCHAR NOT NULL,
        location VARCHAR NOT NULL,
        tags VARCHAR NOT NULL,
        copies INTEGER NOT NULL,
        note VARCHAR NOT NULL,
        PRIMARY KEY (collector_id, card_id, finish, condition, language, location, tags),
        CONSTRAINT ck_holding_copies CHECK (copies > 0),
        CONSTRAINT ck_holding_finish CHECK (finish IN ('nonfoil','foil')),
        CONSTRAINT ck_holding_condition CHECK (condition IN ('M','NM','LP','MP','HP','DMG')),
        FOREIGN KEY(collector_id) REFERENCES collector (id),
        FOREIGN KEY(card_id) REFERENCES card (id)
    ) WITHOUT ROWID""",
)
# Tables that gain a collector (or a holding's key), rebuilt as SQLite's ALTER TABLE
# cannot: made new beside the old, filled, the old dropped, the new renamed.
_V3_REBUILT = {
    "ownership": """CREATE TABLE new_ownership (
        collector_id INTEGER NOT NULL,
        card_id INTEGER NOT NULL,
        nonfoil INTEGER DEFAULT '0' NOT NULL,
        foil INTEGER DEFAULT '0' NOT NULL,
        PRIMARY KEY (collector_id, card_id),
        CONSTRAINT ck_ownership_not_negative CHECK (nonfoil >= 0 AND foil >= 0),
        FOREIGN KEY(collector_id) REFERENCES collector (id),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "batch": """CREATE TABLE new_batch (
        id INTEGER NOT NULL,
        collector_id INTEGER NOT NULL,
        created_at VARCHAR NOT NULL,
        source VARCHAR NOT NULL,
        undone BOOLEAN NOT NULL,
        PRIMARY KEY (id),
        FOREIGN KEY(collector_id) REFERENCES collector (id)
    )""",
    "history": """CREATE TABLE new_history (
        id INTEGER NOT NULL,
        batch_id INTEGER NOT NULL,
        card_id INTEGER NOT NULL,
        finish VARCHAR NOT NULL,
        condition VARCHAR NOT NULL,
        language VARCHAR NOT NULL,
        location VARCHAR NOT NULL,
        tags VARCHAR NOT NULL,
        delta INTEGER NOT NULL,
        note_before VARCHAR,
        PRIMARY KEY (id),
        CONSTRAINT ck_history_finish CHECK (finish IN ('nonfoil','foil')),
        FOREIGN KEY(batch_id) REFERENCES batch (id),
        FOREIGN KEY(card_id) REFERENCES card (id)
    )""",
    "deck": """CREATE TABLE new_deck (
        id INTEGER NOT NULL,
        collector_id INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        format VARCHAR NOT NULL,
        created_at VARCHAR NOT NULL,
        updated_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_deck_name UNIQUE (collector_id, name_key),
        FOREIGN KEY(collector_id) REFERENCES collector (id)
    )""",
}
# Every old row belongs to the one collector there was: copies become holdings in Near
# Mint, English, at no location and with no tags.
_V3_COPIES = (
    "INSERT INTO collector VALUES (1, 'me', 'me', 1, strftime('%Y-%m-%dT%H:%M:%S+00:00'))",
    "INSERT INTO holding (collector_id, card_id, finish, condition, language, location, tags, "
    "copies, note) SELECT 1, card_id, 'nonfoil', 'NM', 'en', '', '', nonfoil, '' "
    "FROM ownership WHERE nonfoil > 0",
    "INSERT INTO holding (collector_id, card_id, finish, condition, language, location, tags, "
    "copies, note) SELECT 1, card_id, 'foil', 'NM', 'en', '', '', foil, '' "
    "FROM ownership WHERE foil > 0",
    "INSERT INTO new_ownership SELECT 1, card_id, nonfoil, foil FROM ownership "
    "WHERE nonfoil + foil > 0",
    "INSERT INTO new_batch SELECT id, 1, created_at, source, undone FROM batch",
    "INSERT INTO new_history SELECT id, batch_id, card_id, finish, 'NM', 'en', '', '', delta, "
    "NULL FROM history",
    "INSERT INTO new_deck SELECT id, 1, name, name_key, format, created_at, updated_at FROM deck",
)
_V3_INDEXES = (
    "CREATE INDEX ix_batch_collector ON batch (collector_id, undone)",
    "CREATE INDEX ix_history_batch ON history (batch_id)",
)


def _to_v3(conn: Connection) -> None:
    """Version 3 (cardbase 0.3): collectors, and holdings with condition, language, location
    and tags. Runs with foreign keys off (`cardbase.db.schema.migrate` checks them after),
    as SQLite's own recipe for rebuilding a table says."""
    for statement in (*_V3_NEW_TABLES, *_V3_REBUILT.values(), *_V3_COPIES):
        conn.execute(statement)
    for table in ("history", "batch", "ownership", "deck"):  # a referring table first
        conn.execute(f"DROP TABLE {table}")
    for table in _V3_REBUILT:
        conn.execute(f"ALTER TABLE new_{table} RENAME TO {table}")
    for statement in _V3_INDEXES:
        conn.execute(statement)


_V4_SORT_INDEXES = tuple(
    f"CREATE INDEX ix_card_{key}_{suffix} ON card"
    f" (({key} IS NULL), (-{key}){direction}, game, series, number)"
    for key in ("cost", "attack", "defense")
    for suffix, direction in (("up", " DESC"), ("down", ""))
)


_V4_BATCH = (
    """CREATE TABLE new_batch (
        id INTEGER NOT NULL,
        collector_id INTEGER NOT NULL,
        created_at VARCHAR NOT NULL,
        source VARCHAR NOT NULL,
        undone INTEGER NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT ck_batch_undone CHECK (undone IN (0, 1, 2)),
        FOREIGN KEY(collector_id) REFERENCES collector (id)
    )""",
    "INSERT INTO new_batch SELECT id, collector_id, created_at, source, undone FROM batch",
    "DROP TABLE batch",
    "ALTER TABLE new_batch RENAME TO batch",
    "CREATE INDEX ix_batch_collector ON batch (collector_id, undone)",
)


def _to_v4(conn: Connection) -> None:
    """Version 4 (cardbase 0.4): an index per direction of the cost, attack and defense
    sorts; a batch's `undone` an integer of three states (it was declared BOOLEAN)."""
    for statement in (*_V4_SORT_INDEXES, *_V4_BATCH):
        conn.execute(statement)


_V5_CARD = (
    """CREATE TABLE new_card (
        id INTEGER NOT NULL,
        game VARCHAR NOT NULL,
        series INTEGER NOT NULL,
        rarity VARCHAR NOT NULL,
        number INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        type VARCHAR NOT NULL,
        hero BOOLEAN NOT NULL,
        sphere VARCHAR,
        traits VARCHAR NOT NULL,
        cost INTEGER,
        attack INTEGER,
        defense INTEGER,
        gems VARCHAR NOT NULL,
        text VARCHAR NOT NULL,
        lore VARCHAR NOT NULL,
        artist VARCHAR NOT NULL,
        names VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_card_code UNIQUE (game, series, number, rarity),
        CONSTRAINT ck_card_code_positive CHECK (series > 0 AND number > 0),
        CONSTRAINT ck_card_rarity CHECK (rarity IN ('C','U','R','E','P','S')),
        CONSTRAINT ck_card_gems CHECK (length(gems) <= 4)
    )""",
    "INSERT INTO new_card SELECT id, game, series, rarity, number, name, name_key, type, hero, "
    "sphere, traits, cost, attack, defense, gems, text, lore, '', '' FROM card",
    "DROP TABLE card_fts",  # its triggers go with the card table
    "DROP TABLE card",
    "ALTER TABLE new_card RENAME TO card",
    "CREATE INDEX ix_card_name_key ON card (name_key)",
    "CREATE INDEX ix_card_series_number ON card (series, number)",
    *(
        f"CREATE INDEX ix_card_{key}_{suffix} ON card"
        f" (({key} IS NULL), (-{key}){direction}, game, series, number, rarity)"
        for key in ("cost", "attack", "defense")
        for suffix, direction in (("up", " DESC"), ("down", ""))
    ),
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
    """CREATE VIRTUAL TABLE card_fts USING fts5(
        name, names, traits, text,
        content="card", content_rowid="id",
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    """CREATE TRIGGER card_fts_ai AFTER INSERT ON card BEGIN
        INSERT INTO card_fts(rowid, name, names, traits, text)
        VALUES (new.id, new.name, new.names, new.traits, new.text);
    END""",
    """CREATE TRIGGER card_fts_ad AFTER DELETE ON card BEGIN
        INSERT INTO card_fts(card_fts, rowid, name, names, traits, text)
        VALUES ('delete', old.id, old.name, old.names, old.traits, old.text);
    END""",
    """CREATE TRIGGER card_fts_au AFTER UPDATE ON card BEGIN
        INSERT INTO card_fts(card_fts, rowid, name, names, traits, text)
        VALUES ('delete', old.id, old.name, old.names, old.traits, old.text);
        INSERT INTO card_fts(rowid, name, names, traits, text)
        VALUES (new.id, new.name, new.names, new.traits, new.text);
    END""",
    "INSERT INTO card_fts(card_fts) VALUES ('rebuild')",
)


def _to_v5(conn: Connection) -> None:
    """Version 5 (cardbase 0.5, the real catalogue): a card is its series, rarity letter and
    number (`1 U 5` and `1 P 5` are two cards); cards have an artist and names in other
    languages, which the full-text index reads too. Cards keep their ids, so every copy,
    history row and deck line still points at its card."""
    for statement in _V5_CARD:
        conn.execute(statement)


def _to_v6(conn: Connection) -> None:
    """Version 6 (cardbase 0.6): PostgreSQL's full-text index drops accents, as this one's
    always did (`remove_diacritics`); a SQLite file has nothing to change."""


def _to_v7(conn: Connection) -> None:
    """Version 7 (cardbase 0.6): PostgreSQL drops the collation that imitated SQLite's
    COLLATE NOCASE, names now sorting by their folded keys on both engines; a SQLite file
    has nothing to change."""


_V8_EVENTS = (
    """CREATE TABLE event (
        id INTEGER NOT NULL,
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
        id INTEGER NOT NULL,
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
        id INTEGER NOT NULL,
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
        id INTEGER NOT NULL,
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


def _to_v8(conn: Connection) -> None:
    """Version 8 (cardbase 0.7): fan tournaments, their players and deck lists, rounds and
    tables with results; new tables only, so every old row stays as it was."""
    for statement in _V8_EVENTS:
        conn.execute(statement)


_V9_NEW_TABLES = (
    """CREATE TABLE deck_version (
        id INTEGER NOT NULL,
        deck_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        format VARCHAR NOT NULL,
        saved_at VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_deck_version_number UNIQUE (deck_id, number),
        FOREIGN KEY(deck_id) REFERENCES deck (id)
    )""",
    """CREATE TABLE deck_version_entry (
        id INTEGER NOT NULL,
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
    ) WITHOUT ROWID""",
    "CREATE INDEX ix_deck_sleeve_card ON deck_sleeve (card_id)",
    """CREATE TABLE event_report (
        id INTEGER NOT NULL,
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
)
# Every deck saved so far becomes its version 1, as it is now.
_V9_FIRST_VERSIONS = (
    "INSERT INTO deck_version (deck_id, number, format, saved_at) "
    "SELECT id, 1, format, updated_at FROM deck ORDER BY id",
    "INSERT INTO deck_version_entry (version_id, section, card_id, copies, line) "
    "SELECT v.id, e.section, e.card_id, e.copies, e.line FROM deck_entry AS e "
    "JOIN deck_version AS v ON v.deck_id = e.deck_id ORDER BY e.deck_id, e.line, e.id",
)
_V9_EVENT = """CREATE TABLE new_event (
        id INTEGER NOT NULL,
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
        lists_published BOOLEAN NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_event_name UNIQUE (name_key),
        CONSTRAINT ck_event_best_of CHECK (best_of IN (1, 3, 5)),
        CONSTRAINT ck_event_state CHECK (state IN ('registration', 'swiss', 'cut', 'finished'))
    )"""
_V9_EVENT_PLAYER = """CREATE TABLE new_event_player (
        id INTEGER NOT NULL,
        event_id INTEGER NOT NULL,
        name VARCHAR NOT NULL,
        name_key VARCHAR NOT NULL,
        deck VARCHAR,
        verdict VARCHAR,
        locked BOOLEAN NOT NULL,
        dropped_after INTEGER,
        entered_round INTEGER NOT NULL,
        registered_at VARCHAR NOT NULL,
        code VARCHAR NOT NULL,
        PRIMARY KEY (id),
        CONSTRAINT uq_event_player_name UNIQUE (event_id, name_key),
        CONSTRAINT uq_event_player_code UNIQUE (event_id, code),
        FOREIGN KEY(event_id) REFERENCES event (id)
    )"""
# Letters and digits nobody misreads on a slip (no 0/O, 1/I/L, 2/Z, 5/S, 8/B).
_V9_CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"


def v9_player_codes(count: int) -> list[str]:
    """`count` different six-character codes, one for each player of an event (frozen, as
    the steps are: PostgreSQL's version 9 draws them here too)."""
    import secrets

    codes: set[str] = set()
    while len(codes) < count:
        codes.add("".join(secrets.choice(_V9_CODE_ALPHABET) for _ in range(6)))
    return sorted(codes)


def _to_v9(conn: Connection) -> None:
    """Version 9 (cardbase 0.8): a deck's versions (each deck so far its version 1) and the
    copies sleeved in built decks; an event's lists published or not (not, so far), each
    player's code for reporting from a phone (drawn now for the players there are), and the
    results players sent. Runs with foreign keys off, as `_to_v3`."""
    for statement in (*_V9_NEW_TABLES, *_V9_FIRST_VERSIONS, _V9_EVENT, _V9_EVENT_PLAYER):
        conn.execute(statement)
    conn.execute("INSERT INTO new_event SELECT *, 0 FROM event")
    players = conn.execute("SELECT * FROM event_player ORDER BY event_id, id").fetchall()
    for event_id in sorted({row[1] for row in players}):
        theirs = [row for row in players if row[1] == event_id]
        for row, code in zip(theirs, v9_player_codes(len(theirs)), strict=True):
            conn.execute(f"INSERT INTO new_event_player VALUES ({', '.join('?' * 11)})",
                         (*row, code))  # fmt: skip
    for table in ("event_player", "event"):  # the referring table first
        conn.execute(f"DROP TABLE {table}")
    for table in ("event", "event_player"):
        conn.execute(f"ALTER TABLE new_{table} RENAME TO {table}")


_V10_CARD_VALUE = (
    """CREATE TABLE card_value (
        card_id INTEGER NOT NULL,
        field VARCHAR NOT NULL,
        number INTEGER,
        word VARCHAR,
        PRIMARY KEY (card_id, field),
        CONSTRAINT ck_card_value_one CHECK ((number IS NULL) <> (word IS NULL)),
        FOREIGN KEY(card_id) REFERENCES card (id)
    ) WITHOUT ROWID""",
    "CREATE INDEX ix_card_value_number ON card_value (field, number)",
    "CREATE INDEX ix_card_value_word ON card_value (field, word)",
)


def _to_v10(conn: Connection) -> None:
    """Version 10 (cardbase 0.9): a game's fields of names the card table has no column for
    (a number, a word of its list, a flag), a row of card_value each a card has; a new
    table, empty until a game's catalogue fills it, nothing altered."""
    for statement in _V10_CARD_VALUE:
        conn.execute(statement)


# MIGRATIONS[n] upgrades a database at schema version n - 1 to version n.
MIGRATIONS: dict[int, Callable[[Connection], None]] = {
    2: _to_v2, 3: _to_v3, 4: _to_v4, 5: _to_v5, 6: _to_v6, 7: _to_v7, 8: _to_v8,
    9: _to_v9, 10: _to_v10,
}  # fmt: skip
