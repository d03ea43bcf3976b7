"""Which engine a `--db` names: a file path is SQLite (the default, nothing to set up); a
`postgresql://` URL is a PostgreSQL server, for a league that shares one catalogue.

Only the scheme is looked at here, with the standard library: the PostgreSQL driver loads
when such a URL is opened, never for a file.

Where the database is unless told: `--db`, else `CARDBASE_DB`, else the config file's `db`,
else a file in the user's data folder (`resolve_db_path`); creating a database must know the
default too, since only there may cardbase make the folders.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import NamedTuple

# postgresql:// and postgres://, as libpq reads them, and SQLAlchemy's spelling with a
# driver (postgresql+psycopg://), which people copy from other apps' settings.
_SCHEME = re.compile(r"postgres(?:ql)?(?:\+\w+)?://", re.IGNORECASE)


# libpq's connection keywords (PostgreSQL 17's, and JDBC's `ssl`): in a URL's query, a piece
# naming one starts a new parameter; any other piece after a secret's is read as the rest of
# the secret, which held an unencoded `&`.
_KEYWORDS = frozenset(
    [
        "host",
        "hostaddr",
        "port",
        "dbname",
        "user",
        "password",
        "passfile",
        "require_auth",
        "channel_binding",
        "connect_timeout",
        "client_encoding",
        "options",
        "application_name",
        "fallback_application_name",
        "keepalives",
        "keepalives_idle",
        "keepalives_interval",
        "keepalives_count",
        "tcp_user_timeout",
        "replication",
        "gssencmode",
        "sslmode",
        "requiressl",
        "sslnegotiation",
        "sslcompression",
        "sslcert",
        "sslkey",
        "sslkeylogfile",
        "sslpassword",
        "sslcertmode",
        "sslrootcert",
        "sslcrl",
        "sslcrldir",
        "sslsni",
        "requirepeer",
        "ssl_min_protocol_version",
        "ssl_max_protocol_version",
        "min_protocol_version",
        "max_protocol_version",
        "krbsrvname",
        "gsslib",
        "gssdelegation",
        "service",
        "target_session_attrs",
        "load_balance_hosts",
        "scram_client_key",
        "scram_server_key",
        "oauth_issuer",
        "oauth_client_id",
        "oauth_client_secret",
        "oauth_scope",
        "ssl",
    ]
)
_SECRET_KEYS = frozenset(
    {"password", "sslpassword", "oauth_client_secret", "scram_client_key", "scram_server_key"}
)
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})|%00")
ENCODE_HINT = (
    "Percent-encode those characters in the URL (@ as %40, / as %2F, % as %25, & as %26, "
    "= as %3D), e.g. with Python's urllib.parse.quote(password, safe='')"
)


class _Param(NamedTuple):
    piece: str  # as written, for a parameter that is not a secret
    key: str
    value: str  # raw; a secret's absorbs the pieces after it that start no parameter
    secret: bool
    absorbed: bool  # a secret's value held an unencoded `&`


class _Reading(NamedTuple):
    """A URL split as libpq splits it: scheme://, user info, host[:port][/dbname], query."""

    scheme: str
    userinfo: str | None  # None: no user info at all
    place: str
    params: list[_Param]


def _read(url: str, userinfo_end: int | None = None) -> _Reading:
    """libpq's reading (conninfo_uri_parse_options): the user info ends at the FIRST @,
    and only if no / comes before it; the query starts at the first ? after it; a `#` is
    nothing special. `userinfo_end` overrides where the user info ends (see `_meant`)."""
    scheme, _, rest = url.partition("://")
    userinfo = None
    if userinfo_end is None:
        stop = re.search(r"[@/]", rest)
        userinfo_end = stop.start() if stop and stop.group() == "@" else None
    if userinfo_end is not None:
        userinfo, rest = rest[:userinfo_end], rest[userinfo_end + 1 :]
    place, mark, query = rest.partition("?")
    return _Reading(f"{scheme}://", userinfo, place, _params(query) if mark else [])


def _params(query: str) -> list[_Param]:
    found: list[_Param] = []
    for piece in query.split("&"):
        key, _, value = piece.partition("=")
        starts = key in _KEYWORDS and "=" in piece
        if found and found[-1].secret and not starts:
            last = found[-1]
            found[-1] = last._replace(value=f"{last.value}&{piece}", absorbed=True)
            continue
        found.append(_Param(piece, key, value, key.strip().lower() in _SECRET_KEYS, False))
    return found


def _misread(reading: _Reading) -> bool:
    """Whether libpq's reading is surely not what was meant: an @ left in the host, port or
    database name, or in a query piece that is no `keyword=value` (the tail of a user info
    holding an unencoded @ or /, which libpq would take for a host or a port)."""
    if "@" in reading.place:
        return True
    return any("@" in p.piece and not (p.secret or p.key in _KEYWORDS) for p in reading.params)


