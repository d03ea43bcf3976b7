"""Copy terms (cond:, lang:, in:, tag:) against an oracle over the holdings, for two collectors,
on both engines.

The database is made through the library, as `add` makes it; the oracle reads the holding
table itself and decides in Python, knowing nothing of the query code: of a card a term asks
whether the collector has a copy that passes, and in `--copies` whether each copy does.
Locations and tags match by one rule on both engines, names folded as Python folds them
(NFC, then casefold): 'Große Kiste' is in:"grosse kiste", 'ΣΟΦΊΑΣ' tag:σοφίας.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.collection.attributes import CONDITION_NAMES, parse_condition
from cardbase.collection.changes import Mode, Selector
from cardbase.collection.items import change_items
from cardbase.db import schema
from cardbase.db.connect import open_existing
from cardbase.db.engine import Connection
from cardbase.db.location import Location
from cardbase.errors import CardbaseError, QueryError
from cardbase.library import Library
from cardbase.query.parse import parse_query
from cardbase.query.search import build_query, count, plan, search, search_copies
from tests.conftest import MINI_CATALOGUE

# (items, condition, language, location, tags) per collector, added with `add`'s library call.
ADDED = {
    "me": [
        (["1 C 14 x2"], "NM", "en", "Binder 1", "trade"),
        (["1 C 14"], "LP", "fr", "", ""),
        (["1 C 14 foil"], "M", "en", "Binder 1", ""),
        (["1 U 15 x3"], "MP", "de", "Box A", "trade,signed"),
        (["1 C 41"], "HP", "ja", "", "wish"),
        (["1 E 82 foil"], "DMG", "zh-Hans", "binder 1", ""),  # stored as 'Binder 1'
        (["1 U 132 x4"], "NM", "en", "", ""),
        (["2 C 101"], "LP", "pt-BR", "Deck box", "Trade"),
        (["1 R 20"], "NM", "fr", "Böx", "Ünicode"),
        (["1 C 51"], "NM", "de", "Große Kiste", "Straße"),
        (["1 C 91"], "LP", "en", "İstanbul", "ΣΟΦΊΑΣ"),
        (["1 C 1"], "NM", "es", "Cafe\u0301", "Ǆ"),  # NFD as a Mac may write it
    ],
    "ann": [
        (["1 C 1"], "NM", "fr", "Binder 1", "trade"),
        (["1 C 14"], "DMG", "en", "", ""),
        (["1 R 50 x2"], "LP", "de", "Box A", "signed"),
    ],
}
ORDER = ["M", "NM", "LP", "MP", "HP", "DMG"]  # best first


class H(NamedTuple):
    """A holding as the oracle reads it from the table."""

    code: str
    finish: str
    condition: str
    language: str
    location: str
    tags: str
    copies: int


def _better(code: str, strict: bool = False) -> Callable[[H], bool]:
    return lambda h: ORDER.index(h.condition) < ORDER.index(code) + (0 if strict else 1)


def _worse(code: str, strict: bool = False) -> Callable[[H], bool]:
    return lambda h: ORDER.index(h.condition) > ORDER.index(code) - (0 if strict else 1)


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def _tags(h: H) -> set[str]:
    return {_key(tag) for tag in h.tags.split(",") if tag}


# One term each, and what it asks of one copy.
TERMS: dict[str, Callable[[H], bool]] = {
    "cond:nm": lambda h: h.condition == "NM",
    "cond=m": lambda h: h.condition == "M",
    'cond:"lightly played"': lambda h: h.condition == "LP",
    "cond:ex": lambda h: h.condition == "LP",
    "condition:damaged": lambda h: h.condition == "DMG",
    "cond!=nm": lambda h: h.condition != "NM",
    "cond>=lp": _better("LP"),
    "cond>lp": _better("LP", strict=True),
    "cond<=mp": _worse("MP"),
    "cond<hp": _worse("HP", strict=True),
    "cond>=m": _better("M"),
    "lang:fr": lambda h: h.language == "fr",
    "lang:French": lambda h: h.language == "fr",
    "language:de": lambda h: h.language == "de",
    "lang:pt": lambda h: h.language.split("-")[0] == "pt",
    "lang:pt-br": lambda h: h.language == "pt-BR",
    "lang:zh": lambda h: h.language.split("-")[0] == "zh",
    "lang:zh-Hant": lambda h: h.language == "zh-Hant",
    "lang!=en": lambda h: h.language != "en",
    'in:"binder 1"': lambda h: _key(h.location) == "binder 1",
    'location:"BINDER 1"': lambda h: _key(h.location) == "binder 1",
    'in:"box a"': lambda h: _key(h.location) == "box a",
    "in:böx": lambda h: _key(h.location) == "böx",
    "loc:BÖX": lambda h: _key(h.location) == "böx",
    "in:box": lambda h: _key(h.location) == "box",
    'in:"GROSSE KISTE"': lambda h: _key(h.location) == "grosse kiste",
    'in:"große kiste"': lambda h: _key(h.location) == "grosse kiste",
    "in:i̇stanbul": lambda h: _key(h.location) == "i̇stanbul",  # İ folds to i and a dot
    "in:istanbul": lambda h: _key(h.location) == "istanbul",
    "in:café": lambda h: _key(h.location) == "café",
    "in:cafe": lambda h: _key(h.location) == "cafe",
    "in:none": lambda h: h.location == "",
    "in!=none": lambda h: h.location != "",
    'in:"none"': lambda h: _key(h.location) == "none",
    "tag:trade": lambda h: "trade" in _tags(h),
    "tag:TRADE": lambda h: "trade" in _tags(h),
    "tags:signed,trade": lambda h: {"signed", "trade"} <= _tags(h),
    "tag:wish": lambda h: "wish" in _tags(h),
    "tag:ünicode": lambda h: "ünicode" in _tags(h),
    "tag:strasse": lambda h: "strasse" in _tags(h),
    "tag:σοφίας": lambda h: "σοφίασ" in _tags(h),  # a final sigma folds as any sigma
    "tag:ǆ": lambda h: "ǆ" in _tags(h),
    "tag:none": lambda h: not _tags(h),
    "tag!=none": lambda h: bool(_tags(h)),
    "tag!=trade": lambda h: "trade" not in _tags(h),
}
# Terms that must find no copy at all: exact names, variants, the top of the scale.
EMPTY = {"lang:zh-Hant", "in:box", 'in:"none"', "in:istanbul", "in:cafe"}
# Terms side by side ask about one copy.
ALL_OF = [
    ["cond:nm", "lang:fr"],
    ["cond>=lp", "tag:trade"],
    ['in:"binder 1"', "cond=m"],
    ["lang!=en", "tag!=none", "in!=none"],
    ["tag:TRADE", "tag!=trade"],
]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def library(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Location]:
    """One database for the module, on each engine: every test here runs on both."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("holdings") / "holdings.db"
        schema.prepare(path, Library(path), MINI_CATALOGUE)
        yield _filled(path)
        _close_all()
        return
    for url in request.getfixturevalue("pg_templates").copy(MINI_CATALOGUE):
        yield _filled(url)
        _close_all()


