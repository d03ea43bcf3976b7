"""The schema's DDL: the tables and indexes compiled from the SQLModel models, and the
full-text index with the triggers that keep it in step with the card table.

Used to create a database (`cardbase.db.schema`) and to hold an existing one against what it
should be (`cardbase.db.health.damage`), so both compare with the same statements.
"""

from __future__ import annotations

from cardbase.db import tables

_FTS = tables.CARD_FTS_TABLE
_CARD = tables.CARD_TABLE
_FTS_COLUMNS = ", ".join(tables.FTS_COLUMNS)
_NEW = ", ".join("new." + c for c in tables.FTS_COLUMNS)
_OLD = ", ".join("old." + c for c in tables.FTS_COLUMNS)
# The triggers that keep the full-text index in step with the card table.
FTS_TRIGGERS = (f"{_CARD}_fts_ai", f"{_CARD}_fts_ad", f"{_CARD}_fts_au")
FTS_DDL = (
    f"""CREATE VIRTUAL TABLE {_FTS} USING fts5(
        {_FTS_COLUMNS},
        content="{_CARD}", content_rowid="id",
        tokenize='porter unicode61 remove_diacritics 2'
    )""",
    f"""CREATE TRIGGER {FTS_TRIGGERS[0]} AFTER INSERT ON {_CARD} BEGIN
        INSERT INTO {_FTS}(rowid, {_FTS_COLUMNS}) VALUES (new.id, {_NEW});
    END""",
    f"""CREATE TRIGGER {FTS_TRIGGERS[1]} AFTER DELETE ON {_CARD} BEGIN
        INSERT INTO {_FTS}({_FTS}, rowid, {_FTS_COLUMNS}) VALUES ('delete', old.id, {_OLD});
    END""",
    f"""CREATE TRIGGER {FTS_TRIGGERS[2]} AFTER UPDATE ON {_CARD} BEGIN
        INSERT INTO {_FTS}({_FTS}, rowid, {_FTS_COLUMNS}) VALUES ('delete', old.id, {_OLD});
        INSERT INTO {_FTS}(rowid, {_FTS_COLUMNS}) VALUES (new.id, {_NEW});
    END""",
)


def create_statements(engine: str = "sqlite") -> list[str]:
    """The DDL of every table and index, compiled from the SQLModel models for SQLite or
    PostgreSQL (`engine`)."""
    from sqlalchemy.dialects import postgresql, sqlite
    from sqlalchemy.schema import CreateIndex, CreateTable

    from cardbase.db.models import TABLES

    dialect = postgresql.dialect() if engine == "postgresql" else sqlite.dialect()
    statements = []
    for table in TABLES:
        statements.append(str(CreateTable(table).compile(dialect=dialect)))
        statements += [str(CreateIndex(index).compile(dialect=dialect)) for index in table.indexes]
    return statements
