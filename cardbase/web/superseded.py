"""Searches that a newer one from the same browser tab made useless, stopped mid-statement.

Search as you type sends a search at each pause, and each shown page asks for its count.
htmx drops the answer to a search a newer one replaced, but the server went on running it:
on 100k cards a search and its count can take 50-130 ms, typing sends one every 90-180 ms,
and the work of every abandoned search stood in front of the one the person waits for.
So each search names its tab (app.js sends `X-Cardbase-Tab`, a random id per page load);
a new search of the results from a tab interrupts that tab's searches and counts still
running (SQLite's `interrupt`, safe from another thread), and those answer 204 at once.
A PostgreSQL connection has no such call here, and its statements run to their end.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import Request

TAB_HEADER = "x-cardbase-tab"


class Superseded(Exception):
    """A newer search from the same tab stopped this one: nobody waits for its answer."""


class TabWork:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, set[sqlite3.Connection]] = {}

    @contextmanager
    def running(self, request: Request, conn: object, supersedes: bool) -> Iterator[None]:
        """Run a tab's search or count on `conn`; with `supersedes` (a new page of results),
        first interrupt what the tab still has running. A request without a tab, or on a
        connection that cannot be interrupted, just runs."""
        tab = request.headers.get(TAB_HEADER)
        if not tab or not isinstance(conn, sqlite3.Connection):
            yield
            return
        with self._lock:
            mine = self._running.setdefault(tab[:64], set())
            if supersedes:
                for older in mine:
                    older.interrupt()
            mine.add(conn)
        try:
            yield
        except sqlite3.OperationalError as exc:
            if "interrupt" in str(exc):
                raise Superseded from exc
            raise
        finally:
            with self._lock:
                mine.discard(conn)
                if not mine:
                    self._running.pop(tab[:64], None)

    def running_tabs(self) -> int:
        """How many tabs have a search running (for tests: none once all have answered)."""
        with self._lock:
            return len(self._running)
