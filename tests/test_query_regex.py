"""/regex/ terms on RE2: patterns that backtrack for ever in Python's re end at once, patterns
RE2 cannot run are query errors, and Ctrl-C ends even a long regex search (exit 130).
What a pattern finds, and how fast it ends, is tested on both engines: PostgreSQL runs the
pattern RE2 accepted in its own engine (`PostgresEngine.regex`).
"""

from __future__ import annotations

import csv
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardbase.db.regex import compile_pattern
from cardbase.errors import QueryError
from cardbase.library import Library
from cardbase.query.parse import parse_query
from cardbase.query.search import count, search
from tests.conftest import postgres_database
from tests.helpers import new_database, subprocess_env
from tests.test_query import library  # noqa: F401  (both engines' module database)

# Patterns that take Python's backtracking re exponential time on the right text.
REDOS = [
    r"text:/^(\w+\s?)*$/",
    "name:/(a+)+$/",
    "text:/(a|aa)+$/",
    "name:/(a*)*b/",
    r"text:/(.*a){12}x/",
    "o:/((a|a)|a)*c/",
]
LONG_TEXT_CARDS = 3_000


def long_text_catalogue(path: Path, cards: int, text_chars: int) -> Path:
    """`cards` cards whose names and texts are long runs of 'a' ending in '!': the text each
    pattern above backtracks on."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["code", "name", "type", "sphere", "traits", "cost", "gems", "text"])
        for index in range(cards):
            series, number = divmod(index, 5_000)
            name = f"{'a' * 60} {index}!"
            text = " ".join(["a" * 40] * (text_chars // 41)) + "!"
            writer.writerow([f"{series + 1} C {number + 1}", name, "Trick", "Order", "Trait",
                             1, "Y", text])  # fmt: skip
    return path


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def long_texts(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[sqlite3.Connection]:
    folder = tmp_path_factory.mktemp("long")
    catalogue = long_text_catalogue(folder / "long.csv", LONG_TEXT_CARDS, 1_000)
    if request.param == "sqlite":
        new_database(folder / "long.db", catalogue)
        locations = iter([folder / "long.db"])
    else:
        from cardbase.db.postgres import schema as postgres_schema

        locations = postgres_database(request.getfixturevalue("postgres_server"))
    for location in locations:
        if request.param != "sqlite":
            postgres_schema.prepare(location, Library(location), catalogue)
        conn = Library(location).connect()
        yield conn
        conn.close()


@pytest.mark.parametrize("text", REDOS)
def test_backtracking_patterns_end_quickly(long_texts: sqlite3.Connection, text: str) -> None:
    # Not a speed figure (the benchmarks have those): a backtracking engine takes longer than
    # the age of the universe on these 1,000-character texts, a linear one well under a
    # second, so a bound this loose tells them apart on a loaded machine too.
    start = time.perf_counter()
    count(long_texts, parse_query(text))
    assert time.perf_counter() - start < 20.0, text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name:/^CHUG.*K$/", {"1 C 14", "2 C 101"}),  # case-insensitive, as ever
        ("name:/^chug.*k$/", {"1 C 14", "2 C 101"}),
        ("/dewdancer/", {"1 C 1"}),
        (r"text:/\[spend \d\]/", {"1 C 14"}),
    ],
)
def test_regex_terms_still_find_what_they_did(
    library: sqlite3.Connection,  # noqa: F811
    text: str,
    expected: set[str],
) -> None:
    found = {str(card.code) for card in search(library, parse_query(text))}
    assert expected <= found


@pytest.mark.parametrize(
    ("text", "message", "caret", "hint"),
    [
        (r"name:/(a)\1/", "RE2 has no backreferences", r"\1", True),
        ("name:/(?P<x>a)(?P=x)/", "RE2 has no backreferences", "(?P=", True),
        ("name:/chug(?=awug)/", "RE2 has no lookahead", "(?=", True),
        ("o:/(?!stun)s/", "RE2 has no lookahead", "(?!", True),
        ("o:/(?<=a)b/", "RE2 has no lookbehind", "(?<=", True),
        ("/x(?<!a)b/", "RE2 has no lookbehind", "(?<!", True),
        ("name:/a++/", "bad repetition operator", "++", False),
        ("name:/a{1001}/", "invalid repetition size", "{1001}", False),
        ("name:/((a{100}){100}){100}/", "invalid repetition size", "{100}", False),
        ("name:/[a/", "missing ]", "[a", False),
    ],
)
def test_patterns_re2_cannot_run_are_query_errors(
    text: str, message: str, caret: str, hint: bool
) -> None:
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    error = caught.value
    assert f"bad regular expression: {message}" in error.message
    assert text[error.start : error.end] == caret
    assert (error.hint is not None and "RE2" in error.hint) is hint


def test_the_fast_search_is_the_one_in_use() -> None:
    """The RE2 object's own Match(), not the wrapper's slower search(): see _searcher."""
    assert compile_pattern("chug").__name__ == "search"
    assert compile_pattern("CHUG")("Chugawug Cook")
    assert not compile_pattern("^cook")("Chugawug Cook")


def slow_query_database(folder: Path) -> Path:
    path = folder / "slow.db"
    new_database(path, long_text_catalogue(folder / "slow.csv", LONG_TEXT_CARDS, 4_000))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("command", ["search", "collection"])
def test_ctrl_c_ends_a_long_search_with_exit_130(tmp_path: Path, command: str) -> None:
    """Hundreds of /regex/ terms over thousands of long texts: tens of seconds of SQLite
    work, which Ctrl-C must end at once."""
    path = slow_query_database(tmp_path)
    query = " or ".join(f"o:/a{n}b/" for n in range(200))
    child = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "--db", str(path), command, query, "-o", "csv"],
        env=subprocess_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(2.0)  # started, and deep in the statement
    assert child.poll() is None, child.communicate()
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=10)
    assert time.perf_counter() - sent < 1.5
    assert child.returncode == 130, err
    assert err == "cardbase: interrupted; nothing was changed\n"
    assert out == ""
