"""The card page: every field, a face drawn from the card's data, its printings, and the
copies held with +/- per finish and per holding (`cardbase add` / `remove` underneath)."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.catalog.cards import cards_named, detail_lines
from cardbase.catalog.names import NameResolver
from cardbase.collection.attributes import CONDITION_NAMES
from cardbase.collection.changes import Selector
from cardbase.errors import CardbaseError
from cardbase.fields import FOIL, NONFOIL
from cardbase.games import game_title
from cardbase.query import search as lib
from cardbase.web.faces import card_url, web_game
from cardbase.web.site import redirect, render, site_of, wants_json

router = APIRouter()


@router.get("/card/{text}", response_class=HTMLResponse)
def card_page(request: Request, text: str) -> Response:
    """A card by code (`1C14`, `1 C 14`) or by name, as `cardbase show` finds it."""
    return _shown(request, text, {})


def _shown(request: Request, text: str, refused: dict[str, str], status: int = 200) -> Response:
    """The card page; after a refused Add (`refused`: the message and the values sent), with
    the message beside the form and the values kept, so the one wrong box can be corrected."""
    site = site_of(request)
    with site.connect(request) as conn:
        resolver = NameResolver(conn, web_game(site.game))
        card = resolver.card(text)
        printings = cards_named(conn, card.name)
        copies = lib.search_copies(conn, lib.build_query(f'code:"{card.code}" game:{card.game}'))
        twins = [resolver.fetch(p) for p in resolver.numbered(card.code.series, card.code.number)
                 if p.rarity == card.code.rarity and p.game != card.game]  # fmt: skip
    context = {
        "card": card, "fields": detail_lines(card), "printings": printings, "copies": copies,
        "conditions": CONDITION_NAMES, "defaults": site.defaults, "asked": refused,
        "game": game_title(card.game), "twins": twins,
    }  # fmt: skip

    def twin() -> dict[str, object]:
        """`cardbase show -o json`, the copies held (`collection --copies -o json`), and
        the codes of its other printings."""
        return {"card": card.to_dict(), "copies": [copy.to_dict() for copy in copies],
                "printings": [str(p.code) for p in printings if p.id != card.id]}  # fmt: skip

    return render(request, "card.html", context, status, twin=twin)


@router.post("/card/{text}/copies")
def change_copies(
    request: Request,
    text: str,
    op: str = Form(...),
    finish: str = Form(NONFOIL),
    count: str = Form("1"),
    condition: str | None = Form(None),
    language: str | None = Form(None),
    location: str | None = Form(None),
    tags: str | None = Form(None),
    note: str | None = Form(None),
    holding: bool = Form(False),
) -> Response:
    """Copies more or less: of a finish with the attributes given (new copies get the
    configured condition and language where none is given), or of one holding, named by
    all its attributes; `cardbase add` and `remove` underneath, read by the same parsers."""
    if op not in ("add", "remove") or finish not in (NONFOIL, FOIL):
        raise CardbaseError("a change is add or remove, of a non-foil or foil copy")
    site = site_of(request)
    with site.connect(request) as conn:
        card = NameResolver(conn, web_game(site.game)).card(text)
    try:
        given = _attributes(condition, language, location, tags)
        if holding:  # exactly these copies: a blank location or tags is none, not any
            given = given._replace(location=given.location or "", tags=given.tags or "")
        item = f"{card.code_prefixed} x{_count(count)}"
        changes = site.library(request).change(
            op, [item], selector=given, foil=finish == FOIL, note=note or None
        )
    except CardbaseError as refused:
        if wants_json(request) or holding or op != "add":  # no boxes to correct: the line
            raise
        sent = {"count": count, "finish": finish, "condition": condition or "",
                "language": language or "", "location": location or "", "tags": tags or "",
                "note": note or ""}  # fmt: skip
        return _shown(request, card.code_prefixed, {"refused": refused.said("web"), **sent}, 400)
    message = "; ".join(change.describe() for change in changes) or "Nothing changed."
    return redirect(card_url(card, web_game(site.game)), message)


def _count(text: str) -> int:
    """The form's number of copies, within what one item may count (`cardbase add`'s)."""
    from cardbase.limits import MAX_COUNT

    cleaned = text.strip() or "1"
    if not cleaned.isdecimal() or not 1 <= int(cleaned) <= MAX_COUNT:
        shown = cleaned if len(cleaned) <= 20 else cleaned[:20] + "…"
        raise CardbaseError(f"copies must be a whole number from 1 to {MAX_COUNT}, not '{shown}'")
    return int(cleaned)


def _attributes(
    condition: str | None, language: str | None, location: str | None, tags: str | None
) -> Selector:
    """The form's attributes as `cardbase add --condition/--language/--location/--tag` reads
    them (the same parsers): 'nm' is NM, and an unknown language, a control character or a
    double quote in a location is the command line's message, before anything is stored."""
    from cardbase.library import Library

    # A form sends "" for a field left blank: not given, except a location ("" is none).
    return Library.selector(condition or None, language or None, location, tags or None)
