"""Sorted first pages read off a sort index, within a budget, else scanned and sorted: the
same cards in the same order either way."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.db import interrupt
from cardbase.errors import CardbaseError
from cardbase.fields import SORT_INDEXED, SORT_KEYS
from cardbase.library import Library
from cardbase.query import search as lib
from cardbase.query.parse import parse_query
from tests.helpers import new_database

FILTERS = (
    "",
    "t:creature",
    "t:trick",
    "cost:2..4",
    "cost>=5",
    "atk>def",
    "s:chaos r>=u",
    "-s:nature gems>=2",
    "is:hero",
    "cost=99",
)


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    """The bundled catalogue: enough cards that a walk runs past SQLite's first callbacks."""
    path = tmp_path_factory.mktemp("sorting") / "bundled.db"
    new_database(path)
    conn = Library(path).connect()
    yield conn
    conn.close()


def _plan_details(conn: sqlite3.Connection, sql: str, params: list[object]) -> str:
    return " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params))


@pytest.mark.parametrize("key", SORT_INDEXED)
@pytest.mark.parametrize(("sign", "index"), [("", "up"), ("-", "down")])
def test_a_sorted_first_page_is_read_off_its_index(
    bundled: sqlite3.Connection, key: str, sign: str, index: str
) -> None:
    found = lib.plan(parse_query(f"cost:2..4 order:{sign}{key}"), 50)
    walk = _plan_details(bundled, found.sql, found.params)
    assert f"USING INDEX ix_card_{key}_{index}" in walk
    assert "TEMP B-TREE" not in walk  # nothing left to sort
    assert found.fallback is not None
    scan = _plan_details(bundled, found.fallback, found.params)
    assert not any(f"ix_card_{name}_" in scan for name in SORT_INDEXED)


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("order:attack", None),  # every card: a scan and one sort
        ("order:attack", lib.WALK_LIMIT + 1),
        ("order:name", 50),  # no index for it
        ("chugawug order:attack", 50),  # ranked words join the full-text index first
    ],
)
def test_other_sorts_never_walk_an_index(text: str, limit: int | None) -> None:
    found = lib.plan(parse_query(text), limit)
    assert found.fallback is None
    assert "+c." in found.sql or "attack" not in text


class _Recorded(interrupt.StepBudget):
    budgets: ClassVar[list[interrupt.StepBudget]] = []

    def __init__(self, steps: int) -> None:
        super().__init__(steps)
        self.budgets.append(self)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[interrupt.StepBudget]:
    monkeypatch.setattr(interrupt, "StepBudget", _Recorded)
    _Recorded.budgets = []
    return _Recorded.budgets


def test_a_walk_past_its_budget_gives_way_to_the_scan(
    bundled: sqlite3.Connection,
    recorded: list[interrupt.StepBudget],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lib, "WALK_STEPS", 0)  # the bundled 254 cards are a short walk
    monkeypatch.setattr(lib, "WALK_STEPS_PER_ROW", 0)
    query = parse_query("cost=99 order:-attack")  # no card: the walk reads every one
    assert lib.search(bundled, query, 50) == []
    assert [budget.spent for budget in recorded] == [True]


def test_a_broad_walk_stays_within_its_budget(
    bundled: sqlite3.Connection, recorded: list[interrupt.StepBudget]
) -> None:
    assert len(lib.search(bundled, parse_query("order:-attack"), 5)) == 5
    assert [budget.spent for budget in recorded] == [False]


def test_ctrl_c_during_a_walk_is_not_taken_for_a_spent_budget(
    bundled: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interrupt, "_stop", True)  # as the Ctrl-C handler leaves it
    with pytest.raises(KeyboardInterrupt):
        lib.search(bundled, parse_query("cost=99 order:-attack"), 50)
    assert interrupt._stop is False  # asked, so forgotten


