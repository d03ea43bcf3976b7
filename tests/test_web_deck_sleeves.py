"""Mark as built and Unsleeve in the Deck Builder: the library's calls, the result in the
page's words (no command-line flags), the JSON twin the library's result."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardbase.library import Library
from tests.conftest import Run
from tests.helpers import ok
from tests.web_helpers import Pages, error_of, flash_of


@pytest.fixture
def pages(db_path: Path, tmp_path: Path) -> Pages:
    run = Run(db_path)
    ok(run, "add", "Mistfen Bog x2", "--condition", "lp")
    deck = tmp_path / "bog.txt"
    deck.write_text("3 Mistfen Bog\n")
    ok(run, "deck", "save", str(deck), "--name", "Bog")
    return Pages(db_path)


def test_mark_as_built_and_unsleeve_say_what_they_did(pages: Pages, db_path: Path) -> None:
    short = pages.post("/deck/sleeve", {"name": "Bog"})
    said = flash_of(short.text)
    assert "needs copies the collection does not have free: 1 Mistfen Bog" in said
    assert "only what is free" in said and "--" not in said
    assert "Mark as built: Bog" in short.text and "Unsleeve Bog" not in short.text
    built = pages.post("/deck/sleeve", {"name": "Bog", "partial": "1"})
    said = flash_of(built.text)
    assert said.startswith("Marked 'Bog' as built: 2 of 3 cards sleeved.")
    assert "Took 2 copies: 2 Mistfen Bog (1 R 20): non-foil, LP, en, no location." in said
    assert "Not free, still missing: 1 Mistfen Bog" in said and "only copies I lack" in said
    assert "Unsleeve Bog" in built.text
    freed = pages.post("/deck/unsleeve", {"name": "Bog"})
    assert flash_of(freed.text).startswith("Unsleeved 'Bog': 0 of 3 cards sleeved. Let go 2")
    assert Library(db_path).unsleeve_deck("Bog").released == []


def test_the_json_twins_are_the_librarys(pages: Pages, db_path: Path, tmp_path: Path) -> None:
    done = pages.post("/deck/sleeve?format=json", {"name": "Bog", "partial": "1"}).json()
    again = Library(db_path).sleeve_deck("Bog", partial=True).to_dict()
    assert done["taken"] and again["taken"] == [] and done["sleeved"] == again["sleeved"] == 2
    freed = pages.post("/deck/unsleeve?format=json", {"name": "Bog"}).json()
    assert freed["sleeved"] == 0 and sum(c["copies"] for c in freed["released"]) == 2
    short = pages.post("/deck/sleeve?format=json", {"name": "Bog"})
    assert short.status_code == 400 and "Mistfen Bog" in short.json()["error"]


def test_a_sleeved_copy_removed_from_a_page_is_refused_in_web_words(
    pages: Pages, db_path: Path
) -> None:
    Library(db_path).sleeve_deck("Bog", partial=True)
    refused = pages.post("/deck/sleeve", {"name": "Nope"})
    assert "no deck file or saved deck named 'Nope'" in error_of(refused.text)
    from cardbase.collection.sleeved import SleevedError

    with pytest.raises(SleevedError) as error:
        Library(db_path).remove(["Mistfen Bog x1"])
    web = error.value.said("web")
    assert "Unsleeve on 'Bog' in the Deck Builder" in web and "--force" not in web


def test_the_history_lists_versions_and_restore_saves_one_again(
    pages: Pages, db_path: Path, tmp_path: Path
) -> None:
    deck = tmp_path / "bog2.txt"
    deck.write_text("2 Mistfen Bog\n")
    Library(db_path).save_deck(deck, "Bog", replace=True)
    page = pages.get("/deck", params={"open": "Bog"}).text
    assert "History of Bog" in page and "Restore version 1" in page
    assert "Restore version 2" not in page  # the deck as it is
    restored = pages.post("/deck/restore", {"name": "Bog", "version": "1"})
    assert flash_of(restored.text) == "Restored 'Bog' version 1 as version 3: 3 cards"
    assert "Restore version 2" in restored.text
    twin = pages.post("/deck/restore?format=json", {"name": "Bog", "version": "2"}).json()
    assert twin == {"deck": "Bog", "restored": 2, "version": 4, "cards": 2,
                    "format": "free-realms"}  # fmt: skip
    bad = pages.post("/deck/restore", {"name": "Bog", "version": "99"})
    assert "'Bog' has versions 1 to 4" in error_of(bad.text)
    assert "deck history" not in error_of(bad.text)  # the page's words: its History list


def test_the_collection_page_shows_copies_in_decks_and_free(pages: Pages, db_path: Path) -> None:
    assert "In decks" not in pages.get("/collection").text  # no deck built: as it was
    Library(db_path).sleeve_deck("Bog", partial=True)
    page = pages.get("/collection").text
    assert '<th scope="col">In decks</th><th scope="col">Free</th>' in page
    typed = pages.get("/collection", params={"q": "mistfen"}, headers={
        "HX-Request": "true", "HX-Target": "results"})  # fmt: skip
    assert "In decks" in typed.text and 'id="results"' in typed.text
    twin = pages.get("/collection", params={"format": "json"}).json()
    bog = next(card for card in twin["cards"] if card["name"] == "Mistfen Bog")
    assert (bog["in_decks"], bog["free"]) == (2, 0)
