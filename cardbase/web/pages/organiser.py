"""The organiser's page of an event, behind the PIN `serve --pin` was given: the players'
reports waiting, each confirmed with one click (or decided, when the two disagree), the
deck lists published or hidden, and the players' codes to hand out.

The PIN lives in the server alone; a right one earns a cookie holding the server's
session secret (`Site.organiser_session`), so nothing a player's phone holds can confirm
or publish. Every change is a POST with the page's CSRF token, as everywhere.
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from cardbase.errors import CardbaseError
from cardbase.web import tries
from cardbase.web.guard import Refused
from cardbase.web.pages.events import quoted, results_of
from cardbase.web.site import redirect, render, site_of, wants_json

router = APIRouter()
ORGANISER_COOKIE = "cardbase_organiser"
NO_PIN = (
    "the organiser's page is off: this server was started without an organiser PIN; "
    "restart it with one to confirm results and publish lists here"
)


def is_organiser(request: Request) -> bool:
    site = site_of(request)
    held = request.cookies.get(ORGANISER_COOKIE, "").encode("utf-8", "replace")
    return site.organiser_pin is not None and hmac.compare_digest(
        held, site.organiser_session.encode()
    )


def _require(request: Request) -> None:
    if site_of(request).organiser_pin is None:
        raise Refused(NO_PIN, 403)
    if not is_organiser(request):
        raise Refused("only the organiser can do that: enter the organiser's PIN first", 403)


def _page(request: Request, name: str, error: str = "", status: int = 200) -> Response:
    library = site_of(request).library(request)
    state = library.event(name)
    if not is_organiser(request):
        pin_set = site_of(request).organiser_pin is not None
        if wants_json(request):
            said = "enter the organiser's PIN first" if pin_set else NO_PIN
            return JSONResponse({"error": said, "status": 403}, 403)
        context = {"state": state, "signed_in": False, "error": error, "pin_set": pin_set}
        return render(request, "event_organiser.html", context, status)
    pending = library.pending_reports(name)

    def twin() -> dict[str, Any]:
        return {"event": state.event.name, "lists_published": state.event.lists_published,
                "pending": [p.to_dict() for p in pending],
                "players": [p.to_dict(with_deck=False, with_code=True)
                            for p in state.players]}  # fmt: skip

    context = {"state": state, "signed_in": True, "pending": pending, "error": error,
               "results": _table_results(state.event.best_of)}  # fmt: skip
    return render(request, "event_organiser.html", context, status, twin=twin)


def _table_results(best_of: int) -> list[str]:
    return [score for score, _ in results_of(best_of)]


@router.get("/events/{name}/organiser", response_class=HTMLResponse)
def organiser_page(request: Request, name: str) -> Response:
    return _page(request, name)


@router.post("/events/{name}/organiser", response_class=HTMLResponse)
def sign_in(request: Request, name: str, pin: str = Form("")) -> Response:
    site = site_of(request)
    if site.organiser_pin is None:
        raise Refused(NO_PIN, 403)
    tries.check(request)
    if not hmac.compare_digest(pin.strip().encode("utf-8", "replace"),
                               site.organiser_pin.encode()):  # fmt: skip
        tries.wrong(request)
        return _page(request, name, "that is not the organiser's PIN", 403)
    response = redirect(f"/events/{quoted(name)}/organiser", "Signed in as the organiser.")
    response.set_cookie(ORGANISER_COOKIE, site.organiser_session, httponly=True,
                        samesite="strict")  # fmt: skip
    return response


@router.post("/events/{name}/confirm", response_class=HTMLResponse)
def confirm(
    request: Request, name: str, table: int = Form(...), result: str = Form("")
) -> Response:
    """A table's result as its players sent it, or as the organiser picks it (the table's
    first player's side first) when they disagree."""
    _require(request)
    try:
        done = site_of(request).library(request).confirm(name, table, result or None)
    except CardbaseError as exc:
        return _page(request, name, exc.said("web"), 400)
    seat = done.seat
    said = f"Table {seat.number} confirmed: {seat.first} v {seat.second} {_score(seat)}."
    if done.closed:
        said += f" Round {seat.round} is over."
    return redirect(f"/events/{quoted(name)}/organiser", said)


def _score(seat: Any) -> str:
    from cardbase.events.operations import score_of

    return str(score_of(seat))


@router.post("/events/{name}/publish", response_class=HTMLResponse)
def publish(request: Request, name: str, published: str = Form("1")) -> Response:
    _require(request)
    event = site_of(request).library(request).publish_lists(name, published == "1")
    said = "Deck lists published." if event.lists_published else "Deck lists hidden."
    return redirect(f"/events/{quoted(name)}/organiser", said)
