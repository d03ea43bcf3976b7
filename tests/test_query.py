"""The query language on the fixture catalogue: one table of queries and the cards they find."""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.db.location import Location
from cardbase.errors import CardbaseError, QueryError
from cardbase.fields import FIELDS, FLAGS, CardField, Kind
from cardbase.library import Library
from cardbase.query.parse import parse_query
from cardbase.query.search import build_query, count, plan, search
from tests.helpers import (
    MINI_CATALOGUE,
    QUERY_TOKENS,
    copy_database,
    database_checksum,
    new_database,
)

# The collector's copies: (code, finish, condition, language, location, tags, copies).
HOLDINGS = [
    ("1 C 14", "nonfoil", "NM", "en", "Binder 1", "trade", 1),
    ("1 C 14", "nonfoil", "LP", "fr", "", "", 1),
    ("2 C 101", "nonfoil", "M", "ja", "Box", "", 1),
    ("2 C 101", "foil", "NM", "en", "Binder 1", "Signed,trade", 1),
    ("1 E 82", "foil", "HP", "en", "", "", 1),
    ("1 C 41", "nonfoil", "NM", "en", "", "", 3),
    ("1 U 132", "nonfoil", "DMG", "de", "Box", "wish", 1),
]


def _totals(holdings: list[tuple]) -> dict[str, tuple[int, int]]:
    """Non-foil and foil copies per card, as the ownership table sums them."""
    owned: dict[str, list[int]] = {}
    for code, finish, *_, copies in holdings:
        owned.setdefault(code, [0, 0])[finish == "foil"] += copies
    return {code: (nonfoil, foil) for code, (nonfoil, foil) in owned.items()}


OWNED = _totals(HOLDINGS)
CREATURES = {
    "1 C 1",
    "1 C 14",
    "1 U 15",
    "1 C 41",
    "1 U 42",
    "1 S 43",
    "1 C 81",
    "1 E 82",
    "1 U 132",
    "1 P 133",
    "1 R 161",
    "1 E 162",
    "2 C 101",
    "2 U 102",
}


