"""Saved decks and deck files from the Deck Builder: save, delete and download, over the
same saved decks and writers as `deck save`, `deck delete` and `deck export`.

A download is written by the server into its own temporary folder under a name it makes;
nothing in a request names a path.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from cardbase.decks.check import get_format, place
from cardbase.decks.lists import parse_deck_text
from cardbase.errors import CardbaseError, first_few
from cardbase.text import plural
from cardbase.web.pages.decks import read_state
from cardbase.web.site import redirect, site_of, url

router = APIRouter()
SHOWN_PROBLEMS = 5  # as `deck save` quotes them
KINDS = {
    "txt": "text/plain; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@router.post("/deck/save")
def save(
    request: Request,
    deck: str = Form(""),
    name: str = Form(""),
    format_: str | None = Form(None, alias="format"),
    replace: bool = Form(False),
) -> Response:
    """`deck save`: every line must name a card; the deck need not be legal."""
    from cardbase.decks.saved import save_deck

    site = site_of(request)
    state = read_state(site, deck, format_, None, False, name)
    if not state.name:
        raise CardbaseError("a deck needs a name: type one beside Save")
    fmt = get_format(state.format)
    with site.connect(request) as conn:
        placed, problems = place(conn, parse_deck_text(state.text, state.name), fmt.game)
    if problems:
        listed = "; ".join(first_few([p.message for p in problems], SHOWN_PROBLEMS))
        raise CardbaseError(f"{state.name}: {listed}. Nothing was saved")
    if not placed:
        raise CardbaseError("the deck is empty: add cards before saving it")
    saved = save_deck(site.library(request), state.name, fmt.key, placed, replace=replace)
    return redirect(url("/deck", {"open": saved.name}),
                    f"Saved '{saved.name}': {plural(saved.cards, 'card')}, "
                    f"{fmt.title}")  # fmt: skip


@router.post("/deck/delete")
def delete(request: Request, name: str = Form(...)) -> Response:
    from cardbase.decks.saved import delete_deck, find_deck

    site = site_of(request)
    with site.connect(request) as conn:
        found = find_deck(conn, name)
    delete_deck(site.library(request), found)
    return redirect("/deck", f"Deleted '{found.name}'.")


def file_name(name: str, kind: str) -> str:
    """A download's name from the deck's: letters, digits, spaces, dots and dashes only."""
    cleaned = re.sub(r"[^\w .-]+", "", name, flags=re.ASCII).strip(" .")[:60] or "deck"
    return f"{cleaned}.{kind}"


@router.post("/deck/download")
def download(
    request: Request,
    deck: str = Form(""),
    name: str = Form(""),
    kind: str = Form("txt"),
    format_: str | None = Form(None, alias="format"),
) -> Response:
    """The deck as `deck export` writes it: a text list, or a workbook with a stats sheet
    and a cost chart."""
    from cardbase.decks.saved import deck_text
    from cardbase.decks.workbooks import write_deck

    if kind not in KINDS:
        raise CardbaseError(f"download as {' or '.join(KINDS)}")
    site = site_of(request)
    state = read_state(site, deck, format_, None, False, name or "deck")
    with site.connect(request) as conn:
        placed, _problems = place(conn, parse_deck_text(state.text, state.name),
                                  get_format(state.format).game)  # fmt: skip
        text = deck_text(conn, placed)
    if not placed:
        raise CardbaseError("the deck is empty: nothing to download")
    with tempfile.TemporaryDirectory(prefix="cardbase-deck-") as folder:
        target = Path(folder) / f"deck.{kind}"
        write_deck(target, state.name, placed, text)
        body = target.read_bytes()
    disposition = f'attachment; filename="{file_name(state.name, kind)}"'
    return Response(body, media_type=KINDS[kind], headers={"Content-Disposition": disposition})
