"""The Deck Builder's questions about the deck at play: the odds of drawing cards, a sample
opening hand, and its code to share; `deck odds`, `deck hand` and `deck code` on the list as
it is typed. An answer that cannot be given is said where the answer would be."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.db.engine import Connection
from cardbase.decks import operations
from cardbase.decks.check import get_format, place
from cardbase.decks.formats import Placed
from cardbase.decks.lists import parse_deck_text
from cardbase.errors import CardbaseError
from cardbase.web.pages.decks import page_context, panel, read_state
from cardbase.web.site import is_htmx, partial, render, site_of

router = APIRouter()


Question = Callable[[Connection, str, list[Placed]], dict[str, Any]]


def _answer(request: Request, deck: str, format_: str | None, name: str, ask: Question) -> Response:
    site = site_of(request)
    state = read_state(site, deck, format_, None, False, name)
    source = state.name or "the deck"
    with site.connect(request) as conn:
        placed, _problems = place(conn, parse_deck_text(state.text, source),
                                  get_format(state.format).game)  # fmt: skip
        try:
            answer = ask(conn, source, placed)
        except CardbaseError as refused:
            answer = {"refused": refused.said("web")}
        if is_htmx(request):
            return partial("_deck_play.html", {"play": answer})
        context = page_context(request, panel(conn, state))
    return render(request, "deck.html", {**context, "play": answer})


@router.post("/deck/odds", response_class=HTMLResponse)
def odds(
    request: Request,
    deck: str = Form(""),
    format_: str | None = Form(None, alias="format"),
    name: str = Form(""),
    odds_q: str = Form(""),
    at_least: str = Form("1"),
    turn: str = Form("1"),
    second: bool = Form(False),
) -> Response:
    """The chance of drawing the cards a query matches by a turn, as `deck odds` says it."""
    wanted, by_turn = _number(at_least, "at least", 0), _number(turn, "by turn", 1)

    def ask(conn: Connection, source: str, placed: list[Placed]) -> dict[str, Any]:
        found = operations.odds_of(conn, source, placed, [odds_q] if odds_q.strip() else [],
                                   wanted, None, by_turn, not second)  # fmt: skip
        return {"odds": found}

    return _answer(request, deck, format_, name, ask)


@router.post("/deck/hand", response_class=HTMLResponse)
def hand(
    request: Request, deck: str = Form(""), format_: str | None = Form(None, alias="format"),
    name: str = Form(""),
) -> Response:  # fmt: skip
    def ask(_conn: Connection, source: str, placed: list[Placed]) -> dict[str, Any]:
        return {"hand": operations.hand_of(source, placed, None, None)}

    return _answer(request, deck, format_, name, ask)


@router.post("/deck/code", response_class=HTMLResponse)
def code(
    request: Request, deck: str = Form(""), format_: str | None = Form(None, alias="format"),
    name: str = Form(""),
) -> Response:  # fmt: skip
    def ask(_conn: Connection, source: str, placed: list[Placed]) -> dict[str, Any]:
        return {"code": operations.code_of(source, placed)}

    return _answer(request, deck, format_, name, ask)


def _number(text: str, what: str, least: int) -> int:
    cleaned = text.strip() or str(least)
    if not cleaned.isdecimal() or len(cleaned) > 3 or int(cleaned) < least:
        raise CardbaseError(f"{what}: a whole number from {least}, not '{cleaned[:10]}'")
    return int(cleaned)
