"""`cardbase search` as a user types it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.errors import QueryError
from cardbase.library import Library
from cardbase.query.checks import check
from cardbase.query.search import build_query, search
from cardbase.text import visible
from tests.helpers import MINI_CATALOGUE, QUERY_TOKENS, Run, new_database


def codes(result) -> list[str]:
    assert result.exit_code == 0, result.output
    return [card["code"] for card in json.loads(result.stdout)]


def test_query_words_may_come_as_one_argument_or_many(run: Run) -> None:
    one = codes(run("search", "s:chaos t:creature order:-attack", "-o", "json"))
    many = codes(run("search", "s:chaos", "t:creature", "order:-attack", "-o", "json"))
    assert one == many == ["2 U 102", "1 U 42", "1 C 41", "1 S 43"]


def test_negated_terms_need_no_quotes_or_double_dash(run: Run) -> None:
    quoted = codes(run("search", "robgoblin -t:creature -is:hero", "-o", "json"))
    assert quoted
    assert codes(run("search", "robgoblin", "-t:creature", "-o", "json", "-is:hero")) == quoted
    assert codes(run("search", "-o", "json", "--", "robgoblin", "-t:creature", "-is:hero")) == (
        quoted
    )
    assert codes(run("collection", "-is:foil", "-o", "json")) == []


def test_an_option_left_without_its_value_says_so(run: Run) -> None:
    for args in (["--sort"], ["dragon", "--limit"], ["-o"]):
        result = run("search", *args)
        assert result.exit_code == 2
        assert result.output == (
            f"cardbase: Option '{args[-1]}' requires an argument; see 'cardbase search -h'\n"
        )  # one line, as every error is


def test_a_mistyped_option_is_refused_not_read_as_a_query(run: Run) -> None:
    result = run("search", "robgoblin", "--sphre", "chaos")
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "--sphre" in result.output
    assert "--sphere" in result.output


@pytest.mark.parametrize(
    ("options", "query"),
    [
        (["--sphere", "chaos", "--type", "creature"], "s:chaos t:creature"),
        (["--cost", "2..4", "--rarity", "U"], "cost:2..4 r:u"),
        (["--trait", "chugawug", "--attack", ">=3"], "tr:chugawug atk>=3"),
        (["--hero"], "is:hero"),
        (["--name", "chugawug cook"], 'name:"chugawug cook"'),
        (["--gem", "rr", "--sort", "attack", "--desc"], "gem:rr order:-attack"),
    ],
)
def test_options_and_query_agree(run: Run, options: list[str], query: str) -> None:
    by_options = codes(run("search", *options, "-o", "json"))
    assert by_options
    assert by_options == codes(run("search", query, "-o", "json"))


def test_options_and_query_combine(run: Run) -> None:
    combined = codes(run("search", "robgoblin", "--type", "creature", "-o", "json"))
    assert combined == codes(run("search", "robgoblin t:creature", "-o", "json"))
    assert set(combined) == {"1 C 41", "1 S 43", "2 U 102"}


def test_sort_option_overrides_and_limit(run: Run) -> None:
    found = codes(
        run("search", "t:creature", "--sort", "cost", "--desc", "--limit", "2", "-o", "json")
    )
    assert found == ["1 E 162", "1 E 82"]


def test_count_and_csv(run: Run) -> None:
    assert run("search", "t:trick", "--count").stdout.strip() == "4"
    lines = run("search", "t:trick", "-o", "csv").stdout.splitlines()
    assert len(lines) == 5
    assert lines[0].startswith("code,")


def test_explain(run: Run) -> None:
    result = run("search", "s:c atk>=3", "--explain")
    assert result.exit_code == 0
    assert "query:  sphere:chaos attack>=3" in result.stdout
    assert "params: ['Chaos', 3]" in result.stdout


def test_bad_query_shows_a_caret_and_exits_2(run: Run, checksum) -> None:
    before = checksum(run.db_path)
    result = run("search", "sphere:chaoss")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "cardbase: unknown sphere 'chaoss'. Did you mean chaos?",
        "  sphere:chaoss",
        "         ^^^^^^",
    ]
    assert checksum(run.db_path) == before


def test_bad_option_names_the_option(run: Run) -> None:
    result = run("search", "--cost", "lots")
    assert result.exit_code == 2
    assert "--cost lots: expected a number, not 'lots'" in result.stderr


def test_no_match_suggests_close_names(run: Run) -> None:
    result = run("search", "chugawug cok")
    assert result.exit_code == 0
    assert "No cards match. Did you mean: Chugawug Cook (1 C 14, 2 C 101)?" in result.stderr
    assert json.loads(run("search", "chugawug cok", "-o", "json").stdout) == []


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Run, sqlite3.Connection]]:
    """One database that only read commands use: the CLI and, beside it, the library."""
    path = tmp_path_factory.mktemp("reader") / "reader.db"
    new_database(path, MINI_CATALOGUE)
    Run(path)("add", "1 C 14 x2", "2 C 101 foil", "1 E 82 foil", "1 C 41 x3", "1 U 132")
    conn = Library(path).connect()
    conn.engine.read_only(conn)
    yield Run(path), conn
    conn.close()


# Queries whose JSON output must be exactly the library's cards, in the library's order.
JSON_QUERIES = [
    "",
    "chugawug",
    "chug*",
    "s:chaos t:creature order:-attack",
    "-is:owned s:order",
    "is:foil",
    "owned>=2",
    "cost:2..3 order:name",
    "r>=r order:rarity",
    "name:/^c.*k$/",
    '"draw a card"',
    "1U132 or 2c101",
    "dragon OR crush",
    "atk>def",
    "o'malley",
    '"\'; DROP TABLE card; --"',
    "nothing-matches-this",
]


@pytest.mark.parametrize("command", ["search", "collection"])
@pytest.mark.parametrize("text", JSON_QUERIES)
def test_json_is_the_library_result(
    reader: tuple[Run, sqlite3.Connection], command: str, text: str
) -> None:
    """search's JSON is the library's cards; collection's is the same with is:owned added,
    and each card's copies in built decks and free ones (none built here: all free)."""
    from cardbase.collection.sleeved import with_decks

    run, conn = reader
    result = run(command, text, "-o", "json")
    assert result.exit_code == 0, result.output
    options = {"owned": True} if command == "collection" else {}
    cards = search(conn, build_query(text, options))
    expected = [card.to_dict() for card in cards]
    if command == "collection":
        expected = [
            with_decks(shown, card.owned, 0) for shown, card in zip(expected, cards, strict=True)
        ]
    assert json.loads(result.stdout) == expected


