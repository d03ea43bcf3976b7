"""What keeps a local server local: requests for another host are refused (a web page
elsewhere cannot reach it by DNS rebinding), every state change is a POST carrying the
page's CSRF token, and a request body is refused past the upload limit before it is read.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from fastapi import Request

from cardbase.errors import CardbaseError
from cardbase.limits import MAX_CSV_FILE, MAX_WORKBOOK_FILE
from cardbase.web.site import site_of

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1", "testserver"})
# A spreadsheet at the importer's own limit, and the form around it.
MAX_UPLOAD = max(MAX_CSV_FILE, MAX_WORKBOOK_FILE)
MAX_BODY = MAX_UPLOAD + 1_000_000
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class Refused(CardbaseError):
    """A request the server will not serve; its status goes with it."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _host(value: str) -> str:
    return urlsplit(f"//{value}").hostname or ""


async def guard(request: Request) -> None:
    """Run before every handler (an app-wide dependency)."""
    site = site_of(request)
    host = request.headers.get("host", "")
    if not site.public and _host(host) not in {h.strip("[]") for h in LOCAL_HOSTS}:
        raise Refused(f"this server answers only for this computer, not '{host[:80]}'", 421)
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("origin")
    if origin and origin != "null" and urlsplit(origin).netloc != host:
        raise Refused("a page from another site cannot change your collection", 403)
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise Refused(f"the upload is over {MAX_UPLOAD // 1_000_000} MB, the importer's limit", 413)
    token = request.headers.get("x-csrf-token")
    if token is None:
        form = await request.form()  # cached: the handler reads the same form
        value = form.get("csrf")
        token = value if isinstance(value, str) else None
    if not token or not hmac.compare_digest(token, site.csrf_token):
        raise Refused("this form has expired or came from elsewhere; reload the page", 403)
