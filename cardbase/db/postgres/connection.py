"""PostgreSQL's engine: the DB-API connection the library uses, over psycopg 3, and the
pieces of SQL PostgreSQL spells its own way (`PostgresEngine`).

Statements keep the `?` parameters both engines' statements are written with, rewritten
once per statement text to psycopg's `%s`; rows come back as tuples or, as `sqlite3.Row`
does, by name too; psycopg's errors are raised as the DB-API classes of the same name that
sqlite3 has (IntegrityError, OperationalError...), so the library's handlers need not know
the engine. The connection runs in autocommit, as cardbase's SQLite connections do:
transactions are begun explicitly, by the engine's `begin_write`: BEGIN plus
transaction-scoped advisory locks, so writers queue one behind the other as they do on a
file.
"""

from __future__ import annotations

import functools
import logging
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ClassVar

from cardbase.db import tables
from cardbase.db.engine import Clause, Connection, Engine, TextTerm
from cardbase.db.location import ENCODE_HINT, PostgresUrl
from cardbase.errors import DatabaseError
from cardbase.progress import Progress

INSTALL_HINT = "pip install 'cardbase[postgres]'"

# psycopg is the `postgres` extra: without it, a postgresql:// URL is the user's setup to
# fix, said in one line as `serve` says its missing extra, not a bug of ours (exit 70).
try:
    import psycopg
    from psycopg import pq
except ImportError as exc:
    raise DatabaseError(
        f"PostgreSQL databases need the postgres extra ({exc.name or 'psycopg'} not "
        f"installed): {INSTALL_HINT}"
    ) from None

# SQLSTATEs of a server refusing rather than a statement being wrong: the connection lost
# (08), no resources (53), shut down (57), system errors (58), no rights (42501), a read-only
# transaction (25006), no schema to work in (3F000, a search_path in the URL), a /regex/ the
# server's engine cannot read (2201B). sqlite3's OperationalError, which the CLI says in one
# line, exit 2.
_REFUSALS = ("08", "53", "57", "58", "42501", "25006", "3F000", "2201B")
# The advisory lock write transactions take (`begin_write`): shared by writers of one
# collector's cards, each of whom also takes a lock of that collector's own; exclusive for a
# write of the whole database (the catalogue, the collectors), as SQLite's one writer is.
WRITE_LOCK = 0x43524442  # 'CRDB', within PostgreSQL's int4 for the two-key form
CONNECT_TIMEOUT_S = 10

# psycopg logs what it ignores while it cleans up after Ctrl-C ("error ignored terminating
# <psycopg.Pipeline ...>"); without a handler of its own, Python would print it beside the
# CLI's one line. An application that sets up logging still gets it through the root.
logging.getLogger("psycopg").addHandler(logging.NullHandler())

_DBAPI_ERRORS = ("IntegrityError", "OperationalError", "ProgrammingError", "DataError",
                 "NotSupportedError", "InternalError", "InterfaceError")  # fmt: skip


