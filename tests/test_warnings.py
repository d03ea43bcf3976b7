"""Queries that parse but cannot match (or match everything) warn on stderr and exit 0."""

from __future__ import annotations

import json

import pytest

from tests.helpers import Run


@pytest.mark.parametrize(
    ("args", "warning"),
    [
        (["search", "cost:4..2"], "cost:4..2 is an empty range (4 is more than 2)"),
        (["search", "atk:9..1"], "did you mean attack:1..9?"),
        (["search", "r:p..c"], "promo cards have no place in the rarity order"),
        (["search", "r:r..c"], "rarity:r..c is an empty range (Rare is above Common)"),
        (["search", "series:7"], "series=7: the catalogue has no such series (it has series 1, 2)"),
        (["search", "e>5"], "series>5: the catalogue has no such series"),
        (["search", "set:3..9"], "series:3..9: the catalogue has no such series"),
        (["search", "--series", "7"], "series=7: the catalogue has no such series"),
        (["collection", "series:7"], "series=7: the catalogue has no such series"),
        (["collection", "--copies", "cost:3..1"], "cost:3..1 is an empty range"),
        (["missing", "--series", "3"], "series=3: the catalogue has no such series"),
        (
            ["trade", "list", "--complete-series", "7"],
            "--complete-series 7: Free Realms TCG has no such series in the catalogue (it has",
        ),
        (["search", "1U999"], "no card has the code 1 U 999"),
        (["search", "1 U 999"], "no card has the code 1 U 999"),  # as the catalogue writes it
        (["search", "1", "U", "999"], "no card has the code 1 U 999"),
        (["search", "-series:7"], "(-series=7 excludes nothing)"),
        (["search", "--count", "cost:4..2"], "cost:4..2 is an empty range"),
    ],
)
def test_a_query_that_cannot_match_warns_and_exits_0(
    run: Run, args: list[str], warning: str
) -> None:
    result = run(*args)
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("cardbase: warning: ")
    assert warning in lines[0]


def test_a_warned_query_still_answers_in_json(run: Run) -> None:
    result = run("search", "cost:4..2", "-o", "json")
    assert json.loads(result.stdout) == []
    everything = json.loads(run("search", "-o", "json").stdout)
    assert json.loads(run("search", "-series:7", "-o", "json").stdout) == everything


def test_queries_that_can_match_say_nothing(run: Run) -> None:
    for query in ("cost:2..4", "series:2", "r:c..r", "r:p..p", "1U132", "series<=1", "atk:3..3"):
        result = run("search", query)
        assert result.exit_code == 0
        assert "warning" not in result.stderr, query


def test_a_spaced_code_is_the_code(run: Run) -> None:
    """`search '1 U 132'` searched three words, and found nothing: it is the code 1U132."""
    from cardbase.query.parse import parse_query

    spaced = json.loads(run("search", "1 U 132", "-o", "json").stdout)
    assert spaced == json.loads(run("search", "1U132", "-o", "json").stdout) != []
    assert parse_query("1 U 132 cost:3").root == parse_query("1U132 cost:3").root
    assert "TextMatch" in repr(parse_query("cost 3 a 4").root)  # no code: words as they were


def test_a_code_with_the_wrong_rarity_letter_finds_the_card_it_names(run: Run) -> None:
    """`show 1C132` and `code 1C132` name 1 U 132 (card 132 of series 1 is Uncommon): a
    search of the bare code finds it too, and says so."""
    result = run("search", "1C132", "-o", "json")
    assert result.exit_code == 0
    assert [card["code"] for card in json.loads(result.stdout)] == ["1 U 132"]
    assert "1 C 132: card 132 of series 1 is Uncommon, not Common; searching for 1 U 132" in (
        result.stderr
    )


def test_code_of_no_card_exits_2(run: Run) -> None:
    result = run("code", "1U999")
    assert result.exit_code == 2
    assert result.stderr == "cardbase: no card has the code 1 U 999\n"
    assert result.stdout == ""


@pytest.mark.parametrize("command", ["search", "collection"])
def test_explain_as_json(run: Run, command: str) -> None:
    result = run(command, "s:chaos", "pow>=3", "--explain", "-o", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["query"].startswith("sphere:chaos attack>=3")
    assert found["sql"].startswith("SELECT ")
    assert found["params"][:2] == ["Chaos", 3]
    assert "query:" in run(command, "s:chaos", "--explain").stdout
