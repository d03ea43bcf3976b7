"""One name resolver, one policy: codes by code, names exactly once folded, else suggestions.

Every command that reads a card's name must answer the same text the same way, so most tests
here ask every command and compare. The catalogue is tests/data/mini_cards.csv unless a test
says otherwise (the bundled cards.csv for the property test).
"""

from __future__ import annotations

import json
import re
import sqlite3
import string
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.catalog.cards import name_key
from cardbase.catalog.closenames import _ASCII_NOT_WORD, _NOT_WORD, CloseNames, fold_words
from cardbase.catalog.load import read_catalogue
from cardbase.catalog.names import NameResolver
from cardbase.decks.check import place
from cardbase.decks.lists import parse_deck_text
from cardbase.errors import AmbiguousError, CodeError, NotFoundError
from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE, Run, new_database

BUNDLED_CATALOGUE = Path(__file__).parent.parent / "cards.csv"
DID_YOU_MEAN = re.compile(r"[Dd]id you mean:? (.*)\?$")


def suggested(line: str) -> str:
    """What a message suggests: the text between 'did you mean' and its question mark."""
    found = DID_YOU_MEAN.search(line.removesuffix(" Nothing was changed."))
    return found.group(1) if found else ""


def line_with(text: str, needle: str) -> str:
    return next((line for line in text.splitlines() if needle in line), "")


# Each command, asked about one card by name, and the line of its answer that names it.
def by_show(run: Run, tmp_path: Path, name: str) -> str:
    return run("show", name).stderr.strip()


def by_add(run: Run, tmp_path: Path, name: str) -> str:
    return run("add", f"{name} x2").stderr.strip()


def by_import(run: Run, tmp_path: Path, name: str) -> str:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(f"Name,Qty\nChugawug Elder,1\n{name},1\n", encoding="utf-8")
    return line_with(run("import", str(sheet)).stderr, "row 3:")


def by_deck_check(run: Run, tmp_path: Path, name: str) -> str:
    deck = tmp_path / "deck.txt"
    deck.write_text(f"3 Chugawug Elder\n2 {name}\n", encoding="utf-8")
    return line_with(run("deck", "check", str(deck)).stdout, "unknown-card")


def by_trade_match(run: Run, tmp_path: Path, name: str) -> str:
    theirs = tmp_path / "theirs.csv"
    theirs.write_text(f"List,Name,Qty\nwant,{name},1\nhave,Old Mossbeard,1\n", encoding="utf-8")
    problems = json.loads(run("trade", "match", str(theirs), "-o", "json").stdout)["problems"]
    return problems[0] if problems else ""


def by_search(run: Run, tmp_path: Path, name: str) -> str:
    return run("search", name).stderr.strip()


COMMANDS: dict[str, Callable[[Run, Path, str], str]] = {
    "show": by_show,
    "add": by_add,
    "import": by_import,
    "deck check": by_deck_check,
    "trade match": by_trade_match,
    "search": by_search,
}

TYPOS = [
    ("Chugawug Eldr", "Chugawug Elder (1 U 15)"),
    ("Chugawug Cok", "Chugawug Cook (1 C 14, 2 C 101)"),
    ("Chugawg Elder", "Chugawug Elder (1 U 15)"),
    ("Robgoblin Scraper", "Robgoblin Scrapper (1 C 41)"),
    ("Old Mosbeard", "Old Mossbeard (1 E 162)"),
    # one word, misspelled or alone: no name shares it, close words find them
    ("Chugawg", "Chugawug Cook (1 C 14, 2 C 101), Chugawug Elder (1 U 15)"),
    ("Mossbeerd", "Old Mossbeard (1 E 162)"),
    ("Dewdancr", "Pixie Dewdancer (1 C 1)"),
]


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(("typo", "expected"), TYPOS, ids=[typo for typo, _ in TYPOS])
def test_one_typo_gets_the_same_suggestion_from_every_command(
    run: Run, conn: sqlite3.Connection, tmp_path: Path, command: str, typo: str, expected: str
) -> None:
    answer = COMMANDS[command](run, tmp_path, typo)
    assert f"'{typo}'" in answer or command == "search", answer
    assert suggested(answer) == expected, answer
    assert ", ".join(NameResolver(conn).suggestions(typo)) == expected


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_typo_is_never_taken(run: Run, tmp_path: Path, checksum, command: str) -> None:
    """However close: import used to take one typo in a long name, where add refused it."""
    before = checksum(run.db_path)
    assert (
        suggested(COMMANDS[command](run, tmp_path, "Pixie Dewdancr")) == "Pixie Dewdancer (1 C 1)"
    )
    assert checksum(run.db_path) == before


