"""Which engine a `--db` names: a file path is SQLite (the default, nothing to set up); a
`postgresql://` URL is a PostgreSQL server, for a league that shares one catalogue.

Only the scheme is looked at here, with the standard library: the PostgreSQL driver loads
when such a URL is opened, never for a file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

# postgresql:// and postgres://, as libpq reads them, and SQLAlchemy's spelling with a
# driver (postgresql+psycopg://), which people copy from other apps' settings.
_SCHEME = re.compile(r"postgres(?:ql)?(?:\+\w+)?://", re.IGNORECASE)


class PostgresUrl(NamedTuple):
    """A PostgreSQL connection URL. Shown (`str`), its password is never printed."""

    url: str

    def _parts(self) -> tuple[str, str, str, str]:
        """(scheme://, user info, host/database, query), split by hand rather than by a URL
        parser: a password may hold : / # ? @ unencoded, and must never leak into a part
        that is shown. The user info ends at the last @ before the query."""
        scheme, _, rest = self.url.partition("://")
        rest, mark, query = rest.partition("?")
        userinfo, at, place = rest.rpartition("@")
        if not at:
            userinfo, place = "", rest
        return f"{scheme}://", userinfo, place, query if mark else ""

    def __str__(self) -> str:
        scheme, userinfo, place, query = self._parts()
        user, colon, _password = userinfo.partition(":")
        shown = f"{user}:***@" if colon else f"{user}@" if userinfo else ""
        params = [_masked(param) for param in query.split("&")] if query else []
        return f"{scheme}{shown}{place}" + ("?" + "&".join(params) if params else "")

    def secrets(self) -> list[str]:
        """The password (from the user info or a `password=` parameter) and its pieces
        between punctuation, to keep out of any message a server or driver writes."""
        _, userinfo, _, query = self._parts()
        found = [userinfo.partition(":")[2]] + [
            param.partition("=")[2] for param in query.split("&") if _is_password(param)
        ]
        pieces = [part for secret in found for part in re.split(r"[:/?#@&=]", secret)]
        return sorted({s for s in found + pieces if len(s) >= 2}, key=len, reverse=True)

    @property
    def host(self) -> str:
        """The server as a person names it: host and port, or "the local socket"."""
        place = self._parts()[2].partition("/")[0]
        return place or "the local socket"


def _is_password(param: str) -> bool:
    return param.partition("=")[0].strip().lower() == "password"


def _masked(param: str) -> str:
    return "password=***" if _is_password(param) else param


# Where a database is: a SQLite file, or a PostgreSQL server's database.
Location = Path | PostgresUrl


def is_postgres(text: str) -> bool:
    return _SCHEME.match(text) is not None


def postgres_url(text: str) -> PostgresUrl:
    """The URL as libpq takes it: a driver named in the scheme (`+psycopg`) left out."""
    return PostgresUrl(_SCHEME.sub("postgresql://", text, count=1))


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
