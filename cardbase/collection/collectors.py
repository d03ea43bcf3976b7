"""Collectors: whose cards. One database holds a playgroup's or a shop's collections over one
shared catalogue; a single user has one collector, the default, and never has to name it.

A connection is opened for one collector (`use_collector`): it gets temporary views of that
collector's rows (`tables.MY_OWNERSHIP`, `MY_HOLDING`, `MY_COLLECTOR`), and every read of
"your" cards names those views, so no query can show another's cards by leaving out a
filter. Writes name the collector's id explicitly, read from the same view.
"""

from __future__ import annotations

import shlex
from datetime import UTC, datetime
from typing import NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.db import tables
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError, Remedy, UnknownCollectorError, shorten
from cardbase.naming import clean, refuse_mixed_script, skeleton
from cardbase.similar import NAME_CUTOFF, closest

DEFAULT_COLLECTOR = "me"  # the collector a new database starts with
MAX_NAME = 60


class Collector(NamedTuple):
    id: int
    name: str
    is_default: bool


_SELECT = f"SELECT id, name, is_default FROM {tables.COLLECTOR_TABLE}"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def create_default(conn: Connection) -> None:
    """A new database's one collector."""
    conn.execute(
        f"INSERT INTO {tables.COLLECTOR_TABLE} (name, name_key, is_default, created_at) "
        "VALUES (?, ?, TRUE, ?)",
        (DEFAULT_COLLECTOR, name_key(DEFAULT_COLLECTOR), now()),
    )


def all_collectors(conn: Connection) -> list[Collector]:
    return [Collector(i, n, bool(d)) for i, n, d in conn.execute(f"{_SELECT} ORDER BY id")]


def find_collector(conn: Connection, name: str | None) -> Collector:
    """The collector of that name (ignoring case and spacing), or the default for None."""
    if name is None:
        row = conn.execute(f"{_SELECT} WHERE is_default").fetchone()
    else:
        row = conn.execute(f"{_SELECT} WHERE name_key = ?", (name_key(name),)).fetchone()
    if row is not None:
        return Collector(row[0], row[1], bool(row[2]))
    names = [collector.name for collector in all_collectors(conn)]
    if name is None:  # only if the database was edited by hand
        raise CardbaseError(
            "this database has no default collector",
            f"Name one with --collector ({', '.join(names)})",
        )
    guess = closest(name, names, NAME_CUTOFF)
    hint = f"did you mean '{guess}'? " if guess else ""
    raise UnknownCollectorError(
        f"no collector named '{shorten(name, 40)}' in this database; {hint}"
        f"collectors here: {', '.join(names)}",
        Remedy(
            f"Add one with: cardbase collectors add {shlex.quote(shorten(name, 40))}",
            "The Collector chooser at the top of the page lists this database's collectors",
        ),
    )


def use_collector(conn: Connection, name: str | None) -> Collector:
    """Make `conn` a connection of that collector (the default for None): (re)create the
    temporary views every read of "your" cards goes through. PostgreSQL's are permanent
    views of a session setting (`cardbase.db.postgres.schema`), which a read-only standby
    lets a connection set, where it refuses to create views."""
    collector = find_collector(conn, name)
    number = int(collector.id)  # an integer from our own table, never text from a user
    conn.engine.scope_to_collector(conn, number)
    return collector


def current_collector(conn: Connection) -> Collector:
    """The collector `use_collector` chose for this connection."""
    row = conn.execute(
        f"SELECT c.id, c.name, c.is_default FROM {tables.MY_COLLECTOR} AS m "
        f"JOIN {tables.COLLECTOR_TABLE} AS c ON c.id = m.id"
    ).fetchone()
    return Collector(row[0], row[1], bool(row[2]))


def check_name(name: str) -> str:
    """A new collector's name as stored, by the rule for every name people give
    (`cardbase.naming`: invisible characters refused, NFC, spaces folded), and in one
    alphabet a word: 'Alice' spelt with a Cyrillic A (U+0410) passes for 'Alice' in any list."""
    cleaned = clean(name, "a collector's name")
    if not name_key(cleaned):
        raise CardbaseError(f"'{shorten(name, 40)}' is not a name: use letters or digits")
    if len(cleaned) > MAX_NAME:
        raise CardbaseError(
            f"'{shorten(cleaned, 40)}': a collector's name is at most {MAX_NAME} characters"
        )
    refuse_mixed_script(cleaned, "a collector's name")
    return cleaned


def refuse_confusable(conn: Connection, name: str, but: int | None = None) -> None:
    """Refuse `name` for a new (or renamed) collector when it looks like another's
    (`naming.skeleton`: 'Kate' and 'KATE' in Cyrillic letters), so no one can pass for another in
    a list of collectors. The collector `but` (being renamed) does not count, nor one of the
    same `name_key`: that is the same name, which the caller refuses as taken."""
    shape, key = skeleton(name), name_key(name)
    for collector in all_collectors(conn):
        if collector.id == but or name_key(collector.name) == key:
            continue
        if skeleton(collector.name) == shape:
            raise CardbaseError(
                f"'{shorten(name, 40)}' looks the same as the collector '{collector.name}'; "
                "nothing was changed",
                "Choose a name that tells them apart at a glance",
            )
