"""The Deck Builder page: clicks edit the deck list, and the verdict, problems and stats are
`deck check`'s and `deck stats`'; saved decks are the CLI's."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from cardbase.db import schema
from cardbase.library import Library
from tests.conftest import Run
from tests.web_helpers import Pages, error_of, flash_of, text_of


@pytest.fixture
def pages(db_path: Path) -> Pages:
    return Pages(db_path)


def deck_text_of(page: str) -> str:
    import html

    return html.unescape(
        re.search(r'<textarea id="deck-text"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    )


def update(pages: Pages, deck: str, **fields: str):
    return pages.post("/deck/update", {"deck": deck, **fields}, htmx=True)


def test_clicks_add_and_remove_lines(pages: Pages) -> None:
    added = update(pages, "", add="1 U 42")
    assert deck_text_of(added.text) == "1 Undead Drummer\n"
    # A name printed twice is written by its code, as `deck save` writes it.
    assert deck_text_of(update(pages, "", add="1 C 14").text) == "1 1 C 14\n"
    again = update(pages, "# my deck\n1 Chugawug Cook\nSide:\n2 Dirty Trick\n", add="1 C 14")
    assert deck_text_of(again.text) == "# my deck\n2 Chugawug Cook\nSide:\n2 Dirty Trick\n"
    other = update(pages, "2 Chugawug Cook\nSide:\n2 Dirty Trick\n", add="1 U 42")
    assert deck_text_of(other.text) == "2 Chugawug Cook\n1 Undead Drummer\nSide:\n2 Dirty Trick\n"
    more = update(pages, "2 Chugawug Cook\n1 Undead Drummer\n", more="2")
    assert deck_text_of(more.text) == "2 Chugawug Cook\n2 Undead Drummer\n"
    gone = update(pages, "2 Chugawug Cook\n1 Undead Drummer\n", less="2")
    assert deck_text_of(gone.text) == "2 Chugawug Cook\n"


def test_typing_gets_the_report_without_replacing_the_box(pages: Pages) -> None:
    typed = update(pages, "3 Chugawug Cook\n")
    assert 'id="deck-report"' in typed.text and 'id="deck-text"' not in typed.text


def test_a_deck_list_too_long_is_said_in_words(pages: Pages) -> None:
    """Past the page's limit, and past the form reader's: a line saying what, never
    'bad request'; the report says where its errors go, so the next change finds it."""
    over = update(pages, "x" * 1_000_001)
    assert over.status_code == 400 and "over 1,000,000 bytes" in error_of(over.text)
    unread = update(pages, "1 x\n" * 300_000)
    assert unread.status_code == 400 and "a box holds at most 1 MB" in error_of(unread.text)
    assert 'data-errors-in="deck-said"' in update(pages, "1 Undead Drummer\n").text


def test_the_verdict_explains_each_problem_as_deck_check(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    deck = "4 Chugawug Cook\n2 Chugawg Cook\n3 Undead Drummer\n"
    (tmp_path / "d.txt").write_text(deck)
    cli = run("deck", "check", str(tmp_path / "d.txt"), "-o", "json")
    problems = json.loads(cli.stdout)["problems"]
    page = update(pages, deck).text
    assert "✘" in page and "invalid" in text_of(page)
    shown = re.findall(r"<li><code>([^<]+)</code>: (.*?)</li>", page)
    import html

    expected = [
        (p["code"], p["message"] + (f" ({p['fix']})" if p["fix"] else "")) for p in problems
    ]
    assert [(code, html.unescape(message)) for code, message in shown] == expected
    assert any("did you mean Chugawug Cook" in message for _code, message in expected)


def test_a_legal_deck_gets_the_tick_stats_and_curve(pages: Pages) -> None:
    names = ["Pixie Dewdancer", "Chugawug Elder", "Mistfen Bog", "Sudden Growth", "Robgoblin Scrapper",
             "Undead Drummer", "Robgoblin Sneak", "Smoldering Scrapheap", "Dirty Trick", "Clockwork Sentry",
             "Clockwork Dragonfly", "Steam Forge", "Overclock", "Ninja Blade Adept"]  # fmt: skip
    deck = "".join(f"3 {name}\n" for name in names)  # 42 cards, three of each name
    page = update(pages, deck, owned="").text
    assert "✔" in page and "valid: 42 cards, Free Realms Constructed" in text_of(page)
    assert 'id="avg-gems"' in page and "<svg" in page and "Creature cost curve" in page
    owned = update(pages, deck, owned="1").text
    assert "not-owned" in owned and "the deck needs 3, you own 0 (get 3 more)" in owned


def test_save_open_and_delete_are_the_clis_saved_decks(pages: Pages, run: Run) -> None:
    saved = pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Bog Stew"})
    assert flash_of(saved.text) == "Saved 'Bog Stew': 3 cards, Free Realms Constructed"
    assert "Bog Stew" in run("deck", "list").stdout
    assert (
        deck_text_of(pages.get("/deck", params={"open": "bog stew"}).text)
        == run("deck", "show", "Bog Stew").stdout
    )
    twice = pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Bog Stew"})
    assert twice.status_code == 409 and "A deck named 'Bog Stew' exists" in text_of(twice.text)
    bad = pages.post("/deck/save", {"deck": "3 Chugawg Cook\n", "name": "Typo"})
    assert "did you mean Chugawug Cook" in error_of(bad.text) and "Nothing was saved" in error_of(
        bad.text
    )
    deleted = pages.post("/deck/delete", {"name": "Bog Stew"})
    assert flash_of(deleted.text) == "Deleted 'Bog Stew'."
    assert "No saved decks" in run("deck", "list").stdout


def test_downloads_are_deck_exports(pages: Pages) -> None:
    text = pages.post(
        "/deck/download", {"deck": "3 Chugawug Cook\n", "name": "../../etc/Bog", "kind": "txt"}
    )
    assert text.status_code == 200 and text.text == "Main:\n3 1 C 14\n"
    assert text.headers["content-disposition"] == 'attachment; filename="etcBog.txt"'
    book = pages.post(
        "/deck/download", {"deck": "3 Chugawug Cook\n", "name": "Bog", "kind": "xlsx"}
    )
    from openpyxl import load_workbook

    sheets = load_workbook(io.BytesIO(book.content)).sheetnames
    assert len(sheets) >= 2
    wrong = pages.post("/deck/download", {"deck": "3 Chugawug Cook\n", "kind": "exe"})
    assert wrong.status_code == 400


def test_proxies_are_the_clis_pdf_and_refusals_are_in_web_words(pages: Pages, run: Run) -> None:
    assert "Proxies (PDF)" in pages.get("/deck").text
    sheet = pages.post("/deck/proxies", {"deck": "3 Chugawug Cook\n", "name": "Bog"})
    assert sheet.status_code == 200, sheet.text
    assert sheet.headers["content-type"] == "application/pdf"
    assert sheet.headers["content-disposition"] == 'attachment; filename="Bog proxies.pdf"'
    assert sheet.content.startswith(b"%PDF-") and b"BitstreamVeraSans" in sheet.content
    assert run("add", "1 C 14 x3").exit_code == 0
    owned = pages.post("/deck/proxies", {"deck": "3 1 C 14\n", "name": "Bog", "missing": "1"})
    assert owned.status_code == 400
    assert "you own every card of 'Bog' (3 copies); nothing to print" in error_of(owned.text)
    paper = pages.post("/deck/proxies", {"deck": "3 1 C 14\n", "paper": "a5"})
    assert paper.status_code == 400
    said = error_of(paper.text)
    assert "unknown paper 'a5'" in said and "Choose a4 or letter" in said and "--" not in said
    typo = pages.post("/deck/proxies", {"deck": "3 Chugawg Cook\n", "name": "Typo"})
    assert "did you mean Chugawug Cook" in error_of(typo.text)


@pytest.fixture(scope="module")
def owner(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled catalogue with three of every Chaos card and one of each Hero."""
    path = tmp_path_factory.mktemp("helper") / "helper.db"
    schema.prepare(path, Library(path))
    run = Run(path)
    for query, copies in (("s:chaos", 3), ("is:hero", 1)):
        cards = json.loads(run("search", query, "-o", "json").stdout)
        assert (
            run("add", "-", input="\n".join(f"{copies}x{c['code']}" for c in cards)).exit_code == 0
        )
    return path


