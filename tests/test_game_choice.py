"""A code two games share (`1 C 41` is Free Realms' Robgoblin Scrapper and Wildhearts' Judge:
High Winds): refused naming both, unless the user chose a game (--game, $CARDBASE_GAME, the
config file's `game`) or prefixed the code; tables, trade lists and exports show another
game's codes with their prefix, which every command reads back (issue #32)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cardbase.errors import CardbaseError
from cardbase.library import Library
from tests.helpers import ROOT, Run, assert_one_line, new_database, ok

SHARED = "1 C 41"
FREE_REALMS, WILDHEARTS = "Robgoblin Scrapper", "Judge: High Winds"


def test_a_shared_code_is_refused_naming_both_games(two_games: Run) -> None:
    line = assert_one_line(two_games("add", SHARED))
    assert FREE_REALMS in line and WILDHEARTS in line and "wh:1 C 41" in line
    assert "--game" in line and "config set game" in line  # the way forward, said once
    assert "Nothing was changed" in line


@pytest.mark.parametrize(
    ("chosen", "name"),
    [(["--game", "wildhearts"], WILDHEARTS), (["--game", "wh"], WILDHEARTS),
     (["--game", "FR"], FREE_REALMS)],
)  # fmt: skip
def test_game_chooses_the_card_for_show_and_add(two_games: Run, chosen, name: str) -> None:
    assert name in ok(two_games, *chosen, "show", SHARED)
    assert name in ok(two_games, *chosen, "add", SHARED)


def test_the_environment_and_the_config_file_choose_too(
    two_games: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(two_games, "config", "set", "game", "wildhearts")
    assert WILDHEARTS in ok(two_games, "show", SHARED)
    monkeypatch.setenv("CARDBASE_GAME", "fr")  # the environment over the file
    assert FREE_REALMS in ok(two_games, "show", SHARED)
    assert WILDHEARTS in ok(two_games, "--game", "wh", "show", SHARED)  # --game over both
    assert FREE_REALMS in ok(two_games, "show", "fr:1 C 41")


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [(["--game", "chess"], None, "--game: no game 'chess'"),
     ([], "go", "$CARDBASE_GAME: no game 'go'")],
)  # fmt: skip
def test_an_unknown_game_is_one_line_naming_the_games(
    two_games: Run, monkeypatch: pytest.MonkeyPatch, args, env, said: str
) -> None:
    if env:
        monkeypatch.setenv("CARDBASE_GAME", env)
    line = assert_one_line(two_games(*args, "add", SHARED))
    assert said in line and "free-realms (fr), wildhearts (wh)" in line
    monkeypatch.delenv("CARDBASE_GAME", raising=False)
    assert ok(two_games, "collection").startswith(
        "0 cards (0 non-foil, 0 foil)"
    )  # nothing was added


def test_the_config_file_refuses_an_unknown_game(two_games: Run) -> None:
    line = assert_one_line(two_games("config", "set", "game", "chess"))
    assert "game: no game 'chess'" in line


def test_the_library_takes_a_game(two_games: Run) -> None:
    library = Library(two_games.db_path, game="wildhearts")
    assert library.card(SHARED).name == WILDHEARTS
    with pytest.raises(CardbaseError, match="several games"):
        Library(two_games.db_path).card(SHARED)
    with pytest.raises(CardbaseError, match="no game 'chess'"):
        Library(two_games.db_path, game="chess")


def test_tables_show_the_other_games_code_with_its_prefix(two_games: Run) -> None:
    table = ok(two_games, "search", 'code:"1 C 41"')
    assert [line.split("  ")[0] for line in table.splitlines()[1:]] == ["1 C 41", "wh:1 C 41"]
    ok(two_games, "add", "wh:1 C 41")
    assert ok(two_games, "collection").splitlines()[1].startswith("wh:1 C 41")


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_an_export_of_several_games_says_each_cards_game_and_reads_back(
    two_games: Run, tmp_path: Path, suffix: str
) -> None:
    ok(two_games, "add", "wh:1 C 41", "fr:1 C 41 x2", "fr:1 C 42")
    out = tmp_path / f"mine{suffix}"
    ok(two_games, "export", str(out))
    if suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
        assert sorted((row["Code"], row["Game"]) for row in rows) == [
            ("1 C 41", "free-realms"), ("1 C 41", "wildhearts"), ("1 C 42", "free-realms")
        ]  # fmt: skip
    before = ok(two_games, "collection", "-o", "csv")
    ok(two_games, "set", "wh:1 C 41 x0", "fr:1 C 41 x0", "fr:1 C 42 x0")
    assert ok(two_games, "collection").startswith("0 cards (0 non-foil, 0 foil)")
    imported = ok(two_games, "import", str(out))
    assert "Game (game)" in imported
    assert ok(two_games, "collection", "-o", "csv") == before


def test_one_games_export_from_a_database_of_two_says_the_game(
    two_games: Run, tmp_path: Path
) -> None:
    ok(two_games, "add", "fr:1 C 41 x2")
    out = tmp_path / "mine.csv"
    ok(two_games, "export", str(out))
    assert "Game" in out.read_text(encoding="utf-8-sig").splitlines()[0].split(",")
    ok(two_games, "set", "fr:1 C 41 x0")
    ok(two_games, "import", str(out))  # '1 C 41' with its game: Robgoblin Scrapper again
    assert FREE_REALMS in ok(two_games, "collection")


def test_an_export_from_a_database_of_one_game_has_no_game_column(
    tmp_path: Path,
) -> None:
    run = Run(new_database(tmp_path / "one.db"))
    ok(run, "add", "1 C 41")
    out = tmp_path / "mine.csv"
    ok(run, "export", str(out))
    assert "Game" not in out.read_text(encoding="utf-8-sig").splitlines()[0].split(",")


def test_a_game_column_naming_no_game_is_the_rows_error(two_games: Run, tmp_path: Path) -> None:
    sheet = tmp_path / "theirs.csv"
    sheet.write_text("Code,Game,Count\n1 C 41,Magic,2\n", encoding="utf-8")
    line = two_games("import", str(sheet)).stderr
    assert "row 2: Game 'Magic' is not a game cardbase has" in line
    assert ok(two_games, "collection").startswith("0 cards (0 non-foil, 0 foil)")


def test_another_games_card_page_shows_and_changes_its_own_copies(two_games: Run) -> None:
    from tests.web_helpers import Pages

    ok(two_games, "add", "wh:1 C 41 x2", "fr:1 C 41 x5")
    pages = Pages(two_games.db_path)
    page = pages.get("/card/wh:1C41")
    assert page.status_code == 200 and WILDHEARTS in page.text
    assert 'action="/card/wh:1C41/copies"' in page.text
    shown = pages.get("/card/wh:1C41", params={"format": "json"}).json()
    assert [copy["copies"] for copy in shown["copies"]] == [2]  # not Free Realms' five
    added = pages.post("/card/wh:1C41/copies", {"op": "add", "count": "1"}, follow_redirects=False)
    assert added.status_code == 303, added.text
    owned = {(row["game"], row["name"]): row["nonfoil"]
             for row in json.loads(ok(two_games, "collection", "-o", "json"))}  # fmt: skip
    assert owned == {("wildhearts", WILDHEARTS): 3, ("free-realms", FREE_REALMS): 5}


def test_a_trade_lists_json_says_each_cards_game(two_games: Run) -> None:
    ok(two_games, "add", "wh:1 C 41 x5", "fr:1 C 41 x4")
    offered = json.loads(ok(two_games, "trade", "list", "-o", "json"))["offered"]
    assert sorted((item["code"], item["game"], item["copies"]) for item in offered) == [
        ("1 C 41", "free-realms", 1), ("1 C 41", "wildhearts", 2)
    ]  # fmt: skip


def test_the_free_realms_card_of_a_shared_code_has_its_own_page(two_games: Run) -> None:
    from tests.web_helpers import Pages

    ok(two_games, "add", "wh:1 C 41 x2", "fr:1 C 41 x5")
    pages = Pages(two_games.db_path)
    page = pages.get("/card/1C41")  # a bare code on the web: the server's game, else the default
    assert page.status_code == 200 and FREE_REALMS in page.text
    assert "Free Realms TCG" in page.text and 'href="/card/wh:1C41">Judge: High Winds' in page.text
    assert 'action="/card/1C41/copies"' in page.text
    assert pages.get("/card/fr:1C41").status_code == 200
    added = pages.post("/card/1C41/copies", {"op": "add", "count": "1"}, follow_redirects=False)
    assert added.status_code == 303 and added.headers["location"].startswith("/card/1C41")
    owned = {(row["game"], row["name"]): row["nonfoil"]
             for row in json.loads(ok(two_games, "collection", "-o", "json"))}  # fmt: skip
    assert owned == {("wildhearts", WILDHEARTS): 2, ("free-realms", FREE_REALMS): 6}


def test_a_server_of_another_game_links_the_free_realms_card_with_its_prefix(
    two_games: Run,
) -> None:
    from tests.web_helpers import Pages

    pages = Pages(two_games.db_path, game="wildhearts")
    page = pages.get("/card/1C41")
    assert WILDHEARTS in page.text and 'href="/card/fr:1C41">Robgoblin Scrapper' in page.text
    assert 'action="/card/1C41/copies"' in page.text
    theirs = pages.get("/card/fr:1C41")
    assert FREE_REALMS in theirs.text and 'action="/card/fr:1C41/copies"' in theirs.text
    search = pages.get("/search", params={"q": 'code:"1 C 41"'})
    assert 'href="/card/fr:1C41"' in search.text and 'href="/card/1C41"' in search.text


def test_copies_add_and_history_show_the_other_games_code_with_its_prefix(two_games: Run) -> None:
    added = ok(two_games, "add", "wh:1 C 41 x2", "fr:1 C 41")
    assert "Judge: High Winds (wh:1 C 41) non-foil: 0 -> 2" in added
    assert "Robgoblin Scrapper (1 C 41) non-foil: 0 -> 1" in added
    rows = ok(two_games, "collection", "--copies").splitlines()[1:3]
    assert sorted(row.split("  ")[0] for row in rows) == ["1 C 41", "wh:1 C 41"]
    history = ok(two_games, "history")
    assert "Judge: High Winds (wh:1 C 41)" in history and "Robgoblin Scrapper (1 C 41)" in history
    copies = json.loads(ok(two_games, "collection", "--copies", "-o", "json"))
    assert sorted((c["code"], c["game"]) for c in copies) == [
        ("1 C 41", "free-realms"), ("1 C 41", "wildhearts")
    ]  # fmt: skip
    listed = ok(two_games, "collection", "--copies", "-o", "csv").splitlines()[1:]
    ok(two_games, "set", "wh:1 C 41 x0")
    ok(two_games, "add", *(row.split(",")[0] for row in listed if row.startswith("wh:")))
    assert "Judge: High Winds (wh:1 C 41)" in ok(two_games, "history")  # reads back as its card


def test_stats_counts_the_chosen_game_unless_it_names_its_own(
    two_games: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok(two_games, "add", "wh:1 C 41 x2", "fr:1 C 41")
    assert ok(two_games, "stats").startswith("1 card owned")  # the default game's
    assert "1 distinct, of Free Realms TCG" in ok(two_games, "stats").splitlines()[0]
    assert ok(two_games, "--game", "wh", "stats").startswith("2 cards owned")
    assert ok(two_games, "--game", "wh", "stats", "--game", "fr").startswith("1 card owned")
    ok(two_games, "config", "set", "game", "wildhearts")
    assert ok(two_games, "stats").startswith("2 cards owned")
    monkeypatch.setenv("CARDBASE_GAME", "fr")
    assert ok(two_games, "stats").startswith("1 card owned")
    assert Library(two_games.db_path, game="wh").stats().totals.cards == 2
    assert Library(two_games.db_path).stats("wildhearts").totals.cards == 2
    line = assert_one_line(two_games("stats", "--game", "chess"))
    assert "stats --game: no game 'chess'" in line


def test_complete_series_wants_the_chosen_games_series_and_says_which(two_games: Run) -> None:
    fr_series_1 = int(ok(two_games, "search", "--count", "series:1", "game:free-realms"))
    wh_series_1 = int(ok(two_games, "search", "--count", "series:1", "game:wildhearts"))
    listed = ok(two_games, "trade", "list", "--complete-series", "1")
    assert (
        f"Wanted, with the rest of Free Realms TCG series 1 (FreeRealms): {fr_series_1} cards"
        in listed
    )
    theirs = json.loads(ok(two_games, "--game", "wh", "trade", "list", "--complete-series", "1",
                           "-o", "json"))  # fmt: skip
    assert theirs["completing"] == "Wildhearts TCG series 1"
    assert {item["game"] for item in theirs["wanted"]} == {"wildhearts"}
    assert len(theirs["wanted"]) == wh_series_1
    ok(two_games, "config", "set", "game", "wildhearts")
    assert "Wildhearts TCG series 1" in ok(two_games, "trade", "list", "--complete-series", "1")
    warned = two_games("trade", "list", "--complete-series", "2")  # Wildhearts has series 1 only
    assert "Wildhearts TCG has no such series in the catalogue (it has series 1)" in warned.stderr


def test_the_lobby_page_says_which_games_series_it_completes(two_games: Run) -> None:
    from tests.web_helpers import Pages, text_of

    page = text_of(Pages(two_games.db_path).get("/trades", params={"complete_series": "1"}).text)
    assert "Wanted, with the rest of Free Realms TCG series 1 (FreeRealms)" in page
    theirs = Pages(two_games.db_path, game="wildhearts").get("/trades?complete_series=1")
    assert "Wanted, with the rest of Wildhearts TCG series 1" in text_of(theirs.text)


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_trade_export_of_shared_codes_is_matched_card_by_card(
    two_games: Run, tmp_path: Path, suffix: str
) -> None:
    ok(two_games, "add", "fr:1 C 41 x5", "wh:1 C 41 x4")
    mine = tmp_path / f"mine{suffix}"
    ok(two_games, "trade", "export", str(mine))
    if suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(mine.read_text(encoding="utf-8-sig"))))
        assert sorted((row["Code"], row["Game"], row["Qty"]) for row in rows) == [
            ("1 C 41", "free-realms", "2"), ("1 C 41", "wildhearts", "1")
        ]  # fmt: skip
    theirs = Run(new_database(tmp_path / "theirs.db"))
    ok(theirs, "catalog", "import", str(ROOT / "wildhearts-cards.csv"))
    matched = theirs("trade", "match", str(mine), "--complete-series", "1", "-o", "json")
    assert matched.exit_code == 0 and "skipped" not in matched.stderr, matched.output
    found = json.loads(matched.stdout)
    assert found["problems"] == []
    assert [(i["name"], i["game"]) for i in found["they_offer_i_want"]] == [
        (FREE_REALMS, "free-realms")
    ]  # fmt: skip


def test_a_trade_list_file_of_one_games_database_has_no_game_column(tmp_path: Path) -> None:
    run = Run(new_database(tmp_path / "one.db"))
    ok(run, "add", "1 C 41 x5")
    mine = tmp_path / "mine.csv"
    ok(run, "trade", "export", str(mine))
    assert mine.read_text(encoding="utf-8-sig").splitlines()[0] == "List,Code,Name,Finish,Qty"


def test_the_search_page_shows_each_cards_code_as_the_server_reads_it(two_games: Run) -> None:
    from tests.web_helpers import Pages

    def codes(page: str) -> list[str]:
        import re

        return re.findall(r'<td class="code">([^<]+)</td>', page)

    query = {"q": 'code:"1 C 41"'}
    assert codes(Pages(two_games.db_path).get("/search", params=query).text) == [
        "1 C 41", "wh:1 C 41"
    ]  # fmt: skip
    theirs = Pages(two_games.db_path, game="wildhearts").get("/search", params=query).text
    assert codes(theirs) == ["fr:1 C 41", "1 C 41"]


def test_the_collection_pages_totals_are_the_servers_games(two_games: Run) -> None:
    from tests.web_helpers import Pages, text_of

    ok(two_games, "add", "wh:1 C 41 x2", "fr:1 C 41")
    mine = text_of(Pages(two_games.db_path).get("/collection").text)
    assert "1 card owned (1 non-foil, 0 foil), 1 distinct, of Free Realms TCG" in mine
    theirs = text_of(Pages(two_games.db_path, game="wh").get("/collection").text)
    assert "2 cards owned (2 non-foil, 0 foil), 1 distinct, of Wildhearts TCG" in theirs
