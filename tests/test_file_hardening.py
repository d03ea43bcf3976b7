"""Files an adversarial pass broke cardbase with: names that are not UTF-8, folders and sheets
it may not read, text in two encodings, a full disk, Scryfall's language codes and scrydex's
Set beside Set Name. Each ends as the project's rule says: the command works, or one line on
stderr, exit 2, nothing changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT, Run, database_checksum, subprocess_env
from tests.test_hostile_files import assert_one_line
from tests.test_sheet_holdings import holdings

DECK = "40 Chugawug Cook\n"


def _name(folder: Path, raw: bytes) -> Path:
    """A path under `folder` whose last part is `raw`, bytes that need not be UTF-8."""
    return Path(os.fsdecode(os.path.join(os.fsencode(folder), raw)))


def _works(result, *shown: str) -> None:
    """The command ran (exit 0, or 1 for a deck that is not valid) and printed the names."""
    assert result.exit_code in (0, 1), result.output
    assert "internal error" not in result.output, result.output
    for text in shown:
        assert text in result.output, result.output


def test_file_names_that_are_not_utf8_are_shown_escaped(run: Run, tmp_path: Path) -> None:
    assert run("add", "1 C 14").exit_code == 0
    sheet, book = _name(tmp_path, b"out\xff.csv"), _name(tmp_path, b"out\xff.xlsx")
    _works(run("export", str(sheet)), "out\\xff.csv: 1 card written")
    _works(run("export", str(book)), "out\\xff.xlsx")
    assert os.path.exists(os.fsencode(tmp_path) + b"/out\xff.csv")
    _works(run("import", "--dry-run", str(sheet)), "out\\xff.csv")
    _works(run("import", str(sheet), "--output", "json"))
    _works(run("import", str(book)), "out\\xff.xlsx")
    history = run("history", "--output", "json")
    assert "\\\\xff" in history.stdout or history.exit_code != 0
    missing = run("import", str(_name(tmp_path, b"gone\xff.csv")))
    assert missing.exit_code == 2 and "gone\\xff.csv" in missing.stderr


def test_deck_and_trade_files_with_names_not_utf8(run: Run, tmp_path: Path) -> None:
    folder = _name(tmp_path, b"decks\xff")
    folder.mkdir()
    (folder / os.fsdecode(b"ada\xe9.txt")).write_text(DECK, encoding="utf-8")
    _works(run("deck", "check", str(folder)), "decks\\xff/ada\\xe9.txt")
    report = _name(tmp_path, b"desk\xff.xlsx")
    _works(run("deck", "check", str(folder), "--report", str(report)))
    assert report.exists()
    _works(run("deck", "check", str(folder / os.fsdecode(b"ada\xe9.txt"))))
    for suffix in (b".xlsx", b".csv"):
        target = _name(tmp_path, b"trades\xff" + suffix)
        _works(run("trade", "export", str(target)), "trades\\xff")
        assert target.exists()


def test_a_folder_that_cannot_be_listed_is_one_line(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root reads any folder, so the refusal a user would meet is made here."""
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "ada.txt").write_text(DECK, encoding="utf-8")
    listing = Path.iterdir

    def refuse(self: Path):
        if self == folder:
            raise PermissionError(13, "Permission denied", str(self))
        return listing(self)

    monkeypatch.setattr(Path, "iterdir", refuse)
    before = database_checksum(run.db_path)
    result = run("deck", "check", str(folder))
    assert_one_line(result, run.db_path, before)
    assert "locked: cannot read the folder (Permission denied)" in result.stderr


