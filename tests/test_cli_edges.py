"""Edges a second adversarial pass found around the first hardening: standard output that
cannot be written, folders that may not be looked into, empty option values, the config
file's mode and /dev/null as no config."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import Run, subprocess_env


def cardbase(db: Path, *args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardbase", "--db", str(db), *args],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=60,
        **kwargs,  # type: ignore[call-overload]
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_full_standard_output_is_one_line(db_path: Path) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "cardbase", "--db", str(db_path), "search", "-o", "csv"],
            env=subprocess_env(), stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "cardbase: cannot write the output (No space left on device); nothing was changed by "
        "writing it"
    ]


def test_a_closed_standard_output_is_one_line(db_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cardbase", "--db", str(db_path), "search"],
        env=subprocess_env(), stderr=subprocess.PIPE, text=True, timeout=60,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip() == "cardbase: standard output is closed; nothing was run"


@pytest.mark.parametrize("where", ["before", "after"])
def test_an_empty_collector_is_refused(run: Run, where: str) -> None:
    args = ["--collector", "", "stats"] if where == "before" else ["stats", "--collector", ""]
    result = run(*args)
    assert result.exit_code == 2
    assert "'' is not a collector's name" in result.output


def test_an_unknown_collectors_hint_can_be_pasted(run: Run) -> None:
    result = run("stats", "--collector", "Bob Smith")
    assert result.exit_code == 2
    assert "Add one with: cardbase collectors add 'Bob Smith'" in result.output


@pytest.mark.skipif(os.geteuid() != 0 or not Path("/usr/bin/setpriv").exists(),
                    reason="needs root's setpriv to drop its file-permission override")  # fmt: skip
def test_writing_into_a_folder_that_may_not_be_opened(db_path: Path, tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    drop = ["setpriv", "--inh-caps=-dac_override,-dac_read_search",
            "--bounding-set=-dac_override,-dac_read_search"]  # fmt: skip
    for args in (["export", str(locked / "o.csv")], ["backup", str(locked / "b.db")]):
        result = subprocess.run(
            [*drop, sys.executable, "-m", "cardbase", "--db", str(db_path), *args],
            env=subprocess_env(), capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert result.returncode == 2, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
        assert "Permission denied" in result.stderr
    locked.chmod(0o700)


def test_the_config_file_is_its_owners_alone(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    monkeypatch.setenv("CARDBASE_CONFIG", str(config))
    assert run("config", "set", "db", "postgresql://ann:secret@league/cards").exit_code == 0
    assert stat.S_IMODE(config.stat().st_mode) == 0o600  # a db setting may hold a password


def test_dev_null_is_no_config(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDBASE_CONFIG", os.devnull)
    result = run("search", "--count")
    assert result.exit_code == 0, result.output


def test_deck_check_of_a_folder_says_which_folders_in_it_it_left_out(
    run: Run, tmp_path: Path
) -> None:
    (tmp_path / "decks" / "sub").mkdir(parents=True)
    for folder in (tmp_path / "decks", tmp_path / "decks" / "sub"):
        (folder / "a.txt").write_text("3 Chugawug Cook\n")
    result = run("deck", "check", str(tmp_path / "decks"))
    assert result.exit_code == 1  # the deck is too small: a verdict
    assert "1 folder(s) in it left out (sub); name one to check its decks" in result.stderr


def test_a_backup_of_a_schema_that_is_not_cardbases_says_so(run: Run, tmp_path: Path) -> None:
    import sqlite3

    with sqlite3.connect(run.db_path) as conn:
        conn.execute("CREATE TRIGGER x AFTER INSERT ON holding BEGIN DELETE FROM holding; END")
    result = run("backup", str(tmp_path / "b.db"))
    assert result.exit_code == 0  # a copy is what a damaged database needs most
    assert "trigger x is not cardbase's" in result.stderr
    assert "restore will refuse it" in result.stderr
