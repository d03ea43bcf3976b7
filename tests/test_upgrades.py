"""Databases made by every released schema version open, upgrade in place, and lose nothing."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from cardbase.db import schema, tables
from cardbase.library import Library
from tests.helpers import DATA, MINI_CATALOGUE

RELEASED = sorted(DATA.glob("schema-v*.db"))
PLAIN = ("NM", "en", "", "")  # what every old copy becomes: Near Mint, English, nowhere, untagged


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


def expected_v3(before: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The rows a v1 or v2 database must have after the upgrade: one collector, 1 ('me'),
    owning every copy as a plain holding; every batch and history row kept, now theirs."""
    holdings = sorted(
        (1, card_id, finish, *PLAIN, copies, "")
        for card_id, nonfoil, foil in before["ownership"]
        for finish, copies in (("nonfoil", nonfoil), ("foil", foil))
        if copies
    )
    return {
        "card": before["card"],
        "ownership": [(1, *row) for row in before["ownership"] if row[1] + row[2]],
        "holding": holdings,
        "batch": [(batch_id, 1, *rest) for batch_id, *rest in before["batch"]],
        "history": [(*row[:4], *PLAIN, row[4], None) for row in before["history"]],
        "deck": [(deck_id, 1, *rest) for deck_id, *rest in before.get("deck", [])],
        "deck_entry": before.get("deck_entry", []),
    }


@pytest.mark.parametrize("fixture", RELEASED, ids=[p.stem for p in RELEASED])
def test_upgrade_keeps_everything(fixture: Path, tmp_path: Path) -> None:
    old = Path(shutil.copy(fixture, tmp_path / fixture.name))
    with sqlite3.connect(old) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    tables_then = ("card", "collector", "ownership", "holding", "batch", "history", "deck")
    events_then = ("event_round", "event_pairing")  # event and event_player gain columns (9)
    kept = [table for table in (*tables_then, "deck_entry", *events_then) if table in names]
    before = {table: rows(old, table) for table in kept}
    if "event" in names:
        before["event"] = rows(old, "event")
        before["event_player"] = rows(old, "event_player")
    since_v9 = ("deck_version", "deck_version_entry", "deck_sleeve", "event_report")
    kept_v9 = {table: rows(old, table) for table in since_v9 if table in names}
    # the fixture has something to lose
    assert before["ownership"]
    assert before["history"]
    conn = Library(old).connect()
    assert conn.execute("PRAGMA user_version").fetchone()[0] == tables.SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()
    # Before collectors (v3), every copy becomes the default collector's; since, rows stay.
    expected = dict(before if "holding" in before else expected_v3(before))
    # Cards gained an artist and names in other languages (v5): empty for the old cards.
    if len(before["card"][0]) < len(rows(old, "card")[0]):
        expected["card"] = [(*row, "", "") for row in before["card"]]
    for table, wanted in expected.items():
        if table in ("event", "event_player"):
            continue  # gained columns: `_check_v9`
        found = rows(old, table)
        if table == "holding":
            found, wanted = sorted(found), sorted(wanted)
        assert found == wanted, table
    if "collector" not in before:
        with sqlite3.connect(old) as conn:
            assert conn.execute("SELECT id, name, is_default FROM collector").fetchall() == [
                (1, "me", 1)
            ]
    if "event" not in before:  # new in 8
        for table in ("event", "event_player", "event_round", "event_pairing"):
            assert rows(old, table) == [], table
    if kept_v9:  # a database of version 9 or later keeps those rows as they are
        assert {table: rows(old, table) for table in kept_v9} == kept_v9
        assert all(kept_v9.values())  # the fixture had them to lose
    else:
        _check_v9(before, old)
    assert rows(old, "card_value") == []  # new in 10: a game's own fields, none yet
    fresh = tmp_path / "fresh.db"
    schema.prepare(fresh, Library(fresh), MINI_CATALOGUE)
    assert shape(old) == shape(fresh)


def _check_v9(before: dict[str, list[tuple]], old: Path) -> None:
    """Version 9: each deck is its version 1, as it was; no copies are sleeved; events keep
    every value, their lists unpublished; each player has a code, unlike the others'."""
    with sqlite3.connect(old) as conn:
        versions = conn.execute(
            "SELECT deck_id, number, format, saved_at FROM deck_version ORDER BY deck_id"
        ).fetchall()
        entries = conn.execute(
            "SELECT v.deck_id, e.section, e.card_id, e.copies, e.line FROM deck_version_entry "
            "AS e JOIN deck_version AS v ON v.id = e.version_id ORDER BY v.deck_id, e.line"
        ).fetchall()
    decks = before.get("deck", [])
    assert versions == [(row[0], 1, row[-3], row[-1]) for row in decks]
    assert entries == [(row[1], *row[2:]) for row in before.get("deck_entry", [])]
    assert rows(old, "deck_sleeve") == rows(old, "event_report") == []
    if "event" in before:
        assert rows(old, "event") == [(*row, 0) for row in before["event"]]
        players = rows(old, "event_player")
        assert [row[:-1] for row in players] == before["event_player"]
        codes = [row[-1] for row in players]
        assert len(set(codes)) == len(codes) and all(re.fullmatch(r"[A-Z0-9]{6}", c) for c in codes)


def test_upgraded_database_works(tmp_path: Path) -> None:
    from tests.helpers import Run

    old = Path(shutil.copy(RELEASED[0], tmp_path / "old.db"))
    run = Run(old)
    assert run("add", "1 U 15").exit_code == 0
    assert "Chugawug Elder" in run("collection").stdout
    assert run("undo").exit_code == 0
    assert ", batch 2), " in run("undo").stdout.splitlines()[0]  # the fixture's own history
