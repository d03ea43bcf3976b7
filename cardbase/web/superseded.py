"""Searches that a newer one from the same browser tab made useless, stopped mid-statement.

Search as you type sends a search at each pause, and each shown page asks for its count.
htmx drops the answer to a search a newer one replaced, but the server went on running it:
on 100k cards a search and its count can take 50-130 ms, typing sends one every 90-180 ms,
and the work of every abandoned search stood in front of the one the person waits for.
So each search names its tab (app.js sends `X-Cardbase-Tab`, a random id per page load);
a new search of the results from a tab interrupts that tab's searches and counts still
running (SQLite's `interrupt`, safe from another thread), and those answer 204 at once.
A PostgreSQL connection has no such call here, and its statements run to their end.

With several worker processes (`serve --workers`) a tab's newer search may reach another
process than its older one, where this process's list of the tab's searches cannot reach.
But a browser that drops a request it no longer waits for (htmx's `hx-sync` replacing it)
closes that request's connection, and the process running it sees the connection go:
`StopWhenGone` interrupts the searches of a request whose client has gone, in whichever
process, as a newer search from the tab would.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TAB_HEADER = "x-cardbase-tab"
GONE = "cardbase.gone"  # the request's `Gone`, in its ASGI scope


class Superseded(Exception):
    """A newer search from the same tab stopped this one: nobody waits for its answer."""


class Gone:
    """One request's running searches, stopped once its client has gone (`StopWhenGone`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[sqlite3.Connection] = set()
        self.gone = False

    def add(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            if self.gone:
                raise Superseded
            self._running.add(conn)

    def discard(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            self._running.discard(conn)

    def stop(self) -> None:
        with self._lock:
            self.gone = True
            for conn in self._running:
                conn.interrupt()


class StopWhenGone:
    """Watch each GET request's connection while the request runs, and stop its searches
    (`Gone`) when the client goes away before its answer. After a GET's (empty) body, the
    server's next message is a disconnect: the client's going, or the answer's end."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        import asyncio

        first = await receive()
        gone, closed = Gone(), asyncio.Event()

        async def watch() -> None:
            if first["type"] != "http.disconnect":
                await receive()  # after a GET's body, only a disconnect comes
            gone.stop()
            closed.set()

        async def replay() -> Message:
            """The app's receive: the body read above, then the disconnect once it came."""
            nonlocal first
            message, first = first, {"type": "http.disconnect"}
            if message["type"] != "http.disconnect":
                return message
            await closed.wait()
            return message

        watcher = asyncio.ensure_future(watch())
        try:
            await self.app({**scope, GONE: gone}, replay, send)
        finally:
            watcher.cancel()


class TabWork:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, set[sqlite3.Connection]] = {}
        self._stopped: set[sqlite3.Connection] = set()  # interrupted for a newer search

    @contextmanager
    def running(self, request: Request, conn: object, supersedes: bool) -> Iterator[None]:
        """Run a tab's search or count on `conn`; with `supersedes` (a new page of results),
        first interrupt what the tab still has running. A request without a tab, or on a
        connection that cannot be interrupted, just runs."""
        tab = request.headers.get(TAB_HEADER)
        if not isinstance(conn, sqlite3.Connection):
            yield
            return
        with self._watched(request, conn):
            if not tab:
                yield
                return
            with self._tabbed(tab, conn, supersedes):
                yield

    @contextmanager
    def _watched(self, request: Request, conn: sqlite3.Connection) -> Iterator[None]:
        """`conn` stopped if the request's client goes (`StopWhenGone`, where it runs). A
        statement interrupted says so, or, stopped while FTS5 opened its table on a new
        connection, "vtable constructor failed": whatever it says, a search that was
        stopped is `Superseded`."""
        gone: Gone | None = request.scope.get(GONE)
        if gone is not None:
            gone.add(conn)
        try:
            yield
        except sqlite3.OperationalError as exc:
            with self._lock:
                stopped = conn in self._stopped or (gone is not None and gone.gone)
            if stopped or "interrupt" in str(exc):
                raise Superseded from exc
            raise
        finally:
            with self._lock:
                self._stopped.discard(conn)
            if gone is not None:
                gone.discard(conn)

    @contextmanager
    def _tabbed(self, tab: str, conn: sqlite3.Connection, supersedes: bool) -> Iterator[None]:
        with self._lock:
            mine = self._running.setdefault(tab[:64], set())
            if supersedes:
                for older in mine:
                    older.interrupt()
                self._stopped |= mine
            mine.add(conn)
        try:
            yield
        finally:
            with self._lock:
                mine.discard(conn)
                if not mine:
                    self._running.pop(tab[:64], None)

    def running_tabs(self) -> int:
        """How many tabs have a search running (for tests: none once all have answered)."""
        with self._lock:
            return len(self._running)
