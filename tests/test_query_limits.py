"""Input past the limits in `cardbase.limits` (numbers, nesting, terms, length) and how errors
quote it: bad input is one line (a query error adds the query and its caret), exit 2, never
an internal error, and the database unchanged. See test_query_regex.py for /regex/ terms.
"""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.catalog.entries import parse_entry
from cardbase.codes import parse_code
from cardbase.errors import CardbaseError, CodeError, QueryError
from cardbase.limits import (
    MAX_NESTING,
    MAX_QUERY_CHARS,
    MAX_QUERY_NUMBER,
    MAX_RESULTS,
    MAX_TERMS,
)
from cardbase.query.parse import parse_query
from cardbase.query.search import build_query, count, owned_totals, plan, search
from tests.helpers import MINI_CATALOGUE, Run, new_database

BIG = "9" * 5_000  # past the 4,300 digits Python's int() reads


# -- past the limits: the library ----------------------------------------------------------

HOSTILE_QUERIES = [
    ("cost:1..99999999999999999999999", "is out of range", "99999999999999999999999"),
    (f"cost>{BIG}", "is out of range", BIG),
    (f"atk:-{MAX_QUERY_NUMBER + 1}..3", "is out of range", f"-{MAX_QUERY_NUMBER + 1}"),
    (f"owned<{MAX_QUERY_NUMBER + 1}", "is out of range", str(MAX_QUERY_NUMBER + 1)),
    (f"code:1U{BIG}", "card number 9999", f"1U{BIG}"),
    (f"1U{BIG}", "card number 9999", f"1U{BIG}"),
    (f"code:{BIG}U1", "series 9999", BIG + "U1"),
    ("code:1U-3", None, None),  # '-' between parts: a separator, so 1 U 3
    ('code:"1 U -3"', "card number -3 must be 1 or more", '"1 U -3"'),
    ("name:/a{99999999999}/", "invalid repetition size", "{99999999999}"),
    (f"name:/a{{{BIG}}}/", "invalid repetition size", f"{{{BIG}}}"),
    ("(" * 1_000 + "a" + ")" * 1_000, "levels of ( ) and -", "("),
    ("-" * 1_000 + "a", "levels of ( ) and -", "-"),
    ("-(" * 500 + "a" + ")" * 500, "levels of ( ) and -", "-"),
    (" or ".join(["a"] * 1_000), f"at most {MAX_TERMS} terms", "a"),
    (" ".join(["cost>1"] * 1_500), f"at most {MAX_TERMS} terms", "cost>1"),
    ("x" * (MAX_QUERY_CHARS + 1), "characters long", "x"),
    ("name:/chug\udcff/", "not UTF-8", "\udcff"),
]


