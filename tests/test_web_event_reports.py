"""The event pages on the floor: a player's own page by code (their table, standing and a
form for their own table's result), the organiser's page behind the PIN (reports waiting,
Confirm, Publish lists), and the refusals: another table, a forged pairing, no PIN, a
guesser's tries; each page's JSON twin the library's result."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")

from cardbase.library import Library
from tests.helpers import Run, assert_one_line
from tests.test_events import LEGAL, stored
from tests.web_helpers import Pages, error_of, flash_of, text_of

EVENT = "Spring Open"
PIN = "4817"


@pytest.fixture
def library(db_path: Path, tmp_path: Path) -> Library:
    library = Library(db_path)
    library.create_event(EVENT, "free-realms", seed=7)
    deck = tmp_path / "ann.txt"
    deck.write_text(LEGAL)
    library.register(EVENT, "Ann", deck)
    for player in ("Bo", "Cy", "Di", "Ed"):
        library.register(EVENT, player)
    library.pair(EVENT)
    return library


@pytest.fixture
def pages(library: Library, db_path: Path) -> Pages:
    return Pages(db_path, organiser_pin=PIN)


def code_of(library: Library, player: str) -> str:
    return next(p.code for p in library.event(EVENT).players if p.name == player)


def played(library: Library) -> list:  # type: ignore[type-arg]
    return [s for s in library.event(EVENT).round_seats() if s.second is not None]


def sign_in_player(pages: Pages, code: str):  # type: ignore[no-untyped-def]
    return pages.post(f"/events/{EVENT}/me", {"code": code}, follow_redirects=True)


def sign_in_organiser(pages: Pages, pin: str = PIN):  # type: ignore[no-untyped-def]
    return pages.post(f"/events/{EVENT}/organiser", {"pin": pin}, follow_redirects=True)


def test_a_player_sees_their_table_and_reports_it(pages: Pages, library: Library) -> None:
    seat = played(library)[0]
    asked = pages.get(f"/events/{EVENT}/me")
    assert asked.status_code == 200 and 'name="code"' in asked.text
    assert pages.get(f"/events/{EVENT}/me.json").json() == {"event": EVENT, "player": None}
    page = sign_in_player(pages, code_of(library, seat.second).lower())
    words = text_of(page.text)
    assert f"Table {seat.number} : you play {seat.first} ." in words and "Your standing" in words
    code = code_of(library, seat.second)
    assert code not in page.text  # the code stays in the cookie
    twin = pages.get(f"/events/{EVENT}/me.json").json()
    assert twin == library.player_view(EVENT, code).to_dict()
    sent = pages.post(f"/events/{EVENT}/me/report", {"result": "1-2", "pairing": str(seat.id)},
                      follow_redirects=True)  # fmt: skip
    assert flash_of(sent.text) == f"Sent 1-2 for table {seat.number}: the organiser confirms it."
    assert "You sent 1-2" in text_of(sent.text)
    [waiting] = library.pending_reports(EVENT)
    assert str(waiting.agreed) == "2-1"  # the table's first player's games first
    assert not played(library)[0].reported  # not the result until the organiser confirms


def test_a_player_cannot_report_another_table(pages: Pages, library: Library) -> None:
    mine, theirs = played(library)[:2]
    sign_in_player(pages, code_of(library, mine.first))
    before = stored(library)
    forged = pages.post(f"/events/{EVENT}/me/report",
                        {"result": "2-0", "pairing": str(theirs.id)})  # fmt: skip
    assert forged.status_code == 400
    assert error_of(forged.text).startswith(f"that is not {mine.first}'s table")
    nothing = pages.post(f"/events/{EVENT}/me/report", {"result": "2-0", "pairing": "999999"})
    assert nothing.status_code == 400 and "not" in error_of(nothing.text)
    assert stored(library) == before and library.pending_reports(EVENT) == []


def test_a_wrong_code_is_said_in_the_page_and_tries_run_out(pages: Pages) -> None:
    wrong = sign_in_player(pages, "AAAAAA")
    assert wrong.status_code == 400
    assert "that code is no player's of this event" in error_of(wrong.text).lower()
    assert "--" not in error_of(wrong.text)  # web words, no command line's options
    for _ in range(9):
        sign_in_player(pages, "AAAAAA")
    stopped = sign_in_player(pages, "AAAAAA")
    assert stopped.status_code == 429 and "too many wrong codes" in text_of(stopped.text)


def test_a_forged_cookie_reports_nothing(pages: Pages, library: Library) -> None:
    event = library.event(EVENT).event
    pages.client.cookies.set(f"cardbase_player_{event.id}", "AAAAAA")
    seat = played(library)[0]
    sent = pages.post(f"/events/{EVENT}/me/report", {"result": "2-0", "pairing": str(seat.id)})
    assert sent.status_code == 400 and library.pending_reports(EVENT) == []


def test_without_the_pin_no_confirm_or_publish(pages: Pages, library: Library) -> None:
    seat = played(library)[0]
    pages.post(f"/events/{EVENT}/me", {"code": code_of(library, seat.first)})
    pages.post(f"/events/{EVENT}/me/report", {"result": "2-0", "pairing": str(seat.id)})
    before = stored(library)
    asked = pages.get(f"/events/{EVENT}/organiser")
    assert asked.status_code == 200 and 'name="pin"' in asked.text and "Confirm" not in asked.text
    assert pages.get(f"/events/{EVENT}/organiser.json").status_code == 403
    for path, form in (("confirm", {"table": str(seat.number)}), ("publish", {"published": "1"})):
        refused = pages.post(f"/events/{EVENT}/{path}", form)
        assert refused.status_code == 403, path
        assert "only the organiser can do that" in text_of(refused.text)
    wrong = sign_in_organiser(pages, "0000")
    assert wrong.status_code == 403 and "not the organiser's PIN" in error_of(wrong.text)
    pages.client.cookies.set("cardbase_organiser", "guess")
    assert pages.post(f"/events/{EVENT}/publish", {"published": "1"}).status_code == 403
    assert stored(library) == before


def test_no_pin_no_organiser_page(library: Library, db_path: Path) -> None:
    pages = Pages(db_path)
    page = pages.get(f"/events/{EVENT}/organiser")
    assert "started without an organiser PIN" in text_of(page.text)
    refused = pages.post(f"/events/{EVENT}/organiser", {"pin": ""})
    assert refused.status_code == 403


def test_the_organiser_confirms_and_publishes(pages: Pages, library: Library) -> None:
    agree, differ = played(library)[:2]
    for seat, first, second in ((agree, "2-1", "1-2"), (differ, "2-0", "2-0")):
        for player, result in ((seat.first, first), (seat.second, second)):
            library.player_report(EVENT, code_of(library, player), result)
    page = sign_in_organiser(pages)
    assert flash_of(page.text) == "Signed in as the organiser."
    words = text_of(page.text)
    assert "Confirm 2-1 (both agree)" in words and "They disagree" in words
    assert all(p.code in page.text for p in library.event(EVENT).players)  # to hand out
    twin = pages.get(f"/events/{EVENT}/organiser.json").json()
    assert twin["pending"] == [p.to_dict() for p in library.pending_reports(EVENT)]
    done = pages.post(f"/events/{EVENT}/confirm", {"table": str(agree.number)},
                      follow_redirects=True)  # fmt: skip
    assert flash_of(done.text).startswith(f"Table {agree.number} confirmed: ")
    assert played(library)[0].first_games == 2 and played(library)[0].confirmed
    bad = pages.post(f"/events/{EVENT}/confirm", {"table": str(differ.number)})
    assert bad.status_code == 400 and "players disagree" in error_of(bad.text)
    decided = pages.post(f"/events/{EVENT}/confirm",
                         {"table": str(differ.number), "result": "0-2"}, follow_redirects=True)  # fmt: skip
    assert flash_of(decided.text).endswith("0-2. Round 1 is over.")
    assert "Pixie Dewdancer" not in pages.get(f"/events/{EVENT}").text
    assert all("deck" not in p for p in pages.get(f"/events/{EVENT}.json").json()["players"])
    pages.post(f"/events/{EVENT}/publish", {"published": "1"})
    shown = pages.get(f"/events/{EVENT}")
    assert "Deck lists" in text_of(shown.text) and "Pixie Dewdancer" in shown.text
    twin = pages.get(f"/events/{EVENT}.json").json()
    assert twin["players"][0]["deck"] == library.event(EVENT).players[0].deck
    # the lists once, in the page, and the title the event's name alone
    assert shown.text.count('id="lists-title"') == 1
    assert re.search(r"<title>([^<]*)</title>", shown.text).group(1) == f"{EVENT} · cardbase"


def test_no_page_a_player_sees_shows_a_code(pages: Pages, library: Library) -> None:
    codes = [p.code for p in library.event(EVENT).players]
    for path in ("/events", f"/events/{EVENT}", f"/events/{EVENT}.json", f"/events/{EVENT}/me"):
        body = pages.get(path).text
        assert not any(code in body for code in codes), path


@pytest.mark.parametrize(
    ("args", "typed", "pin"),
    [(["--pin", "4817"], None, "4817"), (["--pin", "-"], "9021\n9021\n", "9021"), ([], None, None)],
)
def test_serve_takes_the_pin_given_or_typed(
    run: Run, monkeypatch: pytest.MonkeyPatch, args: list[str], typed: str | None,
    pin: str | None,
) -> None:  # fmt: skip
    """The PIN goes to the server alone (its `Site`), never into the database."""
    from cardbase.web import server

    started: list[object] = []
    monkeypatch.setattr(server, "run", lambda site, *rest: started.append(site))
    result = run("serve", *args, input=typed)
    assert result.exit_code == 0, result.output
    assert [getattr(site, "organiser_pin", None) for site in started] == [pin]
    assert pin is None or pin not in run.db_path.read_bytes().decode("latin-1")


def test_a_short_pin_is_one_line(run: Run) -> None:
    assert "--pin: give at least 4 characters" in assert_one_line(run("serve", "--pin", "12"))
