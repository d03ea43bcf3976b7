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
- the request that used it last ended cleanly, outside a transaction: one stopped by a
  newer search (`cardbase.web.superseded`) or by an error is closed, never kept.

SQLite's connections belong to the thread that opened them, so each of the server's
threads keeps its own, one per collector. A PostgreSQL league's database is opened anew
for every request, as before.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cardbase.db import interrupt
from cardbase.db.engine import Connection
from cardbase.db.stamp import is_current, read_header

if TYPE_CHECKING:
    from cardbase.library import Library


@dataclass
class _Kept:
    conn: Connection
    file: tuple[int, int]  # (st_dev, st_ino) of the file it was opened on
    version: int  # its data_version when its collector's views were made


class KeptConnections:
    def __init__(self) -> None:
        self._local = threading.local()

    @contextmanager
    def reading(self, library: Library) -> Iterator[Connection]:
        """A connection of `library`'s collector without the command line's Ctrl-C
        handler (`cardbase.web.site.Site.connect` says why), kept for this thread's next
        request when the block ends cleanly."""
        if not isinstance(library.location, Path):
            with library.reading() as conn:
                yield conn
            return
        key = (library.collector, library.game)
        kept = self._take(key, library)
        try:
            yield kept.conn
        except BaseException:
            kept.conn.close()
            raise
        if kept.conn.in_transaction:  # a handler left one open: no other request inherits it
            kept.conn.close()
            return
        self._shelf()[key] = kept

    def _shelf(self) -> dict[tuple[str | None, str | None], _Kept]:
        shelf: dict[tuple[str | None, str | None], _Kept] | None
        shelf = getattr(self._local, "shelf", None)
        if shelf is None:
            shelf = self._local.shelf = {}
        return shelf

    def _take(self, key: tuple[str | None, str | None], library: Library) -> _Kept:
        """This thread's connection for `key` if it still reads the database as it is
        (taken off the shelf while in use), else a new one."""
        assert isinstance(library.location, Path)
        kept = self._shelf().pop(key, None)
        if kept is not None:
            if file_identity(library.location) == kept.file and _still_current(kept, library):
                return kept
            kept.conn.close()
        file = file_identity(library.location)
        conn = library.connect()
        interrupt.unwatch(conn)
        return _Kept(conn, file, _data_version(conn))

    def close(self) -> None:
        """This thread's connections closed (the others' close with their threads)."""
        for kept in self._shelf().values():
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
