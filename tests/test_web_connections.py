"""The server's kept reading connections (issue #29: opening one was a quarter of a Deck
Builder update) read the database as it is: after a commit elsewhere, a new default
collector, a restored file, or a request that failed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

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
