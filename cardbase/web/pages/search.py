"""The search page: `cardbase search` with a form, paged results and sortable columns."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.errors import QueryError
from cardbase.query.advice import correction
from cardbase.web.pages.queries import (
    COLUMNS,
    CONTROLS,
    PAGE_SIZES,
    VIEWS,
    count_matches,
    read_form,
    results_twin,
    run_search,
)
from cardbase.web.site import is_htmx, partial, render, site_of, url
from cardbase.web.superseded import Superseded

router = APIRouter()


def search_context(request: Request, path: str, owned: bool = False) -> dict[str, object]:
    """The form, and its results or the query error with its caret, as the terminal shows
    it; shared with the collection page, which is this search over owned cards."""
    form = read_form(request.query_params)
    context: dict[str, object] = {
        "form": form, "controls": CONTROLS, "columns": COLUMNS, "sizes": PAGE_SIZES,
        "path": path, "url": url, "results": None, "query_error": None, "owned_only": owned,
        "query_fix": None, "incomplete": False, "views": VIEWS,
    }  # fmt: skip
    try:
        with site_of(request).searching(request, supersedes=is_htmx(request)) as conn:
            context["results"] = run_search(conn, form, owned)
    except QueryError as exc:
        context["query_error"] = exc.said("web")
        context["query_fix"] = correction(exc, form.text)
        context["incomplete"] = exc.incomplete
    return context


def is_typing(request: Request) -> bool:
    """A request that search-as-you-type sent when the typing paused (app.js marks it), not
    one the person sent with Enter or the button."""
    return is_htmx(request) and request.headers.get("x-cardbase-typing") == "1"


def results_answer(request: Request, context: dict[str, object]) -> Response | None:
    """The answer to an htmx request for the results alone: nothing (204, so the last
    results stay) while a query still being typed is incomplete (`cost>`, a quote not yet
    closed), else the results or the error. None: the request wants the whole page."""
    if context["incomplete"] and is_typing(request):
        return Response(status_code=204)
    if is_htmx(request) and request.headers.get("hx-target") == "results":
        status = 400 if context["query_error"] else 200
        return partial("_results.html", context, status, request)
    return None


@router.get("/search", response_class=HTMLResponse)
def search_page(request: Request) -> Response:
    try:
        context = search_context(request, "/search")
    except Superseded:  # a newer search from this tab, or its client gone: nobody waits
        return Response(status_code=204)
    status = 400 if context["query_error"] else 200
    answer = results_answer(request, context)
    if answer is not None:
        return answer
    return render(request, "search.html", context, status, twin=results_twin(context))


def count_line(request: Request, owned: bool = False) -> HTMLResponse:
    """How many cards match and how many pages that makes: the line the results page
    fetches once its cards are shown."""
    form = read_form(request.query_params)
    site = site_of(request)
    key = (site.collector_of(request), owned, form.text, tuple(sorted(form.filters.items())))

    def counted() -> int:
        with site.searching(request) as conn:
            return count_matches(conn, form, owned)

    try:
        total = site.counts.count(key, counted)
    except QueryError:
        total = 0
    except Superseded:
        return HTMLResponse(status_code=204)
    pages = max(1, -(-total // form.size))
    return partial("_count.html", {"total": total, "page": form.page, "pages": pages})


@router.get("/search/count", response_class=HTMLResponse)
def search_count(request: Request) -> HTMLResponse:
    return count_line(request)
