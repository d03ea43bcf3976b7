"""Event pages: every event, one event's current pairings (by table and by name) and
standings with a print view for the tables' walls, and a player's own page: their table,
their standing and their table's result to send, by the code the organiser gave them.

Each page's JSON twin is the library's result (`event list`, `event show` less what
players may not see, `player_view`). Deck lists show only once the organiser publishes
them; a player's code never shows but to its player, and what a player sends is stored as
theirs alone (`cardbase.events.reports`): the table they report is the one their code sits
at, whatever the form says.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.errors import CardbaseError
from cardbase.web import tries
from cardbase.web.site import redirect, render, site_of

router = APIRouter()
PLAYER_COOKIE = "cardbase_player_{}"  # per event (its id): the code a phone reports with


@router.get("/events", response_class=HTMLResponse)
def events_page(request: Request) -> Response:
    found = site_of(request).library(request).events()

    def twin() -> list[dict[str, Any]]:
        return [{**e.to_dict(), "players": n, "rounds_paired": r} for e, n, r in found]

    return render(request, "events.html", {"events": found}, twin=twin)


@router.get("/events/{name}", response_class=HTMLResponse)
def event_page(request: Request, name: str) -> Response:
    from cardbase.events.export import event_dict

    state = site_of(request).library(request).event(name)
    seats = state.round_seats()
    by_name = sorted(
        [(s.first, s.second, s) for s in seats]
        + [(s.second, s.first, s) for s in seats if s.second],
        key=lambda row: (row[0] or "").casefold(),
    )
    whole = event_dict(state)
    published = state.event.lists_published
    if not published:  # lists stay hidden from other players until the organiser publishes
        for player in whole["players"]:
            player.pop("deck", None)
            player.pop("verdict", None)
    context = {"state": state, "seats": seats, "by_name": by_name, "published": published,
               "standings": state.standings(), "keys": state.event.tiebreakers}  # fmt: skip
    return render(request, "event.html", context, twin=lambda: whole)


# -- a player's own page ------------------------------------------------------------------


def _cookie(request: Request, name: str) -> tuple[str, str]:
    """The event's cookie name and the code it holds ("" if none)."""
    event = site_of(request).library(request).event(name).event
    key = PLAYER_COOKIE.format(event.id)
    return key, request.cookies.get(key, "")


def results_of(best_of: int) -> list[tuple[str, str]]:
    """Every result a best-of-`best_of` match can end in, from the player's side, with
    words for it: a phone picks one rather than typing a dash."""
    needed = best_of // 2 + 1
    found = []
    for won in range(needed, -1, -1):
        for lost in range(needed + 1):
            for drawn in range(0, 2):
                if (won == lost == needed) or won + lost + drawn == 0:
                    continue
                score = f"{won}-{lost}" + (f"-{drawn}" if drawn else "")
                said = f"you won {won}, they won {lost}" + (", a game drawn" if drawn else "")
                found.append((score, f"{score}: {said}"))
    return [*found, ("id", "intentional draw")]


def _me(request: Request, name: str, code: str, error: str = "", status: int = 200) -> Response:
    library = site_of(request).library(request)
    if not code:
        event = library.event(name).event
        return render(request, "event_me.html", {"event": event, "view": None, "error": error},
                      status, twin=lambda: {"event": event.name, "player": None})  # fmt: skip
    view = library.player_view(name, code)
    context = {"event": view.event, "view": view, "error": error,
               "results": results_of(view.event.best_of)}  # fmt: skip
    return render(request, "event_me.html", context, status, twin=view.to_dict)


def _known(request: Request, name: str, code: str) -> bool:
    """Whether `code` is a player's of the event; a wrong one counts as the device's try
    (a cookie is typed by a guesser as easily as a form)."""
    tries.check(request)
    try:
        site_of(request).library(request).player_view(name, code)
    except CardbaseError:
        tries.wrong(request)
        return False
    return True


@router.get("/events/{name}/me", response_class=HTMLResponse)
def me_page(request: Request, name: str) -> Response:
    key, code = _cookie(request, name)
    if code and not _known(request, name, code):  # no longer a player here: ask again
        response = _me(request, name, "")
        response.delete_cookie(key)
        return response
    return _me(request, name, code)


@router.post("/events/{name}/me", response_class=HTMLResponse)
def me_code(request: Request, name: str, code: str = Form("")) -> Response:
    """The code typed on the phone: kept in a cookie for this event, then the player's
    page; a wrong code is said in the page, and counts towards the device's tries."""
    key, _ = _cookie(request, name)
    if not _known(request, name, code):
        said = "that code is no player's of this event; check the code the organiser gave you"
        return _me(request, name, "", said, 400)
    response = redirect(f"/events/{quoted(name)}/me")
    cleaned = "".join(code.split()).upper()
    response.set_cookie(key, cleaned, httponly=True, samesite="strict", max_age=86400)
    return response


@router.post("/events/{name}/me/report", response_class=HTMLResponse)
def me_report(
    request: Request, name: str, result: str = Form(""), pairing: int = Form(...)
) -> Response:
    """The player's result for their own table; the pairing the form names must be theirs."""
    _, code = _cookie(request, name)
    if not code or not _known(request, name, code):
        return _me(request, name, "", "type your code first: the organiser gave it to you", 400)
    try:
        sent = site_of(request).library(request).player_report(name, code, result, pairing)
    except CardbaseError as exc:
        return _me(request, name, code, exc.said("web"), 400)
    return redirect(
        f"/events/{quoted(name)}/me",
        f"Sent {sent.score} for table {sent.seat.number}: the organiser confirms it.",
    )


@router.post("/events/{name}/me/forget", response_class=HTMLResponse)
def me_forget(request: Request, name: str) -> Response:
    """This phone forgets the code (a borrowed phone, a player done for the day)."""
    key, _ = _cookie(request, name)
    response = redirect(f"/events/{quoted(name)}/me", "This device has forgotten the code.")
    response.delete_cookie(key)
    return response


def quoted(name: str) -> str:
    from urllib.parse import quote

    return quote(name, safe="")
