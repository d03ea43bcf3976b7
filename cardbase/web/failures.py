"""Errors as pages: the same one-line messages the command line prints, never a traceback.

A `CardbaseError` is bad input (400, or 404 when it names what does not exist); a damaged or
busy database gets the command line's line about it; anything else is a bug, said in one
line too, with the traceback only in the server's log for a report.
"""

from __future__ import annotations

import logging
import sqlite3

from fastapi import Request
from fastapi.responses import HTMLResponse

from cardbase.errors import CardbaseError, NotFoundError
from cardbase.web.guard import Refused
from cardbase.web.site import ENV, is_htmx, site_of

log = logging.getLogger("cardbase.web")


def message_of(request: Request, exc: Exception) -> tuple[str, int]:
    if isinstance(exc, Refused):
        return str(exc), exc.status
    if isinstance(exc, NotFoundError):
        return str(exc), 404
    if isinstance(exc, CardbaseError):
        return str(exc), 400
    from cardbase.db import health

    path = site_of(request).db_path
    if health.is_damage(exc):
        return str(health.damaged(path, exc)), 500
    if isinstance(exc, sqlite3.OperationalError):
        return f"{path}: {exc}; nothing was changed", 503
    log.error("internal error on %s", request.url.path, exc_info=exc)
    return (
        f"internal error ({type(exc).__name__}); nothing was changed. The server's output "
        "has the details: please report it",
        500,
    )


async def error_page(request: Request, exc: Exception) -> HTMLResponse:
    """The error in the page's own frame (or alone, for htmx to show where it was asked)."""
    message, status = message_of(request, exc)
    template = "_error.html" if is_htmx(request) else "error.html"
    html = ENV.get_template(template).render(
        request=request, message=message, status=status, csrf=site_of(request).csrf_token,
        collector=None, collectors=[], flash="",
    )  # fmt: skip
    return HTMLResponse(html, status_code=status)
