"""The search pages' counts are kept while the database is unchanged and taken anew after
any commit, from the server or another process (issue #29: paging, sorting and switching
views ask for the same count again)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from cardbase.db.location import postgres_url
from cardbase.web.counts import CountCache
from cardbase.web.superseded import TAB_HEADER, Superseded, TabWork
from tests.conftest import Run
from tests.helpers import MINI_CATALOGUE, new_database
from tests.test_web_pages import db_path, pages
from tests.web_helpers import Pages, text_of

__all__ = ["db_path", "pages"]  # the page test on both engines


@pytest.fixture
def cli(tmp_path: Path) -> Run:
    """A SQLite file, for the cache's own tests (a league's counts are never kept)."""
    return Run(new_database(tmp_path / "mini.db", MINI_CATALOGUE))


class Counter:
    """A count that says how often it was taken."""

    def __init__(self, total: int) -> None:
        self.total, self.taken = total, 0

    def __call__(self) -> int:
        self.taken += 1
        return self.total


def test_a_count_is_taken_once_while_nothing_commits(cli: Run) -> None:
    cache = CountCache(cli.db_path)
    counter = Counter(7)
    assert [cache.count("q", counter) for _ in range(3)] == [7, 7, 7]
    assert counter.taken == 1
    assert cache.count("other", Counter(3)) == 3  # another query has its own count


def test_any_commit_elsewhere_drops_every_kept_count(cli: Run) -> None:
    cache = CountCache(cli.db_path)
    counter = Counter(7)
    cache.count("q", counter)
    assert cli("add", "1 U 15").exit_code == 0  # another connection (another process's)
    counter.total = 8
    assert cache.count("q", counter) == 8 and counter.taken == 2
    assert cache.count("q", counter) == 8 and counter.taken == 2


def test_the_least_recently_used_count_goes_first(cli: Run) -> None:
    cache = CountCache(cli.db_path, kept=2)
    first, second, third = Counter(1), Counter(2), Counter(3)
    cache.count("a", first)
    cache.count("b", second)
    cache.count("a", first)  # a is used again: b is now the oldest
    cache.count("c", third)
    cache.count("a", first)
    cache.count("b", second)
    assert (first.taken, second.taken, third.taken) == (1, 2, 1)


@pytest.mark.parametrize(
    "where", [postgres_url("postgresql://localhost/league"), Path("/nowhere/cardbase.db")]
)
def test_without_a_file_to_watch_every_count_is_taken_anew(where) -> None:
    cache = CountCache(where)
    counter = Counter(5)
    assert cache.count("q", counter) == cache.count("q", counter) == 5
    assert counter.taken == 2


def test_the_count_line_follows_the_collection_as_it_changes(pages: Pages, run: Run) -> None:
    """The collection's count is of owned cards: a copy added (here by the command line, as
    by another window) shows in the next count, though the same count was asked before."""

    def owned_line() -> str:
        return text_of(pages.get("/collection/count").text)

    before = owned_line()
    assert owned_line() == before
    assert run("add", "1 U 15").exit_code == 0
    assert owned_line() != before


class Tabbed:
    """What `TabWork` reads of a request: its headers, and its scope (where `StopWhenGone`
    leaves its `Gone`; none here)."""

    def __init__(self, tab: str | None) -> None:
        self.headers = {TAB_HEADER: tab} if tab else {}
        self.scope: dict[str, object] = {}


LONG = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"


def _running_long(work: TabWork, tab: str | None, outcome: list[object]) -> threading.Thread:
    def search() -> None:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        try:
            with work.running(Tabbed(tab), conn, supersedes=True):  # type: ignore[arg-type]
                conn.execute(LONG).fetchone()
        except Superseded as stopped:
            outcome.append(stopped)

    thread = threading.Thread(target=search, daemon=True)
    thread.start()
    return thread


def test_a_new_search_from_a_tab_stops_the_tabs_older_one() -> None:
    work, outcome = TabWork(), []
    older = _running_long(work, "tab-1", outcome)
    while not work.running_tabs():
        time.sleep(0.005)
    time.sleep(0.05)  # the older search is inside its statement
    conn = sqlite3.connect(":memory:")
    with work.running(Tabbed("tab-1"), conn, supersedes=True):  # type: ignore[arg-type]
        assert conn.execute("SELECT 1").fetchone() == (1,)
    older.join(timeout=10)
    assert not older.is_alive() and len(outcome) == 1
    assert work.running_tabs() == 0


def test_another_tabs_search_and_an_untabbed_one_are_left_alone() -> None:
    work, outcome = TabWork(), []
    older = _running_long(work, "tab-1", outcome)
    while not work.running_tabs():
        time.sleep(0.005)
    for tab in ("tab-2", None):
        conn = sqlite3.connect(":memory:")
        with work.running(Tabbed(tab), conn, supersedes=True):  # type: ignore[arg-type]
            conn.execute("SELECT 1")
    time.sleep(0.05)
    assert older.is_alive() and outcome == []
    with work.running(Tabbed("tab-1"), sqlite3.connect(":memory:"), True):  # type: ignore[arg-type]
        pass
    older.join(timeout=10)
    assert len(outcome) == 1


def test_a_tabbed_search_and_count_answer_as_any_other(pages: Pages) -> None:
    headers = {"HX-Request": "true", "HX-Target": "results", TAB_HEADER: "tab-9"}
    page = pages.get("/search", params={"q": "chug*"}, headers=headers)
    assert page.status_code == 200 and "Chugawug" in page.text
    count = pages.get("/search/count", params={"q": "chug*"}, headers={TAB_HEADER: "tab-9"})
    assert count.status_code == 200 and "cards" in text_of(count.text)
    assert pages.site.tabs.running_tabs() == 0


def test_the_collector_chooser_is_read_once_while_nothing_commits(
    pages: Pages, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every page's chooser (the request's collector, everyone's names) is kept as the
    counts are: a search page opens one connection, its search's, not a second for the
    chooser; a collector added (here by the command line) is in the next page's chooser."""
    pages.get("/search", params={"q": "chug*"})
    opened: list[object] = []
    connect = type(pages.site).connect

    def counted(site: object, request: object) -> object:
        opened.append(request)
        return connect(site, request)  # type: ignore[arg-type]

    monkeypatch.setattr(type(pages.site), "connect", counted)
    assert "Zed" not in text_of(pages.get("/search", params={"q": "chug*"}).text)
    if isinstance(pages.site.db_path, Path):  # a league's database has no cheap signal
        assert len(opened) == 1
    assert run("collectors", "add", "Zed").exit_code == 0
    assert "Zed" in text_of(pages.get("/search", params={"q": "chug*"}).text)


