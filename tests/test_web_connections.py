"""The server's kept reading connections (issue #29: opening one was a quarter of a Deck
Builder update) read the database as it is: after a commit elsewhere, a new default
collector, a restored file, or a request that failed."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from cardbase.db import connect as db_connect
from cardbase.errors import CardbaseError
from cardbase.library import Library
from cardbase.web.connections import KeptConnections
from cardbase.web.counts import CountCache
from tests.conftest import Run
from tests.helpers import MINI_CATALOGUE, new_database


@pytest.fixture
def cli(tmp_path: Path) -> Run:
    return Run(new_database(tmp_path / "mini.db", MINI_CATALOGUE))


def owned(kept: KeptConnections, library: Library) -> int:
    with kept.reading(library) as conn:
        return int(
            conn.execute("SELECT coalesce(sum(nonfoil + foil), 0) FROM my_ownership").fetchone()[0]
        )


def test_a_thread_reads_through_one_connection_from_request_to_request(cli: Run) -> None:
    kept, library = KeptConnections(), Library(cli.db_path)
    with kept.reading(library) as first:
        pass
    with kept.reading(library) as second:
        assert second is first
    with kept.reading(Library(cli.db_path)) as third:  # each request makes its own Library
        assert third is first


def test_each_collector_and_each_thread_has_its_own(cli: Run) -> None:
    assert cli("collectors", "add", "Bea").exit_code == 0
    kept = KeptConnections()
    with kept.reading(Library(cli.db_path)) as mine:
        pass
    with kept.reading(Library(cli.db_path, "Bea")) as beas:
        assert beas is not mine
    seen: list[object] = []

    def elsewhere() -> None:
        with kept.reading(Library(cli.db_path)) as conn:
            seen.append(conn)

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert seen and seen[0] is not mine


def test_a_commit_elsewhere_is_read_at_once(cli: Run) -> None:
    kept, library = KeptConnections(), Library(cli.db_path)
    assert owned(kept, library) == 0
    assert cli("add", "1 U 15", "--foil").exit_code == 0
    assert owned(kept, library) == 1


def test_a_new_default_collector_is_whose_cards_the_kept_one_reads(cli: Run) -> None:
    kept, library = KeptConnections(), Library(cli.db_path)  # the default collector's
    assert cli("add", "1 U 15").exit_code == 0
    assert owned(kept, library) == 1
    assert cli("collectors", "add", "Bea").exit_code == 0
    assert cli("collectors", "default", "Bea").exit_code == 0
    assert owned(kept, library) == 0  # Bea's, who owns nothing


def test_a_removed_collector_is_refused_in_the_usual_words(cli: Run) -> None:
    assert cli("collectors", "add", "Bea").exit_code == 0
    kept, library = KeptConnections(), Library(cli.db_path, "Bea")
    assert owned(kept, library) == 0
    assert cli("collectors", "remove", "Bea", "--yes").exit_code == 0
    with pytest.raises(CardbaseError, match="no collector named 'Bea'"):
        owned(kept, library)


def test_a_restored_file_is_read_not_the_one_it_replaced(cli: Run, tmp_path: Path) -> None:
    kept, library = KeptConnections(), Library(cli.db_path)
    backup = tmp_path / "before.db"
    assert cli("backup", str(backup)).exit_code == 0
    assert cli("add", "1 U 15").exit_code == 0
    assert owned(kept, library) == 1
    assert cli("restore", str(backup)).exit_code == 0
    assert owned(kept, library) == 0


def test_a_connection_whose_request_failed_is_not_kept(cli: Run) -> None:
    kept, library = KeptConnections(), Library(cli.db_path)
    with pytest.raises(ZeroDivisionError), kept.reading(library) as failed:
        1 / 0  # noqa: B018
    with kept.reading(library) as conn:
        assert conn is not failed


def test_a_connection_whose_request_was_refused_is_kept(cli: Run) -> None:
    """A query error while the person types is cardbase's own refusal, not a broken
    connection: the next search takes the same one."""
    kept, library = KeptConnections(), Library(cli.db_path)
    with pytest.raises(CardbaseError), kept.reading(library) as refused:
        raise CardbaseError("expected a value after 'cost>'")
    with kept.reading(library) as conn:
        assert conn is refused


@pytest.mark.parametrize("read_only", ["mode=ro", "immutable=1"])
def test_a_file_opened_read_only_is_opened_anew_for_each_request(
    cli: Run, monkeypatch: pytest.MonkeyPatch, read_only: str
) -> None:
    """An immutable connection sees no later commit at all, and which way the file may be
    read changes with a writer's -wal: each request opens as the rule says then."""
    kept, library = KeptConnections(), Library(cli.db_path)
    assert cli("add", "1 U 15").exit_code == 0
    monkeypatch.setattr(db_connect, "read_only_query", lambda path: read_only)
    monkeypatch.setattr("cardbase.web.connections.read_only_query", lambda path: read_only)
    with kept.reading(library) as first:
        pass
    with kept.reading(library) as second:
        assert second is not first
    monkeypatch.undo()
    assert cli("add", "1 U 15").exit_code == 0
    monkeypatch.setattr(db_connect, "read_only_query", lambda path: read_only)
    monkeypatch.setattr("cardbase.web.connections.read_only_query", lambda path: read_only)
    assert owned(kept, library) == 2


def test_a_connection_inside_another_is_kept_beside_it(cli: Run) -> None:
    """A whole page that renders a partial opens a second connection inside the first: both
    are kept, and the next such page takes both again."""
    kept, library = KeptConnections(), Library(cli.db_path)
    with kept.reading(library) as outer, kept.reading(library) as inner:
        assert inner is not outer
    with kept.reading(library) as again, kept.reading(library) as again_inner:
        assert {again, again_inner} == {outer, inner}


def test_a_thread_keeps_a_few_connections_the_least_recently_used_closed(cli: Run) -> None:
    for name in ("Bea", "Cai", "Dov"):
        assert cli("collectors", "add", name).exit_code == 0
    kept = KeptConnections(per_thread=3)
    opened = {}
    for name in (None, "Bea", "Cai", "Dov"):  # four collectors: the first goes
        with kept.reading(Library(cli.db_path, name)) as conn:
            opened[name] = conn
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        opened[None].execute("SELECT 1")
    for name in ("Bea", "Cai", "Dov"):
        with kept.reading(Library(cli.db_path, name)) as conn:
            assert conn is opened[name]


def test_a_connection_left_in_a_transaction_is_not_kept(cli: Run) -> None:
    kept, library = KeptConnections(), Library(cli.db_path)
    with kept.reading(library) as left_open:
        left_open.execute("BEGIN")
    with kept.reading(library) as conn:
        assert conn is not left_open and not conn.in_transaction


def test_kept_counts_are_dropped_when_the_file_is_restored(cli: Run, tmp_path: Path) -> None:
    """The count cache's watcher, open on the old file, saw no commit there."""
    cache = CountCache(cli.db_path)
    backup = tmp_path / "before.db"
    assert cli("backup", str(backup)).exit_code == 0
    assert cache.count("q", lambda: 1) == 1
    assert cli("restore", str(backup)).exit_code == 0
    assert cache.count("q", lambda: 2) == 2
