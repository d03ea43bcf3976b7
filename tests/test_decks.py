"""Deck lists, format rules as data, reports that explain every problem, and stats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardbase.catalog.update import import_catalogue
from cardbase.decks.check import check_deck, deck_stats, place
from cardbase.decks.formats import FORMATS
from cardbase.decks.lists import format_deck, parse_deck_text
from cardbase.library import Library
from tests.helpers import DATA, MINI_CATALOGUE, Run, copy_database, new_database

# 13 names x 3 = 39; the 14th name makes 40.
NAMES = [
    "Pixie Dewdancer",
    "Chugawug Elder",
    "Mistfen Bog",
    "Sudden Growth",
    "Robgoblin Scrapper",
    "Undead Drummer",
    "Robgoblin Sneak",
    "Smoldering Scrapheap",
    "Dirty Trick",
    "Clockwork Sentry",
    "Clockwork Dragonfly",
    "Steam Forge",
    "Overclock",
]
BASE = "\n".join(f"3 {name}" for name in NAMES)  # 39 cards


@pytest.fixture(scope="module")
def both_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("decks") / "decks.db"
    new_database(path, MINI_CATALOGUE)
    import_catalogue(Library(path), DATA / "wildhearts_cards.csv")
    return path


def report(
    db_path: Path,
    text: str,
    fmt: str = "free-realms",
    players: int | None = None,
    owned: bool = False,
):
    conn = Library(db_path).connect()
    try:
        return check_deck(conn, parse_deck_text(text, "deck.txt"), fmt, players, owned)
    finally:
        conn.close()


def codes(result) -> list[str]:
    return [problem.code for problem in result.problems]


FREE_REALMS_CASES = [
    ("exactly 40 is valid", BASE + "\n1 Ninja Blade Adept", []),
    ("39 is too few", BASE, ["too-few-cards"]),
    ("no maximum", BASE + "\n3 Ninja Blade Adept\n3 Temple Bell\n3 Perfect Block", []),
    ("4 copies split across series", BASE + "\n2 1 C 14\n2 2 C 101", ["too-many-copies"]),
    ("3 copies split across series", BASE + "\n2 1 C 14\n1 2 C 101", []),
    ("4 copies by name and code", BASE + "\n2 Ninja Blade Adept\n2 1 U 132", ["too-many-copies"]),
    ("case and spacing", BASE + "\n1   ninja BLADE adept", []),
    ("unknown name", BASE + "\n1 Ninja Blade Adeptt", ["unknown-card", "too-few-cards"][:1]),
    ("ambiguous name is fine", BASE + "\n1 Chugawug Cook", []),
    ("heroes count", BASE + "\n1 Tavi Emberwake", []),
    ("wrong rarity letter", BASE + "\n1 1 C 132", ["unknown-card"]),
    (
        "sections other than main",
        BASE + "\nSide:\n1 Temple Bell",
        ["unknown-section", "too-few-cards"],
    ),
    ("a Wildhearts card", BASE + "\n1 Ember Fox", ["wrong-game"]),
    ("a bad line", BASE + "\n1 Temple Bell\nPlayers:", ["bad-line"]),
]


@pytest.mark.parametrize(
    ("case", "text", "expected"), FREE_REALMS_CASES, ids=[c[0] for c in FREE_REALMS_CASES]
)
def test_free_realms_constructed(
    both_games: Path, case: str, text: str, expected: list[str]
) -> None:
    assert codes(report(both_games, text)) == expected


def test_messages_name_cards_lines_and_fixes(both_games: Path) -> None:
    result = report(
        both_games,
        "2 1 C 14\n" + BASE.replace("3 Pixie", "1 Pixie") + "\n2 2 C 101\n2 Chugawg Elder",
    )
    by_code = {problem.code: problem for problem in result.problems}
    assert by_code["too-many-copies"].describe() == (
        "too-many-copies: Chugawug Cook x4 (lines 1, 15: 1 C 14 x2, 2 C 101 x2), at most 3 (remove 1)"
    )
    assert by_code["too-many-copies"].lines == (1, 15)
    assert by_code["unknown-card"].describe() == (
        "unknown-card: line 16 'Chugawg Elder'; did you mean Chugawug Elder (1 U 15)?"
    )
    assert report(both_games, BASE).problems[0].describe() == (
        "too-few-cards: 39 cards in the deck, the minimum is 40 (add 1)"
    )


def test_messages_count_one_line_and_one_card_in_the_singular(both_games: Path) -> None:
    """'line 2', '1 card', 'an Ally': the messages read as a person would write them."""
    from cardbase.decks.formats import _lines
    from cardbase.text import a

    one = report(both_games, "4 Chugawug Cook\n" + BASE.replace("3 Pixie", "1 Pixie"))
    [copies] = [p for p in one.problems if p.code == "too-many-copies"]
    assert "Chugawug Cook x4 (line 1: 1 C 14 x4)" in copies.describe()
    assert (
        report(both_games, "1 Chugawug Cook\n")
        .problems[0]
        .describe()
        .startswith("too-few-cards: 1 card in the deck,")
    )
    assert (_lines((16,)), _lines((20, 21))) == ("line 16", "lines 20, 21")
    assert (a("Ally"), a("Hero"), a("Order"), a("Free Realms")) == (
        "an Ally", "a Hero", "an Order", "a Free Realms"
    )  # fmt: skip


def test_a_hint_in_lower_case_runs_on_after_a_semicolon() -> None:
    from cardbase.errors import CardbaseError, Remedy

    paper = CardbaseError("unknown paper 'a5'", Remedy("use --paper a4", "choose a4"))
    assert str(paper) == "unknown paper 'a5'; use --paper a4"
    assert paper.said("web") == "unknown paper 'a5'. Choose a4"
    assert str(CardbaseError("no card", "Did you mean X?")) == "no card. Did you mean X?"


def test_empty_deck(both_games: Path) -> None:
    result = report(both_games, "# nothing yet\n")
    assert codes(result) == ["too-few-cards"]
    assert result.cards == 0


def wildhearts(fields: int = 1, judge: int = 0, side: int = 0, main_extra: str = "") -> str:
    main = "\n".join(
        f"2 {name}"
        for name in [
            "Ember Fox",
            "River Otter Scout",
            "Thornback Badger",
            "Moss Sprite",
            "Storm Hawk",
            "Cinder Wolf",
            "Tide Turtle",
            "Glade Stag",
            "Young Tamer Ilsa",
            "Tamer Brannoc",
            "Tamer Quill",
            "Old Tamer Hessa",
            "Call the Pack",
            "Sudden Squall",
            "Wild Leap",
        ]
    )
    parts = [
        "Main:",
        main + main_extra,
        "Familiars:",
        "1 Blazewing Familiar",
        "1 Frostfang Familiar",
        "Fields:",
    ]
    parts += [f"1 {name}" for name in ["Ashen Plains", "Coral Reef", "Whispering Woods"][:fields]]
    if side:
        parts += (
            ["Side:", f"{side} Deep Roots"]
            if side <= 2
            else ["Side:", "2 Deep Roots", f"{side - 2} Judge Card 9"]
        )
    if judge:
        parts += ["Judge:"] + [f"1 Judge Card {n}" for n in range(1, judge + 1)]
    return "\n".join(parts)


WILDHEARTS_CASES = [
    ("4 players, 1 field", wildhearts(), 4, []),
    ("3 players need 2 fields", wildhearts(), 3, ["too-few-cards"]),
    ("3 players, 2 fields", wildhearts(fields=2), 3, []),
    ("4 players, 2 fields", wildhearts(fields=2), 4, ["too-many-cards"]),
    ("judge deck of 8", wildhearts(judge=8), 4, []),
    ("judge deck of 7", wildhearts(judge=7), 4, ["too-few-cards"]),
    ("31 main cards", wildhearts(main_extra="\n1 Deep Roots"), 4, ["too-many-cards"]),
    (
        "3 copies",
        wildhearts(main_extra="\n1 Ember Fox").replace("2 Call the Pack", "1 Call the Pack"),
        4,
        ["too-many-copies"],
    ),
    (
        "side deck copies count",
        wildhearts(side=2).replace("2 Wild Leap", "2 Deep Roots"),
        4,
        ["too-few-cards", "too-many-copies"],
    ),
    ("2 players", wildhearts(), 2, ["wrong-players"]),
    (
        "a familiar in the main deck",
        wildhearts().replace("2 Wild Leap", "1 Wild Leap\n1 Mossheart Familiar"),
        4,
        ["wrong-type"],
    ),
    (
        "the same familiar twice",
        wildhearts().replace("1 Frostfang Familiar", "1 Blazewing Familiar"),
        4,
        ["not-distinct"],
    ),
]


@pytest.mark.parametrize(
    ("case", "text", "players", "expected"), WILDHEARTS_CASES, ids=[c[0] for c in WILDHEARTS_CASES]
)
def test_wildhearts_free_for_all(
    both_games: Path, case: str, text: str, players: int, expected: list[str]
) -> None:
    assert codes(report(both_games, text, "wildhearts-ffa", players)) == expected


def test_the_verdict_names_the_player_count_it_was_given(both_games: Path) -> None:
    """`--players 0` was judged as 0 players but the verdict said '4 players'."""
    found = report(both_games, wildhearts(), "wildhearts-ffa", 0)
    assert codes(found) == ["wrong-players"]
    assert found.players == 0


def test_a_deck_naming_no_format_takes_its_cards_games_first(
    both_games: Path, tmp_path: Path
) -> None:
    """A Wildhearts deck without a Format: line is checked as Wildhearts Free-For-All, and a
    note says so; a Free Realms deck, a deck of both games' cards and --format are as they
    were."""
    run = Run(both_games)
    deck = tmp_path / "ffa.txt"
    deck.write_text(wildhearts())
    checked = run("deck", "check", str(deck))
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.startswith("\u2714 valid: ffa.txt, ")
    assert "Wildhearts Free-For-All, 4 players" in checked.stdout
    assert "wrong-game" not in checked.output
    assert (
        "ffa.txt names no format and its cards are Wildhearts TCG cards: read as Wildhearts "
        "Free-For-All (a 'Format: wildhearts-ffa' line or --format chooses)"
    ) in checked.stderr
    other = tmp_path / "ffa2.txt"
    other.write_text(wildhearts())
    desk = run("deck", "check", str(deck), str(other))
    assert desk.stdout.count("Wildhearts Free-For-All, valid") == 2
    told = run("deck", "check", str(deck), "--format", "free-realms")
    assert "wrong-game" in told.stdout and "names no format" not in told.stderr
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(wildhearts() + "\n3 Chugawug Cook\n")
    assert "Free Realms Constructed" in run("deck", "check", str(mixed)).stdout
    free = tmp_path / "fr.txt"
    free.write_text(BASE)
    plain = run("deck", "check", str(free))
    assert "Free Realms Constructed" in plain.stdout and "names no format" not in plain.stderr


def test_formats_are_data() -> None:
    ffa = FORMATS["wildhearts-ffa"]
    assert ffa.rules_for(3)["fields"].min_cards == 2
    assert ffa.rules_for(4)["fields"].min_cards == 1
    assert FORMATS["free-realms"].copy_limit == 3


def test_owned_check_lists_the_shortfall(both_games: Path, tmp_path: Path) -> None:
    path = copy_database(both_games, tmp_path / "own.db")
    run = Run(path)
    assert run("add", "fr:1 C 14 x2", "fr:2 C 101 foil", "Pixie Dewdancer x3").exit_code == 0
    result = report(path, BASE + "\n3 Chugawug Cook", owned=True)
    shortfall = {p.cards[0]: p.message for p in result.problems if p.code == "not-owned"}
    assert "Chugawug Cook" not in shortfall  # 2 + 1 foil across series
    assert shortfall["Chugawug Elder"] == "Chugawug Elder: the deck needs 3, you own 0"
    assert "Pixie Dewdancer" not in shortfall


def test_stats(both_games: Path) -> None:
    conn = Library(both_games).connect()
    placed, problems = place(
        conn,
        parse_deck_text(
            "3 Pixie Dewdancer\n2 Chugawug Elder\n1 Tavi Emberwake\n1 Sudden Growth", "d"
        ),
    )
    stats = deck_stats(placed)
    assert not problems
    assert stats.cards == 7
    assert stats.average_gems == pytest.approx((3 * 2 + 2 * 3 + 4 + 3) / 7)
    assert stats.gem_colours == {"R": 1, "G": 3 + 4 + 1 + 3, "B": 1, "Y": 3 + 2 + 1}
    assert stats.types == {"Creature": 6, "Trick": 1}
    assert stats.heroes == 1
    assert stats.cost_curve == {1: 3, 2: 0, 3: 0, 4: 2, 5: 1}


# -- CLI ----------------------------------------------------------------------------------


def test_cli_check_exit_codes_and_json_equals_library(both_games: Path, tmp_path: Path) -> None:
    run = Run(both_games)
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(BASE + "\n1 Ninja Blade Adept\n")
    bad.write_text(BASE + "\n")
    ok = run("deck", "check", str(good))
    assert ok.exit_code == 0
    assert ok.stdout.startswith("\u2714 valid: good.txt, 40 cards")
    failed = run("deck", "check", str(bad))
    assert failed.exit_code == 1
    assert failed.stdout.startswith("\u2718 invalid")
    assert "too-few-cards: 39 cards in the deck, the minimum is 40 (add 1)" in failed.stdout
    as_json = json.loads(run("deck", "check", str(bad), "-o", "json").stdout)
    conn = Library(both_games).connect()
    library = check_deck(conn, parse_deck_text(bad.read_text(), "bad.txt")).to_dict()
    assert as_json == library


def test_cli_unreadable_deck_is_exit_2(both_games: Path, tmp_path: Path) -> None:
    run = Run(both_games)
    missing = run("deck", "check", str(tmp_path / "nope.txt"))
    assert missing.exit_code == 2
    assert "cannot read the deck" in missing.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    assert run("deck", "check", str(empty)).exit_code == 2
    assert run("deck", "check", str(empty), "--format", "chess").exit_code == 2


def test_cli_deck_from_a_spreadsheet(both_games: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "deck.csv"
    sheet.write_text(
        "Qty,Card Name\n" + "\n".join(f"3,{name}" for name in NAMES) + "\n1,Ninja Blade Adept\n"
    )
    result = Run(both_games)("deck", "check", str(sheet))
    assert result.exit_code == 0, result.output


def test_cli_stats(both_games: Path, tmp_path: Path) -> None:
    deck = tmp_path / "d.txt"
    deck.write_text("3 Pixie Dewdancer\n1 Tavi Emberwake\n")
    data = json.loads(Run(both_games)("deck", "stats", str(deck), "-o", "json").stdout)
    assert data["cards"] == 4
    assert data["average_gems"] == 2.5
    assert data["cost_curve"]["1"] == 3


# -- round trip ---------------------------------------------------------------------------

SECTIONS = ["main", "side", "judge", "familiars", "fields"]
card_names = st.sampled_from([*NAMES, "Chugawug Cook", "Swarm!", "Old Mossbeard"])


@settings(max_examples=50)
@given(
    st.dictionaries(
        st.sampled_from(SECTIONS),
        st.lists(st.tuples(st.integers(1, 99), card_names), min_size=1, max_size=6),
        min_size=1,
    )
)
def test_deck_text_round_trip(deck: dict[str, list[tuple[int, str]]]) -> None:
    parsed = parse_deck_text(format_deck(deck), "d")
    assert not parsed.problems
    back: dict[str, list[tuple[int, str]]] = {}
    for line in parsed.lines:
        back.setdefault(line.section, []).append((line.copies, line.card))
    assert back == {section: entries for section, entries in deck.items() if entries}


# -- saved decks --------------------------------------------------------------------------


def test_saved_decks_life_cycle(both_games: Path, tmp_path: Path) -> None:
    from openpyxl import load_workbook

    path = copy_database(both_games, tmp_path / "saved.db")
    run = Run(path)
    deck = tmp_path / "d.txt"
    deck.write_text(BASE + "\n1 Chugawug Cook\n")
    assert run("deck", "save", str(deck), "--name", "Bog  Stew").exit_code == 0
    again = run("deck", "save", str(deck), "--name", "bog stew")
    assert again.exit_code == 2
    assert "exists (the deck 'Bog Stew': names match whatever their case" in again.stderr
    assert "add --force to replace it" in again.stderr
    assert run("deck", "save", str(deck), "--name", "bog stew", "--force").exit_code == 0
    listed = json.loads(run("deck", "list", "-o", "json").stdout)
    assert [(d["name"], d["cards"], d["format"]) for d in listed] == [
        ("bog stew", 40, "free-realms")
    ]
    checked = run("deck", "check", "BOG STEW")
    assert checked.exit_code == 0
    assert "40 cards" in checked.stdout
    shown = run("deck", "show", "bog stew").stdout
    assert shown.startswith("Main:\n3 Pixie Dewdancer\n")
    assert "1 1 C 14" in shown  # printed twice: by code
    text_file = tmp_path / "back.txt"
    assert run("deck", "export", "bog stew", str(text_file)).exit_code == 0
    assert run("deck", "check", str(text_file)).exit_code == 0
    workbook = tmp_path / "deck.xlsx"
    assert run("deck", "export", "bog stew", str(workbook)).exit_code == 0
    book = load_workbook(workbook)
    assert book["Deck"]["A1"].value == "Format: free-realms"
    assert book["Deck"]["D4"].value == "Pixie Dewdancer"
    assert book["Stats"]._charts
    sheet = tmp_path / "reg.xlsx"
    assert (
        run(
            "deck", "sheet", "bog stew", str(sheet), "--player", "Ada", "--paper", "letter"
        ).exit_code
        == 0
    )
    reg = load_workbook(sheet)["Registration"]
    values = [row for row in reg.iter_rows(values_only=True)]
    assert ("Player", None, "Ada") in [row[:3] for row in values]
    assert (40, None, "Total cards") in [row[:3] for row in values]
    assert reg.page_setup.orientation == "portrait"
    assert str(reg.page_setup.paperSize) == reg.PAPERSIZE_LETTER
    missing = run("deck", "check", "bog stw")
    assert missing.exit_code == 2
    assert "Did you mean bog stew?" in missing.stderr
    assert run("deck", "delete", "bog stew").exit_code == 0
    assert json.loads(run("deck", "list", "-o", "json").stdout) == []


def test_save_refuses_unknown_cards(both_games: Path, tmp_path: Path) -> None:
    path = copy_database(both_games, tmp_path / "saved.db")
    deck = tmp_path / "d.txt"
    deck.write_text("3 Chugawg Elder\n")
    result = Run(path)("deck", "save", str(deck), "--name", "x")
    assert result.exit_code == 2
    assert "Nothing was saved" in result.stderr


def test_wildhearts_deck_saved_keeps_its_format(both_games: Path, tmp_path: Path) -> None:
    path = copy_database(both_games, tmp_path / "saved.db")
    deck = tmp_path / "wh.txt"
    deck.write_text(wildhearts())
    run = Run(path)
    assert (
        run("deck", "save", str(deck), "--name", "Pack", "--format", "wildhearts-ffa").exit_code
        == 0
    )
    result = run("deck", "check", "Pack")
    assert result.exit_code == 0, result.output
    assert "Wildhearts Free-For-All, 4 players" in result.stdout


def test_deck_save_keeps_the_files_format_line(both_games: Path, tmp_path: Path) -> None:
    """Without --format, a file's `Format:` line is the saved deck's format, as `deck check`
    reads it (it was saved as Free Realms, and its export checked as Free Realms cards)."""
    path = copy_database(both_games, tmp_path / "saved.db")
    deck = tmp_path / "wh.txt"
    deck.write_text("Format: wildhearts-ffa\n" + wildhearts())
    run = Run(path)
    saved = run("deck", "save", str(deck), "--name", "Pack")
    assert saved.exit_code == 0, saved.output
    assert "Wildhearts Free-For-All" in saved.stdout
    assert run("deck", "check", "Pack").exit_code == 0
    exported = tmp_path / "pack.csv"
    assert run("deck", "export", "Pack", str(exported)).exit_code == 0
    again = run("deck", "check", str(exported))
    assert again.exit_code == 0, again.output


def test_an_invalid_decks_forced_sheet_counts_its_problems(
    both_games: Path, tmp_path: Path
) -> None:
    path = copy_database(both_games, tmp_path / "saved.db")
    deck = tmp_path / "short.txt"
    deck.write_text(BASE)
    run = Run(path)
    assert run("deck", "save", str(deck), "--name", "Short").exit_code == 0
    result = run("deck", "sheet", "Short", str(tmp_path / "reg.xlsx"), "--force")
    assert result.exit_code == 0, result.output
    assert "marked NOT VALID (1 problem)" in result.stdout


def test_a_deck_files_registration_sheet_is_written_as_a_saved_decks(
    both_games: Path, tmp_path: Path
) -> None:
    """`deck sheet` reads a deck file as the other deck commands do, not only a saved deck."""
    from openpyxl import load_workbook

    path = copy_database(both_games, tmp_path / "saved.db")
    deck = tmp_path / "Ann.txt"
    deck.write_text(BASE + "\n1 Ninja Blade Adept\n")
    run = Run(path)
    sheet = tmp_path / "reg.xlsx"
    result = run("deck", "sheet", str(deck), str(sheet), "--player", "Ann")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{sheet}: registration sheet for 'Ann.txt' written\n"
    values = list(load_workbook(sheet)["Registration"].iter_rows(values_only=True))
    assert (40, None, "Total cards") in [row[:3] for row in values]
    deck.write_text(BASE)
    refused = run("deck", "sheet", str(deck), str(tmp_path / "short.xlsx"), "--player", "Ann")
    assert refused.exit_code == 1 and "too-few-cards" in refused.stderr


def test_a_bad_count_line_is_quoted_once(run: Run, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Elder\n0 Pixie Dewdancer\n")
    result = run("deck", "check", str(deck), "-o", "json")
    assert result.exit_code == 1
    (bad,) = [p for p in json.loads(result.stdout)["problems"] if p["code"] == "bad-line"]
    assert bad["message"] == "line 2 '0 Pixie Dewdancer': the count must be 1 to 9999, not 0"


@pytest.mark.parametrize("header", ["Sideboard", "SB", "Side deck", "Sideboard (2)"])
def test_a_bare_section_word_starts_a_section_in_a_text_list(header: str) -> None:
    """As a sheet's row holding only "Sideboard" does (and as Arena writes its lists), a text
    line of a section's name alone starts it; it was read as a card named 'Sideboard'."""
    deck = parse_deck_text(f"Deck\n3 Chugawug Cook\n{header}\n2 Dirty Trick\n", "deck.txt")
    assert deck.problems == []
    assert [(line.section, line.copies, line.card) for line in deck.lines] == [
        ("main", 3, "Chugawug Cook"),
        ("side", 2, "Dirty Trick"),
    ]