def test_a_search_whose_client_has_gone_is_stopped() -> None:
    """`StopWhenGone`: a GET's searches are interrupted once its connection closes (a
    browser dropping a request it replaced), in whichever worker process runs it; one that
    had not begun yet is never run."""
    import asyncio

    from cardbase.web.superseded import GONE, Gone, StopWhenGone

    outcome: list[object] = []

    async def app(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
        def search() -> None:
            conn = sqlite3.connect(":memory:", check_same_thread=False)
            scope[GONE].add(conn)
            try:
                conn.execute(LONG).fetchone()
            except sqlite3.OperationalError as exc:
                outcome.append(exc)

        await asyncio.to_thread(search)

    async def client() -> None:
        sent = iter([{"type": "http.request", "body": b"", "more_body": False}])

        async def receive() -> dict:  # type: ignore[type-arg]
            message = next(sent, None)
            if message is None:
                await asyncio.sleep(0.2)  # the client goes while the search runs
                return {"type": "http.disconnect"}
            return message

        scope = {"type": "http", "method": "GET", "path": "/search"}
        await asyncio.wait_for(StopWhenGone(app)(scope, receive, None), timeout=20)  # type: ignore[arg-type]

    asyncio.run(client())
    assert len(outcome) == 1 and "interrupt" in str(outcome[0])
    gone = Gone()
    gone.stop()
    with pytest.raises(Superseded):
        gone.add(sqlite3.connect(":memory:"))
