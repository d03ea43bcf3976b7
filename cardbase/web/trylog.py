"""Wrong tries at a player's code or the organiser's PIN, by device, for `cardbase.web.tries`.

One server process keeps them in memory. With several worker processes (`serve
--workers`), each request may reach any of them, and tries kept apart would give a device
as many wrong tries a minute as there are workers; so there they go in a SQLite file the
workers share, in the server's own folder, which the server removes when it stops.
`time.monotonic` is one clock for every process of this computer.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class TryLog:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._memory: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def recent(self, who: str, window: float) -> int:
        """How many wrong tries `who` made in the last `window` seconds; older ones go."""
        since = time.monotonic() - window
        if self.path is None:
            with self._lock:
                kept = [at for at in self._memory.get(who, []) if at > since]
                self._memory[who] = kept
                return len(kept)
        with self._shared() as conn:
            conn.execute("DELETE FROM tried WHERE at <= ?", (since,))
            return int(
                conn.execute("SELECT count(*) FROM tried WHERE who = ?", (who,)).fetchone()[0]
            )

    def add(self, who: str) -> None:
        if self.path is None:
            with self._lock:
                self._memory.setdefault(who, []).append(time.monotonic())
            return
        with self._shared() as conn:
            conn.execute("INSERT INTO tried (who, at) VALUES (?, ?)", (who, time.monotonic()))

    @contextmanager
    def _shared(self) -> Iterator[sqlite3.Connection]:
        """The workers' file (made by the first to need it), one connection a call, each
        statement its own transaction: tries are rare."""
        assert self.path is not None
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS tried (who TEXT NOT NULL, at REAL NOT NULL)")
            yield conn
        finally:
            conn.close()
