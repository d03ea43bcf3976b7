"""The app factory: one FastAPI app over one `Site`, a router per page."""

from __future__ import annotations

import shutil
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import quote

from fastapi import Depends, FastAPI, Form, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardbase import notices
from cardbase.errors import CardbaseError
from cardbase.web.failures import error_page, form_error_page, http_error_page
from cardbase.web.gate import Gate, SecurityHeaders
from cardbase.web.guard import guard
from cardbase.web.site import COLLECTOR_COOKIE, HERE, Site, redirect, site_of
from cardbase.web.superseded import StopWhenGone


def _include_pages(app: FastAPI) -> None:
    """Every page's routes, in the order they are matched."""
    from cardbase.web.pages import (
        cards,
        collection,
        deckfiles,
        deckplay,
        decks,
        decksleeves,
        deckversions,
        events,
        imports,
        organiser,
        search,
        trades,
    )

    for module in (search, cards, collection, decks, deckfiles, deckplay, decksleeves,
                   deckversions, imports, trades, events, organiser):  # fmt: skip
        app.include_router(module.router)


def create_app(site: Site) -> FastAPI:
    """The pages over `site`'s database. No API docs or OpenAPI schema: they are pages for a
    person, and the library is the API."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        if site.owns_uploads:  # uploaded sheets go with the server (its first process)
            shutil.rmtree(site.uploads, ignore_errors=True)

    app = FastAPI(
        title="cardbase",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        dependencies=[Depends(guard)],
        lifespan=lifespan,
    )
    app.state.site = site
    app.add_middleware(Gate)  # innermost: its refusals get the headers and the timing too
    app.add_middleware(StopWhenGone)  # a search whose client has gone is stopped
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ServerTiming)
    app.add_middleware(RequestNotices)
    app.add_middleware(JsonSuffix)  # outermost: every later part sees the page's own path
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _include_pages(app)
    app.add_exception_handler(CardbaseError, error_page)
    app.add_exception_handler(Exception, error_page)
    app.add_exception_handler(RequestValidationError, form_error_page)
    app.add_exception_handler(HTTPException, http_error_page)

    @app.get("/")
    def home() -> Response:
        return RedirectResponse("/search", status_code=307)

    @app.post("/collector")
    def choose_collector(
        request: Request, name: str = Form(...), back: str = Form("/")
    ) -> Response:
        """Whose pages, from now on in this browser: the name must be a collector here."""
        from cardbase.collection.collectors import find_collector
        from cardbase.library import Library

        conn = Library(site_of(request).db_path).connect()
        try:
            chosen = find_collector(conn, name).name
        finally:
            conn.close()
        response = redirect(_local(back), f"Showing {chosen}'s collection.")
        response.set_cookie(COLLECTOR_COOKIE, quote(chosen), httponly=True, samesite="strict")
        return response

    return app


class RequestNotices:
    """Each request hears its own notices (`cardbase.notices.listening`), which its page
    shows: the thread that runs a handler copies the request's context, so a note told
    there reaches this request's page and no other's."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with notices.listening():
            await self.app(scope, receive, send)


class JsonSuffix:
    """`/search.json?q=…` is `/search?q=…&format=json`, as datasette names its pages' JSON:
    a script writes the page's address with `.json`, and the page's own handler answers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path.endswith(".json") and not path.startswith("/static/") and len(path) > 6:
            query = scope.get("query_string", b"")
            raw = scope.get("raw_path") or path.encode()
            scope = {**scope, "path": path.removesuffix(".json"),
                     "raw_path": raw.removesuffix(b".json"),
                     "query_string": query + (b"&" if query else b"") + b"format=json"}  # fmt: skip
        await self.app(scope, receive, send)


class ServerTiming:
    """Adds how long the server took (`Server-Timing: app;dur=MS`) to every response: what
    the benchmarks read, and what a browser's developer tools show beside the network time."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                took = f"app;dur={(time.perf_counter() - start) * 1000:.2f}"
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"server-timing", took.encode())]
            await send(message)

        await self.app(scope, receive, timed)


def _local(path: str) -> str:
    """A path on this server to go back to; anything else (another site) is the home page."""
    return path if path.startswith("/") and not path.startswith("//") else "/"