def test_the_helper_fills_a_legal_deck_or_says_what_is_short(owner: Path) -> None:
    pages = Pages(owner)
    built = pages.post("/deck/helper", {"sphere": "chaos", "heroes": "2"}, htmx=True).text
    assert "valid: 40 cards" in text_of(built)
    assert deck_text_of(built).count("\n") >= 10
    assert '<p class="toast" data-status>Built a Chaos deck: 40 cards</p>' in built
    short = pages.post(
        "/deck/helper", {"sphere": "order", "heroes": "2", "deck": "1 Chugawug Cook\n"}, htmx=True
    ).text
    assert "cannot build a Order deck" in text_of(short) or "cannot build an Order deck" in text_of(
        short
    )
    assert deck_text_of(short) == "1 Chugawug Cook\n"


def test_the_helper_has_the_command_lines_default_and_limits(tmp_path: Path) -> None:
    """Left blank, Heroes are the game's default (two, and more to fill), as `deck build`
    without --heroes; a bad number is the library's one line."""
    path = tmp_path / "m.db"
    schema.prepare(path, Library(path))
    run = Run(path)
    machine = json.loads(run("search", "s:machine t:creature", "-o", "json").stdout)[:12]
    heroes = json.loads(run("search", "is:hero", "-o", "json", "--limit", "100").stdout)
    items = [f"2x{c['code']}" for c in machine] + [f"3x{c['code']}" for c in heroes]
    assert run("add", "-", input="\n".join(items)).exit_code == 0
    pages = Pages(path)
    built = pages.post("/deck/helper", {"sphere": "machine", "heroes": ""}, htmx=True).text
    assert "valid: 40 cards" in text_of(built)
    assert run("deck", "build", "--sphere", "machine").exit_code == 0
    none = text_of(pages.post("/deck/helper", {"sphere": "machine", "heroes": "0"}, htmx=True).text)
    assert "and Heroes 0 allows 0 of them; 16 more needed; Heroes 16 would fill it" in none
    assert "--heroes" not in none
    for bad, said in (("41", "41 Heroes: choose 0 to 40"), ("x", "Heroes 'x' is not a number")):
        refused = pages.post("/deck/helper", {"sphere": "machine", "heroes": bad}, htmx=True)
        assert refused.status_code == 400 and said in error_of(refused.text)
    cli = run("deck", "build", "--sphere", "machine", "--heroes", "41")
    assert cli.exit_code == 2 and cli.stderr == "cardbase: 41 Heroes: choose 0 to 40\n"