def _meant(url: str) -> _Reading:
    """For a URL libpq would misread: the user info up to the last @ after which comes a
    plain host, port, database name and parameters (the reading a person means); all of it
    up to the last @ when none does."""
    rest = url.partition("://")[2]
    ats = [n for n, char in enumerate(rest) if char == "@"]
    for at in reversed(ats):
        reading = _read(url, at)
        if not _misread(reading):
            return reading
    return _read(url, ats[-1])


def _password(userinfo: str | None) -> str | None:
    """The password of a user info (libpq: after the user name's first `:`), or None."""
    if userinfo is None or ":" not in userinfo:
        return None
    return userinfo.partition(":")[2]


def _utf8(encoded: str) -> bool:
    """Whether percent-decoding gives UTF-8 text, as psycopg needs to read libpq's answer."""
    from urllib.parse import unquote_to_bytes

    try:
        unquote_to_bytes(encoded).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


class PostgresUrl(NamedTuple):
    """A PostgreSQL connection URL. Shown (`str`), its password is never printed: not in
    the user info, not in a `password=` parameter, however it is spelled (see `problem`)."""

    url: str

    def _reading(self) -> _Reading:
        """How the URL is shown: as libpq reads it, or as meant when libpq would misread it
        (and `problem` refuses it before libpq sees it)."""
        reading = _read(self.url)
        return _meant(self.url) if _misread(reading) else reading

    def problem(self) -> str | None:
        """Why libpq would misread this URL's secrets (and quote them in its error), or
        None: the URL is refused before connecting, with `ENCODE_HINT`."""
        if _misread(_read(self.url)):
            return "the user name or password in the URL holds an unencoded @ or /"
        reading = self._reading()
        if any(p.secret and (p.absorbed or "=" in p.value) for p in reading.params):
            return "a password= parameter in the URL holds an unencoded & or ="
        secrets = self._raw_secrets(reading)
        if any(_BAD_PERCENT.search(secret) for secret in secrets):
            return "the password in the URL holds a % that is not percent-encoding"
        if not all(_utf8(secret) for secret in secrets):
            return "the password in the URL holds percent-encoded bytes that are not UTF-8"
        return None

    def __str__(self) -> str:
        reading = self._reading()
        user = reading.userinfo
        if user is None:
            shown = ""
        else:
            shown = f"{user.partition(':')[0]}:***@" if ":" in user else f"{user}@"
        params = [f"{p.key}=***" if p.secret else p.piece for p in reading.params]
        query = "?" + "&".join(params) if reading.params else ""
        return f"{reading.scheme}{shown}{reading.place}{query}"

    @staticmethod
    def _raw_secrets(reading: _Reading) -> list[str]:
        found = [_password(reading.userinfo)]
        return [s for s in found + [p.value for p in reading.params if p.secret] if s]

    def secrets(self) -> list[str]:
        """The password (from the user info or a secret parameter), as written and decoded,
        in both readings: to keep out of any message a server or driver writes. Whole, not
        in pieces: a URL libpq would read only part of is refused before it connects
        (`problem`), and pieces would mask words of the message ("pa***word")."""
        from urllib.parse import unquote

        found = self._raw_secrets(_read(self.url)) + self._raw_secrets(self._reading())
        found += [unquote(secret) for secret in found]
        return sorted({s for s in found if len(s) >= 2}, key=len, reverse=True)

    @property
    def host(self) -> str:
        """The server as a person names it: host and port, or "the local socket"."""
        place = self._reading().place.partition("/")[0]
        return place or "the local socket"


# Where a database is: a SQLite file, or a PostgreSQL server's database.
Location = Path | PostgresUrl


def is_postgres(text: str) -> bool:
    return _SCHEME.match(text) is not None


def postgres_url(text: str) -> PostgresUrl:
    """The URL as libpq takes it: a driver named in the scheme (`+psycopg`) left out."""
    return PostgresUrl(_SCHEME.sub("postgresql://", text, count=1))


def sqlite_file(location: Location, what: str, instead: str) -> Path:
    """The file of a SQLite database, for work only a file allows (copying it, reading its
    pages); for a PostgreSQL one, an error naming the server's own tool for it."""
    if isinstance(location, Path):
        return location
    from cardbase.errors import DatabaseError

    raise DatabaseError(f"{location}: {what} works on SQLite files; on PostgreSQL, {instead}")


ENV_VAR = "CARDBASE_DB"


def default_db_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("cardbase", appauthor=False) / "cardbase.db"


def resolve_db_path(
    option: str | os.PathLike[str] | None = None, configured: str | None = None
) -> Location:
    """`--db` wins over `CARDBASE_DB`, which wins over the config file's `db`, which wins over
    the per-user default. A `postgresql://` URL names a PostgreSQL database; anything else,
    a SQLite file."""
    chosen = option or os.environ.get(ENV_VAR) or configured
    if chosen and is_postgres(str(chosen)):
        return postgres_url(str(chosen))
    if chosen:
        return Path(chosen).expanduser()
    return default_db_path()
