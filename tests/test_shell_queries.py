"""Queries as people type them: shell arguments, Scryfall's spellings, `!=`, sorting by name."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardbase.errors import QueryError
from cardbase.library import Library
from cardbase.query.argv import argument_term, query_text
from cardbase.query.parse import parse_query
from cardbase.query.search import plan, search
from tests.helpers import MINI_CATALOGUE, ROOT, Run, new_database


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Run, sqlite3.Connection]]:
    path = tmp_path_factory.mktemp("shell") / "shell.db"
    new_database(path, MINI_CATALOGUE)
    Run(path)("add", "1 C 14 x2", "2 C 101 foil", "1 E 82 foil")
    conn = Library(path).connect()
    conn.engine.read_only(conn)
    yield Run(path), conn
    conn.close()


def codes(conn: sqlite3.Connection, text: str) -> list[str]:
    return [str(card.code) for card in search(conn, parse_query(text))]


# Argument lists exactly as a shell delivers them (its quotes already removed), beside the
# same query typed as one fully quoted argument.
TYPED = [
    (["o:draw a card"], """'o:"draw a card"'""", 'o:"draw a card"'),
    (["!Chugawug Cook"], """'!"Chugawug Cook"'""", '!"Chugawug Cook"'),
    (["name:chugawug cook"], """'name:"chugawug cook"'""", 'name:"chugawug cook"'),
    (["n:chugawug cook", "s:nature"], "", 'n:"chugawug cook" s:nature'),
    (["-o:draw a card", "t:resource"], "", '-o:"draw a card" t:resource'),
    (["-!Chugawug Cook", "chugawug"], "", '-!"Chugawug Cook" chugawug'),
    (["code:1 U 132"], "", 'code:"1 U 132"'),
    (["tr:card duelist"], "", 'tr:"card duelist"'),
    (["o:stun", "-s:chaos"], "words typed apart stay apart", "o:stun -s:chaos"),
    (["s:chaos robgoblin"], "a sphere never has spaces: query text", "s:chaos robgoblin"),
    (["o:stun -s:chaos"], "holds syntax: query text", "o:stun -s:chaos"),
    (["chug* s:nature cost<=2"], "a whole query in quotes", "chug* s:nature cost<=2"),
    (['o:"draw a card"'], "quoted inside already", 'o:"draw a card"'),
    (["robgoblin or t:trick"], "", "robgoblin or t:trick"),
]


@pytest.mark.parametrize(("argv", "why", "quoted"), TYPED, ids=[" | ".join(t[0]) for t in TYPED])
def test_typed_arguments_mean_the_fully_quoted_query(
    reader: tuple[Run, sqlite3.Connection], argv: list[str], why: str, quoted: str
) -> None:
    run, conn = reader
    assert query_text(argv) == quoted
    typed = run("search", *argv, "-o", "json")
    whole = run("search", quoted, "-o", "json")
    assert typed.exit_code == whole.exit_code == 0, typed.output + whole.output
    assert json.loads(typed.stdout) == json.loads(whole.stdout)
    assert [card["code"] for card in json.loads(typed.stdout)] == codes(conn, quoted)


def test_the_typed_table_finds_cards_and_would_differ_joined(
    reader: tuple[Run, sqlite3.Connection],
) -> None:
    """Most cases find something, and for some plain joining finds other cards."""
    _, conn = reader
    found = [codes(conn, quoted) for _, _, quoted in TYPED]
    assert sum(1 for cards in found if cards) >= len(TYPED) - 2
    joined = []
    for argv, _, quoted in TYPED:
        try:
            joined.append(codes(conn, " ".join(argv)) != codes(conn, quoted))
        except QueryError:
            joined.append(True)
    assert sum(joined) >= 4


@pytest.mark.parametrize(
    ("argument", "term"),
    [
        ("in:Binder 1", 'in:"Binder 1"'),
        ("tag:deck: bog stew", 'tag:"deck: bog stew"'),
        ("cond:near mint", 'cond:"near mint"'),
        ("!Fight or Flight", '!"Fight or Flight"'),
        ("cost:2 3", "cost:2 3"),
        ("o:stun (t:trick)", "o:stun (t:trick)"),
        ("o:/x y/", "o:/x y/"),
        ("dragon", "dragon"),
    ],
)
def test_one_argument(argument: str, term: str) -> None:
    assert argument_term(argument) == term


SCRYFALL = [
    ("pow>=3", "atk>=3"),
    ("power:2..3", "attack:2..3"),
    ("tou=3", "def=3"),
    ("toughness<4", "defense<4"),
    ("cmc<=2", "cost<=2"),
    ("mv:1", "cost:1"),
    ("manavalue>3", "cost>3"),
    ("e:2", "series:2"),
    ("edition:1", "set:1"),
    ("not:foil", "-is:foil"),
    ("not:hero", "-is:hero"),
    ('t:"creature"', "t:creature"),
    ('s:"chaos"', "s:chaos"),
    ('r:"u"', "r:u"),
    ('cost:"2"', "cost:2"),
    ('is:"hero"', "is:hero"),
    ('gem:"g"', "gem:g"),
    ('order:"-cost"', "order:-cost"),
]


@pytest.mark.parametrize(("theirs", "ours"), SCRYFALL)
def test_scryfall_spellings_are_ours(
    reader: tuple[Run, sqlite3.Connection], theirs: str, ours: str
) -> None:
    _, conn = reader
    assert parse_query(theirs).describe() == parse_query(ours).describe()
    assert plan(parse_query(theirs)).sql == plan(parse_query(ours)).sql
    assert codes(conn, theirs) == codes(conn, ours)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("include:extras", "every card is always searched"),
        ("unique:prints", "every printing is its own card"),
        ("usd<1", "there are no prices"),
        ("year>=2010", "series: is the nearest"),
        ("f:standard", "cardbase deck check --format"),
        ("c:r", "gem colours are gem:"),
    ],
)
def test_scryfall_terms_this_game_has_no_data_for_say_so(text: str, says: str) -> None:
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    message = str(caught.value)
    assert "is not in this game's data" in message
    assert says in message.lower() or says in message
    assert caught.value.start == 0


@pytest.mark.parametrize(
    ("typo", "field"),
    [("powr", "attack"), ("atta", "attack"), ("defens", "defense"), ("cst", "cost")],
)
def test_an_unknown_field_names_the_nearest(typo: str, field: str) -> None:
    with pytest.raises(QueryError) as caught:
        parse_query(f"{typo}:3")
    first = str(caught.value).splitlines()[0]
    assert f"unknown field '{typo}'. Did you mean " in first
    assert field in first.split("Fields:")[0]


@pytest.mark.parametrize(
    ("unequal", "negated"),
    [
        ("s!=chaos", "-s:chaos"),
        ("sphere!=none", "-sphere:none"),
        ("def!=3", "-def=3"),
        ("atk!=def", "-atk=def"),
        ("cost!=1..2", "-cost:1..2"),
        ("r!=c", "-r:c"),
        ("t!=creature", "-t:creature"),
        ("gem!=g", "-gem:g"),
        ("name!=chug", "-name:chug"),
        ("is!=foil", "-is:foil"),
    ],
)
def test_unequal_is_the_negation_of_equal_for_card_fields(
    reader: tuple[Run, sqlite3.Connection], unequal: str, negated: str
) -> None:
    """docs/query-language.md, "Operators": of a card field, `!=` is `-` and `=`: cards with
    no value (Heroes have no sphere, resources no defense) are among them."""
    _, conn = reader
    assert codes(conn, unequal) == codes(conn, negated)
    assert parse_query(unequal).describe() == parse_query(negated).describe()
    assert set(codes(conn, unequal)).isdisjoint(codes(conn, negated[1:]))


def test_unequal_of_a_copy_term_asks_about_a_copy(reader: tuple[Run, sqlite3.Connection]) -> None:
    """docs/query-language.md, "Your copies": of a copy term, `!=` is a copy that is not
    (`tag!=trade`: a copy without the tag), `-` is no copy that is; a card with copies of both
    kinds is only in the first."""
    run, conn = reader
    assert run("tag", "trade", "1 C 14 x1").exit_code == 0
    assert "1 C 14" in codes(conn, "tag!=trade")
    assert "1 C 14" not in codes(conn, "-tag:trade")
    run("undo")


def test_hero_sphere_counts_add_up(reader: tuple[Run, sqlite3.Connection]) -> None:
    _, conn = reader
    everything = len(codes(conn, ""))
    assert len(codes(conn, "s!=chaos")) + len(codes(conn, "s:chaos")) == everything
    assert len(codes(conn, "def!=3")) + len(codes(conn, "def=3")) == everything


def test_order_by_name_ignores_case(tmp_path: Path) -> None:
    """'Wizard of the High Tower' before 'Wizard Timekeeper': names sort letter by letter,
    case, accents, spaces and punctuation aside (their folded keys), on both engines."""
    from cardbase.catalog.cards import name_key

    path = tmp_path / "sample.db"
    new_database(path, ROOT / "sample-cards.csv")
    conn = Library(path).connect()
    names = [card.name for card in search(conn, parse_query("n:wizard order:name"))]
    backwards = [card.name for card in search(conn, parse_query("n:wizard order:-name"))]
    conn.close()
    assert names == sorted(names, key=lambda name: (name_key(name), name))
    assert names.index("Wizard of the High Tower") < names.index("Wizard Timekeeper")
    assert backwards == names[::-1]
