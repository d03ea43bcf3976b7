"""A cardbase schema on PostgreSQL: the same SQLModel tables, compiled for PostgreSQL, plus
what SQLite has built in and PostgreSQL spells otherwise.

- Full text: `card_fts` holds a `tsvector` per searched column (name, traits, text) and one
  of all three, with GIN indexes, kept in step with the card table by a trigger, as SQLite's
  FTS5 table is by its triggers. Stemming is PostgreSQL's English (Snowball), FTS5's is
  Porter: the same family, agreeing on the query table of the tests.
- Nothing imitating SQLite: what the engines spell otherwise (regular expressions, finding
  text in text, ordering text by its bytes) is the engine's (`PostgresEngine`). (Schemas
  before 7 made a `nocase` collation for SQLite's COLLATE NOCASE; upgrade 7 drops it.)
- The header SQLite keeps in its file (application id, schema version) is a row of
  `cardbase_meta`.

Everything is created, or upgraded from an older schema, in one transaction, under the
write lock, so two first runs at once make one schema and two upgrades at once one upgrade.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from cardbase.db import tables
from cardbase.db.ddl import create_statements
from cardbase.db.engine import Opener
from cardbase.db.location import PostgresUrl
from cardbase.db.postgres.connection import PgConnection, connect
from cardbase.db.postgres.fulltext import FTS_COLUMNS, TEXT_SEARCH_CONFIG, fts_vectors
from cardbase.db.postgres.upgrade import FIRST_VERSION, MIGRATIONS
from cardbase.errors import DatabaseError

META_TABLE = "cardbase_meta"
_FTS = tables.CARD_FTS_TABLE
_VECTORS = fts_vectors("new")
SUPPORT_DDL = (
    f"CREATE TABLE {META_TABLE} (key text PRIMARY KEY, value text NOT NULL)",
    # English's Snowball stemmer without its stop words (`tables.PG_TEXT_SEARCH`)
    f"CREATE TEXT SEARCH DICTIONARY {TEXT_SEARCH_CONFIG}_stem "
    "(TEMPLATE = snowball, LANGUAGE = english)",
    f"CREATE TEXT SEARCH CONFIGURATION {TEXT_SEARCH_CONFIG} (COPY = english)",
    f"ALTER TEXT SEARCH CONFIGURATION {TEXT_SEARCH_CONFIG} ALTER MAPPING FOR asciiword, "
    f"asciihword, hword_asciipart, word, hword, hword_part WITH {TEXT_SEARCH_CONFIG}_stem",
)
FTS_DDL = (
    f"""CREATE TABLE {_FTS} (
        id integer PRIMARY KEY REFERENCES {tables.CARD_TABLE} (id) ON DELETE CASCADE,
        name_v tsvector NOT NULL, traits_v tsvector NOT NULL, text_v tsvector NOT NULL,
        all_v tsvector GENERATED ALWAYS AS (name_v || traits_v || text_v) STORED
    )""",
    *(
        f"CREATE INDEX ix_{_FTS}_{vector} ON {_FTS} USING gin ({vector})"
        for vector in (*FTS_COLUMNS.values(), "all_v")
    ),
    f"""CREATE FUNCTION {_FTS}_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO {_FTS} (id, {', '.join(FTS_COLUMNS.values())}) VALUES (new.id, {_VECTORS})
        ON CONFLICT (id) DO UPDATE SET
            {', '.join(f'{v} = excluded.{v}' for v in FTS_COLUMNS.values())};
        RETURN NULL;
    END $$""",
    f"CREATE TRIGGER {tables.CARD_TABLE}_fts AFTER INSERT OR UPDATE ON {tables.CARD_TABLE} "
    f"FOR EACH ROW EXECUTE FUNCTION {_FTS}_sync()",
)  # fmt: skip


def _collector_views() -> list[str]:
    """The "my" views, made once: each reads the connection's collector from a session
    setting (`use_collector` sets it), so a standby, which allows no DDL, can serve them."""
    setting = f"current_setting('{tables.COLLECTOR_SETTING}', true)::integer"
    return [f"CREATE VIEW {view} AS {select}"
            for view, select in tables.collector_views(setting).items()]  # fmt: skip


def read_version(conn: PgConnection) -> int | None:
    """The schema version stamped in the database; None when it has no cardbase schema, and
    an error when its tables are somebody else's."""
    found = conn.execute("SELECT to_regclass(?) IS NOT NULL", (META_TABLE,)).fetchone()[0]
    if not found:
        others = conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchone()[0]
        if others:
            raise DatabaseError(
                f"{conn.url}: this database has tables, but not cardbase's; nothing was changed",
                "Give cardbase a database of its own (createdb cardbase)",
            )
        return None
    row = conn.execute(f"SELECT value FROM {META_TABLE} WHERE key = 'schema_version'").fetchone()
    if row is None or not str(row[0]).strip().lstrip("-").isdigit():
        raise DatabaseError(
            f"{conn.url}: its {META_TABLE} table holds no schema version cardbase can read "
            f"({'none' if row is None else repr(row[0])}); nothing was changed",
            "Give cardbase the database it made, or restore one with pg_restore",
        )
    return int(row[0])