# The module's databases only change while they are filled, so each test reads through one
# connection per database and collector, opened once (a server connection costs ~10 ms).
_OPEN: dict[tuple[str, str | None], Connection] = {}


def _reader(location: Location, collector: str | None = None) -> Connection:
    key = (str(location), collector)
    if key not in _OPEN:
        _OPEN[key] = (
            Library(location, collector).connect() if collector else open_existing(location)
        )
    return _OPEN[key]


def _close_all() -> None:
    for conn in _OPEN.values():
        conn.close()
    _OPEN.clear()


def _filled(location: Location) -> Location:
    conn = open_existing(location)
    try:
        conn.execute(
            "INSERT INTO collector (name, name_key, is_default, created_at) "
            "VALUES ('ann', 'ann', FALSE, 'now')"
        )
        conn.commit()
    finally:
        conn.close()
    for collector, added in ADDED.items():
        for items, *attributes in added:
            selector = Selector(*attributes)
            change_items(Library(location, collector), items, Mode.ADD, selector=selector)
    return location


def holdings(path: Location, collector: str) -> list[H]:
    """The collector's holdings, read from the table by the collector's id."""
    rows = (
        _reader(path)
        .execute(
            "SELECT c.series || ' ' || c.rarity || ' ' || c.number, h.finish, h.condition, "
            "h.language, h.location, h.tags, h.copies FROM holding AS h "
            "JOIN card AS c ON c.id = h.card_id JOIN collector AS k ON k.id = h.collector_id "
            "WHERE k.name = ?",
            (collector,),
        )
        .fetchall()
    )
    return [H(*row) for row in rows]


