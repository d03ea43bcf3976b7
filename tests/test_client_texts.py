"""`cardbase catalog import-client`: game text and lore read from the user's client folder,
never from the repository."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cardbase.catalog.choice import REAL, SAMPLE, built_in
from tests.helpers import ROOT, Run, database_checksum, new_database, ok

CLIENT = Path(
    os.environ.get("CARDBASE_CLIENT_DIR") or ROOT.parent / "shared" / "free-realms-client"
)

if not CLIENT.is_dir():
    if os.environ.get("CARDBASE_REQUIRE_CLIENT"):
        raise RuntimeError(f"{CLIENT}: the client folder is missing")
    pytest.skip(f"{CLIENT}: no client folder here", allow_module_level=True)


@pytest.fixture
def real(tmp_path: Path) -> Run:
    path = tmp_path / "real.db"
    new_database(path, built_in(REAL))
    return Run(path)


def test_a_dry_run_says_what_it_would_do_and_changes_nothing(real: Run) -> None:
    before = database_checksum(real.db_path)
    said = ok(real, "catalog", "import-client", str(CLIENT), "--dry-run")
    assert "707 cards read in 8 languages" in said
    assert "English text or lore would be changed on 707 cards" in said
    assert "dry run: nothing was changed" in said
    assert database_checksum(real.db_path) == before
    assert list(real.db_path.parent.glob("*before-import-client*")) == []


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
def test_texts_and_lore_in_every_language(real: Run) -> None:
    report = json.loads(ok(real, "catalog", "import-client", str(CLIENT), "-o", "json"))
    assert report["matched"] == 707
    assert report["changed"] == 707
    assert report["translations"] == 4774
    assert report["languages"] == ["en", "de", "en-GB", "es", "es-MX", "fr", "pt-BR", "zh-CN"]
    assert Path(report["backup"]).is_file()  # a SQLite database is copied aside first
    eagle = json.loads(ok(real, "show", "1 C 157", "-o", "json"))
    assert eagle["lore"] == "Here one moment, a spot in the sky the next."
    german = json.loads(ok(real, "show", "Soaring Eagle", "--language", "de", "-o", "json"))
    assert german["name"] == "Hochfliegender Adler"
    assert german["lore"].startswith("Im einen Moment hier")
    # markup turned into plain text, placeholders into words
    texts = [card["text"] for card in json.loads(ok(real, "search", "-o", "json"))]
    assert not [text for text in texts if "<" in text or "[#" in text]
    assert ok(real, "search", "o:destroy", "--count").strip() != "0"
    # a second run finds nothing to change
    again = json.loads(
        ok(real, "catalog", "import-client", str(CLIENT), "--no-backup", "-o", "json")
    )
    assert (again["changed"], again["translations"], again["backup"]) == (0, 0, None)


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
def test_the_tool_finds_the_tcg_folder_from_the_client_or_the_files(
    real: Run, tmp_path: Path
) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    for path in [*(CLIENT / "data" / "archetypes").glob("*"), *(CLIENT / "locale").glob("*")]:
        (flat / path.name).symlink_to(path)
    said = ok(real, "catalog", "import-client", str(flat), "--dry-run")
    assert "707 cards read" in said
    install = tmp_path / "Free Realms"
    install.mkdir()
    (install / "tcg").symlink_to(CLIENT)
    assert "707 cards read" in ok(real, "catalog", "import-client", str(install), "--dry-run")


def test_a_catalogue_that_is_not_the_games_is_refused_whole(tmp_path: Path) -> None:
    path = tmp_path / "sample.db"
    new_database(path, built_in(SAMPLE))
    before = database_checksum(path)
    result = Run(path)("catalog", "import-client", str(CLIENT), "--no-backup")
    assert result.exit_code == 2
    assert "catalogue is not the game's" in result.output
    assert "nothing was changed" in result.output
    assert database_checksum(path) == before


@pytest.mark.parametrize("what", ["missing", "empty", "file"])
def test_a_folder_that_is_not_a_client(real: Run, tmp_path: Path, what: str) -> None:
    folder = tmp_path / "x"
    if what == "empty":
        folder.mkdir()
    elif what == "file":
        folder.write_text("hello")
    before = database_checksum(real.db_path)
    result = real("catalog", "import-client", str(folder))
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert str(folder) in result.output
    assert database_checksum(real.db_path) == before


def test_a_damaged_record_changes_nothing(real: Run, tmp_path: Path) -> None:
    copy = tmp_path / "client"
    for sub in ("data/archetypes", "locale"):
        (copy / sub).mkdir(parents=True)
        for path in (CLIENT / sub).glob("*"):
            (copy / sub / path.name).write_bytes(path.read_bytes())
    storage = copy / "data" / "archetypes" / "storage.dat"
    data = bytearray(storage.read_bytes())
    data[40_000:40_010] = b"\x00" * 10
    storage.write_bytes(bytes(data))
    before = database_checksum(real.db_path)
    result = real("catalog", "import-client", str(copy))
    assert result.exit_code == 2
    assert "storage.dat, record" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert database_checksum(real.db_path) == before
