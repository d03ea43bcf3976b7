"""Errors as pages: the same one-line messages the command line prints, never a traceback.

A `CardbaseError` is bad input (400, or 404 when it names what does not exist); a damaged or
busy database gets the command line's line about it; anything else is a bug, said in one
line too, with the traceback only in the server's log for a report. FastAPI's own answers (a
form it cannot read, an address with no page) are said in the same words, never echoing
what was sent; a client that asks for JSON gets the same message as JSON.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from http import HTTPStatus
from urllib.parse import unquote, urlsplit

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

from cardbase import notices
from cardbase.errors import CardbaseError, NotFoundError, UnknownCollectorError
from cardbase.web.guard import SAFE_METHODS, SECURITY_HEADERS, Refused, TooLarge
from cardbase.web.site import (
    COLLECTOR_COOKIE,
    ENV,
    FLASH_COOKIE,
    is_htmx,
    redirect,
    site_of,
    wants_json,
)

log = logging.getLogger("cardbase.web")
WORDS = {
    400: "the form could not be read: a box holds at most 1 MB, a form 1,000 fields; "
    "nothing was changed",
    404: "there is no page at this address; the Search page has links to every card",
    405: "this address does not take that kind of request; use the page's own buttons",
}


def message_of(request: Request, exc: Exception) -> tuple[str, int]:
    if isinstance(exc, Refused):
        return str(exc), exc.status
    if isinstance(exc, NotFoundError):
        return exc.said("web"), 404
    if isinstance(exc, CardbaseError):
        return exc.said("web"), 400
    from cardbase.db.health import damage

    path = site_of(request).db_path
    if damage.is_damage(exc):
        return str(damage.damaged(path, exc)), 500
    if isinstance(exc, sqlite3.OperationalError):
        return f"{path}: {exc}; nothing was changed", 503
    log.error("internal error on %s", request.url.path, exc_info=exc)
    return (
        f"internal error ({type(exc).__name__}); nothing was changed. The server's output "
        "has the details: please report it",
        500,
    )


def show(
    request: Request, message: str, status: int, *, refused: bool = False,
    collectors: list[str] | None = None, headers: Mapping[str, str] | None = None,
) -> Response:  # fmt: skip
    """The error in the page's own frame (or alone, for htmx to show where it was asked).
    A refusal carries no CSRF token: it may be the answer to another site's page."""
    headers = {**SECURITY_HEADERS, **(headers or {})}  # a 500 is sent outside the gate
    if wants_json(request):
        return JSONResponse({"error": message, "status": status}, status, headers)
    # A boosted link or form (hx-boost) swaps the whole body: it gets the whole page, with
    # its header, heading and landmarks, not the fragment a targeted swap shows in place.
    boosted = request.headers.get("hx-boosted") == "true"
    template = "_error.html" if is_htmx(request) and not boosted else "error.html"
    html = ENV.get_template(template).render(
        request=request, message=message, status=status, heading=_heading(status),
        csrf="" if refused else site_of(request).csrf_token,
        collector=None, collectors=collectors or [], flash="", back=_back(request),
        notes=notices.take(),
    )  # fmt: skip
    return HTMLResponse(html, status_code=status, headers=headers)


def _heading(status: int) -> str:
    """What the page's heading says happened, by its status: a person reads the heading
    first, then the line that says what to do."""
    if status == 404:
        return "Not found"
    if status in (403, 419):
        return "Refused"
    if status >= 500:
        return "Something went wrong"
    return "Nothing was changed" if status in (400, 409, 413, 422) else "Not done"


def _back(request: Request) -> str:
    """Where Back and the chooser lead: this page for a GET, else the page the form was on
    (a POST's address answers only a POST)."""
    if request.method in SAFE_METHODS:
        return request.url.path
    try:
        referer = urlsplit(request.headers.get("referer", ""))
    except ValueError:
        return "/search"
    same = referer.netloc == request.headers.get("host") and referer.path.startswith("/")
    return referer.path if same and not referer.path.startswith("//") else "/search"


async def error_page(request: Request, exc: Exception) -> Response:
    """Every error the handlers raise; a collector gone from under the browser is not a
    dead end but the way back to a collector that exists."""
    if isinstance(exc, UnknownCollectorError):
        return collector_gone(request, exc)
    message, status = message_of(request, exc)
    return show(request, message, status, refused=isinstance(exc, Refused))


async def http_error_page(request: Request, exc: Exception) -> Response:
    """Starlette's 404 and 405 (and a body past the limit) in the site's words."""
    assert isinstance(exc, HTTPException)
    if isinstance(exc, TooLarge):
        message = str(exc.detail)
    else:
        message = WORDS.get(exc.status_code) or _phrase(exc.status_code)
    return show(request, message, exc.status_code, headers=exc.headers)


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase.lower()
    except ValueError:
        return f"the request was refused ({status})"


async def form_error_page(request: Request, exc: Exception) -> Response:
    """A form FastAPI could not read: which fields, in words; never the values sent."""
    assert isinstance(exc, RequestValidationError)
    problems = []
    for error in exc.errors()[:5]:
        where = [str(part) for part in error.get("loc", ()) if isinstance(part, str)]
        field = where[-1][:40] if where else "the form"
        if error.get("type") == "missing":
            problems.append(f"'{field}' is missing")
        else:
            problems.append(f"'{field}' is not valid ({str(error.get('msg', '')).lower()})")
    message = f"this form cannot be read: {'; '.join(problems)}; reload the page and try again"
    return show(request, message, 400)


def _stale_cookie(request: Request) -> str | None:
    """The collector this browser chose, if that is the one the database no longer has."""
    chosen = unquote(request.cookies.get(COLLECTOR_COOKIE, ""))
    if not chosen or request.query_params.get("collector"):
        return None
    from cardbase.collection.collectors import find_collector
    from cardbase.library import Library

    try:
        conn = Library(site_of(request).db_path).connect()
    except CardbaseError:
        return None
    try:
        find_collector(conn, chosen)
    except UnknownCollectorError:
        return chosen
    finally:
        conn.close()
    return None


def _collectors(request: Request) -> list[str]:
    from cardbase.collection.collectors import all_collectors
    from cardbase.library import Library

    try:
        conn = Library(site_of(request).db_path).connect()
    except CardbaseError:
        return []
    try:
        return [c.name for c in all_collectors(conn)]
    finally:
        conn.close()


def collector_gone(request: Request, exc: UnknownCollectorError) -> Response:
    """A collector removed or renamed from the command line since this browser chose it:
    the cookie goes, and a page shows the server's collector again, saying so; a change
    asked for that collector is not made for another, but refused with the chooser."""
    gone = _stale_cookie(request)
    if gone is None:  # named by a link or by the server: the message, and the chooser
        return show(request, str(exc), 400, collectors=_collectors(request))
    said = f"the collector '{gone[:40]}' chosen in this browser is not in this database any more"
    flash = f"{said[0].upper()}{said[1:]}: showing the server's collector."
    again = unquote(request.cookies.get(FLASH_COOKIE, "")) == flash  # the cookie stayed
    if request.method in SAFE_METHODS and not again:
        back = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        response = redirect(back, flash)
    else:
        message = f"{said}; nothing was changed: choose a collector and try again"
        response = show(request, message, 400, collectors=_collectors(request))
    response.delete_cookie(COLLECTOR_COOKIE)
    return response
