"""The first run: the command that creates the default database says once, on stderr, where
it is and how to choose another; later runs, and databases the user named, say nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app

NOTICE = (
    "cardbase: note: a new database at {path}, with the {cards} cards of the bundled catalogue; "
    "to use another, give --db FILE, set CARDBASE_DB=FILE, or run 'cardbase config set db FILE'\n"
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user with no database yet and no config file: the default location applies."""
    monkeypatch.delenv("CARDBASE_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def test_the_first_command_says_where_the_database_is(home: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(app, ["search", "chugawug cook"])
    assert first.exit_code == 0, first.output
    path = home / "data" / "cardbase" / "cardbase.db"
    assert path.is_file()
    cards = runner.invoke(app, ["search", "", "-o", "csv"]).stdout.count("\n") - 1
    assert first.stderr == NOTICE.format(path=path, cards=cards)
    assert "Chugawug Cook" in first.stdout  # the command's own output is unchanged
    again = runner.invoke(app, ["search", "chugawug cook"])
    assert (again.exit_code, again.stderr) == (0, "")


@pytest.mark.parametrize("how", ["--db", "CARDBASE_DB", "config"])
def test_a_database_the_user_named_is_made_without_a_word(
    home: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    runner = CliRunner()
    named = home / "mine.db"
    args = ["search", "cook"]
    if how == "--db":
        args = ["--db", str(named), *args]
    elif how == "CARDBASE_DB":
        monkeypatch.setenv("CARDBASE_DB", str(named))
    else:
        (home / "config" / "cardbase").mkdir(parents=True)
        (home / "config" / "cardbase" / "config.toml").write_text(f'db = "{named}"\n')
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert named.is_file()
    assert done.stderr == ""
    assert not (home / "data" / "cardbase").exists()


def test_serve_says_it_before_its_serving_line(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
    import sys

    import cardbase.web.server

    def serving(site: object, host: str, port: int, *more: object) -> None:  # as server.run
        sys.stdout.write("cardbase: serving ...\n")

    monkeypatch.setattr(cardbase.web.server, "run", serving)
    runner = CliRunner()
    done = runner.invoke(app, ["serve"])
    assert done.exit_code == 0, done.output
    path = home / "data" / "cardbase" / "cardbase.db"
    cards = runner.invoke(app, ["search", "", "-o", "csv"]).stdout.count("\n") - 1
    assert done.stderr == NOTICE.format(path=path, cards=cards)
    assert done.output == NOTICE.format(path=path, cards=cards) + "cardbase: serving ...\n"