def connect(url: PostgresUrl) -> PgConnection:
    """A connection in autocommit mode, or one line naming the server and what went wrong
    (the password never in it). A URL libpq would misread, and quote its password in the
    error, is refused before libpq sees it (`PostgresUrl.problem`)."""
    problem = url.problem()
    if problem:
        raise DatabaseError(
            f"{url}: cannot connect to PostgreSQL at {url.host}: {problem}", ENCODE_HINT
        )
    try:
        raw = psycopg.connect(url.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.Error as exc:
        reason = _reason(exc, url.secrets())
        raise DatabaseError(
            f"{url}: cannot connect to PostgreSQL at {url.host}: {reason}",
            "Check the URL, that the server runs, and the user's rights",
        ) from None
    except UnicodeDecodeError:  # psycopg reading back what libpq decoded (%80 in a name)
        raise DatabaseError(
            f"{url}: cannot connect to PostgreSQL at {url.host}: the URL holds "
            "percent-encoded bytes that are not UTF-8",
            "Percent-encode the UTF-8 bytes of its text",
        ) from None
    return PgConnection(raw, url)


_FTS = tables.CARD_FTS_TABLE
# card_fts: a tsvector per searched column, and all_v of all three (`postgres.schema`).
_VECTORS = {"name": "name_v", "traits": "traits_v", "text": "text_v", None: "all_v"}
# RE2 escapes whose meaning PostgreSQL's engine spells otherwise: a word boundary, not one,
# the end of the text (PostgreSQL reads \b as a backspace, so o:/\bstun\b/ found nothing).
_REGEX_ESCAPES = {"b": "\\y", "B": "\\Y", "z": "\\Z"}
_ESCAPE = re.compile(r"\\(.)", re.S)


class PostgresEngine(Engine):
    """Text search on tsvectors ranked by ts_rank, `~*` regular expressions, advisory locks."""

    name = "postgresql"
    byte_order = ' COLLATE "C"'
    boolean = bool

    def position(self, haystack: str, needle: str) -> str:
        return f"strpos({haystack}, {needle})"

    def regex(self, value: str, pattern: str) -> Clause:
        r"""A pattern RE2 accepted, as `~*` reads the same: its word-boundary and end escapes
        respelled; an escaped backslash stays one. What PostgreSQL cannot read at all (`\pL`,
        named groups) it refuses, and the command says so in one line."""
        respelled = _ESCAPE.sub(lambda m: _REGEX_ESCAPES.get(m[1], m[0]), pattern)
        return f"{value} ~* ?", [respelled]

    @staticmethod
    def _tsquery(term: TextTerm) -> Clause:
        """One term's query: a prefix, or words that must come in order."""
        from cardbase.db.postgres.fulltext import accentless

        config, words = f"'{tables.PG_TEXT_SEARCH}'", accentless(term.words)
        if term.prefix:
            return f"to_tsquery({config}, quote_literal(?) || ':*')", [words]
        return f"phraseto_tsquery({config}, ?)", [words]

    def text_match(self, term: TextTerm) -> Clause:
        query, params = self._tsquery(term)
        vector = _VECTORS[term.column]
        return f"c.id IN (SELECT id FROM {_FTS} WHERE {vector} @@ {query})", params

    def ranked_text(self, terms: Sequence[TextTerm], top: int | None, rank: bool = True) -> Clause:
        limit, tail = (" ORDER BY fts_rank LIMIT ?", [top]) if top is not None else ("", [])
        conditions, queries, params = [], [], []
        for term in terms:
            query, term_params = self._tsquery(term)
            conditions.append(f"{_VECTORS[term.column]} @@ {query}")
            queries.append(query)
            params += term_params
        ranked = f", -ts_rank(all_v, {' && '.join(queries)}) AS fts_rank" if rank else ""
        return (
            f" JOIN (SELECT id AS fts_id{ranked} FROM {_FTS}"
            f" WHERE {' AND '.join(conditions)}{limit}) AS f ON f.fts_id = c.id",
            [*(params if rank else []), *params, *tail],
        )

    def begin_write(self, conn: Connection, whole: bool = True) -> None:
        """BEGIN, then the locks of a write: every write of the whole database waits for all
        the others; a collector's write waits for such writes and for that collector's, so
        eight collectors' imports run side by side where SQLite's file takes one at a time."""
        conn.execute("BEGIN")
        if whole:
            conn.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")
            return
        conn.execute(
            f"SELECT pg_advisory_xact_lock_shared({WRITE_LOCK}), "
            f"pg_advisory_xact_lock({WRITE_LOCK}, "
            f"current_setting('{tables.COLLECTOR_SETTING}')::integer)"
        )

    def begin_snapshot(self, conn: Connection) -> None:
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def read_only(self, conn: Connection) -> None:
        conn.execute("SET default_transaction_read_only = on")

    def scope_to_collector(self, conn: Connection, number: int) -> None:
        """The "my" views are permanent views of a session setting (`postgres.schema`),
        which a read-only standby lets a connection set, where it refuses to create views."""
        conn.execute(f"SELECT set_config('{tables.COLLECTOR_SETTING}', ?, false)", (str(number),))

    def chunks(self, conn: Connection, sql: str, size: int) -> Iterator[list[Any]]:
        assert isinstance(conn, PgConnection)
        yield from conn.chunks(sql, size)

    def filling_cards(self, conn: Connection, progress: Progress) -> AbstractContextManager[None]:
        from cardbase.db.postgres.bulk import filling_cards

        return filling_cards(conn, progress)

    def after_copy(self, conn: Connection, names: Sequence[str]) -> None:
        """The id sequences past the copied ids, so the next row added gets a new one (SQLite
        takes the largest id plus one by itself), and statistics for the first query."""
        from cardbase.db.transfer import set_sequences, table_specs

        set_sequences(conn, [spec for spec in table_specs() if spec.name in names])
        conn.execute(f"ANALYZE {', '.join(names)}")


POSTGRES = PostgresEngine()


def _reason(exc: psycopg.Error, secrets: list[str]) -> str:
    """libpq's message, first line, without the text that would echo a password. The
    password is masked first, whole: cut first, a password holding " failed: " would be cut
    in two, and its second half shown."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    for secret in secrets:  # as libpq quotes it, longest first
        text = text.replace(secret, "***")
    if " failed: " in text:  # 'connection to server at "h", port p failed: FATAL:  ...'
        text = text.rsplit(" failed: ", 1)[1]
    return text.replace("FATAL:", "").strip()


_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


@functools.lru_cache(maxsize=1024)
def placeholders(sql: str, named: bool = False) -> str:
    """`sql` with SQLite's `?` (or, `named`, `:name`) as psycopg's `%s` (`%(name)s`) and a
    literal `%` doubled, outside quoted strings and names."""
    parts = re.split(r"('(?:[^']|'')*'|\"(?:[^\"]|\"\")*\")", sql)
    for n in range(0, len(parts), 2):  # the even parts are outside quotes
        code = parts[n].replace("%", "%%")
        parts[n] = _NAMED.sub(r"%(\1)s", code) if named else code.replace("?", "%s")
    return "".join(part if n % 2 == 0 else part.replace("%", "%%") for n, part in enumerate(parts))


def _named_rows(cursor: psycopg.Cursor[Any]) -> Any:
    """psycopg's row maker for rows readable by position and by column name."""
    names = {column.name: n for n, column in enumerate(cursor.description or ())}
    row_class = type("Row", (NamedRow,), {"_names": names})
    return row_class


class NamedRow(tuple):
    """A row as `sqlite3.Row` reads: row[0], row["name"], row.keys()."""

    _names: ClassVar[dict[str, int]] = {}

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


@contextmanager
def _as_sqlite_errors() -> Iterator[None]:
    try:
        yield
    except psycopg.Error as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            # Ctrl-C in executemany's pipeline, whose cleanup then failed ("cannot exit
            # pipeline mode while busy"): the interrupt it was, not a database error.
            raise KeyboardInterrupt from None
        kind = next((n for n in _DBAPI_ERRORS if isinstance(exc, getattr(psycopg, n))), None)
        if (exc.sqlstate or "").startswith(_REFUSALS):
            kind = "OperationalError"  # what the server would not let us do: not a bug of ours
        error = getattr(sqlite3, kind or "DatabaseError")
        raise error(str(exc).strip().splitlines()[0] if str(exc).strip() else kind) from exc


class PgCursor:
    """A cursor as sqlite3's: `row_factory` None (tuples) or `sqlite3.Row` (by name too)."""

    def __init__(self, conn: PgConnection) -> None:
        self.connection = conn
        self.row_factory: Any = conn.row_factory
        self._cursor: psycopg.Cursor[Any] | None = None

    def _new(self) -> psycopg.Cursor[Any]:
        factory = _named_rows if self.row_factory is sqlite3.Row else psycopg.rows.tuple_row
        self._cursor = self.connection.raw.cursor(row_factory=factory)
        return self._cursor

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> PgCursor:
        with _as_sqlite_errors():
            named = isinstance(params, dict)
            self._new().execute(placeholders(sql, named), _values(params))
        return self

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> PgCursor:
        with _as_sqlite_errors():
            self._new().executemany(placeholders(sql), (_values(row) for row in rows))
        return self

    def fetchone(self) -> Any:
        with _as_sqlite_errors():
            return self._cursor.fetchone() if self._cursor and self._cursor.description else None

    def fetchall(self) -> list[Any]:
        with _as_sqlite_errors():
            return self._cursor.fetchall() if self._cursor and self._cursor.description else []

    def fetchmany(self, size: int = 1) -> list[Any]:
        with _as_sqlite_errors():
            return self._cursor.fetchmany(size) if self._cursor and self._cursor.description else []

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


def _values(params: Any) -> Any:
    return list(params) if isinstance(params, tuple | list) else params


class PgConnection:
    """The part of a DB-API connection cardbase uses (`cardbase.db.engine.Connection`), over
    psycopg."""

    engine: Engine = POSTGRES
    game: str | None = None

    def __init__(self, raw: psycopg.Connection[Any], url: PostgresUrl) -> None:
        self.raw, self.url = raw, url
        self.row_factory: Any = sqlite3.Row

    def cursor(self) -> PgCursor:
        return PgCursor(self)

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> PgCursor:
        return self.cursor().execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> PgCursor:
        return self.cursor().executemany(sql, rows)

    def chunks(self, sql: str, size: int) -> Iterator[list[tuple[Any, ...]]]:
        """A query's rows, `size` at a time, as tuples, through a server-side cursor: a
        client cursor would hold the whole result in memory at once (a million cards). Only
        inside a transaction, which the cursor lives in."""
        with _as_sqlite_errors(), self.raw.cursor(name="cardbase_chunks") as cursor:
            cursor.execute(placeholders(sql))
            while rows := cursor.fetchmany(size):
                yield rows

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != pq.TransactionStatus.IDLE

    def commit(self) -> None:
        with _as_sqlite_errors():
            if self.in_transaction:
                self.raw.execute("COMMIT")

    def rollback(self) -> None:
        with _as_sqlite_errors():
            if self.in_transaction:
                self.raw.execute("ROLLBACK")

    def close(self) -> None:
        self.raw.close()