def catalogue(path: Location) -> set[str]:
    rows = _reader(path).execute("SELECT series, rarity, number FROM card")
    return {f"{s} {r} {n}" for s, r, n in rows}


def cards_with(path: Location, collector: str, test: Callable[[H], bool]) -> set[str]:
    return {h.code for h in holdings(path, collector) if test(h)}


def found(
    path: Location, collector: str, text: str, owned: bool = False, **options: str
) -> set[str]:
    conn = _reader(path, collector)
    query = build_query(text, {**options, "owned": owned or None})
    cards = {str(card.code) for card in search(conn, query)}
    assert count(conn, query) == len(cards)
    return cards


def found_copies(path: Location, collector: str, text: str, **options: str) -> set[H]:
    conn = _reader(path, collector)
    query = build_query(text, options)
    copies = search_copies(conn, query)
    assert count(conn, query, copies=True) == len(copies)
    return {
        H(str(c.code), c.finish, c.condition, c.language, c.location, c.tags, c.copies)
        for c in copies
    }


def test_each_term_finds_some_copies_and_not_all(library: Location) -> None:
    """So that each comparison with the oracle below says something."""
    everyone = [h for who in ADDED for h in holdings(library, who)]
    for term, test in TERMS.items():
        chosen = [h for h in everyone if test(h)]
        assert (not chosen) if term in EMPTY else (0 < len(chosen) < len(everyone)), term


@pytest.mark.parametrize("collector", list(ADDED))
@pytest.mark.parametrize("term", list(TERMS))
def test_a_term_is_a_card_you_have_such_a_copy_of(
    library: Location, collector: str, term: str
) -> None:
    expected = cards_with(library, collector, TERMS[term])
    assert found(library, collector, term) == expected
    assert found(library, collector, term, owned=True) == expected


@pytest.mark.parametrize("collector", list(ADDED))
@pytest.mark.parametrize("term", list(TERMS))
def test_a_negated_term_is_a_card_you_have_no_such_copy_of(
    library: Location, collector: str, term: str
) -> None:
    having = cards_with(library, collector, TERMS[term])
    owned = {h.code for h in holdings(library, collector)}
    assert found(library, collector, f"-{term}") == catalogue(library) - having
    assert found(library, collector, f"-{term}", owned=True) == owned - having


@pytest.mark.parametrize("collector", list(ADDED))
@pytest.mark.parametrize("term", list(TERMS))
def test_with_copies_a_term_picks_the_copies(library: Location, collector: str, term: str) -> None:
    test = TERMS[term]
    mine = holdings(library, collector)
    assert found_copies(library, collector, term) == {h for h in mine if test(h)}
    assert found_copies(library, collector, f"-{term}") == {h for h in mine if not test(h)}