def test_import_skips_a_misspelled_row_only_when_told(run: Run, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Name,Qty\nChugawug Elder,1\nChugawug Cok,2\n", encoding="utf-8")
    refused = run("import", str(sheet))
    assert refused.exit_code == 2
    assert (
        "sheet.csv, row 3: no card named 'Chugawug Cok'. Did you mean Chugawug Cook (1 C 14, 2 C 101)?"
        in refused.stderr
    )
    skipped = run("import", str(sheet), "--skip-bad")
    assert skipped.exit_code == 0 and "1 row skipped" in skipped.stdout
    owned = json.loads(run("collection", "-o", "json").stdout)
    assert [(card["code"], card["nonfoil"]) for card in owned] == [("1 U 15", 1)]


def test_sir_pelam_ironvow_is_refused_by_import_too(tmp_path: Path) -> None:
    db_path = tmp_path / "bundled.db"
    new_database(db_path)
    run = Run(db_path)
    for command in ("show", "add", "import", "deck check", "trade match"):
        answer = COMMANDS[command](run, tmp_path, "Sir Pelam Ironvow")
        assert suggested(answer) == "Sir Pellam Ironvow (1 P 166)", (command, answer)


SHOW_REFUSES = [
    ("Chugawug Elderr", "no card named 'Chugawug Elderr'. Did you mean Chugawug Elder (1 U 15)?"),
    ("chugawug cook", "'Chugawug Cook' is printed as 1 C 14, 2 C 101. Name one by its code"),
    (
        "1 C 132",
        "1 C 132: card 132 of series 1 is Uncommon, not Common. "
        "Did you mean 1 U 132 (Ninja Blade Adept)?",
    ),
    ("5 C 5", "no card has the code 5 C 5"),
]


@pytest.mark.parametrize(("text", "message"), SHOW_REFUSES)
def test_show_refuses_in_one_line(run: Run, text: str, message: str) -> None:
    result = run("show", text)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip().splitlines() == [f"cardbase: {message}"]


def test_show_by_name_is_case_and_space_insensitive(run: Run) -> None:
    text = run("show", "  ninja   BLADE adept ").stdout
    assert "Ninja Blade Adept" in text and "1 U 132" in text and "Patience is a blade." in text
    assert json.loads(run("show", "2 C 101", "-o", "json").stdout)["lore"].startswith("Reprinted")


EXACT = [
    ("Ninja Blade Adept", "1 U 132"),
    ("  ninja   BLADE adept ", "1 U 132"),
    ("NINJABLADEADEPT", "1 U 132"),
    ("Ninja-Blade Adept!", "1 U 132"),
    ("Nínja Bláde Adépt", "1 U 132"),
    ("old mossbeard", "1 E 162"),
    ("1U132", "1 U 132"),
    ("1-u-132", "1 U 132"),
    ("2 C 101", "2 C 101"),
]


@pytest.mark.parametrize(("text", "code"), EXACT)
def test_exact_and_folded_names_and_codes(
    run: Run, conn: sqlite3.Connection, text: str, code: str
) -> None:
    assert str(NameResolver(conn).card(text).code) == code
    assert json.loads(run("show", text, "-o", "json").stdout)["code"] == code


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("show", "cardbase: 'Chugawug Cook' is printed as 1 C 14, 2 C 101. Name one by its code"),
        ("add", "'Chugawug Cook' is printed as 1 C 14, 2 C 101. Name one by its code."),
        ("import", "'Chugawug Cook' is printed as 1 C 14, 2 C 101; add a code column to choose"),
    ],
)
def test_a_name_in_several_series_is_listed_with_its_codes_where_one_is_needed(
    run: Run, tmp_path: Path, command: str, message: str
) -> None:
    assert message in COMMANDS[command](run, tmp_path, "Chugawug Cook")


