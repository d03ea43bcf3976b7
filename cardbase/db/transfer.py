"""A cardbase database's rows moved from one connection to another, table by table, and the
proof that they arrived: what `cardbase.db.copy` does inside the target's one transaction.

Each table of `cardbase.db.models.TABLES` (parents before the tables that refer to them) is
read in primary-key order, a chunk at a time, and written with `executemany` in the same
order, every row with the id it had. Its rows are counted and hashed on the way out, then
read back from the target in the same order and hashed again; the two must agree.

The hash is over a canonical form that both engines give alike: booleans as the integers
SQLite holds (PostgreSQL has true and false), NULL as None, text as it is. Primary-key order
is the same on both too: text columns of a key are ordered by their bytes (SQLite's BINARY,
PostgreSQL's "C" collation), never by a locale's rules.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cardbase.db import interrupt
from cardbase.db.engine import Connection, Engine
from cardbase.errors import DatabaseError
from cardbase.progress import Progress, Stage, quiet

# Rows read, hashed and written at a time: few enough to keep memory flat at a million
# rows, many enough that a statement's round trip is paid once per thousands of rows.
CHUNK_ROWS = 5_000

Row = Sequence[Any]


@dataclass(frozen=True)
class TableSpec:
    """What copying one table needs to know of it, read off its SQLModel model."""

    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    booleans: tuple[int, ...]  # positions of the boolean columns
    text_keys: frozenset[str]  # key columns holding text, ordered by their bytes
    serial: str | None  # the id column whose PostgreSQL sequence must follow the copied ids

    def select(self, engine: Engine) -> str:
        """Every row, in primary-key order, the same order on either engine."""
        collate = engine.byte_order
        order = ", ".join(c + (collate if c in self.text_keys else "") for c in self.key)
        return f"SELECT {', '.join(self.columns)} FROM {self.name} ORDER BY {order}"

    def insert(self) -> str:
        marks = ", ".join("?" for _ in self.columns)
        return f"INSERT INTO {self.name} ({', '.join(self.columns)}) VALUES ({marks})"

    def converter(self, engine: Engine) -> Callable[[Row], Row]:
        """A row as the target engine takes it: PostgreSQL refuses 0 and 1 for a boolean."""
        return _with_booleans(self.booleans, engine.boolean)


def table_specs() -> list[TableSpec]:
    """Every table of the schema, in the order they are created: a table after those it
    refers to, which is the order their rows must be written in."""
    from sqlalchemy import Boolean, Integer

    from cardbase.db.models import TABLES

    specs = []
    for table in TABLES:
        columns = tuple(column.name for column in table.columns)
        key = tuple(column.name for column in table.primary_key.columns)
        serial = key[0] if len(key) == 1 and isinstance(table.c[key[0]].type, Integer) else None
        specs.append(
            TableSpec(
                name=table.name,
                columns=columns,
                key=key,
                booleans=tuple(
                    n for n, column in enumerate(table.columns) if isinstance(column.type, Boolean)
                ),
                text_keys=frozenset(c for c in key if _is_text(table.c[c].type)),
                serial=serial,
            )
        )
    return specs


def _is_text(kind: Any) -> bool:
    """SQLModel's `str` columns are a TypeDecorator over String, not a String."""
    from sqlalchemy import String

    return isinstance(kind, String) or isinstance(getattr(kind, "impl", None), String)


def _with_booleans(positions: tuple[int, ...], kind: type) -> Callable[[Row], Row]:
    if not positions:
        return tuple

    def convert(row: Row) -> Row:
        values = list(row)
        for n in positions:
            if values[n] is not None:
                values[n] = kind(values[n])
        return tuple(values)

    return convert


@dataclass(frozen=True)
class TableSum:
    """A table's rows as counted and hashed (sha256 of the canonical rows, in key order)."""

    table: str
    rows: int
    checksum: str