def test_an_unreadable_sheet_is_one_line_not_a_usage_block(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a user (not root) meets: os.access says no, and so does opening the file."""
    sheet = tmp_path / "locked.csv"
    sheet.write_text("Name,Count\nChugawug Cook,1\n", encoding="utf-8")
    access, opening = os.access, os.open
    monkeypatch.setattr(
        os, "access", lambda p, mode, **k: False if Path(p) == sheet else access(p, mode, **k)
    )

    def refuse(path, *args, **kwargs):
        if Path(os.fsdecode(path)) == sheet:
            raise PermissionError(13, "Permission denied", str(path))
        return opening(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    before = database_checksum(run.db_path)
    for args in (("import", str(sheet)), ("trade", "match", str(sheet))):
        result = run(*args)
        assert_one_line(result, run.db_path, before)
        assert "Usage:" not in result.output
        assert "locked.csv: cannot read the file (Permission denied)" in result.stderr


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("Name,Count,Note\nChugawug Cook,1,café\n".encode()
         + "Old Mossbeard,1,crème\n".encode("cp1252"), "line 2 is UTF-8 text but line 3"),
        ("Name,Count,Note\n".encode("cp1252") + "Old Mossbeard,1,crème\n".encode("cp1252")
         + "Chugawug Cook,1,café\n".encode(), "line 3 is UTF-8 text but line 2"),
    ],
)  # fmt: skip
def test_text_in_two_encodings_is_refused_naming_the_line(
    run: Run, tmp_path: Path, content: bytes, said: str
) -> None:
    sheet = tmp_path / "mixed.csv"
    sheet.write_bytes(content)
    before = database_checksum(run.db_path)
    result = run("import", str(sheet))
    assert_one_line(result, run.db_path, before)
    assert said in result.stderr


def test_one_encoding_throughout_still_reads(run: Run, tmp_path: Path) -> None:
    """Valid UTF-8 is taken as it says, even text like "cafÃ©", which a note may hold."""
    (tmp_path / "typed.csv").write_text("Code,Count,Note\n1 U 15,1,cafÃ©\n", encoding="utf-8")
    assert run("import", str(tmp_path / "typed.csv")).exit_code == 0
    for encoding in ("utf-8", "cp1252"):
        sheet = tmp_path / f"{encoding}.csv"
        sheet.write_bytes("Code,Count,Note\n1 C 14,1,crème brûlée\n".encode(encoding))
        result = run("import", str(sheet), "--output", "json")
        assert result.exit_code == 0, result.output
    notes = {note for _, (_, note) in holdings(run.db_path).items()}
    assert notes == {"crème brûlée", "cafÃ©"}


# Writes to the temporary file an export fills fail once some bytes are in: a full disk.
FULL_DISK = """
import errno, io, sys, types, zipfile
ROOM = int(sys.argv[1])

class Full:
    def __init__(self, handle):
        self.handle, self.room = handle, ROOM
    def write(self, data):
        if len(data) > self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(data)
        return self.handle.write(data)
    def __getattr__(self, name):
        return getattr(self.handle, name)

class FullIo(types.ModuleType):
    def __getattr__(self, name):
        return getattr(io, name)
    @staticmethod
    def open(file, mode="r", *args, **kwargs):
        handle = io.open(file, mode, *args, **kwargs)
        return Full(handle) if "w" in mode and str(file).endswith(".partial") else handle

zipfile.io = FullIo("io")
sys.argv = ["cardbase", *sys.argv[2:]]
from cardbase.cli import main
main()
"""


@pytest.mark.parametrize(
    "command",
    [
        ("export", "{tmp}/c.xlsx"),
        ("trade", "export", "{tmp}/t.xlsx"),
        ("deck", "check", "{tmp}/decks", "--report", "{tmp}/r.xlsx"),
        ("deck", "export", "Stew", "{tmp}/d.xlsx"),
    ],
)
@pytest.mark.parametrize("room", [0, 2_000])
def test_a_full_disk_is_one_line_and_nothing_after_it(
    run: Run, tmp_path: Path, command: tuple[str, ...], room: int
) -> None:
    assert run("add", "1 C 14").exit_code == 0
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "ada.txt").write_text(DECK, encoding="utf-8")
    assert run("deck", "save", str(tmp_path / "decks" / "ada.txt"), "--name", "Stew").exit_code == 0
    args = [part.format(tmp=tmp_path) for part in command]
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(room), "--db", str(run.db_path), *args],
        capture_output=True, text=True, cwd=ROOT, env=subprocess_env(), timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "the disk is full; free some space and try again" in done.stderr
    assert not any(name.endswith(".xlsx") for name in os.listdir(tmp_path))


def test_scryfalls_language_codes_import(run: Run, tmp_path: Path) -> None:
    """TopDecked writes Scryfall's codes; each reads as the tag cardbase stores."""
    codes = {"en": "en", "zhs": "zh-Hans", "zht": "zh-Hant", "ph": "x-ph", "grc": "grc",
             "la": "la", "sa": "sa", "he": "he", "ar": "ar", "qya": "qya", "ja": "ja"}  # fmt: skip
    lines = ["QUANTITY,NAME,SETCODE,SETNAME,COLLECTOR NUMBER,FINISH,LANG,CONDITION"]
    lines += [f"1,Chugawug Elder,1,Series 1,15,nonfoil,{code},near mint" for code in codes]
    sheet = tmp_path / "topdecked.csv"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("import", str(sheet), "--output", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["problems"] == []
    assert {key[3] for key in holdings(run.db_path)} == set(codes.values())
    shown = run("collection", "lang:ph", "--output", "json")
    assert shown.exit_code == 0 and "Chugawug Elder" in shown.stdout, shown.output


def test_set_beside_set_name_reads_the_code_as_the_series(run: Run, tmp_path: Path) -> None:
    """scrydex's default export: Set is the code, Set Name its name, read where it is blank."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["Name", "Set", "Set Name", "Collector Number", "Quantity"])
    sheet.append(["Chugawug Elder", "1", "Series 1", "15", 2])
    sheet.append(["Chugawug Cook", "2", "Wrong Name", "101", 1])
    book.save(tmp_path / "scrydex.xlsx")
    result = run("import", str(tmp_path / "scrydex.xlsx"), "--output", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["sheets"][0]["columns"]["Set"] == "series"
    assert "Set Name" in report["sheets"][0]["ignored"]
    found = {key[0]: copies for key, (copies, _) in holdings(run.db_path).items()}
    assert found == {"1 U 15": 2, "2 C 101": 1}


def test_an_error_line_shows_a_names_bytes_as_ls_does(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The one-line error of any command, not just the sheet commands, writes a byte of a
    file name that is not UTF-8 as \\xff, never as the surrogate Python holds it as."""
    deck = Path(os.fsdecode(os.fsencode(str(tmp_path)) + b"/d\xff.txt"))
    deck.write_text("3 Nonexistent Card Zzz\n")
    result = run("deck", "save", str(deck), "--name", "x")
    assert result.exit_code == 2
    assert "d\\xff.txt" in result.output
    assert "\\udcff" not in result.output