def test_a_name_in_several_series_is_fine_where_any_printing_counts(
    run: Run, conn: sqlite3.Connection, tmp_path: Path
) -> None:
    assert by_deck_check(run, tmp_path, "Chugawug Cook") == ""  # a deck counts by name
    assert NameResolver(conn).card("Chugawug Cook", any_printing=True).code.series == 1
    with pytest.raises(AmbiguousError):
        NameResolver(conn).card("Chugawug Cook")
    sheet = tmp_path / "series.csv"
    sheet.write_text("Name,Set,Qty\nChugawug Cook,Series 2,1\n", encoding="utf-8")
    assert run("import", str(sheet)).exit_code == 0  # a Set column chooses


WRONG_LETTER = (
    "1 C 132: card 132 of series 1 is Uncommon, not Common. "
    "Did you mean 1 U 132 (Ninja Blade Adept)?"
)


@pytest.mark.parametrize(
    ("command", "args", "where"),
    [
        ("show", ["show", "1 C 132"], "stderr"),
        ("add", ["add", "1 C 132"], "stderr"),
        ("code", ["code", "1 C 132"], "stdout"),
    ],
)
def test_a_code_with_the_wrong_rarity_letter_names_the_right_code(
    run: Run, command: str, args: list[str], where: str
) -> None:
    result = run(*args)
    assert WRONG_LETTER in getattr(result, where)
    assert result.exit_code == (0 if command == "code" else 2)


def test_a_code_with_the_wrong_letter_in_a_sheet_or_deck(
    run: Run, conn: sqlite3.Connection, tmp_path: Path
) -> None:
    sheet = tmp_path / "codes.csv"
    sheet.write_text("Code,Qty\n1 C 132,1\n", encoding="utf-8")
    assert f"row 2: {WRONG_LETTER}" in run("import", str(sheet)).stderr
    assert WRONG_LETTER in by_deck_check(run, tmp_path, "1 C 132")
    with pytest.raises(CodeError, match="Did you mean 1 U 132"):
        NameResolver(conn).card("1 C 132")


def test_unknown_code_and_name_without_suggestions(conn: sqlite3.Connection) -> None:
    resolver = NameResolver(conn)
    with pytest.raises(NotFoundError, match="no card has the code 5 C 5"):
        resolver.card("5 C 5")
    with pytest.raises(NotFoundError) as raised:
        resolver.card("zzzz qqqq")
    assert str(raised.value) == "no card named 'zzzz qqqq'" and raised.value.hint is None
    with pytest.raises(NotFoundError, match="empty card name or code"):
        resolver.card("   ")


def test_a_leading_number_is_a_count_unless_the_whole_line_is_a_name(tmp_path: Path) -> None:
    catalogue = tmp_path / "cards.csv"
    catalogue.write_text(
        MINI_CATALOGUE.read_text() + "3 C 7,2 Headed Troll,Creature,,Chaos,Troll,2,3,3,R,,\n"
    )
    db_path = tmp_path / "troll.db"
    new_database(db_path, catalogue)
    run = Run(db_path)
    assert run("add", "2 Headed Troll", "3 Old Mossbeard", "2 2 Headed Troll").exit_code == 0
    owned = {c["name"]: c["nonfoil"] for c in json.loads(run("collection", "-o", "json").stdout)}
    assert owned == {"2 Headed Troll": 3, "Old Mossbeard": 3}