def test_save_uses_the_name_field_for_a_new_and_a_renamed_deck(pages: Pages, run: Run) -> None:
    """One Name field: a new deck is saved under it, and an opened deck renamed is saved
    under the new name (the opened one stays as it was)."""
    page = pages.get("/deck").text
    assert "Save as" not in page and page.count('id="deck-name"') == 1
    assert re.search(r'<button type="submit" id="deck-save" formaction="/deck/save"', page)
    saved = pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Bog Stew"}, htmx=True)
    assert flash_of(saved.text) == "Saved 'Bog Stew': 3 cards, Free Realms Constructed"
    assert 'id="saved-decks" aria-labelledby="saved-title" hx-swap-oob="true"' in saved.text
    assert saved.headers["HX-Push-Url"] == "/deck?open=Bog+Stew"
    opened = pages.get("/deck", params={"open": "Bog Stew"}).text
    assert 'id="deck-name" name="name" value="Bog Stew"' in opened
    renamed = pages.post("/deck/save", {"deck": "4 Chugawug Cook\n", "name": "Bog Soup"})
    assert flash_of(renamed.text) == "Saved 'Bog Soup': 4 cards, Free Realms Constructed"
    listed = run("deck", "list").stdout
    assert "Bog Soup" in listed and "Bog Stew" in listed
    nameless = pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": " "}, htmx=True)
    assert nameless.status_code == 400 and "type one in Name" in error_of(nameless.text)


def test_a_name_clash_asks_in_the_page_and_replace_saves(pages: Pages, run: Run) -> None:
    pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Bog Stew"})
    deck = {"deck": "2 Undead Drummer\n", "name": "bog stew"}
    asked = pages.post("/deck/save", deck, htmx=True)
    assert asked.status_code == 409
    said = text_of(asked.text)
    assert said.startswith("A deck named 'bog stew' exists (the deck 'Bog Stew'")
    assert "Replace it? Replace 'Bog Stew' Cancel" in said
    assert 'name="replace" value="1"' in asked.text and "Bog Stew" in run("deck", "list").stdout
    whole = pages.post("/deck/save", deck)  # without JavaScript: the builder, the deck kept
    assert whole.status_code == 409 and "<h1>Deck Builder</h1>" in whole.text
    assert deck_text_of(whole.text) == "2 Undead Drummer\n" and "Replace it?" in whole.text
    replaced = pages.post("/deck/save", {**deck, "replace": "1"}, htmx=True)
    assert flash_of(replaced.text) == "Saved 'bog stew': 2 cards, Free Realms Constructed"
    assert "Undead Drummer" in run("deck", "show", "Bog Stew").stdout


def test_no_deck_page_says_a_command_line_flag(pages: Pages) -> None:
    """The deck pages speak the page's words: never --force or another option."""
    pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Bog Stew"})
    pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Ace"})
    answers = [
        pages.get("/deck"),
        pages.get("/deck", params={"open": "Bog Stew"}),
        pages.get("/deck", params={"open": "nothing like it"}),
        update(pages, "3 Chugawug Cook\n", add="1 U 42"),
        pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Bog Stew"}),
        pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "Bog Stew"}, htmx=True),
        pages.post("/deck/save", {"deck": "3 Chugawug Cook\n", "name": "\u0410\u0441\u0435"}),
        pages.post("/deck/delete", {"name": "Bog Sto"}),
    ]
    for answer in answers:
        assert not re.search(r"--[a-z]", text_of(answer.text)), text_of(answer.text)
    assert "Type 'Ace' in Name and Save" in error_of(answers[6].text)


