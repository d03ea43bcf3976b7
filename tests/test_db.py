"""The database file: creation, the header that marks it ours, versions, one source of names."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardbase.db import connect as db
from cardbase.db import schema, tables
from cardbase.db.header import read_header
from cardbase.db.models import BatchRow, CardRow, DeckEntryRow, DeckRow, HistoryRow, OwnershipRow
from cardbase.errors import DatabaseError
from tests.conftest import MINI_CATALOGUE


@pytest.mark.parametrize(
    ("model", "columns"),
    [
        (CardRow, tables.CARD_COLUMNS),
        (OwnershipRow, tables.OWNERSHIP_COLUMNS),
        (BatchRow, tables.BATCH_COLUMNS),
        (HistoryRow, tables.HISTORY_COLUMNS),
        (DeckRow, tables.DECK_COLUMNS),
        (DeckEntryRow, tables.DECK_ENTRY_COLUMNS),
    ],
)
def test_models_and_read_side_share_column_names(model, columns) -> None:
    assert tuple(model.__table__.columns.keys()) == columns


def test_cards_read_by_position_match_their_columns_by_name(conn: sqlite3.Connection) -> None:
    """card_from_row unpacks by position; every column must land in the field of its name."""
    from cardbase.catalog.cards import SELECT_CARDS, card_from_row

    conn.execute("INSERT INTO ownership (card_id, nonfoil, foil) VALUES (1, 2, 3)")
    plain = ("id", "game", "name", "type", "sphere", "cost", "attack", "defense", "gems",
             "text", "lore", "nonfoil", "foil")  # fmt: skip
    for row in conn.execute(SELECT_CARDS):
        card = card_from_row(row)
        assert {name: getattr(card, name) for name in plain} == {name: row[name] for name in plain}
        assert card.code == (row["series"], row["rarity"], row["number"])
        assert (card.hero, ", ".join(card.traits)) == (bool(row["hero"]), row["traits"])
        assert str(card.code) == f"{row['series']} {row['rarity']} {row['number']}"


def test_new_database_is_stamped_and_loaded(db_path: Path) -> None:
    conn = db.connect(db_path)
    app_id, version, _ = read_header(conn, db_path)
    assert (app_id, version) == (tables.APPLICATION_ID, tables.SCHEMA_VERSION)
    assert conn.execute("SELECT count(*) FROM card").fetchone()[0] == 22
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    fts = conn.execute("SELECT count(*) FROM card_fts WHERE card_fts MATCH 'chugawug'").fetchone()[
        0
    ]
    assert fts == 4


def test_open_db_creates_a_missing_file_with_the_bundled_catalogue(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "new.db"
    conn = db.open_db(path)
    assert conn.execute("SELECT count(*) FROM card").fetchone()[0] >= 240


def test_prepare_twice_is_harmless(tmp_path: Path) -> None:
    path = tmp_path / "twice.db"
    schema.prepare(path, MINI_CATALOGUE)
    schema.prepare(path, MINI_CATALOGUE)
    assert db.open_db(path).execute("SELECT count(*) FROM card").fetchone()[0] == 22


def test_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("this is not sqlite" * 100)
    with pytest.raises(DatabaseError, match="not a cardbase database"):
        db.open_db(path)
    assert path.read_text().startswith("this is not sqlite")


def test_refuses_somebody_elses_database(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE stuff (x)")
    with pytest.raises(DatabaseError, match="not a cardbase one"):
        db.open_db(path)


def test_refuses_a_database_from_a_newer_cardbase(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {tables.SCHEMA_VERSION + 1}")
    with pytest.raises(DatabaseError, match="newer cardbase"):
        db.open_db(db_path)


def test_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="is a folder"):
        db.open_db(tmp_path)


def test_db_path_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDBASE_DB", str(tmp_path / "env.db"))
    assert db.resolve_db_path(str(tmp_path / "opt.db")) == tmp_path / "opt.db"
    assert db.resolve_db_path(None) == tmp_path / "env.db"
    monkeypatch.delenv("CARDBASE_DB")
    assert db.resolve_db_path(None).name == "cardbase.db"


def test_a_database_that_cannot_be_created_is_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardbase.cli import app

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    for path in (blocker / "sub" / "x.db", Path("/proc/cardbase-test.db")):
        result = CliRunner().invoke(app, ["--db", str(path), "search"])
        assert result.exit_code == 2, result.output
        assert len(result.stderr.strip().splitlines()) == 1
        assert str(path) in result.stderr
