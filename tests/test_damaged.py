"""Damaged and odd databases: every command says so in one line, writes refuse, doctor tells
what is wrong, and restore puts a backup back over any of them, checking it first."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from cardbase import maintenance
from cardbase.db import tables
from cardbase.db.health import damage as health
from cardbase.errors import DatabaseError
from cardbase.library import Library
from tests.helpers import Run, assert_one_line, copy_database, database_checksum

PAGE = 4096  # the page size of every database these tests make


def root_page(path: Path, name: str) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)
        ).fetchone()[0]


def garble_page(path: Path, page: int) -> None:
    """Overwrite a b-tree page's header, as a bad sector or a half-copied file would."""
    with open(path, "r+b") as file:
        file.seek((page - 1) * PAGE)
        file.write(b"\xff" * 8)


def damage(path: Path, kind: str) -> None:
    if kind == "header":
        with open(path, "r+b") as file:
            file.write(b"garbage garbage!")
    elif kind == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    else:
        name = {"card": "card", "index": "ix_card_name_key", "history": "history"}
        garble_page(path, root_page(path, name.get(kind, "card_fts_data")))


DAMAGE = ["card", "index", "history", "full-text", "header", "truncated"]
READS = [("search",), ("search", "chugawug"), ("show", "Chugawug Elder"), ("history",)]


@pytest.fixture
def used(run: Run) -> Run:
    """The mini database with a collection and its history, and a backup of it."""
    assert run("add", "1 U 15 x2", "1 C 14").exit_code == 0
    assert run("backup", str(run.db_path.with_name("good.db"))).exit_code == 0
    return run


def damaged_copy(used: Run, kind: str) -> Run:
    path = copy_database(used.db_path, used.db_path.with_name(f"{kind}.db"))
    damage(path, kind)
    return Run(path)


@pytest.mark.parametrize("kind", DAMAGE)
def test_reads_say_damaged_in_one_line_and_writes_refuse(used: Run, kind: str) -> None:
    run = damaged_copy(used, kind)
    before = run.db_path.read_bytes()
    for args in READS:
        result = run(*args)
        if result.exit_code != 0:  # a read that does not touch the damaged page works
            assert "damaged" in assert_one_line(result), args
    deck = run.db_path.with_name("deck.txt")
    deck.write_text("3 Chugawug Elder\n")
    for args in (("add", "1 C 41"), ("deck", "save", str(deck), "--name", "D")):
        stderr = assert_one_line(run(*args))
        assert "damaged" in stderr and "cardbase restore BACKUP" in stderr, args
    assert run.db_path.read_bytes() == before
    wal = Path(f"{run.db_path}-wal")  # in-process, a failed read's cursor outlives the command
    assert not wal.exists() or wal.stat().st_size == 0


@pytest.mark.parametrize("kind", DAMAGE)
def test_doctor_names_the_damage(used: Run, kind: str) -> None:
    run = damaged_copy(used, kind)
    result = run("doctor")
    assert "Traceback" not in result.output
    if result.exit_code == 2:  # the header or the schema table itself is unreadable
        assert "restore BACKUP" in assert_one_line(result)
    else:
        assert result.exit_code == 1, result.output
        assert "✘ integrity: damaged" in result.stdout


@pytest.mark.parametrize("kind", DAMAGE)
def test_restore_puts_a_backup_over_any_damage(used: Run, kind: str) -> None:
    run = damaged_copy(used, kind)
    damaged_bytes = run.db_path.read_bytes()
    good = used.db_path.with_name("good.db")
    result = run("restore", str(good))
    assert result.exit_code == 0, result.output
    kept = Path(result.stdout.split("kept as ")[1].strip())
    assert kept.read_bytes() == damaged_bytes
    assert database_checksum(run.db_path) == database_checksum(good)
    assert run("add", "1 C 41").exit_code == 0
    assert run("doctor").exit_code == 0