@pytest.mark.parametrize(("text", "message", "caret"), HOSTILE_QUERIES, ids=lambda v: str(v)[:30])
def test_hostile_queries_are_query_errors_with_a_caret(
    text: str, message: str | None, caret: str | None
) -> None:
    if message is None:
        parse_query(text)
        return
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    error = caught.value
    assert message in error.message
    assert caret is not None and text[error.start : error.end].startswith(caret[:50])
    assert len(str(error)) < 400  # a few lines a person reads, however long the query


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: parse_code("1 U -3"), CodeError, "1 U -3: card number -3 must be 1 or more"),
        (lambda: parse_code(f"1 U {BIG}"), CodeError, "card number 99999999999999999999... (5,000"),
        (lambda: parse_code(f"1 U -{BIG}"), CodeError, "must be 1 or more"),
        (lambda: parse_code(f"{BIG} U 1"), CodeError, "series 9999"),
        (lambda: parse_entry(f"{BIG} Chugawug Cook"), CardbaseError, "the count must be 1 to"),
        (lambda: parse_entry(f"Chugawug Cook x{BIG}"), CardbaseError, "the count must be 1 to"),
        (lambda: parse_entry("2" * 20 + " Chugawug Cook"), CardbaseError, "the count must be"),
        (lambda: build_query("", {"cost": BIG}), CardbaseError, "is out of range"),
        (lambda: build_query("", {"cost": f"1..{BIG}"}), CardbaseError, "is out of range"),
        (lambda: build_query("", {"trait": "x" * 30_000}), CardbaseError, "characters long"),
        (lambda: build_query("", {"name": "/a{2000}/"}), CardbaseError, "repetition size"),
        (lambda: plan(parse_query("a"), limit=-1), CardbaseError, "the limit must be 0 or more"),
    ],
)
def test_hostile_values_raise_the_right_error_in_one_line(
    call: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as caught:
        call()  # type: ignore[operator]
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 300


def test_a_limit_past_what_sqlite_holds_means_every_match(conn: sqlite3.Connection) -> None:
    query = parse_query("chug*")
    assert search(conn, query, limit=10**30) == search(conn, query)
    assert plan(query, limit=10**30).params[-1] == MAX_RESULTS


def _nested(opening: str, inner: str, closing: str, levels: int) -> str:
    return opening * levels + inner + closing * levels


HEAVY_TERMS = ["gem:rgby", "rarity:u..r", "is:playset", "-atk>def", "code:1U132", "name:/ab/",
               "chug*", '"draw a card"', "-is:owned", "cost:1..3"]  # fmt: skip


def _terms(count: int) -> str:
    return " or ".join(HEAVY_TERMS[i % len(HEAVY_TERMS)] for i in range(count))


# The shapes that cost SQLite's parser the most for each level of nesting, each at the limit.
AT_THE_LIMITS = {
    "terms": _terms(MAX_TERMS),
    "and": " ".join(HEAVY_TERMS[i % len(HEAVY_TERMS)] for i in range(MAX_TERMS)),
    "minus": "-" * MAX_NESTING + "gem:rgby",
    "parentheses": _nested("(gem:rgby or ", "b", ")", MAX_NESTING),
    "minus parentheses": _nested("-(rarity:u..r ", "b", ")", MAX_NESTING // 2),
    "or minus": _nested("(gem:rgby or -", "b", ")", MAX_NESTING // 2),
    "first": _nested("(", "gem:rgby", " or -rarity:u..r)", MAX_NESTING - 1),  # and one -
    "all at once": _nested("-(", f"({_terms(MAX_TERMS - 20)} or b)", ")", MAX_NESTING // 2 - 1),
}


@pytest.mark.parametrize("text", AT_THE_LIMITS.values(), ids=AT_THE_LIMITS.keys())
def test_a_query_at_the_limits_runs(conn: sqlite3.Connection, text: str) -> None:
    options: dict[str, str | bool | None] = {"sphere": "chaos", "cost": "1..3", "trait": "a b",
                                             "hero": True, "owned": True}  # fmt: skip
    query = build_query(text, options, sort="cost")
    search(conn, query, limit=5)
    count(conn, query)
    owned_totals(conn, query)


@pytest.mark.parametrize(
    "text",
    [_nested("(", "a", ")", MAX_NESTING + 1), "-" * (MAX_NESTING + 1) + "a", _terms(MAX_TERMS + 1)],
    ids=["parentheses", "minus", "terms"],
)
def test_one_past_the_limits_is_refused(text: str) -> None:
    with pytest.raises(QueryError):
        parse_query(text)


# -- past the limits: the command line ------------------------------------------------------

CLI_HOSTILE = [
    ["code", "1 U -3"],
    ["code", f"1 U {BIG}"],
    ["code", f"{BIG} U 1"],
    ["show", f"1 U {BIG}"],
    ["search", "cost:1..99999999999999999999999"],
    ["search", f"cost>{BIG}"],
    ["search", "name:/a{99999999999}/"],
    ["search", "name:/(a)\\1/"],
    ["search", "(" * 1_000 + "a" + ")" * 1_000],
    ["search", " or ".join(["a"] * 1_000)],
    ["search", "x" * 10_000_000],
    ["search", "--cost", BIG],
    ["search", "--trait", "x" * 100_000],
    ["collection", f"owned>{BIG}"],
    ["missing", "--cost", f"..{BIG}"],
    ["add", f"{BIG} Chugawug Cook"],
    ["add", "99999999999999999999999 Chugawug Cook"],
    ["add", f"Chugawug Cook x{BIG}"],
    ["set", f"1 U {BIG} x2"],
    ["remove", "1 U -3"],
    ["search", "chug\udcff"],  # a byte that was not UTF-8, as Python hands it on
    ["search", "--trait", "chug\udcff"],
    ["search", "--sort", "cost\udcff"],
]


@pytest.mark.parametrize("args", CLI_HOSTILE, ids=lambda args: " ".join(args)[:40])
def test_hostile_input_is_one_error_and_exit_2(run: Run, checksum, args: list[str]) -> None:
    before = checksum(run.db_path)
    result = run(*args)
    lines = result.stderr.splitlines()
    assert result.exit_code == 2, result.stderr[:500]
    assert lines[0].startswith("cardbase: ") and "internal error" not in lines[0]
    assert "Traceback" not in result.stderr
    if len(lines) > 1:  # a query error: the query, then the caret under the problem
        assert len(lines) == 3 and lines[2].strip().strip("^") == ""
    assert all(len(line) < 300 for line in lines)
    assert checksum(run.db_path) == before


@pytest.mark.parametrize(
    "args",
    [
        ["search", "--limit", "99999999999999999999999", "chug*"],
        ["search", "--limit", BIG, "chug*"],
        ["history", "--limit", "99999999999999999999999"],
        ["search", "text:/^(\\w+\\s?)*$/"],
        ["search", "name:/(a+)+$/"],
    ],
    ids=lambda args: " ".join(args)[:40],
)
def test_huge_limits_and_backtracking_patterns_just_run(run: Run, args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 0, result.stderr[:500]


@pytest.mark.parametrize("value", ["x", "-3", "0", "00", "1e30", BIG + "x"])
def test_a_limit_that_is_no_whole_number_is_a_usage_error(run: Run, value: str) -> None:
    result = run("search", "--limit", value, "chug*")
    assert result.exit_code == 2
    assert "--limit" in result.stderr and len(result.stderr) < 400


NUMBERS = st.text(st.sampled_from("0123456789"), min_size=1, max_size=6_000)
SIGNS = st.sampled_from(["", "-", "+"])


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """One database for the property test below, whose adds may succeed."""
    path = tmp_path_factory.mktemp("digits") / "digits.db"
    new_database(path, MINI_CATALOGUE)
    return Run(path)


@settings(max_examples=40, deadline=None)
@given(SIGNS, NUMBERS, st.sampled_from(["code", "search", "add", "search-limit"]))
def test_no_string_of_digits_is_an_internal_error(
    scratch: Run, sign: str, digits: str, where: str
) -> None:
    number = sign + digits
    args = {
        "code": ["code", f"1 U {number}"],
        "search": ["search", f"cost:{number}..3"],
        "add": ["add", f"{number} Chugawug Cook"],
        "search-limit": ["search", "--limit", number, "chug*"],
    }[where]
    result = scratch(*args)
    assert result.exit_code in (0, 2), result.stderr[:300]
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


# -- quoting the input in error lines -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("chug", "chug"),
        ("x" * 80, "x" * 80),
        ("x" * 81, "x" * 80 + "... (81 characters)"),
        ("9" * 5_000, "9" * 80 + "... (5,000 characters)"),
        ("a\nb\x00c", "a\\nb\\x00c"),
        ("\n" * 81, "\\n" * 40 + "... (81 characters)"),
    ],
    ids=["short", "80", "81", "5000 digits", "control characters", "newlines"],
)
def test_shorten_quotes_one_short_line(text: str, expected: str) -> None:
    from cardbase.errors import shorten

    assert shorten(text) == expected


FILLER = '"a phrase long enough to make the query far wider than a line" ' * 40


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (FILLER + "sphere:chaoss " + FILLER, "chaoss"),
        (FILLER + "sphere:chaoss", "chaoss"),
        ("sphere:chaoss " + FILLER, "chaoss"),
        (FILLER + "dragon or", "or"),
    ],
    ids=["middle", "end", "start", "last word"],
)
def test_a_long_query_shows_a_window_around_the_caret(text: str, problem: str) -> None:
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    _message, shown, caret = str(caught.value).splitlines()
    assert len(shown) <= 2 + 3 + 80 + 3
    column = caret.index("^")
    assert shown[column:].startswith(problem)
    assert shown.startswith("  ...") == (caught.value.start > 30)
    assert shown.endswith("...") == (caught.value.start < len(text) - 60)


def test_a_deck_line_with_a_huge_count_is_a_problem_of_the_deck(run: Run, tmp_path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(f"{BIG} Chugawug Cook\n3 Chugawug Cook\n")
    result = run("deck", "check", str(deck))
    assert result.exit_code == 1  # an invalid deck, not an internal error
    assert "bad-line: line 1" in result.stdout
    assert all(len(line) < 400 for line in result.stdout.splitlines())  # the line, quoted twice