@pytest.mark.parametrize("collector", list(ADDED))
@pytest.mark.parametrize("terms", ALL_OF, ids=" ".join)
def test_terms_side_by_side_ask_about_one_copy(
    library: Location, collector: str, terms: list[str]
) -> None:
    def test(h: H) -> bool:
        return all(TERMS[term](h) for term in terms)

    text = " ".join(terms)
    assert found(library, collector, text) == cards_with(library, collector, test)
    assert found_copies(library, collector, text) == {
        h for h in holdings(library, collector) if test(h)
    }


# Mixed queries: card terms, `or` and `-` beside copy terms; what each means of a card, from
# the cards having copies that pass a term (`has`) and the catalogue (`every`), and of a copy.
Has = Callable[[str], set[str]]
MIXED: list[tuple[str, Callable[[Has, set[str]], set[str]], Callable[[H], bool]]] = [
    ("tag:trade -cond:nm", lambda has, every: has("tag:trade") - has("cond:nm"),
     lambda h: TERMS["tag:trade"](h) and h.condition != "NM"),
    ("cond:nm or lang:fr", lambda has, every: has("cond:nm") | has("lang:fr"),
     lambda h: h.condition == "NM" or h.language == "fr"),
    ("1C14 cond!=nm", lambda has, every: has("cond!=nm") & {"1 C 14"},
     lambda h: h.code == "1 C 14" and h.condition != "NM"),
    ("-(in:none or tag:none)", lambda has, every: every - has("in:none") - has("tag:none"),
     lambda h: h.location != "" and h.tags != ""),
]  # fmt: skip


@pytest.mark.parametrize("collector", list(ADDED))
@pytest.mark.parametrize(("text", "cards", "copy"), MIXED, ids=[m[0] for m in MIXED])
def test_mixed_queries(
    library: Location,
    collector: str,
    text: str,
    cards: Callable[[Has, set[str]], set[str]],
    copy: Callable[[H], bool],
) -> None:
    def has(term: str) -> set[str]:
        return cards_with(library, collector, TERMS[term])

    assert found(library, collector, text) == cards(has, catalogue(library))
    assert found_copies(library, collector, text) == {
        h for h in holdings(library, collector) if copy(h)
    }


OPTIONS = [
    ({"condition": ">=lp"}, "cond>=lp"),
    ({"condition": "Near Mint"}, "cond:nm"),
    ({"language": "French"}, "lang:fr"),
    ({"language": "pt"}, "lang:pt"),
    ({"location": "binder 1"}, 'in:"Binder 1"'),
    ({"location": "none"}, "in:none"),
    ({"tag": "Trade"}, "tag:trade"),
    ({"tag": "trade,signed"}, "tag:signed,trade"),
    ({"condition": "nm", "language": "en", "tag": "trade"}, "cond:nm lang:en tag:trade"),
    (
        {"condition": "m", "location": "Binder 1", "name": "chugawug"},
        'chugawug cond:m in:"binder 1"',
    ),
]


@pytest.mark.parametrize("collector", list(ADDED))
@pytest.mark.parametrize(("options", "text"), OPTIONS, ids=[text for _, text in OPTIONS])
def test_an_option_is_its_term(library: Location, collector: str, options: dict, text: str) -> None:
    by_options = found(library, collector, "", **options)
    assert by_options == found(library, collector, text)
    assert found(library, collector, "", owned=True, **options) == by_options
    assert found_copies(library, collector, "", **options) == found_copies(library, collector, text)
    if collector == "me":
        assert by_options  # each finds something, so the comparison means something


def test_text_and_options_ask_about_one_copy_together(library: Location) -> None:
    """`cond:nm --language fr`: the French copy of 1 C 14 is LP, its NM copies English."""
    assert "1 C 14" in found(library, "me", "cond:nm") & found(library, "me", "lang:fr")
    assert found(library, "me", "cond:nm", language="fr") == {"1 R 20"}
    assert found(library, "me", "cond:nm lang:fr") == {"1 R 20"}
    # One level of AND for text and options alike: words rank the same with options or not.
    with_option = plan(build_query("chugawug s:nature", {"type": "creature"}))
    assert with_option.sql == plan(build_query("chugawug s:nature t:creature")).sql
    assert "fts_rank" in with_option.sql


