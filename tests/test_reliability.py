"""Bad input never crashes or corrupts; a killed import loses nothing; concurrent adds all count."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardbase.db import schema
from cardbase.library import Library
from tests.helpers import (
    MINI_CATALOGUE,
    ROOT,
    Run,
    copy_database,
    database_checksum,
    subprocess_env,
)

CORPUS = Path(__file__).parent / "corpus"
SPREADSHEETS = sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".xlsx", ".csv"))
FILE_LEVEL = {  # whole-file problems: exactly one line
    "truncated.xlsx",
    "random-bytes.xlsx",
    "password-protected.xlsx",
    "xml-bomb.xlsx",
    "wrong-headers.xlsx",
    "duplicate-headers.csv",
    "empty-sheet.xlsx",
    "no-cards.csv",
    "nul-bytes.csv",
}


def assert_refused(result, checksum_before: str, db_path: Path, one_line: bool = True) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.startswith("cardbase: ")
    if one_line:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert database_checksum(db_path) == checksum_before


@pytest.mark.parametrize("name", SPREADSHEETS)
def test_bad_spreadsheets_are_refused_and_change_nothing(run: Run, name: str) -> None:
    run("add", "1 U 15 x2")
    before = database_checksum(run.db_path)
    for mode in ("add", "replace"):
        result = run("import", str(CORPUS / name), "--mode", mode)
        assert_refused(result, before, run.db_path, one_line=name in FILE_LEVEL)


def test_the_corpus_is_complete() -> None:
    assert {
        "truncated.xlsx",
        "random-bytes.xlsx",
        "password-protected.xlsx",
        "xml-bomb.xlsx",
        "duplicate-headers.csv",
        "merged-header.xlsx",
        "formulas.xlsx",
        "utf16.csv",
        "latin1.csv",
        "bom.csv",
        "empty-sheet.xlsx",
    } <= set(SPREADSHEETS)


@pytest.mark.parametrize("name", ["binary-deck.txt", "empty-deck.txt"])
def test_bad_deck_files(run: Run, name: str) -> None:
    before = database_checksum(run.db_path)
    assert_refused(run("deck", "check", str(CORPUS / name)), before, run.db_path)


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    path.write_bytes((CORPUS / "not-a-database.db").read_bytes())
    result = Run(path)("search")
    assert result.exit_code == 2
    assert "not a cardbase database" in result.stderr
    assert path.read_bytes() == (CORPUS / "not-a-database.db").read_bytes()


@pytest.mark.parametrize(
    "code", ["1 X 132", "", "0 U 1", "1 U", "1/u/", "banana", "1 U 132 7", "99999999 C 1", "1 C 0"]
)
def test_bad_codes(run: Run, code: str) -> None:
    before = database_checksum(run.db_path)
    assert_refused(run("code", code), before, run.db_path)
    assert_refused(run("add", f"{code} x2") if code else run("add", " "), before, run.db_path)


@pytest.mark.parametrize(
    "query",
    [
        "sphere:chaoss",
        "cost>>2",
        "atk:x..3",
        "(t:creature",
        "colour:red",
        "r>p",
        "name:/[/",
        "-",
        "or",
        "cost:",
        '!"',
        "\x00",
        "order:-",
        "gem:zz",
    ],
)
def test_bad_queries(run: Run, query: str) -> None:
    before = database_checksum(run.db_path)
    result = run("search", query)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("cardbase: ")
    assert len(lines) == 1 or lines[-1].strip().startswith("^")
    assert database_checksum(run.db_path) == before


def test_a_one_megabyte_cell(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_text("Name,Qty\n" + "Chugawug " * 120_000 + ",1\n")
    before = database_checksum(run.db_path)
    start = time.perf_counter()
    result = run("import", str(path))
    assert time.perf_counter() - start < 20
    assert_refused(result, before, run.db_path, one_line=False)
    assert len(result.stderr) < 1000


@pytest.mark.slow
def test_a_million_rows(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    path.write_text("Name,Qty\n" + "Chugawug Elder,1\n" * 1_000_000)
    before = database_checksum(run.db_path)
    result = run("import", str(path))
    assert_refused(result, before, run.db_path)
    assert "more than 500,000 rows, which is more than a collection sheet holds" in result.stderr


# -- crash safety -------------------------------------------------------------------------

IMPORT_ROWS = 30_000


def _collection(conn_path: Path) -> list[tuple]:
    with sqlite3.connect(conn_path) as conn:
        return conn.execute(
            "SELECT card_id, nonfoil, foil FROM ownership ORDER BY card_id"
        ).fetchall()


@pytest.mark.slow
def test_killed_imports_leave_before_or_after(tmp_path: Path) -> None:
    base = tmp_path / "base.db"
    schema.prepare(base, Library(base))
    Run(base)("add", "Chugawug Cook x2", "1 U 132 foil")
    with sqlite3.connect(base) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM card ORDER BY id")]
    rng = random.Random(9)
    sheet = tmp_path / "big.csv"
    sheet.write_text(
        "Name,Qty,Foil\n"
        + "".join(
            f"{rng.choice(names)},{rng.randint(1, 3)},{rng.randint(0, 1)}\n"
            for _ in range(IMPORT_ROWS)
        )
    )
    command = [sys.executable, "-m", "cardbase", "--db", "{db}", "import", str(sheet)]
    finished = copy_database(base, tmp_path / "finished.db")
    start = time.perf_counter()
    subprocess.run(
        [part.format(db=finished) for part in command],
        check=True,
        capture_output=True,
        cwd=ROOT,
        env=subprocess_env(),
    )
    duration = time.perf_counter() - start
    before, after = _collection(base), _collection(finished)
    assert before != after
    outcomes = set()
    for attempt in range(20):
        target = copy_database(base, tmp_path / f"kill-{attempt}.db")
        process = subprocess.Popen(
            [part.format(db=target) for part in command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
            env=subprocess_env(),
        )
        time.sleep(rng.uniform(0.05, duration * 1.1))
        process.send_signal(signal.SIGKILL)
        process.wait()
        with sqlite3.connect(target) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        state = _collection(target)
        assert state in (before, after), f"attempt {attempt}: a state between before and after"
        outcomes.add("after" if state == after else "before")
        for leftover in tmp_path.glob(f"kill-{attempt}.db*"):
            leftover.unlink()
    assert "before" in outcomes  # the kills did land mid-import


# -- concurrency --------------------------------------------------------------------------

ADDS_PER_WORKER = 200
WORKER = """
import sys
from cardbase.cli import main
path, code = sys.argv[1], sys.argv[2]
for _ in range({adds}):
    sys.argv = ["cardbase", "--db", path, "add", code]
    try:
        main()
    except SystemExit as exit:
        if exit.code:
            sys.exit(f"add failed with exit code {{exit.code}}")