def test_a_deck_code_saves_the_same_deck(both_games: Path, tmp_path: Path) -> None:
    """`deck code` on a file and on its saved deck: one code, and `deck import` of it saves
    a deck whose list, checked, is the original's."""
    path = copy_database(both_games, tmp_path / "code.db")
    deck = tmp_path / "deck.txt"
    deck.write_text(BASE + "\n1 Ninja Blade Adept\n")
    run = Run(path)
    from_file = run("deck", "code", str(deck))
    assert from_file.exit_code == 0, from_file.output
    code = from_file.stdout.strip()
    assert code.startswith("CB1") and len(code) < 200
    assert run("deck", "save", str(deck), "--name", "Stew").exit_code == 0
    assert run("deck", "code", "Stew").stdout.strip() == code
    imported = run("deck", "import", code, "--name", "From Ada")
    assert imported.stdout.strip() == "Saved 'From Ada': 40 cards, Free Realms Constructed"
    shown = [sorted(run("deck", "show", name, "-o", "csv").stdout.splitlines()) for name in
             ("From Ada", "Stew")]  # fmt: skip
    assert shown[0] == shown[1]  # the same cards and counts, in the code's order
    wh = tmp_path / "wh.txt"
    wh.write_text(wildhearts())
    wh_code = run("deck", "code", str(wh), "--format", "wildhearts-ffa").stdout.strip()
    assert "Wildhearts Free-For-All" in run("deck", "import", wh_code, "-n", "Pack").stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["import", "ydke://AAAA", "-n", "X"], "not a cardbase deck code"),
        (["import", "CB1AAEAAQMBAQAOAQEB", "-n", "X"], "damaged or cut short"),
        (["import", "CB1AAEAAQMBAQAOAQEBAQEBAQEBAQEBAQGxJw", "-n", "X", "-f", "wildhearts-ffa"],
         "the code holds a free-realms deck; the format wildhearts-ffa is wildhearts's"),
        (["code", "No Such Deck"], "No Such Deck"),
    ],
)  # fmt: skip
def test_bad_deck_codes_change_nothing(
    both_games: Path, tmp_path: Path, args: list[str], said: str
) -> None:
    path = copy_database(both_games, tmp_path / "bad.db")
    result = Run(path)("deck", *args)
    assert result.exit_code == 2 and said in result.stderr and "\n" not in result.stderr.strip()
    assert "X" not in Run(path)("deck", "list").stdout


