"""The Trade Lobby's trades carried out from the page: a match's proposal becomes a trade to
check, change and make; the result and its Undo in the lobby; refusals in the page, in its
words; the JSON twins the library's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE, new_database
from tests.test_trade_make import _two_collectors, batches, holdings
from tests.web_helpers import Pages, error_of, flash_of, text_of

LOBBY_WITH_BO = "/trades?with=Bo&playset=0&complete_series=1"
COOK_FOR_BOG = {"with": "Bo", "give_card": "1 C 14 nonfoil", "give_copies": "2",
                "get_card": "1 R 20 foil", "get_copies": "1"}  # fmt: skip


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return new_database(tmp_path / "trade.db", MINI_CATALOGUE, build=_two_collectors)


@pytest.fixture
def pages(db_path: Path) -> Pages:
    return Pages(db_path)


def _make_form(page: str) -> list[tuple[str, str]]:
    form = re.search(r'<form method="get" action="/trades/make".*?</form>', page, re.S)
    assert form, "the match offers no way to make the trade"
    return re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(0))


def test_a_match_leads_to_the_trade_it_proposes(pages: Pages, db_path: Path) -> None:
    lobby = pages.get(LOBBY_WITH_BO)
    assert "Make this trade" in lobby.text
    fields = _make_form(lobby.text)
    assert ("with", "Bo") in fields and ("get_card", "1 C 1 nonfoil") in fields
    before = holdings(db_path)
    preview = pages.get("/trades/make", params=fields)
    assert preview.status_code == 200
    words = text_of(preview.text)
    assert "You give Bo" in words and "You get from Bo" in words
    assert re.search(r"This trade would give \d+ cards? \(value \d+\) and get", words)
    assert "Value : each copy counts by its rarity (Common and Starter 1" in words
    assert 'name="do" value="make"' in preview.text  # the confirmation, after the check
    assert holdings(db_path) == before  # a preview writes nothing


def test_counts_can_be_changed_and_checked_again(pages: Pages) -> None:
    checked = pages.post("/trades/make", {**COOK_FOR_BOG, "give_copies": "1", "do": "check"})
    words = text_of(checked.text)
    assert "This trade would give 1 card (value 1) and get 1 card (value 3)" in words
    assert "1 \u00d7 Chugawug Cook (1 C 14) non-foil #trade" in words
    assert 'name="give_copies" type="number" min="0" max="9999" value="1"' in checked.text


def test_made_trade_shows_in_the_lobby_with_an_undo_for_each_side(
    pages: Pages, db_path: Path
) -> None:
    before = holdings(db_path)
    made = pages.post("/trades/make", {**COOK_FOR_BOG, "do": "make"}, follow_redirects=False)
    assert made.status_code == 303 and made.headers["location"] == "/trades?with=Bo"
    lobby = pages.get(made.headers["location"], cookies=made.cookies)
    assert flash_of(lobby.text).startswith(
        "Traded with Bo: give 2 cards (value 2), get 1 card (value 3): gave 1 x Chugawug "
        "Cook (1 C 14) non-foil #trade; gave 1 x Chugawug Cook (1 C 14) non-foil MP; got 1 x "
        "Mistfen Bog (1 R 20) foil fr in Box."
    )
    assert '<p class="flash" data-status>' in lobby.text
    assert "Undo the trade" in lobby.text
    assert "Undo the trade" in pages.get("/trades?collector=Bo").text  # Bo's lobby too
    undone = pages.client.post("/undo?collector=Bo",
                               data={"csrf": pages.site.csrf_token, "back": "/trades"})  # fmt: skip
    assert undone.status_code == 200 and "Undid batch" in flash_of(undone.text)
    assert holdings(db_path) == before


def test_a_refused_trade_is_said_in_the_page_and_changes_nothing(
    pages: Pages, db_path: Path
) -> None:
    before, history = holdings(db_path), batches(db_path)
    for form, said in (
        ({**COOK_FOR_BOG, "give_copies": "9"}, "you cannot give 9 non-foil Chugawug Cook"),
        ({**COOK_FOR_BOG, "get_copies": "-1"}, "'-1' copies of 1 R 20 foil: choose a whole"),
        ({**COOK_FOR_BOG, "with": "Boo"}, "no collector named 'Boo' in this database"),
        ({**COOK_FOR_BOG, "give_copies": "0", "get_copies": "0"}, "nothing to trade"),
    ):
        refused = pages.post("/trades/make", {**form, "do": "make"})
        assert refused.status_code == 400, form
        message = error_of(refused.text)
        assert message.startswith(said), message
        assert "--" not in message and "cardbase " not in message
        assert '<p class="error" data-status>' in refused.text
        assert 'name="give_copies"' in refused.text  # the rows, to change
        assert 'aria-label="Pages"' in refused.text  # the page's navigation is still there
    assert (holdings(db_path), batches(db_path)) == (before, history)


def test_a_stale_undo_is_refused_in_web_words(pages: Pages, db_path: Path) -> None:
    pages.post("/trades/make", {**COOK_FOR_BOG, "do": "make"})
    Library(db_path, "Bo").remove(["1 C 14 mp"])
    refused = pages.post("/undo", {"back": "/trades"})
    assert refused.status_code == 400
    assert "cannot undo the trade with Bo" in refused.text
    assert "cardbase trade make" not in refused.text
    assert "Trade what is still there from the Trade Lobby, with Bo" in refused.text


def test_the_json_twins_are_the_librarys(pages: Pages, db_path: Path) -> None:
    lobby = pages.get(f"{LOBBY_WITH_BO}&format=json").json()
    assert lobby["with"] == "Bo" and lobby["match"]["proposal"]["get"]
    assert lobby["value_rule"].startswith("value: each copy counts by its rarity")
    preview = pages.get("/trades/make", params={**COOK_FOR_BOG, "format": "json"})
    expected = Library(db_path).trade("Bo", ["2 1 C 14 nonfoil"], ["1 1 R 20 foil"], dry_run=True)
    assert preview.json() == expected.to_dict()
    made = pages.post("/trades/make", {**COOK_FOR_BOG, "do": "make"},
                      headers={"Accept": "application/json"})  # fmt: skip
    assert made.json()["done"] is True
    assert made.json()["batch"] == Library(db_path).history(1)[0].id
    refused = pages.post("/trades/make?format=json", {**COOK_FOR_BOG, "give_copies": "9"})
    assert refused.status_code == 400 and "cannot give" in refused.json()["error"]


def test_the_lobby_alone_says_it_in_web_words(tmp_path: Path) -> None:
    alone = Pages(new_database(tmp_path / "alone.db", MINI_CATALOGUE)).get("/trades")
    words = text_of(alone.text)
    assert "me is the only collector in this database: a trade needs a second collector" in words
    assert "cardbase collectors" not in words
