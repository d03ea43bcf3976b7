"""Saved decks and deck files from the Deck Builder: save, delete and download, over the
same saved decks and writers as `deck save`, `deck delete` and `deck export`.

A download is written by the server into its own temporary folder under a name it makes;
nothing in a request names a path.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import APIRouter, Form, Request
from fastapi.responses import Response

from cardbase.decks.check import get_format, place
from cardbase.decks.lists import parse_deck_text
from cardbase.errors import CardbaseError, first_few
from cardbase.text import plural
from cardbase.web.pages.decks import DeckState, page_context, panel, read_state
from cardbase.web.site import is_htmx, partial, redirect, render, site_of, url

if TYPE_CHECKING:
    from cardbase.decks.saved import DeckExistsError

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
    players: str | None = Form(None),
    owned: bool = Form(False),
    replace: bool = Form(False),
) -> Response:
    """`deck save` under the Name field's name: every line must name a card (the deck need
    not be legal). A name taken is a question on the page, whose Replace saves with
    `replace`; with htmx only the save line (and the saved decks) change, the deck stays."""
    from cardbase.decks.saved import DeckExistsError
    from cardbase.web.pages.decks import saved_decks

    site = site_of(request)
    state = read_state(site, deck, format_, players, owned, name)
    try:
        message, saved = _save(request, state, replace)
    except DeckExistsError as clash:
        return _ask(request, state, clash)
    if not is_htmx(request):
        return redirect(url("/deck", {"open": saved}), message)
    with site.connect(request) as conn:
        decks = saved_decks(conn)
    response = partial("_deck_saved.html", {"said": message, **decks, "oob": True,
                                            "csrf": site.csrf_token})  # fmt: skip
    response.headers["HX-Push-Url"] = url("/deck", {"open": saved})
    return response


def _save(request: Request, state: DeckState, replace: bool) -> tuple[str, str]:
    """The deck saved: what to say, and the name it was saved under."""
    from cardbase.decks.saved import save_deck

    if not state.name:
        raise CardbaseError("a deck needs a name: type one in Name, then Save")
    fmt = get_format(state.format)
    site = site_of(request)
    with site.connect(request) as conn:
        placed, problems = place(conn, parse_deck_text(state.text, state.name), fmt.game)
    if problems:
        listed = "; ".join(first_few([p.message for p in problems], SHOWN_PROBLEMS))
        raise CardbaseError(f"{state.name}: {listed}. Nothing was saved")
    if not placed:
        raise CardbaseError("the deck is empty: add cards before saving it")
    saved = save_deck(site.library(request), state.name, fmt.key, placed, replace=replace)
    return f"Saved '{saved.name}': {plural(saved.cards, 'card')}, {fmt.title}", saved.name


def _ask(request: Request, state: DeckState, clash: DeckExistsError) -> Response:
    """The name is taken: ask, in the page, whether to replace that deck (409, nothing
    saved); without htmx the whole builder again, the deck as it was sent."""
    said = clash.said("web")
    asked = {"clash": clash, "question": said[:1].upper() + said[1:]}
    if is_htmx(request):
        return partial("_deck_asked.html", asked, status=409)
    with site_of(request).connect(request) as conn:
        shown = panel(conn, state)
    return render(request, "deck.html", {**page_context(request, shown), **asked, "asked": True},
                  status=409)  # fmt: skip


@router.post("/deck/delete")
def delete(request: Request, name: str = Form(...)) -> Response:
    from cardbase.decks.saved import delete_deck, deleted, find_deck

    site = site_of(request)
    with site.connect(request) as conn:
        found = find_deck(conn, name)
    return redirect("/deck", deleted(found, delete_deck(site.library(request), found)))


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


@router.post("/deck/proxies")
def proxies(
    request: Request,
    deck: str = Form(""),
    name: str = Form(""),
    format_: str | None = Form(None, alias="format"),
    paper: str = Form("a4"),
    missing: bool = Form(False),
) -> Response:
    """`deck proxies`: the deck's cards (with `missing`, only the copies this collector lacks)
    as a print-ready PDF at true size, nine a page with cut marks."""
    from cardbase.decks.operations import proxies_of
    from cardbase.decks.proxies import check_can_draw
    from cardbase.decks.proxylayout import paper_size

    check_can_draw()
    paper_size(paper)
    site = site_of(request)
    state = read_state(site, deck, format_, None, False, name or "deck")
    with site.connect(request) as conn:
        placed, problems = place(conn, parse_deck_text(state.text, state.name),
                                 get_format(state.format).game)  # fmt: skip
        if problems:
            listed = "; ".join(first_few([p.message for p in problems], SHOWN_PROBLEMS))
            raise CardbaseError(f"{state.name}: {listed}. No proxies were made")
        if not placed:
            raise CardbaseError("the deck is empty: add cards before making proxies")
        with tempfile.TemporaryDirectory(prefix="cardbase-proxies-") as folder:
            target = Path(folder) / "proxies.pdf"
            proxies_of(conn, state.name, placed, target, missing=missing, paper=paper)
            body = target.read_bytes()
    disposition = f'attachment; filename="{file_name(state.name + " proxies", "pdf")}"'
    return Response(body, media_type="application/pdf",
                    headers={"Content-Disposition": disposition})  # fmt: skip