"""


@pytest.mark.slow
def test_four_processes_adding_at_once_all_count(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    schema.prepare(path, Library(path), MINI_CATALOGUE)
    codes = ["1 U 15", "1 C 41", "1 U 15", "1 E 162"]
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER.format(adds=ADDS_PER_WORKER), str(path), code],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=subprocess_env(),
        )
        for code in codes
    ]
    for worker in workers:
        _, errors = worker.communicate(timeout=300)
        assert worker.returncode == 0, errors.decode()[-2000:]
        assert b"locked" not in errors
    with sqlite3.connect(path) as conn:
        counts = dict(
            conn.execute(
                "SELECT c.series || ' ' || c.rarity || ' ' || c.number, o.nonfoil FROM ownership o "
                "JOIN card c ON c.id = o.card_id"
            )
        )
        batches = conn.execute("SELECT count(*) FROM batch").fetchone()[0]
    assert counts == {
        "1 U 15": 2 * ADDS_PER_WORKER,
        "1 C 41": ADDS_PER_WORKER,
        "1 E 162": ADDS_PER_WORKER,
    }
    assert batches == 4 * ADDS_PER_WORKER


# -- backup, restore, doctor --------------------------------------------------------------


def test_backup_restore_and_doctor(run: Run, tmp_path: Path) -> None:
    run("add", "1 U 15 x2")
    copy = tmp_path / "backup.db"
    assert run("backup", str(copy)).exit_code == 0
    assert run("backup", str(copy)).exit_code == 2  # never overwrites without --force
    run("add", "1 U 15 x5")
    restored = run("restore", str(copy))
    assert restored.exit_code == 0
    assert "kept as" in restored.stdout
    assert "2 cards (2 non-foil" in run("collection").stdout
    kept = next(tmp_path.glob("mini.before-restore-*.db"))
    assert "7 cards" in Run(kept)("collection").stdout
    assert run("doctor").exit_code == 0
    with sqlite3.connect(run.db_path) as conn:
        conn.execute("INSERT INTO card_fts(card_fts) VALUES ('delete-all')")
    broken = run("doctor")
    assert broken.exit_code == 1
    assert "full-text index: out of sync" in broken.stdout
    assert run("doctor", "--fix").exit_code == 0
    assert run("doctor").exit_code == 0
    assert run("search", "chugawug", "--count").stdout.strip() == "4"


def test_restore_refuses_what_is_not_a_cardbase_backup(run: Run, tmp_path: Path) -> None:
    before = database_checksum(run.db_path)
    for bad in (CORPUS / "not-a-database.db", MINI_CATALOGUE, tmp_path / "missing.db"):
        assert_refused(run("restore", str(bad)), before, run.db_path)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    assert_refused(run("restore", str(other)), before, run.db_path)