def test_a_click_says_what_it_did_and_the_deck_is_grouped_by_type(pages: Pages) -> None:
    added = update(pages, "2 Undead Drummer\nSide:\n1 Dirty Trick\n", add="1 U 42").text
    assert re.search(r'<p class="toast" data-status>Added Undead Drummer: 3 in the deck</p>', added)
    assert 'id="deck-toast" hx-swap-oob="innerHTML"' in added
    summary = re.search(r'<p id="deck-summary" hx-swap-oob="innerHTML">(.*?)</p>', added, re.S)
    assert text_of(summary.group(1)) == "✘ 4 cards , invalid in Free Realms Constructed"
    groups = re.findall(r'<th colspan="5" scope="rowgroup">(.*?)</th>', added)
    assert [text_of(g) for g in groups] == ["Creature 3", "Side 1"]
    less = update(pages, "2 Undead Drummer\n", less="1").text
    assert '<p class="toast" data-status>Undead Drummer: 1 in the deck</p>' in less
    assert 'id="less-1"' in less and 'id="line-1"' in less  # the focus finds its control again
    typed = update(pages, "2 Undead Drummer\n").text
    assert "toast" not in typed


PLAYED = "3 Chugawug Cook\n3 Undead Drummer\n2 Mistfen Bog\n"


def test_the_deck_at_play_answers_as_the_command_line(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    """Odds, a hand and the code of the list as typed: `deck odds`, `deck hand`, `deck code`
    (the page's box takes the query language as the search box does: `!"Mistfen Bog"`)."""
    deck = tmp_path / "deck.txt"
    deck.write_text(PLAYED)
    asked = {"deck": PLAYED, "format": "free-realms", "odds_q": '!"Mistfen Bog"', "turn": "1"}
    odds = pages.post("/deck/odds", asked, htmx=True)
    assert odds.status_code == 200
    cli = json.loads(run("deck", "odds", str(deck), "!Mistfen Bog", "-o", "json").stdout)
    assert f"exactly {cli['exact']}" in text_of(odds.text)
    assert f"{cli['chance'] * 100:.1f}%" in text_of(odds.text)
    code = pages.post("/deck/code", {"deck": PLAYED, "format": "free-realms"}, htmx=True)
    assert f'value="{run("deck", "code", str(deck)).stdout.strip()}"' in code.text
    hand = pages.post("/deck/hand", {"deck": PLAYED, "format": "free-realms"}, htmx=True)
    assert len(re.findall(r"<li>", hand.text)) == 6
    whole = pages.post("/deck/odds", asked)  # without JavaScript: the whole page, answered
    assert "<nav" in whole.text and f"exactly {cli['exact']}" in text_of(whole.text)
    assert "Chugawug Cook" in deck_text_of(whole.text)


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        (
            {"odds_q": '!"Mistfen Bog"', "at_least": "3"},
            '3 of !"Mistfen Bog" wanted, but the deck has 2',
        ),
        ({"odds_q": "cost>"}, "expected a value"),
        ({"at_least": "x"}, "at least: a whole number from 0, not 'x'"),
    ],
)
def test_a_question_the_deck_cannot_answer_is_said_in_place(
    pages: Pages, fields: dict[str, str], said: str
) -> None:
    answer = pages.post(
        "/deck/odds", {"deck": PLAYED, "format": "free-realms", **fields}, htmx=True
    )
    assert said in text_of(answer.text) and "--" not in text_of(answer.text)


def test_a_deck_code_pasted_in_the_list_opens_as_its_cards(
    pages: Pages, run: Run, tmp_path: Path
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(PLAYED)
    code = run("deck", "code", str(deck)).stdout.strip()
    opened = pages.post("/deck/update", {"deck": f"  {code}\n", "format": "free-realms"}, htmx=True)
    assert opened.status_code == 200
    assert "Opened the deck code: 8 cards" in text_of(opened.text)
    # as a saved deck opens: by code where a name has several printings
    assert deck_text_of(opened.text) == "Main:\n3 1 C 14\n2 Mistfen Bog\n3 Undead Drummer\n"
    damaged = pages.post("/deck/update", {"deck": code[:-3], "format": "free-realms"}, htmx=True)
    assert damaged.status_code == 400 and "code" in error_of(damaged.text)
