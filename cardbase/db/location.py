"""Which engine a `--db` names: a file path is SQLite (the default, nothing to set up); a
`postgresql://` URL is a PostgreSQL server, for a league that shares one catalogue.

Only the scheme is looked at here, with the standard library: the PostgreSQL driver loads
when such a URL is opened, never for a file.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

SCHEMES = ("postgresql://", "postgres://")


class PostgresUrl(NamedTuple):
    """A PostgreSQL connection URL. Shown (`str`), its password is never printed."""

    url: str

    def __str__(self) -> str:
        parts = urlsplit(self.url)
        if parts.password is None:
            return self.url
        user = f"{parts.username}:***@" if parts.username else ":***@"
        host = parts.netloc.rsplit("@", 1)[1]
        return urlunsplit(parts._replace(netloc=user + host))

    @property
    def host(self) -> str:
        """The server as a person names it: host and port, or "the local socket"."""
        parts = urlsplit(self.url)
        try:
            port = parts.port
        except ValueError:
            port = None
        host = parts.hostname or "the local socket"
        return f"{host}:{port}" if port else host


# Where a database is: a SQLite file, or a PostgreSQL server's database.
Location = Path | PostgresUrl


def is_postgres(text: str) -> bool:
    return text.lower().startswith(SCHEMES)


def dialect_of(conn: object) -> str:
    """ "sqlite" or "postgresql": which engine a connection's statements run on."""
    return str(getattr(conn, "dialect", "sqlite"))


def sqlite_file(location: Location, what: str, instead: str) -> Path:
    """The file of a SQLite database, for work only a file allows (copying it, reading its
    pages); for a PostgreSQL one, an error naming the server's own tool for it."""
    if isinstance(location, Path):
        return location
    from cardbase.errors import DatabaseError

    raise DatabaseError(f"{location}: {what} works on SQLite files; on PostgreSQL, {instead}")