def test_names_are_read_once_and_each_bad_text_searched_once(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    search, init = CloseNames.search, CloseNames.__init__

    def counted_search(self: CloseNames, text: str) -> list[str]:
        calls.append(text)
        return search(self, text)

    def counted_init(self: CloseNames, names: list[str]) -> None:
        calls.append("read the names")
        init(self, names)

    monkeypatch.setattr(CloseNames, "search", counted_search)
    monkeypatch.setattr(CloseNames, "__init__", counted_init)
    deck = parse_deck_text("2 Chugawg Elder\n1 Chugawg Elder\n3 Pixie Dewdancr\n", "deck.txt")
    _placed, problems = place(conn, deck)
    assert [p.code for p in problems] == ["unknown-card"] * 3
    assert calls == ["read the names", "Chugawg Elder", "Pixie Dewdancr"]


def test_bulk_and_one_by_one_lookups_agree(tmp_path: Path) -> None:
    header, *rows = MINI_CATALOGUE.read_text().splitlines()
    catalogue = tmp_path / "reversed.csv"  # rows stored out of catalogue order
    catalogue.write_text("\n".join([header, *reversed(rows)]) + "\n")
    new_database(tmp_path / "reversed.db", catalogue)
    conn = Library(tmp_path / "reversed.db").connect()
    one_by_one, bulk = NameResolver(conn), NameResolver(conn)
    bulk.load()
    names = one_by_one._close_names().names  # in catalogue order, so ties break alike
    assert names == bulk._close_names().names and names[:2] == ["Pixie Dewdancer", "Chugawug Cook"]
    for text in ("Chugawug Cook", "chugawug elder", "Chugawg", "Temple Bel", "nothing at all"):
        assert one_by_one.match(text) == bulk.match(text)
    for series, number in ((1, 14), (2, 101), (1, 132), (9, 9)):
        assert one_by_one.numbered(series, number) == bulk.numbered(series, number)
    conn.close()


def test_words_are_folded_the_same_with_or_without_the_ascii_table() -> None:
    for code in range(128):
        char = chr(code)
        assert char.translate(_ASCII_NOT_WORD) == _NOT_WORD.sub(" ", char), repr(char)
    assert fold_words("Bixie Queen's  Guard-Captain!") == [
        "bixie",
        "queen",
        "s",
        "guard",
        "captain",
    ]
    assert fold_words("Pok\u00e9mon\u2013Trainer") == ["pokémon", "trainer"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dewdancer", ["Pixie Dewdancer (1 C 1)"]),  # one right word of a name
        ("Clockwork", ["Clockwork Sentry (1 C 81)", "Clockwork Dragonfly (1 E 82)"]),
        ("chugawugcok", ["Chugawug Cook (1 C 14, 2 C 101)"]),  # no word to narrow by
        ("Temple Bel", ["Temple Bell (1 C 140)"]),
        ("zzzz qqqq", []),
    ],
)
def test_suggestions(conn: sqlite3.Connection, text: str, expected: list[str]) -> None:
    assert NameResolver(conn).suggestions(text) == expected


# -- any catalogue name, mangled as people type it, resolves to itself ----------------------

BUNDLED_NAMES = sorted({card.name for card in read_catalogue(BUNDLED_CATALOGUE).cards})


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    path = tmp_path_factory.mktemp("bundled") / "bundled.db"
    new_database(path, BUNDLED_CATALOGUE)
    connection = Library(path).connect()
    yield connection  # type: ignore[misc]
    connection.close()


@st.composite
def mangled(draw: st.DrawFn) -> tuple[str, str]:
    """A catalogue name with its case changed, and spaces and punctuation added or dropped."""
    name = draw(st.sampled_from(BUNDLED_NAMES))
    noise = st.text(alphabet=" -'.,!_/", max_size=2)
    chars = []
    for char in name:
        if not char.isalnum() and draw(st.booleans()):
            continue  # a space or a hyphen left out
        chars.append(char.swapcase() if draw(st.booleans()) else char)
        chars.append(draw(noise))
    text = "".join(chars)
    return name, text if text.strip() else name


