"""Hostile files (issue 14): each gets one line, exit 2, nothing changed, in bounded time and
memory, from every command that reads files. Bombs are built here, small on disk; the peak
memory of a `python -m cardbase` child is read from getrusage in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import hostile_builders as hostile
from tests.conftest import ROOT, Run, database_checksum, subprocess_env

CORPUS = Path(__file__).parent / "corpus"
HOSTILE = [
    "far-cell.xlsx",
    "shared-text-bomb.xlsx",
    "lying-zip.xlsx",
    "repeat-bomb.ods",
    "huge-dimensions.xls",
    "far-cell.xls",
    "looping-sectors.xls",
    "wide-header.csv",
    "late-nul.csv",
    "nul-bytes.csv",
    "xml-bomb.xlsx",
]
READERS = {
    "import": ("import", "{file}"),
    "import --dry-run": ("import", "--dry-run", "{file}"),
    "catalog import": ("catalog", "import", "{file}"),
    "deck check": ("deck", "check", "{file}"),
    "deck stats": ("deck", "stats", "{file}"),
    "deck save": ("deck", "save", "{file}", "--name", "Hostile"),
    "trade match": ("trade", "match", "{file}"),
}
MAX_RSS_KB = 300_000
MAX_SECONDS = 5.0
MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
print(json.dumps({"code": done.returncode, "stderr": done.stderr.decode(errors="replace"),
                  "seconds": time.perf_counter() - start,
                  "rss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def assert_one_line(result, db_path: Path, before: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.stderr
    assert result.stderr.startswith("cardbase: ") and result.stderr.count("\n") == 1
    assert database_checksum(db_path) == before


@pytest.mark.parametrize("command", READERS)
def test_every_reader_refuses_every_hostile_file(run: Run, command: str) -> None:
    before = database_checksum(run.db_path)
    for name in HOSTILE:
        args = [part.format(file=CORPUS / name) for part in READERS[command]]
        start = time.perf_counter()
        result = run(*args)
        assert time.perf_counter() - start < MAX_SECONDS, name
        assert_one_line(result, run.db_path, before)


def measured(db_path: Path, *args: str, stdin: Path | None = None) -> dict:
    """Exit code, stderr, seconds and peak RSS of `python -m cardbase --db DB ARGS`."""
    command = [sys.executable, "-m", "cardbase", "--db", str(db_path), *args]
    if stdin is not None:
        command = ["sh", "-c", 'exec "$@" < "$0"', str(stdin), *command]
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *command],
        capture_output=True,
        cwd=ROOT,
        env=subprocess_env(),
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def assert_bounded(db_path: Path, *args: str, stdin: Path | None = None) -> str:
    before = database_checksum(db_path)
    outcome = measured(db_path, *args, stdin=stdin)
    assert outcome["code"] == 2, outcome
    assert outcome["stderr"].startswith("cardbase: ") and outcome["stderr"].count("\n") == 1
    assert outcome["seconds"] < MAX_SECONDS, outcome
    assert outcome["rss_kb"] < MAX_RSS_KB, outcome
    assert database_checksum(db_path) == before
    return outcome["stderr"]


@pytest.mark.parametrize(
    "command", [("import", "{file}"), ("deck", "check", "{file}"), ("trade", "match", "{file}")]
)
def test_a_cell_at_xfd1048576_is_one_line_not_an_abort(
    db_path: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    path = hostile.far_cell(tmp_path / "far.xlsx")
    assert path.stat().st_size < 6_000
    message = assert_bounded(db_path, *(part.format(file=path) for part in command))
    assert "a cell at XFD1048576, past column 256 (IV) or row 501,000" in message


@pytest.mark.slow
@pytest.mark.parametrize("megabytes", [1_100, 3_200])
def test_zip_bombs_are_refused_by_what_the_zip_states(
    db_path: Path, tmp_path: Path, megabytes: int
) -> None:
    path = hostile.cell_bomb(tmp_path / "bomb.xlsx", megabytes)
    assert path.stat().st_size < 4_000_000
    message = assert_bounded(db_path, "import", str(path))
    assert "is more than a part of a workbook holds (at most 128,000,000)" in message


@pytest.mark.slow
def test_a_row_bomb_is_refused_by_trade_match(db_path: Path, tmp_path: Path) -> None:
    path = hostile.row_bomb(tmp_path / "rows.xlsx", 1_048_575)
    message = assert_bounded(db_path, "trade", "match", str(path))
    assert "a cell at A501001" in message


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
def test_a_shared_text_used_by_every_cell_is_measured_as_copied(
    db_path: Path, tmp_path: Path
) -> None:
    path = hostile.shared_text_bomb(tmp_path / "shared.xlsx", 100_000, 30_000)
    message = assert_bounded(db_path, "import", str(path))
    assert "each shared text counted once for every cell that uses it" in message


def test_a_part_longer_than_its_zip_entry_says_is_damaged(run: Run, tmp_path: Path) -> None:
    result = run("import", str(hostile.lying_part(tmp_path / "lying.xlsx")))
    assert "damaged (not as long as the zip directory says)" in result.stderr


@pytest.mark.parametrize("name", ["huge-dimensions.xls", "far-cell.xls", "looping-sectors.xls"])
def test_old_xls_files_are_checked_before_calamine(db_path: Path, name: str) -> None:
    assert_bounded(db_path, "import", str(CORPUS / name))


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
@pytest.mark.parametrize("command", [("import",), ("catalog", "import"), ("deck", "check")])
def test_devices_pipes_and_folders_are_refused_unread(
    db_path: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)  # nobody writes to it: reading it would block for ever
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    zero = tmp_path / "zero.csv"
    zero.symlink_to("/dev/zero")  # endless: it was read to 4 GB and counting
    for path, kind in ((zero, "a device"), (fifo, "a pipe"), (folder, "a folder")):
        message = assert_bounded(db_path, *command, str(path))
        if command == ("deck", "check") and kind == "a folder":
            # the tournament desk's folder of decks; a pipe or device in it is not read
            os.symlink(zero, folder / "zero.txt")
            os.mkfifo(folder / "pipe.txt")
            assert "no deck files" in assert_bounded(db_path, *command, str(path))
            continue
        assert f"not a regular file: it is {kind}" in message


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
def test_a_million_column_header_is_refused_quickly(db_path: Path, tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_bytes(b",".join(b"c%d" % n for n in range(1_000_000)) + b"\nx\n")
    assert "row 1 has 1,000,000 columns" in assert_bounded(db_path, "import", str(path))


def test_a_nul_byte_anywhere_in_a_csv_is_refused(run: Run) -> None:
    result = run("import", str(CORPUS / "late-nul.csv"))
    assert "a NUL byte at byte 6,809" in result.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        ("1 U 132 x2\n" + "x" * 10_000_000, "more than 1,000,000 bytes"),
        ("1 U 132 x2\n" + "x" * 5_000 + "\n", "line 2: 5,000 characters"),
    ],
    ids=["10 MB line", "5,000-character line"],
)
def test_pasted_items_are_read_within_a_cap(
    db_path: Path, tmp_path: Path, content: str, message: str
) -> None:
    pasted = tmp_path / "pasted.txt"
    pasted.write_text(content)
    assert message in assert_bounded(db_path, "add", "-", stdin=pasted)


def test_add_from_dev_zero_stops_at_the_cap(db_path: Path) -> None:
    assert "more than 1,000,000 bytes" in assert_bounded(
        db_path, "add", "-", stdin=Path("/dev/zero")
    )


CATALOGUE_HEADER = "code,name,type,hero,sphere,traits,cost,attack,defense,gems,text,lore\n"


def test_control_characters_are_a_row_error_in_a_catalogue(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "escape.csv"
    path.write_text(
        CATALOGUE_HEADER + "3 C 5,Bell \x1b[31mRinger,Trick,,Order,,1,,,Y,,\n"
        '3 C 6,Quiet Bell,Trick,,Order,,1,,,Y,"Ring\tthe bell,\nthen ring again",\n'
    )
    before = database_checksum(run.db_path)
    result = run("catalog", "import", str(path))
    assert result.exit_code == 2
    assert "row 2: name has the control character U+001B at character 6" in result.stderr
    assert database_checksum(run.db_path) == before
    skipped = run("catalog", "import", str(path), "--skip-bad")
    assert skipped.exit_code == 0, skipped.output  # a tab and a line break are text
    assert "1 added" in skipped.stdout


def test_a_cell_longer_than_excel_allows_is_a_row_error(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "long.csv"
    path.write_text("Name,Qty\n" + "Chugawug " * 4_000 + ",1\nChugawug Elder,1\n")
    result = run("import", str(path))
    assert result.exit_code == 2
    assert "row 2: column 1 has 36,000 characters, more than a spreadsheet cell" in result.stderr
