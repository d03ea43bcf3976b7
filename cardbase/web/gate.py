"""The gate in front of the app: what `guard` checks, checked again before routing and before
a byte of the body is read, and the security headers every response carries.

FastAPI reads (and spools to disk) a form before it runs a route's dependencies, so a check
in `guard` alone comes after a 300 MB upload was stored. Here the host, the origin, the
declared size and the CSRF token are checked on the headers and the first bytes of the body;
the rest of the body is then counted as it streams, so a body with no Content-Length stops
at the limit too.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl

from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardbase.web import guard
from cardbase.web.guard import SAFE_METHODS, SECURITY_HEADERS, Refused, TooLarge

PREFIX = 64 * 1024  # bytes of a body read to find the token: the site's forms send it first
# Scripts only from this server (htmx is vendored), no inline script or eval; styles from the
# server's stylesheet, and the style attributes the templates set (a sphere's colour, a bar's
# width): no <style> element. Nothing may frame the pages or send a form elsewhere.
_PART_NAME = re.compile(rb'content-disposition:[^\r\n]*;\s*name="([^"]*)"', re.IGNORECASE)


class SecurityHeaders:
    """Adds `SECURITY_HEADERS` to every response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                extra = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message["headers"] = headers + [h for h in extra if h[0] not in have]
            await send(message)

        await self.app(scope, receive, headed)


class Gate:
    """Refuses, as a page, what `guard` would refuse, before the app reads the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        try:
            guard.check_host(request)
            if request.method not in SAFE_METHODS:
                guard.check_origin(request)
                guard.check_length(request)
                receive = await _token_checked(request, receive)
        except Refused as exc:
            from cardbase.web.failures import error_page

            response = await error_page(request, exc)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _token_checked(request: Request, receive: Receive) -> Receive:
    """The body's receive channel once the token is right: from the X-CSRF-Token header
    (htmx), else from the form's first bytes, which are then handed on unchanged."""
    token = request.headers.get("x-csrf-token")
    messages: list[Message] = []
    if token is None:
        messages, complete = await _read_prefix(receive)
        body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
        token = token_in(body, request.headers.get("content-type", ""), complete)
    guard.check_token(request, token)
    return _replay(messages, receive)


async def _read_prefix(receive: Receive) -> tuple[list[Message], bool]:
    """The body's first `PREFIX` bytes (or all of it, if shorter), and whether that is all."""
    messages: list[Message] = []
    size = 0
    while size < PREFIX:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            return messages, True
        size += len(message.get("body", b""))
        if size > guard.MAX_BODY:
            raise Refused(guard.too_large(), 413)
    return messages, False


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """The messages already read, then the rest of the body, stopped past `MAX_BODY`."""
    queue = list(messages)
    seen = sum(len(m.get("body", b"")) for m in messages)

    async def replay() -> Message:
        nonlocal seen
        if queue:
            return queue.pop(0)
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > guard.MAX_BODY:
                raise TooLarge()
        return message

    return replay


def token_in(body: bytes, content_type: str, complete: bool) -> str | None:
    """The `csrf` field among a form's first fields: only whole fields count, and in a
    multipart form only those before the first file (a file is never read for it)."""
    kind, _, options = content_type.partition(";")
    kind = kind.strip().lower()
    if kind == "application/x-www-form-urlencoded":
        whole = body if complete else body[: max(body.rfind(b"&"), 0)]
        fields = parse_qsl(whole.decode("latin-1"), keep_blank_values=True)
        return next((value for name, value in fields if name == "csrf"), None)
    found = re.search(r'boundary="?([^";]+)"?', options)
    if kind != "multipart/form-data" or not found:
        return None
    parts = body.split(b"--" + found.group(1).encode("latin-1"))
    for part in parts[1:-1]:  # the last one may be cut short
        head, sep, value = part.partition(b"\r\n\r\n")
        named = _PART_NAME.search(head)
        if not sep or b"filename=" in head.lower() or not named:
            return None
        if named.group(1) == b"csrf":
            return value.removesuffix(b"\r\n").decode("latin-1")
    return None
