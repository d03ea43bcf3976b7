"""A game's code pattern (its game file's `[code]`: series and number bounds, rarity letters,
separators, canonical form) is what codes of that game are read by: a catalogue's row, a
code with its game's prefix, a sheet's row with a Game column; a code of no game's pattern
is refused, in one line naming it and the range (issue #32)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.codes import format_code, game_code, in_some_game, parse_code
from cardbase.errors import CodeError
from cardbase.games import FREE_REALMS, GAMES, WILDHEARTS
from cardbase.library import Library
from tests.helpers import ROOT, Run, assert_one_line, new_database, ok

NUMBERS = "card numbers 1 to 60"


@pytest.fixture
def narrow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wildhearts' numbers 1 to 60, its parts a space apart, Free Realms' series 1 to 5:
    game files as a league might write them (the shipped ones allow every code cardbase
    can hold)."""
    code = {**WILDHEARTS.code, "number": [1, 60], "separators": [" "]}
    monkeypatch.setitem(GAMES, "wildhearts", WILDHEARTS._replace(code=code))
    monkeypatch.setitem(GAMES, "free-realms", FREE_REALMS._replace(
        code={**FREE_REALMS.code, "series": [1, 5], "number": [1, 999]}))  # fmt: skip


@pytest.mark.usefixtures("narrow")
def test_a_code_past_its_games_bounds_is_one_line_naming_it_and_the_range() -> None:
    with pytest.raises(
        CodeError,
        match=f"^1 C 61: card number 61 is outside Wildhearts TCG's codes \\({NUMBERS}\\)$",
    ):
        game_code("1 C 61", parse_code("1 C 61"), "wildhearts")
    with pytest.raises(
        CodeError, match="7 C 2000: series 7 is outside Free Realms TCG's codes \\(series 1 to 5\\)"
    ):
        game_code("7 C 2000", parse_code("7 C 2000"), "free-realms")
    with pytest.raises(CodeError, match="1-C-4: Wildhearts TCG's codes have a space between"):
        game_code("1-C-4", parse_code("1-C-4"), "wildhearts")
    assert game_code("1 c 4", parse_code("1 c 4"), "wildhearts") == parse_code("1 C 4")
    assert in_some_game("1 C 61", parse_code("1 C 61")) == parse_code("1 C 61")  # Free Realms'


def test_a_games_own_rarity_letters_and_canonical_form() -> None:
    with pytest.raises(CodeError, match="rarity 'E' is not one of Wildhearts TCG's \\(C U R\\)"):
        game_code("1 E 4", parse_code("1 E 4"), "wildhearts")
    assert format_code(parse_code("1 C 4"), "wildhearts") == "1 C 4"


def test_a_prefixed_code_is_read_by_its_games_pattern(two_games: Run) -> None:
    line = assert_one_line(two_games("add", "wh:1 E 4"))
    assert "1 E 4: rarity 'E' is not one of Wildhearts TCG's (C U R)" in line
    assert ok(two_games, "collection").startswith("0 cards")


@pytest.mark.usefixtures("narrow")
def test_add_and_show_refuse_a_code_past_its_games_bounds(two_games: Run) -> None:
    line = assert_one_line(two_games("add", "wh:1 C 61", "fr:1 C 14"))
    assert f"1 C 61: card number 61 is outside Wildhearts TCG's codes ({NUMBERS})" in line
    assert ok(two_games, "collection").startswith("0 cards")  # nor the good item
    line = assert_one_line(two_games("show", "fr:7 C 2000"))
    assert "7 C 2000: series 7 is outside Free Realms TCG's codes (series 1 to 5)" in line
    with pytest.raises(CodeError, match="outside Wildhearts TCG's codes"):
        Library(two_games.db_path).card("wh:1 C 61")


@pytest.mark.usefixtures("narrow")
def test_a_catalogue_row_past_its_games_bounds_is_that_rows_error(
    two_games: Run, tmp_path: Path
) -> None:
    rows = (ROOT / "wildhearts-cards.csv").read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "more.csv"
    bad.write_text("\n".join([rows[0], rows[1].replace("1 C 1,", "1 C 61,", 1)]) + "\n")
    result = two_games("catalog", "import", str(bad))
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"1 C 61: card number 61 is outside Wildhearts TCG's codes ({NUMBERS})" in result.stderr
    assert int(ok(two_games, "search", "--count", "game:wildhearts")) == 48  # nothing added


@pytest.mark.usefixtures("narrow")
def test_a_sheet_rows_game_column_reads_its_code_by_that_games_pattern(
    two_games: Run, tmp_path: Path
) -> None:
    sheet = tmp_path / "mine.csv"
    sheet.write_text("Code,Game,Count\n1 C 61,wildhearts,2\n1 C 14,free-realms,1\n")
    result = two_games("import", str(sheet))
    assert result.exit_code == 2
    assert (
        f"row 2: 1 C 61: card number 61 is outside Wildhearts TCG's codes ({NUMBERS})"
        in result.stderr
    )
    assert ok(two_games, "collection").startswith("0 cards")


def test_the_shipped_catalogues_fit_their_games_patterns(tmp_path: Path) -> None:
    run = Run(new_database(tmp_path / "real.db", ROOT / "cards.csv"))
    assert "0 skipped" in ok(run, "catalog", "import", str(ROOT / "wildhearts-cards.csv"))
    assert "0 skipped" in ok(run, "catalog", "import", str(ROOT / "sample-cards.csv"))