def own(conn: sqlite3.Connection, holdings: list[tuple]) -> None:
    """The collector's copies, and their totals per card as the write side keeps them."""
    for code, *attributes, copies in holdings:
        series, rarity, number = code.split()
        conn.execute(
            "INSERT INTO holding (collector_id, card_id, finish, condition, language, location, "
            "tags, copies, note) SELECT 1, id, ?, ?, ?, ?, ?, ?, '' FROM card "
            "WHERE series = ? AND rarity = ? AND number = ?",
            (*attributes, copies, int(series), rarity, int(number)),
        )
    for code, (nonfoil, foil) in _totals(holdings).items():
        series, rarity, number = code.split()
        conn.execute(
            "INSERT INTO ownership (collector_id, card_id, nonfoil, foil) SELECT 1, id, ?, ? FROM card "
            "WHERE series = ? AND rarity = ? AND number = ?",
            (nonfoil, foil, int(series), rarity, int(number)),
        )


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def library(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[sqlite3.Connection]:
    """One database for the whole module, so it is read-only: no test can leave a change
    behind that the next one would see. Every test of it runs on both engines."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("query") / "query.db"
        new_database(path, MINI_CATALOGUE)
        yield from _owned_library(path)
        return
    for url in request.getfixturevalue("pg_templates").copy(MINI_CATALOGUE):
        yield from _owned_library(url)


def _owned_library(location: Location) -> Iterator[sqlite3.Connection]:
    conn = Library(location).connect()
    own(conn, HOLDINGS)
    conn.engine.read_only(conn)
    yield conn
    conn.close()


def codes(conn: sqlite3.Connection, text: str) -> set[str]:
    return {str(card.code) for card in search(conn, parse_query(text))}


QUERIES = [
    ("chugawug", {"1 C 14", "1 U 15", "1 R 20", "2 C 101"}),
    ("chug*", {"1 C 14", "1 U 15", "1 R 20", "2 C 101"}),
    ("CHUGAWUGS", {"1 C 14", "1 U 15", "1 R 20", "2 C 101"}),
    ("dragon", {"1 E 82"}),
    ('"draw a card"', {"1 R 50", "1 C 81"}),
    ("robgoblin -sneak", {"1 C 41", "1 R 50", "2 U 102"}),
    ("crush", {"1 C 41", "1 U 92"}),
    ("near", set()),
    ("name:chug", {"1 C 14", "1 U 15", "2 C 101"}),
    ("n:clockwork", {"1 C 81", "1 E 82"}),
    ('name:"chugawug cook"', {"1 C 14", "2 C 101"}),
    ("text:stun", {"1 C 1", "1 R 141"}),
    ("o:stun", {"1 C 1", "1 R 141"}),
    ("trait:robgoblin", {"1 C 41", "1 S 43", "1 R 50", "2 U 102"}),
    ("tr:ninja", {"1 S 43", "1 U 132"}),
    ('trait:"forest troll"', {"1 E 162"}),
    ("s:chaos t:creature", {"1 C 41", "1 U 42", "1 S 43", "2 U 102"}),
    ("sphere:none", {"1 R 161", "1 E 162"}),
    ("is:hero", {"1 R 161", "1 E 162"}),
    ("sphere!=none t:trick s:o", {"1 R 141"}),
    ("t:trick", {"1 C 21", "1 C 51", "1 U 92", "1 R 141"}),
    ("t:item", {"1 R 20", "1 R 50", "1 C 91", "1 C 140"}),
    ("cost>=5", {"1 E 82", "1 R 161", "1 E 162"}),
    ("cost:0", {"1 R 141"}),
    (
        "cost:2..3 t:creature",
        {"1 C 14", "1 S 43", "1 C 81", "1 U 132", "2 C 101", "1 U 42", "1 P 133"},
    ),
    ("atk>5", {"1 E 82", "1 R 161", "1 E 162", "2 U 102"}),
    ("def=3", {"1 U 42", "2 U 102", "1 U 132"}),
    ("def!=3 t:creature", CREATURES - {"1 U 42", "2 U 102", "1 U 132"}),
    (
        "-def=3",
        {"1 R 20", "1 C 21", "1 R 50", "1 C 51", "1 C 91", "1 U 92", "1 C 140", "1 R 141"}
        | CREATURES - {"1 U 42", "2 U 102", "1 U 132"},
    ),
    ("atk>def", {"1 C 41", "1 U 42", "1 E 82", "1 R 161", "2 U 102"}),
    ("atk:5..", {"1 U 15", "1 E 82", "1 R 161", "1 E 162", "2 U 102"}),
    ("atk:..2", {"1 C 1", "1 S 43", "1 C 81"}),
    ("r>=r", {"1 R 20", "1 R 50", "1 R 141", "1 R 161", "1 E 82", "1 E 162"}),
    ("rarity:uncommon", {"1 U 15", "1 U 42", "1 U 92", "1 U 132", "2 U 102"}),
    ("r:p", {"1 P 133"}),
    ("r:starter", {"1 S 43"}),
    (
        "r<u",
        {"1 C 1", "1 C 14", "1 C 21", "1 C 41", "1 C 51", "1 C 81", "1 C 91", "1 C 140", "2 C 101"},
    ),
    ("r:r..e t:creature", {"1 E 82", "1 R 161", "1 E 162"}),
    ("series:2", {"2 C 101", "2 U 102"}),
    ("number:14", {"1 C 14"}),
    ("gems>=3", {"1 U 15", "1 C 21", "1 R 50", "1 E 82", "1 R 141", "1 R 161", "2 U 102"}),
    ("gem:rr", {"1 S 43", "1 R 50", "2 U 102"}),
    ("gem:red gems=1", {"1 C 41", "1 C 51"}),
    ("gem:y -s:order", {"1 C 1", "1 U 15", "1 E 82", "1 R 161"}),
    ('!"chugawug  COOK"', {"1 C 14", "2 C 101"}),
    ("1U132", {"1 U 132"}),
    ('code:"1 U 132"', {"1 U 132"}),
    ("1-u-132 or 2c101", {"1 U 132", "2 C 101"}),
    ("name:/^c.*k$/", {"1 C 14", "2 C 101"}),
    (r"text:/\[[A-Z]{2}\]/", {"1 U 42", "2 U 102", "1 E 82"}),
    ("/sneak|scrapper/", {"1 C 41", "1 S 43"}),
    ("(s:nature or s:machine) t:trick", {"1 C 21", "1 U 92"}),
    ("-(t:creature or t:resource)", {"1 C 21", "1 C 51", "1 U 92", "1 R 141"}),
    (
        "s:chaos or is:hero",
        {"1 C 41", "1 U 42", "1 S 43", "1 R 50", "1 C 51", "2 U 102", "1 R 161", "1 E 162"},
    ),
    ("dragon or crush", {"1 E 82", "1 C 41", "1 U 92"}),
    ("dragon OR crush AND t:trick", {"1 E 82", "1 U 92"}),
    ("is:owned", {"1 C 14", "2 C 101", "1 E 82", "1 C 41", "1 U 132"}),
    ("is:foil", {"2 C 101", "1 E 82"}),
    ("foil>=1", {"2 C 101", "1 E 82"}),
    ("is:nonfoil", {"1 C 14", "2 C 101", "1 C 41", "1 U 132"}),
    ("nonfoil>=2", {"1 C 14", "1 C 41"}),
    ("owned>=2", {"1 C 14", "2 C 101", "1 C 41"}),
    ("is:playset", {"1 C 14", "2 C 101", "1 C 41"}),
    ("-is:owned s:order", {"1 P 133", "1 C 140", "1 R 141"}),
    ("game:free-realms t:resource", {"1 R 20", "1 R 50", "1 C 91", "1 C 140"}),
    ("cond:nm", {"1 C 14", "2 C 101", "1 C 41"}),
    ("cond>=lp", {"1 C 14", "2 C 101", "1 C 41"}),
    ("cond<lp", {"1 E 82", "1 U 132"}),
    ("condition:mint", {"2 C 101"}),
    ('cond:"Heavily Played"', {"1 E 82"}),
    ("cond!=nm", {"1 C 14", "2 C 101", "1 E 82", "1 U 132"}),
    ("-cond:nm is:owned", {"1 E 82", "1 U 132"}),
    ("lang:fr", {"1 C 14"}),
    ("language:Japanese", {"2 C 101"}),
    ("cond:nm lang:fr", set()),  # side by side: one copy, and the French one is LP
    ("cond:nm or lang:fr", {"1 C 14", "2 C 101", "1 C 41"}),
    ('in:"binder 1"', {"1 C 14", "2 C 101"}),
    ("loc:BOX -tag:wish", {"2 C 101"}),
    ("in:none", {"1 C 14", "1 E 82", "1 C 41"}),
    ("location!=none", {"1 C 14", "2 C 101", "1 U 132"}),
    ("tag:trade", {"1 C 14", "2 C 101"}),
    ("tags:SIGNED,trade", {"2 C 101"}),
    ("-tag:trade is:owned", {"1 E 82", "1 C 41", "1 U 132"}),
    ("tag:none cond:nm", {"1 C 41"}),
]


@pytest.mark.parametrize(("text", "expected"), QUERIES, ids=[t for t, _ in QUERIES])
def test_query_finds_exactly(library: sqlite3.Connection, text: str, expected: set[str]) -> None:
    assert codes(library, text) == expected
    assert count(library, parse_query(text)) == len(expected)


def fields_in(text: str) -> set[str]:
    """The fields a query uses, by their canonical names (describe() resolves aliases)."""
    return set(re.findall(r"(?:^|[\s(-])([a-z]+)(?:[:=<>!])", parse_query(text).describe()))


def test_the_query_table_uses_every_field_and_flag() -> None:
    used = set().union(*(fields_in(text) for text, _ in QUERIES))
    filters = {field.name for field in FIELDS if field.kind not in (None, Kind.SORT)}
    assert sorted(filters - used) == []  # order: has its own table, test_order
    flags = {flag for text, _ in QUERIES for flag in re.findall(r"is:(\w+)", text)}
    assert sorted(set(FLAGS) - flags) == []


def test_empty_query_is_the_whole_catalogue_in_code_order(library: sqlite3.Connection) -> None:
    found = [str(card.code) for card in search(library, parse_query(""))]
    assert len(found) == 22
    assert found[:3] == ["1 C 1", "1 C 14", "1 U 15"]
    assert found[-1] == "2 U 102"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("t:creature s:chaos order:-attack", ["2 U 102", "1 U 42", "1 C 41", "1 S 43"]),
        ("t:creature s:chaos order:atk", ["1 S 43", "1 C 41", "1 U 42", "2 U 102"]),
        ("t:trick order:cost", ["1 R 141", "1 C 21", "1 C 51", "1 U 92"]),
        ("s:order order:rarity", ["1 C 140", "1 U 132", "1 R 141", "1 P 133"]),
        ("s:machine order:name", ["1 E 82", "1 C 81", "1 U 92", "1 C 91"]),
        ("s:machine order:-attack", ["1 E 82", "1 C 81", "1 C 91", "1 U 92"]),
    ],
)
def test_order(library: sqlite3.Connection, text: str, expected: list[str]) -> None:
    assert [str(card.code) for card in search(library, parse_query(text))] == expected


def test_ranking_puts_the_best_match_first(library: sqlite3.Connection) -> None:
    found = search(library, parse_query("chugawug cook"))
    assert [card.name for card in found][:2] == ["Chugawug Cook", "Chugawug Cook"]


def test_limit(library: sqlite3.Connection) -> None:
    assert len(search(library, parse_query("t:creature"), limit=3)) == 3


ALIASES = [(alias, field.name) for field in FIELDS for alias in field.aliases]
VALUE_FOR = {
    "name": "chug",
    "text": "stun",
    "trait": "ninja",
    "sphere": "chaos",
    "type": "trick",
    "rarity": "u",
    "series": "2",
    "number": "14",
    "attack": "5..",
    "defense": "3",
    "cost": "2",
    "condition": "nm",
    "language": "fr",
    "location": "box",
    "tag": "trade",
    "order": "cost",
}


@pytest.mark.parametrize(("alias", "name"), ALIASES)
def test_every_alias_means_its_field(library: sqlite3.Connection, alias: str, name: str) -> None:
    value = VALUE_FOR[name]
    aliased, canonical = parse_query(f"{alias}:{value}"), parse_query(f"{name}:{value}")
    assert aliased.describe() == canonical.describe()
    assert plan(aliased).sql == plan(canonical).sql


# One term per field, each of which must change what a search of the whole catalogue finds.
TERM_FOR_FIELD = {
    "name": "name:chug",
    "text": "text:stun",
    "trait": "trait:ninja",
    "sphere": "sphere:chaos",
    "type": "type:trick",
    "game": "game:wildhearts",
    "rarity": "rarity:u",
    "series": "series:2",
    "number": "number:14",
    "cost": "cost>=5",
    "attack": "attack:..2",
    "defense": "defense=3",
    "gems": "gems>=3",
    "gem": "gem:rr",
    "owned": "owned>=2",
    "foil": "foil>=1",
    "nonfoil": "nonfoil>=2",
    "is": "is:hero",
    "code": "code:1U132",
    "condition": "cond:lp",
    "language": "lang:fr",
    "location": "in:box",
    "tag": "tag:trade",
    "order": "order:-cost",
}


QUERY_FIELDS = [field for field in FIELDS if field.kind is not None]


@pytest.mark.parametrize("field", QUERY_FIELDS, ids=[field.name for field in QUERY_FIELDS])
def test_every_field_changes_what_a_search_finds(
    library: sqlite3.Connection, field: CardField
) -> None:
    assert field.name in TERM_FOR_FIELD, f"add a term for the new field {field.name!r}"
    term = TERM_FOR_FIELD[field.name]
    assert fields_in(term) == {field.name}
    everything = [str(card.code) for card in search(library, parse_query(""))]
    found = [str(card.code) for card in search(library, parse_query(term))]
    assert found != everything


@pytest.mark.parametrize(
    ("options", "text"),
    [
        ({"sphere": "chaos", "type": "creature"}, "s:chaos t:creature"),
        ({"cost": "2..4"}, "cost:2..4"),
        ({"attack": ">=5"}, "atk>=5"),
        ({"defense": "3"}, "def:3"),
        ({"rarity": "U"}, "r:u"),
        ({"rarity": ">=r"}, "r>=r"),
        ({"trait": "chugawug"}, "tr:chugawug"),
        ({"hero": True}, "is:hero"),
        ({"owned": True}, "is:owned"),
        ({"foil": True}, "is:foil"),
        ({"playset": True}, "is:playset"),
        ({"name": "chugawug cook"}, 'name:"chugawug cook"'),
        ({"text": "stun"}, "o:stun"),
        ({"gem": "rr"}, "gem:rr"),
        ({"gems": "3.."}, "gems:3.."),
        ({"series": "2"}, "set:2"),
        ({"sphere": "nature", "cost": "<=2", "type": "creature"}, "s:nature cost<=2 t:creature"),
        ({"condition": ">=lp"}, "cond>=lp"),
        ({"language": "French"}, "lang:fr"),
        ({"location": "binder 1"}, 'in:"Binder 1"'),
        ({"tag": "Trade"}, "tag:trade"),
        ({"condition": "nm", "language": "en", "tag": "trade"}, "cond:nm lang:en tag:trade"),
    ],
)
def test_option_form_equals_query_form(
    library: sqlite3.Connection, options: dict, text: str
) -> None:
    by_options = [c.code for c in search(library, build_query("", options))]
    by_query = [c.code for c in search(library, build_query(text))]
    assert by_options == by_query
    assert by_options  # each pair finds something, so the comparison means something


def test_bad_option_names_the_option() -> None:
    with pytest.raises(CardbaseError, match=r"--sphere chaoss: unknown sphere 'chaoss'"):
        build_query("", {"sphere": "chaoss"})


@pytest.mark.parametrize(
    ("text", "message", "caret_at"),
    [
        ("sphere:chaoss", "unknown sphere 'chaoss'. Did you mean chaos?", 7),
        ("cost>>2", "expected a number, not '>2'", 5),
        ("atk:x..3", "expected a number, not 'x'", 4),
        ("atk:1..y", "expected a number, not 'y'", 7),
        ("(t:creature", "this '(' is never closed", 0),
        ('name:"open', "this quote is never closed", 5),
        ('"draw a card', "this quote is never closed", 0),
        ("pow:x", "expected a number, not 'x'", 4),
        ("usd<1", "'usd' is not in this game's data. There are no prices", 0),
        ("powr:3", "unknown field 'powr'. Did you mean power (attack)?", 0),
        ("t:creature)", "unexpected ')'", 10),
        ("colour:red", "unknown field 'colour'", 0),
        ("typ:creature", "unknown field 'typ'. Did you mean type?", 0),
        ("r>p", "promo cards have no place in the rarity order", 2),
        ("r:x", "unknown rarity 'x'", 2),
        ("t:dragon", "unknown type 'dragon'", 2),
        ("t>creature", "type takes ':' or '!=', not '>'", 2),
        ("is:heroic", "unknown is:heroic. Did you mean is:hero?", 3),
        ("gem:purple", "unknown gem colours 'purple'", 4),
        ("name:/[a/", "bad regular expression: missing ]", 6),
        ("/abc", "this /regex/ has no closing /", 0),
        ("dragon or", "expected a term after 'or'", 7),
        ("or dragon", "'or' needs a term on each side", 0),
        ("- dragon", "'-' must stand right before what it excludes", 0),
        ("()", "empty parentheses", 0),
        ("cost:", "expected a value after 'cost:'", 0),
        ("code:1X5", "rarity 'X' is not one of", 5),
        ("-order:cost", "order: goes at the top level", 1),
        ("order:colour", "cannot sort by 'colour'", 6),
        ("cost:..", "a range needs at least one end", 5),
        ("&&", "has no letters or digits", 0),
        ("name=x", None, None),
    ],
)
def test_bad_queries_point_at_the_problem(
    text: str, message: str | None, caret_at: int | None
) -> None:
    if message is None:
        parse_query(text)  # '=' works like ':' for words
        return
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    error = caught.value
    assert message in str(error)
    assert error.start == caret_at
    lines = str(error).splitlines()
    assert len(lines) == 3
    assert lines[1] == f"  {text}"
    assert lines[2].strip().startswith("^")


TOKENS = st.sampled_from(QUERY_TOKENS)


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
@settings(max_examples=300, deadline=None)
@given(st.lists(TOKENS | st.text(max_size=8), max_size=8), st.sampled_from([" ", "", "  "]))
def test_token_soup_parses_or_raises_query_error(
    library: sqlite3.Connection, parts: list[str], glue: str
) -> None:
    text = glue.join(parts)
    try:
        parsed = parse_query(text)
    except QueryError:
        return
    search(library, parsed, limit=5)  # whatever parses also runs: no SQL or FTS syntax errors
    assert parse_query(parsed.describe()).describe() == parsed.describe()


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ('dragon or dragon 0""', 'dragon or (dragon "0")'),  # found by the token soup above
        ('a"b"', '"a b"'),
        ('name:chug"a"', 'name:"chug a"'),
    ],
)
def test_a_quote_inside_a_word_reads_back_the_same(text: str, shown: str) -> None:
    assert parse_query(text).describe() == shown
    assert parse_query(shown).describe() == shown


@pytest.mark.parametrize("text", ['dragon or dragon 0"', 'a"b', 'name:chug"a', '!"Chugawug'])
def test_a_quote_never_closed_is_refused_wherever_it_opens(text: str) -> None:
    with pytest.raises(QueryError, match="this quote is never closed") as caught:
        parse_query(text)
    assert caught.value.start == text.index('"')
    assert caught.value.end == len(text)


# Cards whose names and texts are made of SQL and FTS5 syntax, so hostile user text can
# also be text that matches: the search must find them as data.
HOSTILE_CARDS = [
    ["3 C 1", "Robert'); DROP TABLE card; --", "Trick", "", "Order", "Maneuver", "1", "", "",
     "Y", 'Little "Bobby" Tables\' mother.', "Exploits of a mom."],
    ["3 C 2", "O'Malley OR Nobody", "Trick", "", "Order", "Maneuver", "1", "", "", "Y",
     "NEAR(the edge) * everywhere", ""],
]  # fmt: skip


@pytest.fixture(scope="module")
def hostile_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    extra = io.StringIO()
    csv.writer(extra, lineterminator="\n").writerows(HOSTILE_CARDS)
    catalogue = folder / "hostile.csv"
    catalogue.write_text(MINI_CATALOGUE.read_text() + extra.getvalue())
    new_database(folder / "hostile.db", catalogue)
    return folder / "hostile.db"


def schema_objects(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    return conn.execute("SELECT type, name FROM sqlite_master ORDER BY type, name").fetchall()


# Query text, the cards it means, and the part of it that must reach SQLite only as a
# parameter.
HOSTILE_QUERIES = [
    ('"\'; DROP TABLE card; --"', {"3 C 1"}, "DROP TABLE card"),
    ('name:"Robert\'); DROP TABLE card; --"', {"3 C 1"}, "Robert'); DROP"),
    ('name:"x\'; DROP TABLE card; --"', set(), "x'; DROP"),
    ("name:/'\\); DROP/", {"3 C 1"}, "'\\); DROP"),
    ("name:\"' OR '1'='1\"", set(), "'1'='1"),
    ("1=1", set(), "1=1"),
    ("o'malley", {"3 C 2"}, "o'malley"),
    ("'Bobby'", {"3 C 1"}, "'Bobby'"),
    ('"Bobby" OR tables', {"3 C 1"}, "Bobby"),
    ('"OR"', {"3 C 2"}, '"OR"'),
    ("name:OR", {"3 C 2"}, '"OR"'),
    ('"NEAR("', {"3 C 2"}, "NEAR("),
    ('text:"NEAR(the edge)"', {"3 C 2"}, "NEAR(the edge)"),
    ("NEAR(edge everywhere)", {"3 C 2"}, "NEAR"),
    ('"NEAR(edge, everywhere)"', set(), "NEAR(edge, everywhere)"),
    ('text:"* everywhere"', {"3 C 2"}, "* everywhere"),
    ("text:/\\*/", {"3 C 2"}, "\\*"),
    ('text:/" OR "/', set(), '" OR "'),
]


@pytest.mark.parametrize(
    ("text", "expected", "user_text"), HOSTILE_QUERIES, ids=[t for t, _, _ in HOSTILE_QUERIES]
)
def test_user_text_is_data_never_sql(
    hostile_template: Path, tmp_path: Path, text: str, expected: set[str], user_text: str
) -> None:
    path = copy_database(hostile_template, tmp_path / "hostile.db")
    before = database_checksum(path)
    conn = Library(path).connect()
    objects = schema_objects(conn)
    query = parse_query(text)
    found = plan(query)
    assert user_text not in found.sql
    assert "'" not in found.sql  # these plans have no string literal: every value is a ?
    assert [param for param in found.params if user_text in str(param)] != []
    assert {str(card.code) for card in search(conn, query)} == expected
    assert count(conn, query) == len(expected)
    assert schema_objects(conn) == objects
    assert conn.execute("SELECT count(*) FROM card").fetchone()[0] == 24
    conn.close()
    assert database_checksum(path) == before


def test_explain_shows_the_normalised_query_and_sql() -> None:
    text = plan(parse_query("s:chaos atk>=3 dragon")).explain()
    assert "query:  sphere:chaos attack>=3 dragon" in text
    assert "MATCH ?" in text
    assert "params: ['\"dragon\"', 'Chaos', 3]" in text


def test_the_shared_query_database_is_read_only(library: sqlite3.Connection) -> None:
    with pytest.raises(sqlite3.DatabaseError, match=r"read-?only"):
        library.execute("DELETE FROM ownership")
    assert codes(library, "is:owned") == set(OWNED)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["dragon", "-s:chaos"], ["--", "dragon", "-s:chaos"]),
        (["-is:owned", "-o", "json", "chug*"], ["-o", "json", "--", "-is:owned", "chug*"]),
        (["--limit=3", "-x", "--desc"], ["--limit=3", "--desc", "--", "-x"]),
        (["--sort", "-attack", "a"], ["--sort", "-attack", "--", "a"]),
        (["a", "--", "-o", "b"], ["--", "a", "-o", "b"]),
        (["-ojson"], ["--", "-ojson"]),
        (["--sphre", "chaos"], ["--sphre", "--", "chaos"]),
        ([], ["--"]),
    ],
)
def test_query_words_and_options_are_told_apart(args: list[str], expected: list[str]) -> None:
    from cardbase.cli.queryargs import options_before_words

    options = {"-o": True, "--output": True, "--limit": True, "--sort": True, "--desc": False}
    assert options_before_words(args, options) == expected


def test_an_option_without_its_value_is_refused() -> None:
    from cardbase.cli.queryargs import options_before_words

    with pytest.raises(ValueError, match="Option '--sort' requires an argument"):
        options_before_words(["dragon", "--sort"], {"--sort": True})