@pytest.mark.parametrize("kind", ["card", "truncated"])
def test_writes_refuse_damage_where_sqlite_has_no_dbstat(
    used: Run, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An SQLite built without the dbstat table checks pages with quick_check instead."""
    monkeypatch.setattr(health, "_WALK", "SELECT * FROM dbstat_not_built_in")
    run = damaged_copy(used, kind)
    assert "damaged" in assert_one_line(run("add", "1 C 41"))
    assert used("add", "1 C 41").exit_code == 0


def test_a_failed_write_is_mapped_in_the_library_too(used: Run) -> None:
    path = damaged_copy(used, "history").db_path
    with pytest.raises(DatabaseError, match="damaged"), Library(path).writing():
        pass


# -- the schema ---------------------------------------------------------------------------


def test_doctor_reports_missing_and_extra_schema(used: Run) -> None:
    with sqlite3.connect(used.db_path) as conn:
        conn.execute("DROP TABLE history")
        conn.execute("DROP TRIGGER card_fts_ai")
        conn.execute("CREATE TABLE notes (x)")
        conn.execute("ALTER TABLE deck ADD COLUMN colour TEXT")
    before = database_checksum(used.db_path)
    result = used("doctor")
    assert result.exit_code == 1
    line = next(line for line in result.stdout.splitlines() if line.startswith("✘ schema:"))
    for problem in (
        "missing table history",
        "missing index ix_history_batch",
        "missing trigger card_fts_ai",
        "extra table notes",
        "extra column deck.colour",
    ):
        assert problem in line
    stderr = assert_one_line(used("add", "1 C 41"))
    assert "missing: history, card_fts_ai" in stderr
    assert used("search", "chugawug").exit_code == 0  # reads still work
    assert database_checksum(used.db_path) == before


def test_doctor_on_a_healthy_database_checks_everything(used: Run) -> None:
    result = used("doctor", "-o", "json")
    assert result.exit_code == 0
    assert [finding["check"] for finding in __import__("json").loads(result.stdout)] == [
        "schema version",
        "integrity",
        "schema",
        "references",
        "collection totals",
        "full-text index",
    ]


def test_doctor_finds_totals_that_differ_from_the_copies(used: Run) -> None:
    used("add", "1 C 41 x2")
    with sqlite3.connect(used.db_path) as conn:
        conn.execute("UPDATE ownership SET nonfoil = 5")
    result = used("doctor", "-o", "json")
    assert result.exit_code == 1
    found = {f["check"]: f for f in __import__("json").loads(result.stdout)}
    assert not found["collection totals"]["ok"]
    assert "3 cards' totals differ" in found["collection totals"]["detail"]


# -- versions -----------------------------------------------------------------------------


def stamp(path: Path, version: int) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {version}")


@pytest.mark.parametrize("version", [-5, 0])
def test_an_unknown_version_is_one_line_for_every_command(used: Run, version: int) -> None:
    stamp(used.db_path, version)
    before = database_checksum(used.db_path)
    for args in (*READS, ("add", "1 C 41"), ("backup", str(used.db_path.with_name("b.db")))):
        stderr = assert_one_line(used(*args))
        assert f"schema version {version} is not one any cardbase made" in stderr
    doctor = used("doctor")
    assert doctor.exit_code == 1
    assert f"✘ schema version: {version} is not one" in doctor.stdout
    assert database_checksum(used.db_path) == before


def test_an_older_number_over_newer_tables_is_one_line(used: Run) -> None:
    stamp(used.db_path, 1)
    before = database_checksum(used.db_path)
    stderr = assert_one_line(used("search"))
    assert "cannot upgrade the database (table deck already exists)" in stderr
    doctor = used("doctor")
    assert "✘ schema: cannot be upgraded from version 1" in doctor.stdout
    assert database_checksum(used.db_path) == before


# -- restore checks the backup completely before it touches anything -------------------------


def bad_backups(used: Run) -> dict[str, Path]:
    """Backups that must never replace a database, each built from a good one."""
    good = used.db_path.with_name("good.db")
    made = {}
    for name, change in {
        "negative version": lambda c: c.execute("PRAGMA user_version = -5"),
        "old number, new tables": lambda c: c.execute("PRAGMA user_version = 1"),
        "newer": lambda c: c.execute(f"PRAGMA user_version = {tables.SCHEMA_VERSION + 1}"),
        "no history table": lambda c: c.execute("DROP TABLE history"),
        "not ours": lambda c: c.execute("PRAGMA application_id = 7"),
    }.items():
        path = copy_database(good, used.db_path.with_name(f"{name}.db"))
        with sqlite3.connect(path) as conn:
            change(conn)
        made[name] = path
    for kind in ("index", "full-text", "header"):
        made[kind] = copy_database(good, used.db_path.with_name(f"bad-{kind}.db"))
        damage(made[kind], kind)
    return made


def test_restore_refuses_a_bad_backup_and_keeps_the_database(used: Run) -> None:
    used("add", "1 C 41")  # the live database differs from every backup
    before = database_checksum(used.db_path)
    for name, backup in bad_backups(used).items():
        stderr = assert_one_line(used("restore", str(backup)))
        assert f"{backup}: not a usable cardbase backup" in stderr, name
        assert database_checksum(used.db_path) == before, name
    assert not list(used.db_path.parent.glob("*before-restore*"))
    assert not list(used.db_path.parent.glob(".*restoring*"))


def test_restore_upgrades_an_older_backup_on_the_copy(used: Run) -> None:
    from tests.test_upgrades import RELEASED

    result = used("restore", str(RELEASED[0]))
    assert result.exit_code == 0, result.output
    with sqlite3.connect(used.db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == tables.SCHEMA_VERSION
    assert used("doctor").exit_code == 0


def test_restore_keeps_the_old_files_wal_with_it(used: Run, tmp_path: Path) -> None:
    """The newest writes of the replaced database live in its -wal until a checkpoint: they
    go aside with it, and never reach the restored file."""
    holder = sqlite3.connect(used.db_path)  # keeps the -wal from being checkpointed away
    holder.execute("SELECT count(*) FROM card").fetchone()
    assert used("add", "1 C 41 x5").exit_code == 0
    assert Path(f"{used.db_path}-wal").stat().st_size > 0
    kept_rows = database_checksum(used.db_path)
    result = used("restore", str(used.db_path.with_name("good.db")))
    holder.close()
    assert result.exit_code == 0, result.output
    kept = Path(result.stdout.split("kept as ")[1].strip())
    assert database_checksum(kept) == kept_rows
    assert "5 non-foil" not in used("collection").stdout


def test_a_failed_swap_leaves_the_old_file_in_place(
    used: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = database_checksum(used.db_path)
    real_replace = os.replace

    def refuse_the_last_step(source, target) -> None:
        if str(source).endswith(".restoring"):
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(maintenance.os, "replace", refuse_the_last_step)
    used("add", "1 C 41")
    before = database_checksum(used.db_path)
    stderr = assert_one_line(used("restore", str(used.db_path.with_name("good.db"))))
    assert "cannot restore (No space left on device); nothing was changed" in stderr
    assert database_checksum(used.db_path) == before
    assert not list(used.db_path.parent.glob(".*restoring*"))


def test_backup_refuses_to_copy_a_damaged_database(used: Run) -> None:
    run = damaged_copy(used, "index")
    target = run.db_path.with_name("copy.db")
    stderr = assert_one_line(run("backup", str(target)))
    assert "damaged" in stderr and "no backup was written" in stderr
    assert not target.exists()
    assert not [p for p in run.db_path.parent.iterdir() if ".partial" in p.name]


@pytest.mark.slow
def test_a_full_disk_leaves_no_partial_file_and_the_old_database(used: Run, tmp_path: Path) -> None:
    """A real full disk (a 1 MB tmpfs in a private mount namespace, so root only)."""
    import shutil
    import subprocess
    import sys

    from tests.helpers import ROOT, subprocess_env

    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs root and unshare to mount a small disk")
    disk = tmp_path / "disk"
    disk.mkdir()
    good = used.db_path.with_name("good.db")
    before = database_checksum(used.db_path)
    # Room left for reading (SQLite's -shm file, 32 KiB), not for a copy of the database.
    size_kib = used.db_path.stat().st_size // 1024 + 48 + 64
    script = f"""
set -e
mount -t tmpfs -o size={size_kib}k tmpfs {disk}
cp {used.db_path} {disk}/live.db
head -c 65536 /dev/zero > {disk}/filler  # room to read, not to copy
set +e
for args in "backup {disk}/copy.db" "restore {good}"; do
    {sys.executable} -m cardbase --db {disk}/live.db $args 2>&1; echo "exit $?"
done
ls -a {disk}
{sys.executable} -c "import sqlite3; print(sqlite3.connect('{disk}/live.db').execute('SELECT count(*) FROM history').fetchone()[0])"
"""
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=subprocess_env(),
    )
    if "mount" in done.stderr:
        pytest.skip(f"cannot mount here: {done.stderr.strip()}")
    lines = done.stdout.splitlines()
    assert "cannot write the backup (database or disk is full)" in lines[0], done.stdout
    assert lines[1] == "exit 2"
    assert "cannot restore (database or disk is full); nothing was changed" in lines[2]
    assert lines[3] == "exit 2"
    assert sorted(lines[4:-1]) == [".", "..", "filler", "live.db"]
    with sqlite3.connect(used.db_path) as conn:
        history = conn.execute("SELECT count(*) FROM history").fetchone()[0]
    assert lines[-1] == str(history)
    assert database_checksum(used.db_path) == before