def prepare(url: PostgresUrl, opener: Opener, catalogue: Path | None = None) -> None:
    """Create cardbase's schema, seeded by `opener` (from `catalogue`, or the one it
    chooses), unless the database has it already; upgrade an older schema
    (`cardbase.db.postgres.upgrade`), and refuse one newer than this code."""
    conn = connect(url)
    try:
        if read_version(conn) == tables.SCHEMA_VERSION:
            return
        conn.engine.begin_write(conn)  # the write lock: one first run creates it
        try:
            version = read_version(conn)
            if version is None:
                create_empty(conn)
                opener.seed(conn, catalogue)
            elif version > tables.SCHEMA_VERSION:
                raise DatabaseError(
                    f"{url}: made by a newer cardbase (schema {version}, this one knows "
                    f"{tables.SCHEMA_VERSION}); nothing was changed",
                    "Upgrade cardbase: pip install -U cardbase",
                )
            elif version < FIRST_VERSION:
                raise DatabaseError(  # 4 is the first PostgreSQL schema: none older exists
                    f"{url}: schema {version} is not one this cardbase made or can upgrade; "
                    "nothing was changed",
                    "Use the cardbase that made it",
                )
            elif version < tables.SCHEMA_VERSION:
                _upgrade(conn, url, version)
                opener.upgraded(conn, version)
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
    finally:
        conn.close()


def _upgrade(conn: PgConnection, url: PostgresUrl, version: int) -> None:
    """Bring a database of an older schema forward, step by step (`upgrade.MIGRATIONS`), and
    stamp it, inside the caller's transaction: a step that fails rolls back with the rest,
    which the message says, as it says when the URL's role may not alter the tables."""
    try:
        for target in range(version + 1, tables.SCHEMA_VERSION + 1):
            MIGRATIONS[target](conn)
        conn.execute(
            f"UPDATE {META_TABLE} SET value = ? WHERE key = 'schema_version'",
            (str(tables.SCHEMA_VERSION),),
        )
    except sqlite3.Error as exc:
        denied = getattr(exc.__cause__, "sqlstate", None) == "42501"
        raise DatabaseError(
            f"{url}: cannot upgrade the database from schema {version} to "
            f"{tables.SCHEMA_VERSION} ({exc}); nothing was changed",
            "Run cardbase once as the role that owns its tables, which upgrades it"
            if denied
            else None,
        ) from exc


def create_empty(conn: PgConnection) -> None:
    """The schema and its version row, inside the caller's transaction, with no row of the
    tables: not even the default collector, which a copy (`cardbase.db.copy`) brings with
    its id."""
    for statement in (
        *SUPPORT_DDL,
        *create_statements("postgresql"),
        *FTS_DDL,
        *_collector_views(),
    ):
        conn.execute(statement)
    conn.execute(
        f"INSERT INTO {META_TABLE} (key, value) VALUES ('schema_version', ?), "
        "('application_id', ?)",
        (str(tables.SCHEMA_VERSION), str(tables.APPLICATION_ID)),
    )
