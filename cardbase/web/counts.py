"""The search pages' counts, kept while the database stays as it was.

The count line ("3,941 cards, page 1 of 79") costs a scan of every match, where the page
itself stops at its 50 cards: at 100k cards a broad filter's count takes 15-90 ms, its
page 3-13 ms. People page through, sort, and switch between gallery and table with the same
query, and each asks for the same count again; so the server keeps the last counts, and
throws them all away as soon as anything commits to the database, from this server or any
other process (SQLite's `PRAGMA data_version`, read on a connection of the cache's own).

The same holds for what every page's collector chooser shows (`kept`): which collector
the request's is, and everyone's names, read on a connection of their own, which cost a
search page about 1 ms of its 5 at 100k cards when the search itself took 0.6.

A file put in the database's place (`cardbase restore`) changes no version on the old one,
which the watcher would go on reading, so the watcher also checks which file the path is.

A PostgreSQL league's database has no such cheap signal, so there every count is taken
anew.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, TypeVar

from cardbase.db.location import Location
from cardbase.web.connections import file_identity

KEPT = 512  # counts remembered, the least recently used going first
T = TypeVar("T")


class CountCache:
    def __init__(self, location: Location, kept: int = KEPT) -> None:
        self._path = location if isinstance(location, Path) else None
        self._kept = kept
        self._counts: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()
        self._watcher: sqlite3.Connection | None = None
        self._version: tuple[int, int, int] | None = None  # the file, and its data_version

    def count(self, key: Hashable, compute: Callable[[], int]) -> int:
        return self.kept(("count", key), compute)

    def kept(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value for `key` as last computed, if nothing has committed since; else
        `compute()`'s, remembered (not when it raises). A value being computed holds no
        lock: two requests for one new value may both compute it. Kept values are shared:
        the caller must not change one."""
        with self._lock:
            if self._unchanged() and key in self._counts:
                self._counts.move_to_end(key)
                kept: T = self._counts[key]
                return kept
            version = self._version
        total = compute()
        with self._lock:
            if version is not None and self._unchanged() and self._version == version:
                self._counts[key] = total
                while len(self._counts) > self._kept:
                    self._counts.popitem(last=False)
        return total

    def _unchanged(self) -> bool:
        """Whether the database is as it was when the kept counts were taken; if not, they
        are dropped. Always false where there is no SQLite file to watch."""
        version = self._data_version()
        if version is None:
            return False
        if version != self._version:
            self._counts.clear()
            self._version = version
        return True

    def _data_version(self) -> tuple[int, int, int] | None:
        if self._path is None:
            return None
        file = file_identity(self._path)
        try:
            if self._watcher is not None and self._version and self._version[:2] != file:
                self._watcher.close()  # a new file in the old one's place: watch that
                self._watcher = None
            if self._watcher is None:
                uri = f"{self._path.resolve().as_uri()}?mode=ro"
                self._watcher = sqlite3.connect(uri, uri=True, check_same_thread=False)
            return *file, int(self._watcher.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:  # the file is gone or unreadable: count as if uncached
            self._watcher = None
            return None

    def close(self) -> None:
        with self._lock:
            if self._watcher is not None:
                self._watcher.close()
                self._watcher = None
