"""The collection page: `cardbase collection` and `cardbase stats` on one page (totals,
completion bars, copies per location and condition), with the search form as the filter,
and `cardbase undo` as a button."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.collection.stats import collection_stats
from cardbase.games import DEFAULT_GAME
from cardbase.query import search as lib
from cardbase.web.pages.queries import read_form, results_twin
from cardbase.web.pages.search import count_line, results_answer, search_context
from cardbase.web.site import redirect, render, site_of
from cardbase.web.superseded import Superseded

router = APIRouter()


@router.get("/collection", response_class=HTMLResponse)
def collection_page(request: Request) -> Response:
    try:
        context = search_context(request, "/collection", owned=True)
    except Superseded:  # a newer search from this tab: nobody waits for this one
        return Response(status_code=204)
    status = 400 if context["query_error"] else 200
    answer = results_answer(request, context)
    if answer is not None:
        return answer
    site = site_of(request)
    context["next_undo"] = next(iter(site.library(request).history(1, undoable=True)), None)
    with site.connect(request) as conn:
        stats = context["stats"] = collection_stats(conn, DEFAULT_GAME)
        if not context["query_error"]:
            context["matched"] = lib.owned_totals(conn, read_form(request.query_params).query(True))
    results = results_twin(context)

    def twin() -> dict[str, object]:
        """`cardbase stats -o json`, and the page of owned cards the filter shows."""
        return {"stats": stats.to_dict(), **results()}

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
