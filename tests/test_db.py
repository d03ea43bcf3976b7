"""The database file: creation, the header that marks it ours, versions, one source of names."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from cardbase.db import connect as db
from cardbase.db import location, schema, tables
from cardbase.db.models import (
    CARD,
    BatchRow,
    DeckEntryRow,
    DeckRow,
    DeckSleeveRow,
    DeckVersionEntryRow,
    DeckVersionRow,
    EventPairingRow,
    EventPlayerRow,
    EventReportRow,
    EventRoundRow,
    EventRow,
    HistoryRow,
    OwnershipRow,
)
from cardbase.db.stamp import read_header
from cardbase.errors import DatabaseError
from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE


@pytest.mark.parametrize(
    ("model", "columns"),
    [
        (CARD, tables.CARD_COLUMNS),
        (OwnershipRow, tables.OWNERSHIP_COLUMNS),
        (BatchRow, tables.BATCH_COLUMNS),
        (HistoryRow, tables.HISTORY_COLUMNS),
        (DeckRow, tables.DECK_COLUMNS),
        (DeckEntryRow, tables.DECK_ENTRY_COLUMNS),
        (DeckVersionRow, tables.DECK_VERSION_COLUMNS),
        (DeckVersionEntryRow, tables.DECK_VERSION_ENTRY_COLUMNS),
        (DeckSleeveRow, tables.DECK_SLEEVE_COLUMNS),
        (EventRow, tables.EVENT_COLUMNS),
        (EventPlayerRow, tables.EVENT_PLAYER_COLUMNS),
        (EventRoundRow, tables.EVENT_ROUND_COLUMNS),
        (EventPairingRow, tables.EVENT_PAIRING_COLUMNS),
        (EventReportRow, tables.EVENT_REPORT_COLUMNS),
    ],
)
def test_models_and_read_side_share_column_names(model, columns) -> None:
    table = getattr(model, "__table__", model)  # the card table is made from the registry
    assert tuple(table.columns.keys()) == columns


def test_cards_read_by_position_match_their_columns_by_name(conn: sqlite3.Connection) -> None:
    """card_from_row unpacks by position; every column must land in the field of its name."""
    from cardbase.catalog.cards import SELECT_CARDS, card_from_row

    conn.execute("INSERT INTO ownership (collector_id, card_id, nonfoil, foil) VALUES (1, 1, 2, 3)")
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


def test_open_db_creates_a_missing_file_with_the_real_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARDBASE_CATALOGUE")
    conn = Library(tmp_path / "new.db").connect()
    assert conn.execute("SELECT count(*) FROM card").fetchone()[0] == 707


def test_a_new_database_takes_the_catalogue_the_environment_names(tmp_path: Path) -> None:
    # the tests' own setting (tests/conftest.py): the sample, whose cards they were written for
    conn = Library(tmp_path / "new.db").connect()
    assert conn.execute("SELECT count(*) FROM card").fetchone()[0] == 254


def test_prepare_twice_is_harmless(tmp_path: Path) -> None:
    path = tmp_path / "twice.db"
    schema.prepare(path, Library(path), MINI_CATALOGUE)
    schema.prepare(path, Library(path), MINI_CATALOGUE)
    assert Library(path).connect().execute("SELECT count(*) FROM card").fetchone()[0] == 22


def test_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("this is not sqlite" * 100)
    with pytest.raises(DatabaseError, match="not a cardbase database"):
        Library(path).connect()
    assert path.read_text().startswith("this is not sqlite")


def test_refuses_somebody_elses_database(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE stuff (x)")
    with pytest.raises(DatabaseError, match="not a cardbase one"):
        Library(path).connect()


def test_refuses_a_database_from_a_newer_cardbase(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {tables.SCHEMA_VERSION + 1}")
    with pytest.raises(DatabaseError, match="newer cardbase"):
        Library(db_path).connect()


def test_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="is a folder"):
        Library(tmp_path).connect()


def test_db_path_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDBASE_DB", str(tmp_path / "env.db"))
    assert location.resolve_db_path(str(tmp_path / "opt.db")) == tmp_path / "opt.db"
    assert location.resolve_db_path(None) == tmp_path / "env.db"
    monkeypatch.delenv("CARDBASE_DB")
    assert location.resolve_db_path(None).name == "cardbase.db"


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


# -- where a database may be ----------------------------------------------------------------


def one_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stderr.count("\n") == 1
    return result.stderr


def test_a_typed_path_into_a_missing_folder_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A typo in --db or CARDBASE_DB must not quietly start a new, empty collection."""
    from typer.testing import CliRunner

    from cardbase.cli import app

    monkeypatch.chdir(tmp_path)
    typo = Path("nope/a/b/x.db")
    stderr = one_line(CliRunner().invoke(app, ["--db", str(typo), "add", "1 U 15"]))
    assert f"{typo}: the folder {typo.parent} does not exist; nothing was created" in stderr
    monkeypatch.setenv("CARDBASE_DB", str(tmp_path / "gone" / "x.db"))
    assert "does not exist" in one_line(CliRunner().invoke(app, ["search"]))
    assert list(tmp_path.iterdir()) == []