def test_the_json_tables_compare_something(reader: tuple[Run, sqlite3.Connection]) -> None:
    """Most queries in the table find cards, owned ones too, so equality is not [] == []."""
    _, conn = reader
    found = [search(conn, build_query(text)) for text in JSON_QUERIES]
    owned = [search(conn, build_query(text, {"owned": True})) for text in JSON_QUERIES]
    assert sum(1 for cards in found if cards) >= len(JSON_QUERIES) - 3
    assert sum(1 for cards in owned if cards) >= len(JSON_QUERIES) // 2


def assert_the_cli_does_what_the_library_predicts(
    reader: tuple[Run, sqlite3.Connection], text: str
) -> None:
    """The library decides: what it refuses exits 2 with its message, the rest exits 0 with
    exactly the cards the library finds."""
    from cardbase.query.argv import query_text

    run, conn = reader
    result = run("search", "-o", "json", "--", text)
    assert "Traceback" not in result.output
    try:  # one argument, as the shell delivers it: 'o:stun Y' is o:"stun Y" (query.argv)
        query = build_query(query_text([text]))
    except QueryError as error:
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        # one message; a query error also shows the query with a caret under the problem
        assert result.stderr == visible(f"cardbase: {error}\n", keep="\n")
    else:
        query, notes = check(conn, query)  # warnings: a term no card can match
        assert result.exit_code == 0, result.output
        assert result.stderr == "".join(f"cardbase: warning: {note}\n" for note in notes)
        assert json.loads(result.stdout) == [card.to_dict() for card in search(conn, query)]


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("near", False),
        ("not chugawug", False),
        ('"unclosed phrase', True),
        ("AND", False),
        ("NEAR(a b)", False),
        ("dragon or crush", False),
        ("NEAR(", True),
        ("OR", True),
        ("*", True),
        ('"', True),
        ("'; DROP TABLE card; --", True),
        ("sphere:chaoss", True),
    ],
)
def test_words_users_type_exit_as_the_library_predicts(
    reader: tuple[Run, sqlite3.Connection], text: str, refused: bool
) -> None:
    try:
        build_query(text)
    except QueryError:
        assert refused
    else:
        assert not refused
    assert_the_cli_does_what_the_library_predicts(reader, text)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(QUERY_TOKENS) | st.text(max_size=8), max_size=8),
    st.sampled_from([" ", "", "  "]),
)
def test_any_query_soup_exits_as_the_library_predicts(
    reader: tuple[Run, sqlite3.Connection], parts: list[str], glue: str
) -> None:
    assert_the_cli_does_what_the_library_predicts(reader, glue.join(parts))


def test_a_terminal_gets_one_page_and_pipes_get_everything(run: Run, monkeypatch) -> None:
    from cardbase.cli import render

    def table_rows(result) -> list[str]:
        assert result.exit_code == 0, result.output
        return [line for line in result.stdout.splitlines()[1:] if line.strip()]

    everything = len(table_rows(run("search", "t:creature")))
    assert everything > 5
    monkeypatch.setattr(render, "TERMINAL_PAGE", 5)
    monkeypatch.setattr(render, "on_terminal", lambda: True)
    monkeypatch.setenv("NO_COLOR", "1")
    paged = run("search", "t:creature")
    assert len(table_rows(paged)) == 5
    assert f"... and {everything - 5} more: --all shows every match." in paged.stderr
    assert len(table_rows(run("search", "t:creature", "--all"))) == everything
    assert len(table_rows(run("search", "t:creature", "--limit", "7"))) == 7
    assert len(json.loads(run("search", "t:creature", "-o", "json").stdout)) == everything
    few = run("search", "t:creature", "-n", "3")
    assert "more" not in few.stderr
    missing = run("missing")
    assert len(table_rows(missing)) == 5
    assert "more: --all shows every match." in missing.stderr
    assert f"{len(table_rows(run('missing', '--all')))} missing" in missing.stderr
