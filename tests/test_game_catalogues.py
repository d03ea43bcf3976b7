"""Each game's catalogue is the one its game file names (`catalogue = "cards.csv"`): a
shipped game's beside cardbase, a user's relative to their game file, and `--catalogue`
names each by its game's key (issue #32)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.catalog import choice
from cardbase.catalog.choice import catalogue_file, catalogue_names, game_catalogue
from cardbase.errors import CardbaseError
from cardbase.games import FREE_REALMS, GAMES, WILDHEARTS
from tests.helpers import ROOT, Run, ok


def test_the_shipped_games_catalogues_are_their_game_files_setting() -> None:
    assert game_catalogue(FREE_REALMS) == ROOT / "cards.csv"
    assert game_catalogue(WILDHEARTS) == ROOT / "wildhearts-cards.csv"
    assert catalogue_file("Wildhearts") == ROOT / "wildhearts-cards.csv"
    assert catalogue_file("sample") == ROOT / "sample-cards.csv"
    assert list(catalogue_names())[:2] == ["free-realms", "wildhearts"]


def test_a_shipped_games_setting_is_what_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    moved = WILDHEARTS._replace(catalogue="sample-cards.csv")
    monkeypatch.setitem(GAMES, "wildhearts", moved)
    assert choice.built_in("wildhearts") == ROOT / "sample-cards.csv"


def test_a_users_game_catalogue_is_relative_to_its_game_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    (tmp_path / "mine-cards.csv").write_bytes((ROOT / "wildhearts-cards.csv").read_bytes())
    mine = WILDHEARTS._replace(key="mine", catalogue="../mine-cards.csv",
                               source=str(folder / "mine.toml"))  # fmt: skip
    assert game_catalogue(mine) == tmp_path / "mine-cards.csv"
    assert game_catalogue(mine._replace(catalogue=None)) is None
    monkeypatch.setitem(GAMES, "mine", mine)
    assert catalogue_file("mine") == tmp_path / "mine-cards.csv"
    run = Run(tmp_path / "new.db")
    made = ok(run, "db", "init", "--catalogue", "mine")
    assert "with 48 cards from" in made and "mine-cards.csv" in made
    assert "Judge: High Winds" in ok(run, "show", "1 C 41")


def test_an_unknown_catalogue_word_is_a_file_that_is_not_there(tmp_path: Path) -> None:
    run = Run(tmp_path / "new.db")
    result = run("db", "init", "--catalogue", "chess")
    assert result.exit_code == 2 and "chess: cannot read the file" in result.stderr
    with pytest.raises(CardbaseError, match="empty catalogue; name a CSV file or one of free"):
        catalogue_file(" ")


def test_a_new_database_starts_from_the_default_games_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARDBASE_CATALOGUE")
    monkeypatch.setenv("CARDBASE_CONFIG", str(tmp_path / "none.toml"))
    assert choice.new_database_catalogue() == ROOT / "cards.csv"


def test_catalog_import_takes_a_games_key_for_its_catalogue(tmp_path: Path) -> None:
    from tests.helpers import new_database

    run = Run(new_database(tmp_path / "two.db"))
    assert "48 added" in ok(run, "catalog", "import", "wildhearts")
    assert "Judge: High Winds" in ok(run, "show", "wh:1 C 41")
    missing = run("catalog", "import", "chess")
    assert (
        missing.exit_code == 2 and "chess" in missing.stderr and "Traceback" not in missing.output
    )
