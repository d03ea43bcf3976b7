"""What keeps a local server local: requests for another host are refused (a web page
elsewhere cannot reach it by DNS rebinding), every state change is a POST carrying the
page's CSRF token from a page of this server, and a request body is refused past the upload
limit before it is read.

`cardbase.web.gate` makes the same checks before routing (FastAPI reads a form before any
dependency runs); `guard` repeats them for every route, as the last word.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from fastapi import HTTPException, Request

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
    """The host of a Host header, "" for one no browser sends (a port that is no port)."""
    try:
        parts = urlsplit(f"//{value}")
        parts.port  # noqa: B018 (raises ValueError for 'localhost:abc' or a port past 65535)
        return parts.hostname or ""
    except ValueError:  # "[::1" and other hosts no URL can hold
        return ""


def too_large() -> str:
    return f"the upload is over {MAX_UPLOAD // 1_000_000} MB, the importer's limit"


def check_host(request: Request) -> None:
    """Only this computer's names, unless the server listens beyond it (DNS rebinding)."""
    host = request.headers.get("host", "")
    if not site_of(request).public and _host(host) not in {h.strip("[]") for h in LOCAL_HOSTS}:
        raise Refused(f"this server answers only for this computer, not '{host[:80]}'", 421)


def check_origin(request: Request) -> None:
    """A browser names the page a POST came from; `null` is a sandboxed frame, a file or a
    redirect from elsewhere: another site too. No Origin at all is a script or an old
    browser, which the token still has to get past."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and (
        origin.strip() == "null"
        or _netloc(origin) != host
        or not origin.startswith(f"{request.url.scheme}://")  # https://this:port is another
    ):
        raise Refused("a page from another site cannot change your collection", 403)


def _netloc(origin: str) -> str:
    try:
        return urlsplit(origin).netloc
    except ValueError:
        return ""


def check_length(request: Request) -> None:
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise Refused(too_large(), 413)


def check_token(request: Request, token: str | None) -> None:
    """Compared as bytes: `compare_digest` refuses a str with non-ASCII letters."""
    expected = site_of(request).csrf_token.encode()
    if not token or not hmac.compare_digest(token.encode("utf-8", "replace"), expected):
        raise Refused("this form has expired or came from elsewhere; reload the page", 403)


async def guard(request: Request) -> None:
    """Run before every handler (an app-wide dependency)."""
    check_host(request)
    if request.method in SAFE_METHODS:
        return
    check_origin(request)
    check_length(request)
    token = request.headers.get("x-csrf-token")
    if token is None:
        form = await request.form()  # cached: the handler reads the same form
        value = form.get("csrf")
        token = value if isinstance(value, str) else None
    check_token(request, token)


CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
# same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on the
# pages' own form posts, which the gate refuses as another site.
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


class TooLarge(HTTPException):
    """A body past the limit, found while it streamed (after the handler began reading)."""

    def __init__(self) -> None:
        super().__init__(413, too_large())
