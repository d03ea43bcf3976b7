"""The collection page: `cardbase collection` and `cardbase stats` on one page (totals,
completion bars, copies per location and condition), with the search form as the filter,
and `cardbase undo` as a button."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.collection.sleeved import in_decks_by_card, with_decks
from cardbase.collection.stats import collection_stats
from cardbase.query import search as lib
from cardbase.web.faces import web_game
from cardbase.web.pages.queries import Results, read_form, results_twin
from cardbase.web.pages.search import count_line, results_answer, search_context
from cardbase.web.site import redirect, render, site_of
from cardbase.web.superseded import Superseded

router = APIRouter()


@router.get("/collection", response_class=HTMLResponse)
def collection_page(request: Request) -> Response:
    try:
        context = search_context(request, "/collection", owned=True)
    except Superseded:  # a newer search from this tab, or its client gone: nobody waits
        return Response(status_code=204)
    status = 400 if context["query_error"] else 200
    site = site_of(request)
    shown: Results | None = None if context["query_error"] else context["results"]  # type: ignore[assignment]
    cards = shown.cards if shown else []
    with site.connect(request) as conn:  # the page's cards' copies in built decks
        in_decks = context["in_decks"] = in_decks_by_card(conn, (card.id for card in cards))
    answer = results_answer(request, context)
    if answer is not None:
        return answer
    context["next_undo"] = next(iter(site.library(request).history(1, undoable=True)), None)
    with site.connect(request) as conn:
        stats = context["stats"] = collection_stats(conn, web_game(site.game))  # as `stats`
        if not context["query_error"]:
            context["matched"] = lib.owned_totals(conn, read_form(request.query_params).query(True))
    results = results_twin(context)

    def twin() -> dict[str, object]:
        """`cardbase stats -o json`, and the page of owned cards the filter shows, each with
        its copies in built decks and free ones, as `collection -o json` gives them."""
        found = results()
        if "cards" in found:
            pairs = zip(found["cards"], cards, strict=True)
            found["cards"] = [with_decks(one, card.owned, in_decks.get(card.id, 0))
                              for one, card in pairs]  # fmt: skip
        return {"stats": stats.to_dict(), **found}

    return render(request, "collection.html", context, status, twin=twin)


@router.get("/collection/count", response_class=HTMLResponse)
def collection_count(request: Request) -> HTMLResponse:
    return count_line(request, owned=True)


@router.post("/undo")
def undo(request: Request, back: str = Form("/collection")) -> Response:
    """Revert the collector's last change (a command, a page's +/-, or a whole import)."""

    site = site_of(request)
    batch = site.library(request).undo()
    if batch is None:
        message = "Nothing to undo."
    else:
        changes = "; ".join(change.describe() for change in batch.changes[:5])
        more = f" and {len(batch.changes) - 5} more" if len(batch.changes) > 5 else ""
        message = f"Undid batch {batch.id} ({batch.source}): {changes}{more}"
    return redirect(
        back if back in ("/collection", "/import", "/trades") else "/collection", message
    )
