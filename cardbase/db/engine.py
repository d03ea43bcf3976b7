"""What differs between the database kinds, in one object per kind: its `Engine`.

Statements are written once, for both SQLite and PostgreSQL, in the SQL the two share; each
piece they spell otherwise (full-text match and rank, regular expressions, finding text in
text, taking the write lock, whether the planner may be told to walk a sort index) is asked
of the connection's engine, ``conn.engine``. Nothing reads a statement's text to guess what
it meant, and no engine imitates the other's functions.

`Connection` is the part of a DB-API connection the library uses, which both sqlite3's
connection (`cardbase.db.sqlite`) and the PostgreSQL one (`cardbase.db.postgres`)
have, with the engine beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from cardbase.db.location import Location
    from cardbase.progress import Progress

Clause = tuple[str, list[Any]]


class Cursor(Protocol):
    row_factory: Any

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ..., /) -> Any: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def fetchmany(self, size: int = ..., /) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection of either engine, as the library's statements use it."""

    engine: Engine
    row_factory: Any
    # The game whose card a code or name means where several games have one: the user's
    # choice (--game, $CARDBASE_GAME, the config file's), set with the collector; None asks.
    game: str | None

    @property
    def in_transaction(self) -> bool: ...

    def cursor(self) -> Any: ...

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ..., /) -> Any: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> Any: ...

    def commit(self) -> None: ...

    def rollback(self) -> None: ...

    def close(self) -> None: ...


class Database(Protocol):
    """A database as the library's functions use it, for one collector: connections to read
    with and the one write transaction. `cardbase.Library` is the one there is; the functions
    take it rather than a path, so that only it creates, seeds and scopes connections."""

    @property
    def location(self) -> Location: ...

    def reading(self) -> AbstractContextManager[Connection]: ...

    def writing(self, whole: bool = False) -> AbstractContextManager[Connection]: ...


class Opener(Protocol):
    """What opening a database needs from above the database layer, which knows no cards
    and no collectors: the rows a new database starts with, what an upgrade from `version`
    tells its user, and whose connection it is. `cardbase.Library` is the opener."""

    def seed(self, conn: Connection, catalogue: Path | None) -> None: ...

    def upgraded(self, conn: Connection, version: int) -> None: ...

    def scope(self, conn: Connection) -> None: ...


class Bare:
    """The opener of a database that must already be there (the source of a copy): none is
    seeded, an upgrade says nothing, the connection reads as the default collector."""

    def seed(self, conn: Connection, catalogue: Path | None) -> None:
        from cardbase.errors import DatabaseError

        raise DatabaseError("no cardbase database here; nothing was created")

    def upgraded(self, conn: Connection, version: int) -> None:
        pass

    def scope(self, conn: Connection) -> None:
        pass


class TextTerm(NamedTuple):
    """One full-text term as an engine searches it: `fts`, FTS5's quoted expression of it;
    `words`, as typed (PostgreSQL's text search reads these); `prefix`, a trailing `*`;
    `column`, the one searched column (name, traits, text) or None for all three."""

    fts: str
    words: str
    prefix: bool = False
    column: str | None = None


class Engine:
    """The pieces of SQL, and the few steps, that one database kind spells its own way."""

    name: str = ""
    # Whether the planner should be offered a statement that walks a sort index in order
    # (SQLite picks the plan it is given; PostgreSQL chooses with its statistics).
    walks_sort_index: bool = False
    # Whether rows come from this process's own library rather than over a socket, so that
    # one big joined string costs less than many rows.
    in_process: bool = False
    # What a text key's ORDER BY needs to sort by bytes, the same order on both engines.
    byte_order: str = ""
    # How a boolean is written: SQLite stores 0 and 1, PostgreSQL refuses them for booleans.
    boolean: type = int

    def position(self, haystack: str, needle: str) -> str:
        """Where `needle` starts in `haystack`, from 1; 0 when it is not there."""
        raise NotImplementedError

    def regex(self, value: str, pattern: str) -> Clause:
        """`value` (an SQL expression) searched, in any case, for `pattern` (RE2's syntax,
        already checked by `cardbase.db.regex`)."""
        raise NotImplementedError

    def text_match(self, term: TextTerm) -> Clause:
        """The cards one full-text term finds, as a condition on the card ``c``."""
        raise NotImplementedError

    def ranked_text(self, terms: Sequence[TextTerm], top: int | None, rank: bool = True) -> Clause:
        """A join ``f`` of the cards all `terms` find, each with its `fts_rank` (lower is
        better); with `top`, only that many of the best; without `rank`, no rank at all (a
        count: ranking is most of the cost of a broad match)."""
        raise NotImplementedError

    def begin_write(self, conn: Connection, whole: bool = True) -> None:
        """Begin a write transaction holding the write lock: `whole`, a write beyond one
        collector's cards (the catalogue, the collectors)."""
        raise NotImplementedError

    def prepare_write(self, conn: Connection) -> None:
        """Settings a write needs, made outside its transaction, before it begins."""

    def read_only(self, conn: Connection) -> None:
        """Make the connection refuse every write from now on (a reader that must not
        change anything, whatever a bug would make it try)."""
        raise NotImplementedError

    def begin_snapshot(self, conn: Connection) -> None:
        """One read transaction: every table as of one moment, whatever others write."""
        conn.execute("BEGIN")

    def scope_to_collector(self, conn: Connection, number: int) -> None:
        """Make the "my" views (`tables.collector_views`) show collector `number`'s cards."""
        raise NotImplementedError

    def chunks(self, conn: Connection, sql: str, size: int) -> Iterator[list[Any]]:
        """A query's rows as tuples, `size` at a time, never the whole result at once."""
        cursor = conn.cursor()
        cursor.row_factory = None
        cursor.execute(sql)
        while rows := cursor.fetchmany(size):
            yield rows

    def bulk_load(
        self, conn: Connection, active: bool, progress: Progress
    ) -> AbstractContextManager[None]:
        """Within the caller's transaction: a block that writes much of the card table, its
        index work done once at the end where that is faster (`active`)."""
        return nullcontext()

    def filling_cards(self, conn: Connection, progress: Progress) -> AbstractContextManager[None]:
        """Within the caller's transaction: a block that fills an empty schema's card table,
        its indexes and full-text index made once, after the rows are in."""
        return self.bulk_load(conn, True, progress)

    def after_copy(self, conn: Connection, names: Sequence[str]) -> None:
        """What a database filled by a copy needs before its first use."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"