def test_deck_odds_by_query_hand_and_turn(both_games: Path, tmp_path: Path) -> None:
    """Three Mistfen Bogs in 40 cards: 1 - C(37,6)/C(40,6) in the opening hand of six; by
    turn 3 going first, ten cards seen."""
    from fractions import Fraction
    from math import comb

    deck = tmp_path / "deck.txt"
    deck.write_text(BASE + "\n1 Ninja Blade Adept\n")
    run = Run(copy_database(both_games, tmp_path / "odds.db"))
    said = json.loads(run("deck", "odds", str(deck), "!Mistfen Bog", "-o", "json").stdout)
    assert said["exact"] == str(1 - Fraction(comb(37, 6), comb(40, 6)))
    assert (said["cards"], said["draws"], said["groups"][0]["copies"]) == (40, 6, 3)
    by_turn = json.loads(run("deck", "odds", str(deck), "!Mistfen Bog", "--by-turn", "3",
                             "--at-least", "2", "-o", "json").stdout)  # fmt: skip
    assert by_turn["draws"] == 10
    assert run("deck", "odds", str(deck), "!Mistfen Bog").stdout.strip() == (
        '39.4% to draw 1+ of !"Mistfen Bog" (3 in the deck) in 6 cards of 40'
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["!Mistfen Bog", "--at-least", "4"], '4 of !"Mistfen Bog" wanted, but the deck has 3'),
        (["!Mistfen Bog", "--cards", "41"], "41 draws from a deck of 40"),
        (["t:resource", "!Mistfen Bog"], "both match a card of the deck"),
        (["cost>"], "expected a value"),
    ],
)
def test_deck_odds_that_cannot_be_reckoned(
    both_games: Path, tmp_path: Path, args: list[str], said: str
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(BASE + "\n1 Ninja Blade Adept\n")
    result = Run(both_games)("deck", "odds", str(deck), *args)
    assert result.exit_code == 2 and said in result.stderr, result.output


def test_a_sample_hand_is_dealt_again_from_its_seed(both_games: Path, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(BASE + "\n1 Ninja Blade Adept\n")
    run = Run(both_games)
    first = json.loads(run("deck", "hand", str(deck), "-o", "json").stdout)
    assert len(first["cards"]) == 6  # Free Realms' opening hand
    again = json.loads(
        run("deck", "hand", str(deck), "--seed", str(first["seed"]), "-o", "json").stdout
    )
    assert again == first
    shown = run("deck", "hand", str(deck), "--seed", "3").stdout.splitlines()
    assert shown[0] == "deck.txt, seed 3:" and len(shown) == 7
    too_many = run("deck", "hand", str(deck), "--cards", "41")
    assert too_many.exit_code == 2 and "a hand of 41 from a deck of 40" in too_many.stderr


def test_deck_diff_says_what_changed_per_section(both_games: Path, tmp_path: Path) -> None:
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text(BASE + "\n1 Ninja Blade Adept\n")
    new.write_text(
        BASE.replace("3 Mistfen Bog", "2 Mistfen Bog") + "\n2 Temple Bell\nSide:\n1 Overclock\n"
    )
    run = Run(both_games)
    said = run("deck", "diff", str(old), str(new)).stdout.splitlines()
    assert said[0] == "Main:"
    assert any(line.startswith("  3 -> 2 Mistfen Bog") for line in said)
    assert any(line.startswith("  -1 Ninja Blade Adept") for line in said)
    assert any(line.startswith("  +2 Temple Bell") for line in said)
    assert said[-2:] == ["Side:", said[-1]] and said[-1].startswith("  +1 Overclock")
    kinds = [
        c["kind"] for c in json.loads(run("deck", "diff", str(old), str(new), "-o", "json").stdout)
    ]
    assert sorted(kinds) == ["added", "added", "changed", "removed"]
    assert run("deck", "diff", str(old), str(old)).stdout == "The decks hold the same cards.\n"
