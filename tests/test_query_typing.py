"""A query as it is being typed, and the corrections a page offers as links: the parser
tells an unfinished query (`cost>`, a quote not yet closed, a trailing `(`) from a wrong
one (`colour:purple`), and every warning or "did you mean" carries the search it suggests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.errors import QueryError
from cardbase.library import Library
from cardbase.query import advice
from cardbase.query.parse import parse_query
from cardbase.query.search import build_query
from tests.helpers import QUERY_TOKENS, Run

# Queries as people type them, each of them valid when finished (docs/query-language.md's examples).
FINISHED = [
    "chugawug", "chug* s:nature cost<=2 -is:owned", 'o:"draw a card"', 'name:"chugawug cook"',
    "name:/^ch.*k$/", "(s:nature or s:machine) t:trick", "-(t:creature or t:resource)",
    "cost:2..4", "atk:5..", "atk>def", "r>=r", "r:u..r", "gem:rr", "gem:red", "is:playset",
    "not:foil", "owned>=2", "cond>=lp", 'cond:"near mint"', "lang:fr", "lang:French",
    "lang:pt-BR", 'in:"binder 1"', "tag:trade,signed", '!"Chugawug Cook"', 'code:"1 C 157"',
    "1C157", "order:-attack", "order:cost", "s!=chaos", "def!=3", "e:1", "type:item",
]  # fmt: skip


def _refusal(text: str) -> QueryError | None:
    try:
        parse_query(text)
    except QueryError as exc:
        return exc
    return None


@pytest.mark.parametrize("finished", FINISHED)
def test_every_start_of_a_valid_query_is_valid_or_unfinished(finished: str) -> None:
    """Typing any of these from its first character to its last never meets a query that is
    wrong: each step parses, or is refused as unfinished (so a page can wait for more)."""
    assert _refusal(finished) is None, finished
    for end in range(1, len(finished)):
        refused = _refusal(finished[:end])
        assert refused is None or refused.incomplete, (finished[:end], refused)


@pytest.mark.parametrize(
    ("typed", "finished"),
    [
        ("cost>", "cost>2"),
        ("cost>=", "cost>=2"),
        ('name:"chug', 'name:"chug"'),
        ("s:chaos (", "s:chaos (t:trick)"),
        ("(s:chaos or", "(s:chaos or s:order)"),
        ("chug -", "chug -s:chaos"),
        ("chug or", "chug or dragon"),
        ("!", '!"Chugawug Cook"'),
        ("/^ch", "/^ch/"),
        ("cost:2.", "cost:2..4"),
        ("is:ow", "is:owned"),
        ("r:com", "r:common"),
        ("order:-co", "order:-cost"),
        ("gem:re", "gem:red"),
        ("cond:ne", "cond:nearmint"),
        ("lang:fre", "lang:french"),
    ],
)
def test_an_unfinished_query_says_so_and_its_end_mends_it(typed: str, finished: str) -> None:
    refused = _refusal(typed)
    assert refused is not None and refused.incomplete, typed
    assert _refusal(finished) is None, finished


@pytest.mark.parametrize(
    "wrong",
    [
        "colour:purple", "sphere:chaoss", "cost>x", "cost> s:chaos", "(cost>)", "is:zzz",
        "gem:rx", "chug - x", "r:xx..u", "s:chaos)", "or chug", "()", "cond:zz", "lang:qq",
        "sphere:chaoss x", "-or", "cost:4..2..",
    ],
)  # fmt: skip
def test_a_wrong_query_is_not_called_unfinished(wrong: str) -> None:
    """No text typed after these can mend them: the page says so at once."""
    refused = _refusal(wrong)
    assert refused is not None and not refused.incomplete, wrong


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*QUERY_TOKENS, "cost", ":", ">", "..", "2", "s:", "x"])))
def test_an_unfinished_query_is_refused_only_at_its_end(tokens: list[str]) -> None:
    """Whatever is typed, a refusal called unfinished points at the end of the text or at a
    quote, '(' or '/' that the end left open: never at a wrong part in the middle."""
    text = "".join(tokens)
    refused = _refusal(text)
    if refused is None or not refused.incomplete:
        return
    tail = text[refused.start :]
    assert refused.end >= len(text.rstrip()) or tail[:1] in ('"', "(", "/", "!", "-"), (
        text,
        refused.message,
    )


@pytest.mark.parametrize(
    ("typed", "corrected"),
    [
        ("sphere:chaoss x", "sphere:chaos x"),
        ("cots>2 chug", "cost>2 chug"),
        ("is:ownd", "is:owned"),
        ("order:-cots", "order:-cost"),
        ("r:comon t:trick", "r:common t:trick"),
    ],
)
def test_a_did_you_mean_is_the_corrected_query(typed: str, corrected: str) -> None:
    refused = _refusal(typed)
    assert refused is not None
    assert refused.corrected() == corrected
    found = advice.correction(refused, typed)
    assert found is not None and found.search == {"q": corrected}
    assert _refusal(corrected) is None


def test_a_hint_that_is_no_correction_offers_none() -> None:
    for typed in ("colour:purple", "r:xx..u", 's:"chaoss"', "cost>x"):
        refused = _refusal(typed)
        assert refused is not None and refused.corrected() is None, typed


@pytest.fixture
def library(db_path: Path) -> Library:
    return Library(db_path)  # the database `run` runs the command line on


@pytest.mark.parametrize(
    ("text", "options", "shown", "search"),
    [
        ("chug* cost:5..2", {}, "cost:2..5", {"q": "chug* cost:2..5"}),
        ("atk:9..1", {}, "attack:1..9", {"q": "atk:1..9"}),
        ("r:r..c", {}, "rarity:c..r", {"q": "r:c..r"}),
        ("r:p..c", {}, "rarity:p", {"q": "r:p"}),
        ("-cost:3..1", {}, "cost:1..3", {"q": "-cost:1..3"}),
        ("", {"cost": "5..2"}, "cost:2..5", {"cost": "2..5"}),
        ("", {"attack": "=9..1"}, "attack:1..9", {"attack": "=1..9"}),
    ],
)
def test_an_empty_range_suggests_the_search_the_right_way_round(
    library: Library, text: str, options: dict[str, str], shown: str, search: dict[str, str]
) -> None:
    with library.reading() as conn:
        _, warned = advice.warnings(conn, build_query(text, options), text, options)
    assert [s for w in warned for s in w.suggestions] == [advice.Suggested(shown, search)]
    assert "did you mean" not in warned[0].message  # the link says it
    fixed = {"q": text, **options, **search}
    with library.reading() as conn:
        _, after = advice.warnings(conn, build_query(fixed.pop("q"), fixed), "", fixed)
    assert after == []


def test_the_warnings_are_the_command_lines(library: Library, run: Run) -> None:
    """The page's words are the CLI's, without the suggestion the link offers instead."""
    for text in ("cost:4..2", "series:7", "1U999", "-series:7", "1C132"):
        cli = run("search", text).stderr.splitlines()[0].removeprefix("cardbase: warning: ")
        with library.reading() as conn:
            _, warned = advice.warnings(conn, build_query(text), text, {})
        said = warned[0].message
        suggested = [f"; did you mean {s.shown}?" for s in warned[0].suggestions]
        assert cli == said + "".join(suggested) or cli.replace(suggested[0], "") == said, text


def test_words_that_match_nothing_suggest_close_names(library: Library) -> None:
    with library.reading() as conn:
        found = advice.no_match(conn, build_query("chugawg"))
        assert advice.no_match(conn, build_query("chugawg s:chaos")) == []  # not bare words
    names = [s.shown for s in found[0].suggestions]
    assert names[:2] == ["Chugawug Cook", "Chugawug Elder"]
    assert found[0].suggestions[0].search == {"q": '!"Chugawug Cook"'}
    assert json.dumps(found[0].to_dict())  # the JSON twin carries it as it is