# 300 names, half of them through a bulk load of every name: some 2 s.
@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mangled(), bulk=st.booleans())
def test_any_name_mangled_resolves_to_itself(
    bundled: sqlite3.Connection, case: tuple[str, str], bulk: bool
) -> None:
    name, text = case
    resolver = NameResolver(bundled)
    if bulk:
        resolver.load()
    assert name_key(text) == name_key(name)
    assert resolver.card(text, any_printing=True).name == name
    assert resolver.match(text).suggestions == []


@st.composite
def misspelled(draw: st.DrawFn) -> str:
    """A catalogue name with a letter dropped, doubled or swapped, or one of its words alone."""
    name = draw(st.sampled_from([name for name in BUNDLED_NAMES if len(name) >= 3]))
    if draw(st.booleans()):
        return draw(st.sampled_from(name.split()))
    at = draw(st.integers(1, len(name) - 2))
    return draw(
        st.sampled_from(
            [
                name[:at] + name[at + 1 :],
                name[:at] + name[at] + name[at:],
                name[: at - 1] + name[at] + name[at - 1] + name[at + 1 :],
            ]
        )
    )


@pytest.fixture(scope="module")
def close_names(bundled: sqlite3.Connection) -> list[CloseNames]:
    """Searches narrowing the ways a deck check and an import do: by the text, by the index."""
    names = CloseNames.load(bundled).names
    by_text, by_index = CloseNames(names), CloseNames(names)
    by_index._postings = by_index._index()  # as after an import's first few dozen words
    return [by_text, by_index]


# 200 lists of up to five misspellings, each searched four ways among every name: over 1 s.
@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(texts=st.lists(misspelled(), min_size=1, max_size=5), few=st.sampled_from([0, 10**9]))
def test_every_way_of_narrowing_gives_the_same_suggestions(
    close_names: list[CloseNames], texts: list[str], few: int
) -> None:
    """Pools narrowed name by name (`FEW_NAMES` large) or by whole word sets (0), found in the
    text or in the index, and fresh or cached: the same names for the same text."""
    from cardbase.catalog import closenames

    names = close_names[0].names
    expected = [CloseNames(names).search(text) for text in texts]  # fresh, narrowed as shipped
    saved, closenames.FEW_NAMES = closenames.FEW_NAMES, few
    try:
        for found in close_names:
            assert [found.search(text) for text in texts] == expected
    finally:
        closenames.FEW_NAMES = saved


def test_the_names_mangled_include_names_with_punctuation() -> None:
    assert len(BUNDLED_NAMES) > 200
    assert any(set(name) & set(string.punctuation) for name in BUNDLED_NAMES)


def test_add_and_import_refuse_a_misspelt_name_in_the_same_words(run: Run, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Name,Qty\nChugawug Cok,2\n", encoding="utf-8")
    said = "no card named 'Chugawug Cok'. Did you mean Chugawug Cook (1 C 14, 2 C 101)?"
    added = run("add", "Chugawug Cok")
    assert added.stderr == f"cardbase: {said} Nothing was changed.\n"
    assert f"sheet.csv, row 2: {said}\n" in run("import", str(sheet)).stderr


def test_one_row_that_could_not_be_imported_is_it_not_them(run: Run, tmp_path: Path) -> None:
    from cardbase.sheets.importer import skip_bad_remedy

    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Name,Qty\nChugawug Cok,2\n", encoding="utf-8")
    assert run("import", str(sheet)).stderr.startswith(
        "cardbase: sheet.csv: 1 row could not be imported, so nothing was (fix it, or add "
        "--skip-bad to import the rest):\n"
    )
    assert skip_bad_remedy(1).web.startswith("fix the row in the sheet and upload it again")
    assert skip_bad_remedy(2).web.startswith("fix them in the sheet and upload it again")