class Checksum:
    """The running count and hash of one table's rows, fed a chunk at a time; the same rows
    give the same sum however they were chunked."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec, self.rows = spec, 0
        self._canonical = _with_booleans(spec.booleans, int)
        self._digest = hashlib.sha256()

    def add(self, chunk: Sequence[Row]) -> None:
        text = "".join(repr(self._canonical(row)) + "\n" for row in chunk)
        self._digest.update(text.encode("utf-8", "surrogatepass"))
        self.rows += len(chunk)

    def result(self) -> TableSum:
        return TableSum(self.spec.name, self.rows, self._digest.hexdigest())


def chunks(conn: Connection, sql: str) -> Iterator[list[Row]]:
    """A query's rows as tuples, `CHUNK_ROWS` at a time (on PostgreSQL, through a server-side
    cursor), so no table is ever held in memory whole."""
    yield from conn.engine.chunks(conn, sql, CHUNK_ROWS)


def count_rows(conn: Connection, specs: Sequence[TableSpec]) -> dict[str, int]:
    return {s.name: conn.execute(f"SELECT count(*) FROM {s.name}").fetchone()[0] for s in specs}


def copy_tables(
    source: Connection,
    target: Connection,
    specs: Sequence[TableSpec],
    progress: Progress = quiet,
) -> list[TableSum]:
    """Every table's rows from `source` into `target`, each table a stage of `progress`;
    returns what was read, counted and hashed on the source."""
    totals = count_rows(source, specs)
    read = []
    for spec in specs:
        stage = Stage(f"Copying {spec.name}", totals[spec.name], progress)
        with _naming(spec.name, "copy"):
            summed = _copy_table(source, target, spec, stage)
        if summed.rows != totals[spec.name]:  # the same snapshot: only a bug could differ
            raise DatabaseError(
                f"table {spec.name}: {summed.rows:,} rows read of the {totals[spec.name]:,} "
                "counted; nothing was changed"
            )
        read.append(summed)
        stage.finish()
    return read


def _copy_table(source: Connection, target: Connection, spec: TableSpec, stage: Stage) -> TableSum:
    summed = Checksum(spec)
    insert, convert = spec.insert(), spec.converter(target.engine)
    for chunk in chunks(source, spec.select(source.engine)):
        summed.add(chunk)
        target.executemany(insert, [convert(row) for row in chunk])
        stage.add(len(chunk))
    return summed.result()


def table_sum(conn: Connection, spec: TableSpec) -> TableSum:
    summed = Checksum(spec)
    for chunk in chunks(conn, spec.select(conn.engine)):
        summed.add(chunk)
    return summed.result()


def verify(
    target: Connection,
    specs: Sequence[TableSpec],
    read: Sequence[TableSum],
    progress: Progress = quiet,
) -> None:
    """Every table of `target` counted and hashed again, to equal what was read from the
    source; the first that differs is one line naming it (the caller rolls back)."""
    stage = Stage("Verifying", sum(summed.rows for summed in read), progress)
    for spec, expected in zip(specs, read, strict=True):
        with _naming(spec.name, "verify"):
            found = table_sum(target, spec)
        if found != expected:
            raise DatabaseError(
                f"table {spec.name} differs after the copy ({expected.rows:,} rows read, "
                f"{found.rows:,} found, checksums {_agree(expected, found)}); nothing was changed"
            )
        stage.add(found.rows)
    stage.finish()


def _agree(expected: TableSum, found: TableSum) -> str:
    return "equal" if expected.checksum == found.checksum else "different"


def set_sequences(conn: Connection, specs: Sequence[TableSpec]) -> None:
    """PostgreSQL's id sequences past the copied ids, so the next row added gets a new one
    (SQLite takes the largest id plus one by itself)."""
    for spec in specs:
        if spec.serial is None:
            continue
        with _naming(spec.name, "number the rows of"):
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{spec.name}', '{spec.serial}'), "
                f"coalesce(max({spec.serial}), 0) + 1, false) FROM {spec.name}"
            )


@contextmanager
def _naming(table: str, what: str) -> Iterator[None]:
    """A database error while working on a table: one line naming the table (Ctrl-C, which
    ends a SQLite statement with an error, stays the interrupt it was)."""
    try:
        yield
    except sqlite3.Error as exc:
        if isinstance(exc, sqlite3.OperationalError) and interrupt.stopped():
            raise KeyboardInterrupt from None
        raise DatabaseError(f"cannot {what} table {table} ({exc}); nothing was changed") from exc