def test_only_regular_files_are_opened(tmp_path: Path) -> None:
    """SQLite would "open" /dev/null and leave a /dev/null-journal; a pipe would hang."""
    from typer.testing import CliRunner

    from cardbase.cli import app

    pipe = tmp_path / "pipe.db"
    os.mkfifo(pipe)
    journal_before = Path("/dev/null-journal").exists()
    for path in (Path("/dev/null"), pipe):
        for args in (["search"], ["add", "1 U 15"], ["doctor"], ["restore", str(pipe)]):
            stderr = one_line(CliRunner().invoke(app, ["--db", str(path), *args]))
            assert "is not a regular file" in stderr, args
    assert Path("/dev/null-journal").exists() == journal_before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.db"]


# -- a database cardbase may only read ----------------------------------------------------


def not_writable(monkeypatch: pytest.MonkeyPatch, *paths: Path) -> None:
    """What os.access says for a read-only folder; the tests run as root, whom chmod does not
    stop (test_a_read_only_folder_for_real mounts one)."""
    real = os.access
    monkeypatch.setattr(db.os, "access", lambda p, mode: real(p, mode) and Path(p) not in paths)


def test_a_read_only_folder_is_read_from_the_file_alone(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.helpers import Run

    not_writable(monkeypatch, db_path.parent)
    assert db.read_only_query(db_path) == "immutable=1"
    run = Run(db_path)
    assert run("search", "chugawug", "--count").stdout.strip() == "4"
    doctor = run("doctor")
    assert doctor.exit_code == 0, doctor.output  # no false "out of sync" alarm
    stderr = one_line(run("add", "1 U 15"))
    assert "cannot write to the database, but its folder is read-only" in stderr
    Path(f"{db_path}-wal").write_bytes(b"")  # a writer elsewhere: read its -wal too
    assert db.read_only_query(db_path) == "mode=ro"


def test_a_read_only_file_is_opened_read_only(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_writable(monkeypatch, db_path)
    assert db.read_only_query(db_path) == "mode=ro"
    conn = Library(db_path).connect()
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("DELETE FROM ownership")
    with pytest.raises(DatabaseError, match="the file is read-only"), Library(db_path).writing():
        pass


READ_ONLY_DRIVER = """
import json, subprocess, sys
path, runs = sys.argv[1], []
for args in (["search", "chugawug", "--count"], ["show", "1 U 15"], ["doctor"],
             ["add", "1 U 15"], ["backup", sys.argv[2]]):
    done = subprocess.run([sys.executable, "-m", "cardbase", "--db", path, *args],
                          capture_output=True, text=True)
    runs.append([args[0], done.returncode, done.stdout, done.stderr])
print(json.dumps(runs))
"""


@pytest.mark.slow
def test_a_read_only_folder_for_real(db_path: Path, tmp_path_factory) -> None:
    """Root ignores permissions, so as root the folder is a read-only bind mount in a private
    mount namespace (unshare); as anyone else, chmod."""
    import json
    import shutil
    import subprocess
    import sys

    from tests.helpers import ROOT, subprocess_env

    folder = db_path.parent
    copy = tmp_path_factory.mktemp("elsewhere") / "copy.db"
    driver = [sys.executable, "-c", READ_ONLY_DRIVER, str(db_path), str(copy)]
    if os.geteuid() == 0:
        if not shutil.which("unshare"):
            pytest.skip("needs unshare to make a read-only folder as root")
        mount = f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder}"
        command = ["unshare", "-m", "sh", "-c", f'{mount} && exec "$@"', "sh", *driver]
    else:
        folder.chmod(0o555)
        command = driver
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=ROOT, env=subprocess_env()
        )
    finally:
        folder.chmod(0o755)
    if done.returncode != 0 and "mount" in done.stderr:
        pytest.skip(f"cannot mount here: {done.stderr.strip()}")
    runs = {name: (code, out, err) for name, code, out, err in json.loads(done.stdout)}
    assert runs["search"][:2] == (0, "4\n")
    assert runs["show"][0] == 0 and "Chugawug Elder" in runs["show"][1]
    assert runs["doctor"][0] == 0, runs["doctor"]
    assert runs["add"][0] == 2 and "its folder is read-only" in runs["add"][2]
    assert runs["backup"][0] == 0 and copy.is_file()
    assert sorted(p.name for p in folder.iterdir()) == ["mini.db"]


