"""Files cardbase writes: one boundary for every command (refuse, write beside, replace,
report in one line), and cells that are always text."""

from __future__ import annotations

import errno
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook

from cardbase.catalog.cards import Card
from cardbase.fileio import writing
from cardbase.sheets import exporter
from tests.helpers import (
    FORMULA_NAME,
    MINI_CATALOGUE,
    Run,
    assert_one_line,
    copy_database,
    formula_database,
    new_database,
)

ROOT = Path(__file__).parent.parent
DECK = "3 Pixie Dewdancer\n1 Chugawug Cook\n"


@pytest.fixture
def decked(run: Run, tmp_path: Path) -> Run:
    """The mini catalogue with a saved deck 'Bog' and a collection to trade from."""
    deck = tmp_path / "deck.txt"
    deck.write_text(DECK)
    assert run("deck", "save", str(deck), "--name", "Bog").exit_code == 0
    assert run("add", "Chugawug Elder x5").exit_code == 0
    return run


@pytest.fixture(scope="module")
def builder_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled catalogue, owning enough Chaos cards and Heroes for `deck build`."""
    path = tmp_path_factory.mktemp("build") / "build.db"
    new_database(path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO ownership (collector_id, card_id, nonfoil) "
            "SELECT 1, id, CASE WHEN hero THEN 1 ELSE 3 END FROM card "
            "WHERE sphere = 'Chaos' OR hero"
        )
    return path


@pytest.fixture
def builder(builder_db: Path, tmp_path: Path) -> Run:
    return Run(copy_database(builder_db, tmp_path / "build.db"))


def leftovers(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.partial"))


# -- every command that writes a file -------------------------------------------------------

WRITERS = {
    "export csv": ("export", "{path}.csv"),
    "export xlsx": ("export", "--catalogue", "{path}.xlsx"),
    "trade export csv": ("trade", "export", "{path}.csv"),
    "trade export xlsx": ("trade", "export", "{path}.xlsx"),
    "deck export txt": ("deck", "export", "Bog", "{path}.txt"),
    "deck export xlsx": ("deck", "export", "Bog", "{path}.xlsx"),
    "deck sheet": ("deck", "sheet", "Bog", "{path}.xlsx", "--player", "Ada"),
    "backup": ("backup", "{path}.db"),
}


def command(name: str, path: Path) -> tuple[list[str], Path]:
    args = [arg.format(path=path) for arg in WRITERS[name]]
    return args, Path(next(arg for arg in args if arg.startswith(str(path))))


@pytest.mark.parametrize("name", [n for n in WRITERS if n != "backup"])
def test_a_missing_folder_is_one_line(decked: Run, tmp_path: Path, name: str) -> None:
    args, target = command(name, tmp_path / "missing" / "out")
    stderr = assert_one_line(decked(*args))
    assert f"{target}: the folder {target.parent} does not exist" in stderr
    assert not target.parent.exists()


def test_backup_makes_its_folder(decked: Run, tmp_path: Path) -> None:
    args, target = command("backup", tmp_path / "new" / "out")
    assert decked(*args).exit_code == 0 and target.is_file()


def test_a_refused_backup_makes_no_folder(tmp_path: Path) -> None:
    target = tmp_path / "new" / "out.db"
    result = Run(tmp_path / "none.db")("backup", str(target))
    assert "no database here to back up" in assert_one_line(result)
    assert not target.parent.exists()


def test_deck_build_into_a_missing_folder_is_one_line(builder: Run, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "chaos.txt"
    result = builder("deck", "build", "--sphere", "chaos", "--out", str(target))
    assert f"{target}: the folder" in assert_one_line(result)


@pytest.mark.parametrize("name", WRITERS)
def test_an_existing_file_is_refused_in_the_same_words(
    decked: Run, tmp_path: Path, name: str
) -> None:
    args, target = command(name, tmp_path / "out")
    target.write_bytes(b"keep me")
    stderr = assert_one_line(decked(*args))
    assert stderr == f"cardbase: {target}: the file exists; add --force to overwrite it\n"
    assert target.read_bytes() == b"keep me"
    assert decked(*args, "--force").exit_code == 0
    assert target.read_bytes() != b"keep me" and not leftovers(tmp_path)


@pytest.mark.parametrize("name", ["export csv", "deck export xlsx", "deck sheet"])
def test_a_folder_or_a_wrong_kind_of_file_is_refused(
    decked: Run, tmp_path: Path, name: str
) -> None:
    args, target = command(name, tmp_path / "out")
    target.mkdir()
    assert f"{target}: is a folder" in assert_one_line(decked(*args, "--force"))
    wrong = target.with_suffix(".ods")
    result = decked(*[str(wrong) if arg == str(target) else arg for arg in args])
    assert f"{wrong}: can write " in assert_one_line(result) and not wrong.exists()


# -- a write that fails, is interrupted or killed -------------------------------------------


@pytest.mark.parametrize("name", WRITERS)
def test_a_full_disk_is_one_line_and_keeps_the_old_file_for_every_writer(
    decked: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    def disk_full(path: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    args, target = command(name, tmp_path / "out")
    target.write_bytes(b"keep me")
    monkeypatch.setattr(writing, "_flush_to_disk", disk_full)
    assert assert_one_line(decked(*args, "--force")) == (
        f"cardbase: {target}: cannot write the file "
        "(the disk is full; free some space and try again); nothing was written\n"
    )
    assert target.read_bytes() == b"keep me" and not leftovers(tmp_path)


def failing_rows(monkeypatch: pytest.MonkeyPatch, error: BaseException, after: int = 5) -> None:
    """Make the export's row maker fail part of the way through the rows."""
    real = exporter.card_row
    made = []

    def card_row(card: Card, with_text: bool) -> list[Any]:
        made.append(card)
        if len(made) > after:
            raise error
        return real(card, with_text)

    monkeypatch.setattr(exporter, "card_row", card_row)


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_failing_export_keeps_the_old_file(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    target = tmp_path / f"cards{suffix}"
    assert run("export", "--catalogue", str(target)).exit_code == 0
    before = target.read_bytes()
    failing_rows(monkeypatch, RuntimeError("a bug"))
    result = run("export", "--catalogue", str(target), "--force")
    assert result.exit_code == 70 and "internal error" in result.stderr
    assert target.read_bytes() == before and not leftovers(tmp_path)


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_full_disk_mid_export_leaves_no_file_and_keeps_the_old_one(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    old, new = tmp_path / f"old{suffix}", tmp_path / f"new{suffix}"
    old.write_bytes(b"a good file")
    failing_rows(monkeypatch, OSError(errno.ENOSPC, "No space left on device"))
    for target in (old, new):
        stderr = assert_one_line(run("export", "--catalogue", str(target), "--force"))
        assert f"{target}: cannot write the file (the disk is full;" in stderr
    assert old.read_bytes() == b"a good file"
    assert not new.exists() and not leftovers(tmp_path)  # no 0-byte file either


HALF_A_WORKBOOK = """
import errno, sys
from pathlib import Path
from cardbase.errors import CardbaseError
from cardbase.fileio.writing import Table, output_file, write_xlsx

def rows():
    yield from ([n] for n in range(50))
    raise OSError(errno.ENOSPC, "No space left on device")

try:
    with output_file(Path(sys.argv[1]), force=False) as temporary:
        write_xlsx(temporary, [Table("Cards", ["N"], rows())])
except CardbaseError as error:
    print(error, file=sys.stderr)
"""


def test_a_workbook_abandoned_half_way_prints_nothing_more(tmp_path: Path) -> None:
    """Left open, its sheet prints 'Exception ignored ... Traceback' as the process ends."""
    target = tmp_path / "cards.xlsx"
    result = subprocess.run(
        [sys.executable, "-c", HALF_A_WORKBOOK, str(target)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.stderr == (
        f"{target}: cannot write the file "
        "(the disk is full; free some space and try again); nothing was written\n"
    )
    assert not target.exists() and not leftovers(tmp_path)


def test_an_interrupted_write_removes_its_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "list.txt"
    target.write_text("old")
    with (
        pytest.raises(KeyboardInterrupt),
        writing.output_file(target, force=True, suffixes=(".txt",)) as temporary,
    ):
        temporary.write_text("half")
        raise KeyboardInterrupt
    assert target.read_text() == "old" and not leftovers(tmp_path)


def test_a_new_file_takes_the_usual_permissions_and_a_link_is_written_through(
    tmp_path: Path,
) -> None:
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old")
    link.symlink_to(real)
    writing.write_text(link, "new", force=True)
    assert link.is_symlink() and real.read_text() == "new"
    fresh = tmp_path / "fresh.txt"
    writing.write_text(fresh, "x", force=False)
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask


def test_a_failed_backup_leaves_nothing_behind(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase import maintenance

    class FailingSource(sqlite3.Connection):
        def backup(self, target: sqlite3.Connection, **_: object) -> None:  # type: ignore[override]
            target.execute("CREATE TABLE half (x)")
            raise sqlite3.OperationalError("database or disk is full")

    target = tmp_path / "copy.db"
    target.write_bytes(b"an older backup")
    failing = sqlite3.connect(":memory:", factory=FailingSource)
    monkeypatch.setattr(maintenance.db, "open_db", lambda path: failing)
    stderr = assert_one_line(run("backup", str(target), "--force"))
    assert "cannot write the backup (database or disk is full)" in stderr
    assert target.read_bytes() == b"an older backup" and not leftovers(tmp_path)


def filled_database(path: Path, cards: int) -> Path:
    """The mini catalogue plus `cards` generated cards: an export that takes a while."""
    new_database(path, MINI_CATALOGUE)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "INSERT INTO card (game, series, rarity, number, name, name_key, type, hero, "
            "sphere, traits, cost, attack, defense, gems, text, lore, artist, names) "
            "SELECT c.game, 900, c.rarity, n.i, c.name || ' ' || n.i, c.name_key || ' ' || n.i, "
            "c.type, c.hero, c.sphere, c.traits, c.cost, c.attack, c.defense, c.gems, c.text, "
            "c.lore, '', '' FROM n, (SELECT * FROM card ORDER BY id LIMIT 1) AS c",
            (cards,),
        )
    return path


def kill_while_writing(args: list[str], target: Path, old: bytes) -> bool:
    """Start the export, SIGKILL it once it is writing; True if the kill came mid-write."""

    def writing_now() -> bool:
        started = any(partial.stat().st_size > 0 for partial in leftovers(target.parent))
        return started or target.read_bytes() != old  # the latter: writing in place

    process = subprocess.Popen(
        args,
        cwd=ROOT,  # this checkout's cardbase
        env={**os.environ, "TMPDIR": str(target.parent)},  # where openpyxl's killed files go
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while process.poll() is None and not writing_now() and time.monotonic() < deadline:
        time.sleep(0.001)
    mid_write = process.poll() is None and writing_now()
    process.send_signal(signal.SIGKILL)
    process.wait()
    return mid_write


@pytest.mark.slow
@pytest.mark.parametrize(("suffix", "cards"), [(".csv", 40_000), (".xlsx", 2_000)])
def test_a_killed_export_keeps_the_old_file(tmp_path: Path, suffix: str, cards: int) -> None:
    database = filled_database(tmp_path / "big.db", cards)
    target = tmp_path / f"big{suffix}"
    target.write_bytes(b"last week's good export")
    args = [sys.executable, "-m", "cardbase", "--db", str(database), "export", "--catalogue"]
    args += [str(target), "--force"]
    landed = 0
    for _attempt in range(2):
        landed += kill_while_writing(args, target, b"last week's good export")
        assert target.read_bytes() == b"last week's good export"
        for partial in leftovers(tmp_path):  # a kill cannot clean up; the next run ignores it
            partial.unlink()
    assert landed  # the kills did land while the new file was being written


# -- deck build follows the same rules ------------------------------------------------------


def test_deck_build_out_refuses_an_existing_file_without_force(
    builder: Run, tmp_path: Path
) -> None:
    out = tmp_path / "chaos.txt"
    out.write_text("my own notes")
    result = builder("deck", "build", "--sphere", "chaos", "--out", str(out), "--save")
    assert result.stderr == f"cardbase: {out}: the file exists; add --force to overwrite it\n"
    assert result.exit_code == 2 and out.read_text() == "my own notes"
    assert "No saved decks" in builder("deck", "list").stdout  # refused before --save, too
    forced = builder("deck", "build", "--sphere", "chaos", "--out", str(out), "--force")
    assert forced.exit_code == 0, forced.output
    assert builder("deck", "check", str(out)).exit_code == 0 and not leftovers(tmp_path)


def test_deck_build_save_refuses_to_replace_a_saved_deck_without_force(builder: Run) -> None:
    assert builder("deck", "build", "--sphere", "chaos", "--save").exit_code == 0
    again = builder("deck", "build", "--sphere", "chaos", "--save")
    assert again.exit_code == 2
    assert "a deck named 'Chaos build' exists; add --force to replace it" in again.stderr
    assert builder("deck", "build", "--sphere", "chaos", "--save", "--force").exit_code == 0
    assert builder("deck", "list").stdout.count("Chaos build") == 1


# -- cells are text, never formulas ---------------------------------------------------------

EVIL_NAME = FORMULA_NAME


@pytest.fixture
def evil(tmp_path: Path) -> Run:
    """A catalogue whose card text looks like formulas, owned, traded and in a saved deck."""
    run = Run(formula_database(tmp_path)[1])
    assert run("add", "3 C 1 x4", "3 C 2 x4").exit_code == 0
    deck = tmp_path / "evil-deck.txt"
    deck.write_text("3 Pixie Dewdancer\n2 3 C 1\n1 3 C 2\n")
    assert run("deck", "save", str(deck), "--name", '=HYPERLINK("x")').exit_code == 0
    return run


def workbook_cells(path: Path) -> tuple[set[str], set[str]]:
    """Every cell's data type, and every text value, over every sheet."""
    types, texts = set(), set()
    for sheet in load_workbook(path):
        for row in sheet.iter_rows():
            for cell in row:
                types.add(cell.data_type)
                if isinstance(cell.value, str):
                    texts.add(cell.value)
    return types, texts


def test_no_workbook_cardbase_writes_has_a_formula(evil: Run, tmp_path: Path) -> None:
    written = {
        "collection": ("export",),
        "catalogue": ("export", "--catalogue"),
        "trades": ("trade", "export"),
        "deck": ("deck", "export", '=HYPERLINK("x")'),
    }
    for name, args in written.items():
        path = tmp_path / f"{name}.xlsx"
        assert evil(*args, str(path)).exit_code == 0
        types, texts = workbook_cells(path)
        assert "f" not in types and "e" not in types, name
        assert {EVIL_NAME, "#N/A"} <= texts, name
    types, texts = workbook_cells(tmp_path / "catalogue.xlsx")
    assert {"@Maneuver", "=1+2 attack", "-lore", "+SUM(A1)"} <= texts
    assert '=HYPERLINK("x")' in workbook_cells(tmp_path / "deck.xlsx")[1]
    sheet = tmp_path / "sheet.xlsx"
    # --force: the deck is not legal, and its NOT VALID problems quote the names too
    result = evil("deck", "sheet", '=HYPERLINK("x")', str(sheet), "--player", "=1+2", "--force")
    assert result.exit_code == 0, result.output
    types, texts = workbook_cells(sheet)
    assert "f" not in types and {"=1+2", '=HYPERLINK("x")', EVIL_NAME, "#N/A"} <= texts


def test_a_control_character_in_catalogue_text_is_replaced(run: Run, tmp_path: Path) -> None:
    """catalog import refuses control characters now; a database made before it may still
    hold them, and the workbook writer replaces them."""
    catalogue = tmp_path / "more.csv"
    catalogue.write_text(
        "code,name,type,hero,sphere,traits,cost,attack,defense,gems,text,lore\n"
        "3 C 5,Bell Ringer,Trick,,Order,,1,,,Y,Ring\x01 the bell\x0b twice,Di\x1fng\n"
    )
    refused = run("catalog", "import", str(catalogue))
    assert refused.exit_code == 2 and "control character U+0001" in refused.stderr
    with sqlite3.connect(run.db_path) as conn:
        conn.execute(
            "UPDATE card SET text = ?, lore = ? WHERE series = 1 AND number = 14",
            ("Ring\x01 the bell\x0b twice", "Di\x1fng"),
        )
    path = tmp_path / "catalogue.xlsx"
    result = run("export", "--catalogue", str(path))
    assert result.exit_code == 0, result.output
    texts = workbook_cells(path)[1]
    assert {"Ring\ufffd the bell\ufffd twice", "Di\ufffdng"} <= texts


def test_the_cell_rule_matches_openpyxl_and_cuts_long_text(tmp_path: Path) -> None:
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    assert writing.ILLEGAL_CHARACTERS.pattern == ILLEGAL_CHARACTERS_RE.pattern
    path = tmp_path / "long.xlsx"
    table = writing.Table("Long", ["Text"], [["x" * 40_000], ["=" + "y" * 40_000], [7]])
    writing.write_xlsx(path, [table])
    sheet = load_workbook(path)["Long"]
    values = [cell.value for (cell,) in sheet.iter_rows(min_row=2)]
    assert [len(value) for value in values[:2]] == [32_767, 32_767] and values[2] == 7
    assert sheet["A3"].data_type == "s"
