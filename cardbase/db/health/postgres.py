"""The doctor on PostgreSQL: what cardbase can judge of a database on a server, read only.

Pages and indexes are the server's to keep (`pg_amcheck` checks them), and it enforces the
references itself; what cardbase checks is its own: the schema version, that every table,
column and index of the SQLModel tables is there, each collector's totals against their
copies, and the full-text vectors against the cards. `--fix` recomputes the vectors.
"""

from __future__ import annotations

from cardbase.db import tables
from cardbase.db.health.findings import RESTORE_HINT, Finding, collection_totals
from cardbase.db.location import PostgresUrl
from cardbase.db.postgres.connection import PgConnection, connect
from cardbase.db.postgres.fulltext import FTS_COLUMNS, fts_vector, fts_vectors
from cardbase.db.postgres.schema import META_TABLE, read_version

_FTS = tables.CARD_FTS_TABLE
_VECTORS = fts_vectors("c")
_STALE_VECTORS = (
    f"SELECT count(*) FROM {tables.CARD_TABLE} AS c LEFT JOIN {_FTS} AS f ON f.id = c.id "
    "WHERE f.id IS NULL OR "
    + " OR ".join(
        f"f.{vector} <> {fts_vector('c', column)}" for column, vector in FTS_COLUMNS.items()
    )
)
_REBUILD = (
    f"INSERT INTO {_FTS} (id, {', '.join(FTS_COLUMNS.values())}) "
    f"SELECT c.id, {_VECTORS} FROM {tables.CARD_TABLE} AS c ON CONFLICT (id) DO UPDATE SET "
    + ", ".join(f"{vector} = excluded.{vector}" for vector in FTS_COLUMNS.values())
)


def doctor(url: PostgresUrl, fix: bool = False) -> list[Finding]:
    """Each check's finding, in the order the SQLite doctor gives them."""
    conn = connect(url)
    try:
        version = read_version(conn)
        if version is None:
            return [
                Finding("schema version", False, f"no cardbase schema ({META_TABLE} is missing)")
            ]
        if version != tables.SCHEMA_VERSION:  # the other checks read this version's schema
            upgrade = (
                " (any other cardbase command upgrades it)"
                if version < tables.SCHEMA_VERSION
                else ""
            )
            return [Finding("schema version", False,
                     f"{version} (this cardbase: {tables.SCHEMA_VERSION}){upgrade}")]  # fmt: skip
        found = [
            Finding("schema version", version == tables.SCHEMA_VERSION,
             f"{version} (this cardbase: {tables.SCHEMA_VERSION})"),
            Finding(
                "integrity", True, "pages and indexes are the server's: pg_amcheck checks them"
            ),
            _schema(conn),
            Finding("references", True, "enforced by the server (its foreign keys: see schema)"),
            _on_postgres(collection_totals(conn)),  # the same SQL on both engines
            _fts(conn, fix),
        ]  # fmt: skip
        return found
    finally:
        conn.close()


def _on_postgres(finding: Finding) -> Finding:
    """A shared check's finding, its advice in this server's terms: `restore` copies files."""
    return finding._replace(
        detail=finding.detail.replace(RESTORE_HINT, "pg_restore puts a pg_dump in its place")
    )


def _schema(conn: PgConnection) -> Finding:
    from cardbase.db.models import TABLES

    columns = {
        (table, column)
        for table, column in conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema()"
        )
    }
    indexes = {row[0] for row in conn.execute(
        "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
    )}  # fmt: skip
    missing = [f"column {t.name}.{c.name}" for t in TABLES for c in t.columns
               if (t.name, c.name) not in columns]  # fmt: skip
    missing += [f"index {i.name}" for t in TABLES for i in t.indexes if i.name not in indexes]
    missing += [f"table {_FTS}"] if (_FTS, "all_v") not in columns else []
    missing += [f"index {name}" for name in _FTS_INDEXES if name not in indexes]
    keys = {f"{t.name}_{key.parent.name}_fkey" for t in TABLES for key in t.foreign_keys}
    missing += _missing_rules(conn, keys | {f"{_FTS}_id_fkey"})
    if missing:
        return Finding("schema", False, f"missing {', '.join(missing)}")
    return Finding("schema", True, "every table, column and index as this cardbase makes them")


_FTS_INDEXES = [f"ix_{_FTS}_{vector}" for vector in (*FTS_COLUMNS.values(), "all_v")]


def _missing_rules(conn: PgConnection, foreign_keys: set[str]) -> list[str]:
    """The trigger that keeps the search vectors, and the foreign keys (by the names
    PostgreSQL gives them), where they are gone: the server enforces only what it still has."""
    trigger = f"{tables.CARD_TABLE}_fts"
    found = conn.execute(
        "SELECT count(*) FROM pg_trigger WHERE tgname = ? AND NOT tgisinternal", (trigger,)
    ).fetchone()[0]
    present = {row[0] for row in conn.execute(
        "SELECT conname FROM pg_constraint WHERE contype = 'f' "
        "AND connamespace = current_schema()::regnamespace"
    )}  # fmt: skip
    missing = [] if found else [f"trigger {trigger}"]
    return missing + [f"foreign key {name}" for name in sorted(foreign_keys - present)]


def _fts(conn: PgConnection, fix: bool) -> Finding:
    stale = int(conn.execute(_STALE_VECTORS).fetchone()[0])
    if not stale:
        return Finding("full-text index", True, "in sync with the card table")
    if not fix:
        return Finding(
            "full-text index",
            False,
            f"{stale} cards' vectors out of date; --fix rebuilds them",
        )
    conn.engine.begin_write(conn)
    try:
        conn.execute(_REBUILD)
        conn.execute(f"DELETE FROM {_FTS} WHERE id NOT IN (SELECT id FROM {tables.CARD_TABLE})")
        conn.commit()
    except BaseException:
        conn.rollback()
        raise
    return Finding("full-text index", True, f"rebuilt {stale} cards' vectors from the card table")