@settings(max_examples=150, deadline=None)
@given(
    text=st.sampled_from(FILTERS),
    key=st.sampled_from(sorted(SORT_KEYS)),
    descending=st.booleans(),
    limit=st.integers(0, 60),
    budget=st.sampled_from([0, lib.WALK_STEPS]),
)
def test_walked_or_scanned_the_page_is_the_head_of_the_whole_order(
    bundled: sqlite3.Connection,
    text: str,
    key: str,
    descending: bool,
    limit: int,
    budget: int,
) -> None:
    query = parse_query(f"{text} order:{'-' if descending else ''}{key}")
    everything = [card.code for card in lib.search(bundled, query)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lib, "WALK_STEPS", budget)
        patch.setattr(lib, "WALK_STEPS_PER_ROW", budget // 500)
        page = [card.code for card in lib.search(bundled, query, limit)]
    assert page == everything[:limit]


@settings(max_examples=150, deadline=None)
@given(
    text=st.sampled_from((*FILTERS, "dragon", "the", "the t:creature", "chug* order:cost")),
    key=st.sampled_from([None, *sorted(SORT_KEYS)]),
    limit=st.integers(0, 60),
    offset=st.integers(0, 300),
    budget=st.sampled_from([0, lib.WALK_STEPS]),
)
def test_a_later_page_skipped_in_sql_is_the_slice_of_the_whole_order(
    bundled: sqlite3.Connection,
    text: str,
    key: str | None,
    limit: int,
    offset: int,
    budget: int,
) -> None:
    """A page after the first (the web's page=N) is the same cards as fetching every
    earlier page too and slicing, walked, scanned or ranked by the full-text index."""
    query = parse_query(f"{text} order:{key}" if key else text)
    everything = [card.code for card in lib.search(bundled, query)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lib, "WALK_STEPS", budget)
        patch.setattr(lib, "WALK_STEPS_PER_ROW", budget // 500)
        page = [card.code for card in lib.search(bundled, query, limit, offset=offset)]
    assert page == everything[offset : offset + limit]


def test_a_walk_reads_the_earlier_pages_rows_too() -> None:
    """The walk of a sort index reads the rows it skips: its budget and its limit count
    them, so a deep page scans and sorts as a long first page would."""
    query = parse_query("cost:2..4 order:attack")
    assert lib.plan(query, 50, offset=900).fallback is not None
    assert lib.plan(query, 50, offset=900).limit == 950
    assert lib.plan(query, 50, offset=lib.WALK_LIMIT).fallback is None
    assert lib.plan(query, 50, offset=900).params[-2:] == [50, 900]


@pytest.mark.parametrize(("page", "walks"), [(1, True), (20, True), (100, True), (101, False)])
def test_the_web_pages_sorted_pages_up_to_the_hundredth_may_walk(page: int, walks: bool) -> None:
    """The web page reads a page's 50 cards and one more (is there a next page?): page 20
    read 1,001 cards, one past the old limit, and scanned and sorted 100k cards in 41 ms."""
    query = parse_query("order:cost")
    assert (lib.plan(query, 51, offset=(page - 1) * 50).fallback is not None) is walks


def test_an_offset_is_never_below_zero() -> None:
    with pytest.raises(CardbaseError, match="offset must be 0 or more"):
        lib.plan(parse_query("dragon"), 50, offset=-1)


def test_upgraded_and_new_databases_have_the_sort_indexes(db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert {f"ix_card_{key}_{way}" for key in SORT_INDEXED for way in ("up", "down")} <= names


def _ends_on_ctrl_c(conn: sqlite3.Connection) -> bool:
    """Whether a statement of some 100k SQLite steps ends when Ctrl-C is pressed."""
    interrupt._stop = True  # as the Ctrl-C handler leaves it for a running statement
    try:
        conn.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)"
            " SELECT count(*) FROM n"
        ).fetchone()
    except sqlite3.OperationalError:
        return interrupt.stopped()
    interrupt._stop = False
    return False


@pytest.mark.parametrize("watched", [True, False])
def test_a_walk_puts_the_connections_own_handler_back(db_path: Path, watched: bool) -> None:
    """The command line's connections end on Ctrl-C after a walk as before it; the web
    server's, which run without the handler, stay without it."""
    conn = Library(db_path).connect()
    if not watched:
        interrupt.unwatch(conn)
    assert lib.plan(parse_query("order:-attack"), 5).fallback  # a walk, within its budget
    lib.search(conn, parse_query("order:-attack"), 5)
    assert _ends_on_ctrl_c(conn) is watched
    conn.close()