# -- a writer waits for another ------------------------------------------------------------


def hold_write_lock(path: Path, seconds: float) -> sqlite3.Connection:
    """Another command's write, released after `seconds` from another thread."""
    import threading

    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute(
        "INSERT INTO batch (collector_id, created_at, source, undone) VALUES (1, 'now', 'bulk', 0)"
    )
    if seconds:
        threading.Timer(seconds, lambda: holder.execute("COMMIT")).start()
    return holder


def test_a_writer_says_once_that_it_waits_then_writes(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    monkeypatch.setattr(db, "WAIT_NOTICE_SECONDS", 0.1)
    heard: list[str] = []
    monkeypatch.setattr(db, "_notice", [heard.append])
    hold_write_lock(db_path, 0.8)
    start = time.monotonic()
    with Library(db_path).writing() as conn:
        conn.execute(
            "INSERT INTO batch (collector_id, created_at, source, undone) VALUES (1, 'now', 'add', 0)"
        )
    assert time.monotonic() - start >= 0.7
    assert heard == [db.WAITING]
    with sqlite3.connect(db_path) as conn:
        assert [r[0] for r in conn.execute("SELECT source FROM batch")] == ["bulk", "add"]


def test_a_writer_gives_up_after_the_longest_wait_in_one_line(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db, "WAIT_NOTICE_SECONDS", 0.1)
    monkeypatch.setattr(db, "WRITE_WAIT_SECONDS", 0.5)
    holder = hold_write_lock(db_path, 0)
    still = "another command was still writing after"
    with pytest.raises(DatabaseError, match=still), Library(db_path).writing():
        pass
    holder.execute("ROLLBACK")


HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO batch (collector_id, created_at, source, undone) VALUES (1, 'now', 'bulk', 0)")
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


@pytest.mark.slow
def test_adds_wait_out_a_bulk_write_longer_than_the_busy_timeout(db_path: Path) -> None:
    """During a 23 s catalogue import, adds failed with "database is locked" after about
    11 s (the busy timeout); now they wait, say so once, and all count."""
    import subprocess
    import sys
    import time

    from cardbase.db.sqlite import BUSY_TIMEOUT_MS
    from tests.helpers import ROOT, subprocess_env

    held = BUSY_TIMEOUT_MS / 1000 + 2
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db_path), str(held)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
    start = time.monotonic()
    adds = [
        subprocess.Popen(
            [sys.executable, "-m", "cardbase", "--db", str(db_path), "add", "1 U 15"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=subprocess_env(),
        )
        for _ in range(3)
    ]
    for add in adds:
        err = add.communicate(timeout=120)[1]
        assert add.returncode == 0, err
        assert err == f"cardbase: {db.WAITING}\n"
    assert time.monotonic() - start >= held - 1
    assert holder.wait(timeout=30) == 0
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT nonfoil FROM ownership").fetchall() == [(3,)]


@pytest.mark.slow
def test_ctrl_c_stops_a_waiting_writer_at_once(db_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    from tests.helpers import ROOT, subprocess_env

    holder = hold_write_lock(db_path, 0)
    add = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "--db", str(db_path), "add", "1 U 15"],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=subprocess_env(),
    )
    time.sleep(db.WAIT_NOTICE_SECONDS + 1.5)
    start = time.monotonic()
    add.send_signal(signal.SIGINT)
    err = add.communicate(timeout=30)[1]
    assert time.monotonic() - start < 2
    assert add.returncode == 130
    assert err == f"cardbase: {db.WAITING}\ncardbase: interrupted; nothing was changed\n"
    holder.execute("ROLLBACK")
