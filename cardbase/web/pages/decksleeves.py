"""Built decks from the Deck Builder: Mark as built and Unsleeve beside each saved deck,
over the same library calls as `deck sleeve` and `deck unsleeve`; what was taken, or the
shortfall, said in the page (the JSON twin is the library's result)."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import JSONResponse, Response

from cardbase.decks.sleeves import Copies, ShortOfCopies, Sleeving
from cardbase.errors import first_few
from cardbase.text import plural
from cardbase.web.site import redirect, site_of, url, wants_json

router = APIRouter()
SHOWN = 8  # copies named in the page's line; the rest counted


@router.post("/deck/sleeve")
def sleeve(request: Request, name: str = Form(...), partial: bool = Form(False)) -> Response:
    """Mark as built (`deck sleeve`, `partial`: only what is free); a shortfall is said in
    the builder, the deck left as it was."""
    library = site_of(request).library(request)
    try:
        done = library.sleeve_deck(name, partial=partial)
    except ShortOfCopies as short:
        if wants_json(request):
            raise
        return redirect(url("/deck", {"open": short.deck}), short.said("web"))
    if wants_json(request):
        return JSONResponse(done.to_dict())
    return redirect(url("/deck", {"open": done.deck}), said(done, "Marked", "as built"))


@router.post("/deck/unsleeve")
def unsleeve(request: Request, name: str = Form(...)) -> Response:
    done = site_of(request).library(request).unsleeve_deck(name)
    if wants_json(request):
        return JSONResponse(done.to_dict())
    return redirect(url("/deck", {"open": done.deck}), said(done, "Unsleeved", ""))


def said(done: Sleeving, verb: str, what: str) -> str:
    """The result in a page's words: how much of the deck is sleeved, the copies taken and
    let go (by card, finish, condition, language, location), and what is still missing."""
    head = f"{verb} '{done.deck}'{' ' + what if what else ''}: {done.sleeved} of " \
           f"{plural(done.cards, 'card')} sleeved."  # fmt: skip
    parts = [head, _copies("Took", done.taken), _copies("Let go", done.released)]
    if done.missing:
        missing = "; ".join(m.describe() for m in done.missing)
        parts.append(
            f"Not free, still missing: {missing}. Proxies (PDF) with “only copies I lack” "
            "prints them."
        )
    return " ".join(part for part in parts if part)


def _copies(verb: str, copies: list[Copies]) -> str:
    if not copies:
        return ""
    shown = first_few([c.describe() for c in copies], SHOWN, "more")
    return f"{verb} {plural(sum(c.copies for c in copies), 'copy', 'copies')}: " \
           f"{'; '.join(shown)}."  # fmt: skip
