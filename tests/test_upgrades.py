"""Databases made by every released schema version open, upgrade in place, and lose nothing."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from cardbase.db import connect as db
from cardbase.db import schema, tables
from tests.conftest import DATA, MINI_CATALOGUE

RELEASED = sorted(DATA.glob("schema-v*.db"))
KEPT_TABLES = ("card", "ownership", "batch", "history")


def rows(path: Path, table: str) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()


def shape(path: Path) -> set[tuple[str, str, str]]:
    """Every schema object, its SQL with whitespace and quoting folded away."""
    with sqlite3.connect(path) as conn:
        found = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        )
        return {(kind, name, re.sub(r"[\s\"]+", "", sql or "")) for kind, name, sql in found}


def test_every_version_before_this_one_has_a_fixture() -> None:
    versions = {int(path.stem.removeprefix("schema-v")) for path in RELEASED}
    assert versions == set(range(1, tables.SCHEMA_VERSION))


@pytest.mark.parametrize("fixture", RELEASED, ids=[p.stem for p in RELEASED])
def test_upgrade_keeps_everything(fixture: Path, tmp_path: Path) -> None:
    old = shutil.copy(fixture, tmp_path / fixture.name)
    before = {table: rows(Path(old), table) for table in KEPT_TABLES}
    # the fixture has something to lose
    assert before["ownership"]
    assert before["history"]
    conn = db.open_db(Path(old))
    assert conn.execute("PRAGMA user_version").fetchone()[0] == tables.SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    for table in KEPT_TABLES:
        assert rows(Path(old), table) == before[table], table
    fresh = tmp_path / "fresh.db"
    schema.prepare(fresh, MINI_CATALOGUE)
    assert shape(Path(old)) == shape(fresh)


def test_upgraded_database_works(tmp_path: Path) -> None:
    from tests.conftest import Run

    old = Path(shutil.copy(RELEASED[0], tmp_path / "old.db"))
    run = Run(old)
    assert run("add", "1 U 15").exit_code == 0
    assert "Chugawug Elder" in run("collection").stdout
    assert run("undo").exit_code == 0
    assert run("undo").stdout.startswith("Undid batch 2")  # the fixture's own history