def test_only_a_query_with_copy_terms_reads_the_holdings() -> None:
    """The EXISTS is paid for only when asked for, and terms side by side share one."""
    assert "my_holding" not in plan(build_query("s:chaos cost>=2", {"owned": True})).sql
    one = plan(build_query('cond:nm lang:fr s:chaos in:"box a"', {"tag": "trade"})).sql
    assert one.count("EXISTS") == 1
    assert plan(build_query("cond:nm or lang:fr")).sql.count("EXISTS") == 2


@pytest.mark.parametrize("text", [*TERMS, *(" ".join(terms) for terms in ALL_OF)])
def test_a_term_reads_back_as_it_was_understood(text: str) -> None:
    shown = parse_query(text).describe()
    again = parse_query(shown)
    assert again.describe() == shown
    assert plan(again) == plan(parse_query(text))._replace(query=again)


@pytest.mark.parametrize(
    ("text", "message", "at"),
    [
        ("cond:xx", "unknown condition 'xx': use one of M, NM, LP, MP, HP, DMG", "xx"),
        ("cond:nearmnt", "did you mean NM?", "nearmnt"),
        ("cond<>lp", "takes a condition, not '>lp'", ">lp"),
        ("lang:frenc", "unknown language 'frenc'", "frenc"),
        ("lang:frenc", "did you mean French (fr)?", "frenc"),
        ("lang>fr", "language takes ':' or '!=', not '>'", "fr"),
        ("in>=x", "location takes ':' or '!=', not '>='", "x"),
        ('in:" "', "expected a location's name, or location:none", '" "'),
        ("tag:,", "expected a tag, or tag:none", ","),
        ('in:a"b c"', "a location in a query cannot hold a double quote", 'a"b c"'),
        ("tag<trade", "tag takes ':' or '!=', not '<'", "trade"),
        ("tag:" + "x" * 120, "is 120 characters; at most 100", "x" * 120),
    ],
)
def test_a_bad_value_is_refused_with_a_caret(text: str, message: str, at: str) -> None:
    with pytest.raises(QueryError) as caught:
        parse_query(text)
    assert message in caught.value.message
    assert text[caught.value.start : caught.value.end] == at
    assert "\n" not in caught.value.message


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("condition", "nearmnt", "--condition nearmnt: unknown condition 'nearmnt'"),
        ("language", "klingon", "--language klingon: unknown language 'klingon'"),
        ("location", " ", "--location  : --location needs a value"),
        ("tag", ",", "--tag ,: expected a tag"),
    ],
)
def test_a_bad_option_value_names_the_option(option: str, value: str, message: str) -> None:
    with pytest.raises(CardbaseError) as caught:
        build_query("", {option: value})
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_every_condition_and_its_name_is_a_condition() -> None:
    """`m` and `Mint` too (a guess at a misspelling once named itself without end)."""
    for code, name in CONDITION_NAMES.items():
        assert parse_condition(code) == parse_condition(code.lower()) == code
        assert parse_condition(name) == code
    with pytest.raises(CardbaseError, match=r"did you mean M\?"):
        parse_condition("mintt")


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["cond", "lang", "in", "tag"]),
    st.sampled_from([":", "=", "!=", ">=", "<", "-"]),
    st.text(min_size=1, max_size=12) | st.sampled_from(["none", "nm", "fr", "Binder 1"]),
)
def test_any_copy_term_parses_and_reads_back_or_is_refused(field: str, op: str, value: str) -> None:
    negate, op = (op == "-"), (":" if op == "-" else op)
    text = f"{'-' if negate else ''}{field}{op}{value}"
    try:
        parsed = parse_query(text)
    except QueryError:
        return
    again = parse_query(parsed.describe())
    assert again.describe() == parsed.describe()
    assert plan(again).params == plan(parsed).params
