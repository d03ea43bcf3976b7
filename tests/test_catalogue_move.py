"""A database made from the old sample keeps everything, hears once how to move to the real
catalogue, and moves (copies by exact name, the rest kept and listed) all or nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardbase.catalog.choice import SAMPLE, built_in
from tests.helpers import DATA, Run, database_checksum, new_database, ok


@pytest.fixture
def sample(tmp_path: Path) -> Run:
    """A sample database with copies of a card the real catalogue has (Chugawug Cook, in
    two holdings), one it has not (Chugawug Elder), history and a deck."""
    path = tmp_path / "old.db"
    new_database(path, built_in(SAMPLE))
    run = Run(path)
    ok(run, "add", "Chugawug Cook x3", "1 C 14 lp fr", "1 U 18 x4 foil", "1 C 47 x2")
    ok(run, "add", "1 C 14")
    deck = tmp_path / "stew.txt"
    deck.write_text("3 Chugawug Cook\n2 Chugawug Elder\n")
    ok(run, "deck", "save", str(deck), "--name", "Stew")
    return run


def test_an_old_database_keeps_everything_and_is_told_once(tmp_path: Path) -> None:
    old = Path(shutil.copy(DATA / "schema-v4.db", tmp_path / "old.db"))
    run = Run(old)
    first = run("collection")
    assert first.exit_code == 0
    assert "Chugawug Cook" in first.stdout
    assert "catalog move-to-real" in first.stderr
    assert "catalog move-to-real" not in run("collection").stderr  # once


def test_a_dry_run_reports_the_move_and_changes_nothing(sample: Run) -> None:
    before = database_checksum(sample.db_path)
    report = json.loads(ok(sample, "catalog", "move-to-real", "--dry-run", "-o", "json"))
    assert {(m["name"], m["old_code"], m["new_code"], m["copies"]) for m in report["moved"]} == {
        ("Chugawug Cook", "1 C 14", "1 C 143", 5),
        ("Robgoblin Lookout", "1 C 47", "3 C 14", 2),
    }
    assert [(k["name"], k["copies"]) for k in report["kept"]] == [("Chugawug Elder", 4)]
    assert report["added"] == 707
    assert report["backup"] is None
    assert database_checksum(sample.db_path) == before


def test_the_move_keeps_every_copy_deck_and_undo(sample: Run) -> None:
    report = json.loads(ok(sample, "catalog", "move-to-real", "-o", "json"))
    assert Path(report["backup"]).is_file()
    copies = json.loads(ok(sample, "collection", "--copies", "-o", "json"))
    assert sorted(
        (c["code"], c["name"], c["finish"], c["language"], c["copies"]) for c in copies
    ) == [
        ("1 C 143", "Chugawug Cook", "nonfoil", "en", 4),
        ("1 C 143", "Chugawug Cook", "nonfoil", "fr", 1),
        ("1 U 18", "Chugawug Elder", "foil", "en", 4),  # kept: the old sample's card
        ("3 C 14", "Robgoblin Lookout", "nonfoil", "en", 2),
    ]
    french = next(c for c in copies if c["language"] == "fr")
    assert french["local_name"] == "Cuisinier chugawug"  # the real card's French name
    assert "Chugawug Elder" in ok(sample, "deck", "show", "Stew")
    assert json.loads(ok(sample, "show", "1 C 143", "-o", "json"))["nonfoil"] == 5
    ok(sample, "undo")  # the history moved with the copies
    assert json.loads(ok(sample, "show", "1 C 143", "-o", "json"))["nonfoil"] == 4
    assert ok(sample, "search", "--count").strip() == "708"  # 707 real cards and the one kept
    assert "✔" in ok(sample, "doctor") and "✘" not in ok(sample, "doctor")


def test_db_init_makes_a_database_from_any_catalogue(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    run = Run(path)
    assert "with 254 cards" in ok(run, "db", "init", "--catalogue", "sample")
    again = run("db", "init")
    assert again.exit_code == 2
    assert "a database is there already; nothing was changed" in again.output
    league = tmp_path / "league.db"
    assert "with 22 cards" in ok(
        Run(league), "db", "init", "--catalogue", str(DATA / "mini_cards.csv")
    )
    bad = tmp_path / "bad.csv"
    bad.write_text("code,name,type\n1 U 1,X,Nonsense\n")
    refused = Run(tmp_path / "new.db")("db", "init", "--catalogue", str(bad))
    assert refused.exit_code == 2
    assert "bad.csv" in refused.output
    assert not (tmp_path / "new.db").exists()


def test_a_database_on_the_real_catalogue_is_left_alone(sample: Run) -> None:
    ok(sample, "catalog", "move-to-real")
    backups = set(sample.db_path.parent.glob("*before-move*"))
    again = ok(sample, "catalog", "move-to-real")
    assert "on the real catalogue already; nothing to do" in again
    assert set(sample.db_path.parent.glob("*before-move*")) == backups  # no second backup


def test_holdings_that_meet_keep_both_notes(sample: Run, tmp_path: Path) -> None:
    """A second printing of a name (a league's own card) and the sample's move to the same
    real card: the copies add up and neither note is lost."""
    extra = tmp_path / "extra.csv"
    extra.write_text("code,name,type,sphere,cost,attack,defense,gems\n"
                     "9 C 1,Chugawug Cook,Creature,Nature,1,1,1,G\n")  # fmt: skip
    ok(sample, "catalog", "import", str(extra))
    ok(sample, "add", "1 C 14 x2", "--location", "Binder 1", "--note", "from league")
    ok(sample, "add", "9 C 1 x2", "--location", "Binder 1", "--note", "second printing")
    ok(sample, "catalog", "move-to-real")
    copies = json.loads(ok(sample, "collection", "--copies", "in:binder 1", "-o", "json"))
    assert [(c["code"], c["copies"], c["note"]) for c in copies] == [
        ("1 C 143", 4, "from league; second printing")
    ]


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
def test_the_move_on_postgresql(sample: Run, pg_url) -> None:  # type: ignore[no-untyped-def]
    ok(sample, "db", "copy", str(sample.db_path), pg_url.url)
    league = Run(pg_url.url)  # type: ignore[arg-type]
    report = json.loads(ok(league, "catalog", "move-to-real", "-o", "json"))
    assert report["backup"] is None  # pg_dump's to take
    assert {m["name"] for m in report["moved"]} == {"Chugawug Cook", "Robgoblin Lookout"}
    assert "11 cards (7 non-foil, 4 foil)" in ok(league, "collection")  # as before the move
    assert json.loads(ok(league, "show", "1 C 143", "-o", "json"))["nonfoil"] == 5


def test_a_bad_catalogue_setting_creates_no_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDBASE_CATALOGUE", str(tmp_path / "nope.csv"))
    result = Run(tmp_path / "new.db")("stats")
    assert result.exit_code == 2
    assert "$CARDBASE_CATALOGUE" in result.output and "no catalogue file" in result.output
    bad = tmp_path / "bad.csv"
    bad.write_text("code,name,type\n1 U 1,X,Nonsense\n")
    monkeypatch.setenv("CARDBASE_CATALOGUE", str(bad))
    assert Run(tmp_path / "new.db")("stats").exit_code == 2
    assert list(tmp_path.glob("new.db*")) == []  # no empty database left behind


def test_the_web_page_tells_it_once_too(tmp_path: Path) -> None:
    """The page says what the command line says on stderr, inside the page."""
    from cardbase import notices
    from tests.web_helpers import Pages, text_of

    pages = Pages(Path(shutil.copy(DATA / "schema-v4.db", tmp_path / "old.db")))
    notices.tell("a note of this process's, not of the request's")
    first = pages.get("/collection")
    assert notices.take() == ["a note of this process's, not of the request's"]
    assert first.status_code == 200
    assert "Note: " in text_of(first.text) and "catalog move-to-real" in first.text
    assert "catalog move-to-real" not in pages.get("/collection").text
