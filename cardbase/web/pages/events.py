"""Event pages: every event, and one event's current pairings (by table and by name) and
standings, with a print view for the tables' walls; `event list`, `event show` and `event
standings` underneath, and each page's JSON twin is what their ``-o json`` gives."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.web.site import render, site_of

router = APIRouter()


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
    for player in whole["players"]:  # lists stay hidden from other players
        player.pop("deck", None)
        player.pop("verdict", None)
    context = {"state": state, "seats": seats, "by_name": by_name,
               "standings": state.standings(), "keys": state.event.tiebreakers}  # fmt: skip
    return render(request, "event.html", context, twin=lambda: whole)
