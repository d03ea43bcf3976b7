"""A saved deck's versions in the Deck Builder: the History list beside an opened deck, and
its Restore buttons, over the same library calls as `deck history` and `deck restore`."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import JSONResponse, Response

from cardbase.db.engine import Connection
from cardbase.decks.versions import Version, history
from cardbase.text import plural
from cardbase.web.site import redirect, site_of, url, wants_json

router = APIRouter()


def versions_of(conn: Connection, name: str) -> list[Version]:
    """The opened deck's versions, newest first (none for a list not saved)."""
    return list(reversed(history(conn, name)[1])) if name else []


@router.post("/deck/restore")
def restore(request: Request, name: str = Form(...), version: str = Form(...)) -> Response:
    """`deck restore`: the version's cards saved again as the newest version."""
    done = site_of(request).library(request).restore_deck(name, version)
    if wants_json(request):
        return JSONResponse(done.to_dict())
    said = (
        f"Restored '{done.deck.name}' version {done.restored} as version {done.number}: "
        f"{plural(done.deck.cards, 'card')}"
    )
    return redirect(url("/deck", {"open": done.deck.name}), said)
