"""Each server thread's reading connections, kept from one request to the next.

Opening a connection is most of a quick page's cost: the file opened, its header checked
(which has SQLite read the whole schema) and the collector's views made, 0.8 ms of the
3.2 a Deck Builder update took at 100k cards, and more under load, as each step waits for
the GIL again. A kept connection is taken again only while it still reads the database as
it is:

- the file is the same one (its device and inode): `cardbase restore` puts a new file in
  the old one's place, which a connection open on the old one would go on reading;
- nothing has committed since it was scoped (SQLite's `PRAGMA data_version`, which only
  other connections' commits change), or, when something has, the header is still this
  cardbase's and the collector's views are made again (the default collector, or the
  collector itself, may have changed);
- the request that used it last ended outside a transaction, and either cleanly or with
  one of cardbase's own refusals (a query error while the person types): one stopped by a
  newer search (`cardbase.web.superseded`) or by anything else is closed, never kept.

A file cardbase may not write is opened read-only (`read_only_query`), and as `immutable`
when no writer's -wal is beside it, which sees no later commit at all: such connections
are opened anew for every request, as before, so each follows the file as it is then.

SQLite's connections belong to the thread that opened them, so each of the server's
threads keeps its own: at most `KEPT_PER_THREAD`, the least recently used closed first
(anyio's threads, up to 40, end after 10 s idle, and theirs with them), so a league's many
collectors cannot use up the server's open files. A page that opens a second connection
inside the first (a whole page around a partial) keeps both. A PostgreSQL league's
database is opened anew for every request, as before.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cardbase.db import interrupt
from cardbase.db.connect import read_only_query
from cardbase.db.engine import Connection
from cardbase.db.stamp import is_current, read_header
from cardbase.errors import CardbaseError

if TYPE_CHECKING:
    from cardbase.library import Library


KEPT_PER_THREAD = 3
Key = tuple[str | None, str | None]  # (collector, game): what scopes a connection


@dataclass
class _Kept:
    conn: Connection
    file: tuple[int, int]  # (st_dev, st_ino) of the file it was opened on
    version: int  # its data_version when its collector's views were made


class KeptConnections:
    def __init__(self, per_thread: int = KEPT_PER_THREAD) -> None:
        self._local = threading.local()
        self._per_thread = per_thread

    @contextmanager
    def reading(self, library: Library) -> Iterator[Connection]:
        """A connection of `library`'s collector without the command line's Ctrl-C
        handler (`cardbase.web.site.Site.connect` says why), kept for this thread's next
        request when the block ends cleanly or with a refusal of cardbase's."""
        location = library.location
        if not isinstance(location, Path) or read_only_query(location) is not None:
            with library.reading() as conn:
                interrupt.unwatch(conn)
                yield conn
            return
        key = (library.collector, library.game)
        kept = self._take(key, library)
        try:
            yield kept.conn
        except CardbaseError:
            self._put_back(key, kept)
            raise
        except BaseException:
            kept.conn.close()
            raise
        self._put_back(key, kept)

    def _shelf(self) -> OrderedDict[Key, list[_Kept]]:
        """This thread's idle connections by key, the least recently used first."""
        shelf: OrderedDict[Key, list[_Kept]] | None = getattr(self._local, "shelf", None)
        if shelf is None:
            shelf = self._local.shelf = OrderedDict()
        return shelf

    def _take(self, key: Key, library: Library) -> _Kept:
        """This thread's connection for `key` if it still reads the database as it is
        (taken off the shelf while in use), else a new one."""
        assert isinstance(library.location, Path)
        shelf = self._shelf()
        idle = shelf.get(key)
        if idle:
            kept = idle.pop()
            if not idle:
                del shelf[key]  # the shelf holds no empty lists
            if file_identity(library.location) == kept.file and _still_current(kept, library):
                return kept
            kept.conn.close()
        file = file_identity(library.location)
        conn = library.connect()
        interrupt.unwatch(conn)
        return _Kept(conn, file, _data_version(conn))

    def _put_back(self, key: Key, kept: _Kept) -> None:
        """On the shelf, unless it was left in a transaction (no other request inherits
        one); past `per_thread`, the least recently used is closed."""
        if kept.conn.in_transaction:
            kept.conn.close()
            return
        shelf = self._shelf()
        shelf.setdefault(key, []).append(kept)
        shelf.move_to_end(key)
        while sum(len(idle) for idle in shelf.values()) > self._per_thread:
            oldest_key, oldest = next(iter(shelf.items()))
            oldest.pop(0).conn.close()
            if not oldest:
                del shelf[oldest_key]

    def close(self) -> None:
        """This thread's connections closed (the others' close with their threads)."""
        for idle in self._shelf().values():
            for kept in idle:
                kept.conn.close()
        self._shelf().clear()


def _still_current(kept: _Kept, library: Library) -> bool:
    """True when `kept` may serve the next request: nothing committed since it was scoped,
    or its file is still a current cardbase database and its views are made again."""
    try:
        version = _data_version(kept.conn)
        if version == kept.version:
            return True
        assert isinstance(library.location, Path)
        if not is_current(library.location, *read_header(kept.conn, library.location)):
            return False
        library.scope(kept.conn)
    except Exception:  # whatever it is, a new connection will say it in the usual words
        return False
    kept.version = version
    return True


def _data_version(conn: Connection) -> int:
    return int(conn.execute("PRAGMA data_version").fetchone()[0])


def file_identity(path: Path) -> tuple[int, int]:
    """Which file `path` is now (its device and inode); (0, 0) when there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return 0, 0
    return found.st_dev, found.st_ino
