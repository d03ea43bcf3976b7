"""Trade lists: haves, wants, export in the import's conventions, matching another list, and
trades between collectors of one database."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from cardbase.catalog.cards import name_key
from cardbase.collection.attributes import CONDITION_NAMES, parse_condition
from cardbase.collection.collectors import find_collector
from cardbase.decks.check import get_format, place
from cardbase.decks.lists import parse_deck_text
from cardbase.decks.saved import save_deck
from cardbase.fields import DEFAULT_FORMAT
from cardbase.library import Library
from cardbase.trades import Offer, deck_usage, haves, lobby, match_with, wants
from tests.helpers import MINI_CATALOGUE, Run, new_database


def _trader(db_path: Path) -> None:
    run = Run(db_path)
    assert (
        run(
            "add", "Chugawug Elder x5", "Robgoblin Scrapper x4 foil", "Old Mossbeard", "1 U 132"
        ).exit_code
        == 0
    )
    deck = db_path.parent / "deck.txt"
    deck.write_text("3 Ninja Blade Adept\n3 Chugawug Elder\n2 Undead Drummer\n")
    assert run("deck", "save", str(deck), "--name", "Fast").exit_code == 0


@pytest.fixture
def trader(tmp_path: Path) -> Run:
    """The mini catalogue with my copies and my deck Fast (a copy of a template `_trader`
    made once a session)."""
    return Run(new_database(tmp_path / "mini.db", MINI_CATALOGUE, build=_trader))


def items(listing: list[dict]) -> set[tuple[str, str, int]]:
    return {(item["code"], item["finish"], item["copies"]) for item in listing}


def test_haves_beyond_a_playset_and_wants_for_decks(trader: Run) -> None:
    data = json.loads(trader("trade", "list", "-o", "json").stdout)
    assert items(data["offered"]) == {("1 U 15", "nonfoil", 2), ("1 C 41", "foil", 1)}
    assert items(data["wanted"]) == {("1 U 132", "nonfoil", 2), ("1 U 42", "nonfoil", 2)}


def test_keep_decks_and_complete_series(trader: Run) -> None:
    data = json.loads(
        trader("trade", "list", "--keep-decks", "--complete-series", "2", "-o", "json").stdout
    )
    assert items(data["offered"]) == {
        ("1 U 15", "nonfoil", 2),
        ("1 C 41", "foil", 4),
        ("1 E 162", "nonfoil", 1),
    }
    assert ("2 C 101", "nonfoil", 1) in items(data["wanted"])
    assert ("2 U 102", "nonfoil", 1) in items(data["wanted"])


def test_export_reads_back_as_their_list(trader: Run, tmp_path: Path) -> None:
    path = tmp_path / "mine.xlsx"
    assert trader("trade", "export", str(path)).exit_code == 0
    book = load_workbook(path)
    assert book.sheetnames == ["Offered", "Wanted"]
    assert [c.value for c in book["Offered"][1]] == ["Code", "Name", "Finish", "Qty"]
    csv_path = tmp_path / "mine.csv"
    assert trader("trade", "export", str(csv_path)).exit_code == 0
    assert csv_path.read_text().splitlines()[0] == "List,Code,Name,Finish,Qty"


def test_export_counts_what_list_counts(trader: Run, tmp_path: Path) -> None:
    """`trade export` said lines ("3 offered") where `trade list` says cards ("7 cards")."""
    shown = trader("trade", "list").stdout
    offered, wanted = (
        line.split(": ")[1]
        for line in shown.splitlines()
        if line.startswith(("Offered:", "Wanted:"))
    )
    path = tmp_path / "mine.csv"
    exported = trader("trade", "export", str(path))
    assert exported.stdout == f"{path}: {offered} offered, {wanted} wanted\n"
    assert offered.endswith(" cards") and wanted.endswith((" card", " cards"))


def their_workbook(path: Path) -> Path:
    book = Workbook()
    offered = book.active
    offered.title = "Offered"
    for row in (
        ["Trade list of Bo"],
        [],
        ["Card Name", "Quantity", "Printing"],
        ["Ninja Blade Adept", 2, "normal"],
        ["Temple Bell", 1, ""],
    ):
        offered.append(row)
    wanted = book.create_sheet("Wanted")
    for row in (
        ["Card", "Qty", "Foil?"],
        ["Chugawug Elder", 1, "no"],
        ["Robgoblin Scrapper", 1, "yes"],
        ["Perfect Block", 1, "no"],
        ["Chugawug Eldr", 1, "no"],
    ):
        wanted.append(row)
    book.save(path)
    return path


def test_match_their_lists(trader: Run, tmp_path: Path) -> None:
    result = trader("trade", "match", str(their_workbook(tmp_path / "bo.xlsx")), "-o", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert items(data["they_offer_i_want"]) == {("1 U 132", "nonfoil", 2)}
    assert items(data["they_want_i_can_spare"]) == {("1 U 15", "nonfoil", 1), ("1 C 41", "foil", 1)}
    proposal = data["proposal"]
    assert (proposal["get_cards"], proposal["give_cards"]) == (2, 2)
    assert abs(proposal["get_value"] - proposal["give_value"]) <= 1
    assert any("Chugawug Eldr" in problem for problem in data["problems"]), data["problems"]
    text = trader("trade", "match", str(tmp_path / "bo.xlsx")).stdout
    assert "They offer, you want: 2 cards" in text
    assert "Proposal: get 2 cards" in text


def test_match_a_csv_with_a_list_column(trader: Run, tmp_path: Path) -> None:
    path = tmp_path / "theirs.csv"
    path.write_text(
        "List,Name,Finish,Qty\nwant,Chugawug Elder,normal,2\nhave,Ninja Blade Adept,normal,1\n"
    )
    data = json.loads(trader("trade", "match", str(path), "-o", "json").stdout)
    assert items(data["they_offer_i_want"]) == {("1 U 132", "nonfoil", 1)}
    assert items(data["they_want_i_can_spare"]) == {("1 U 15", "nonfoil", 2)}


def test_match_needs_lists(trader: Run, tmp_path: Path) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("Name,Qty\nChugawug Elder,1\n")
    result = trader("trade", "match", str(path))
    assert result.exit_code == 2
    assert "no Offered and Wanted lists" in result.stderr


# Trades with holdings, and between collectors of one database.


def add_collector(db_path: Path, name: str) -> None:
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(
            "INSERT INTO collector (name, name_key, is_default, created_at) "
            "VALUES (?, ?, 0, '2025-01-01T00:00:00+00:00')",
            (name, name_key(name)),
        )


def save_deck_of(db_path: Path, collector: str, name: str, text: str) -> None:
    """A saved deck of one collector, through the library (the deck commands are not ours)."""
    fmt = get_format(DEFAULT_FORMAT)
    conn = Library(db_path).connect()
    try:
        placed, problems = place(conn, parse_deck_text(text, name), fmt.game)
    finally:
        conn.close()
    assert not problems
    save_deck(Library(db_path, collector), name, fmt.key, placed)


def detailed(listing: list[dict]) -> set[tuple[str, str, int, str, str]]:
    return {
        (item["code"], item["finish"], item["copies"], item["condition"], item["language"])
        for item in listing
    }


def _traders(db_path: Path) -> None:
    _trader(db_path)
    run = Run(db_path)
    assert run("add", "1 U 15 x2", "--condition", "lp", "--tag", "trade",
               "--location", "Binder 1").exit_code == 0  # fmt: skip
    for name in ("Bo", "Cy", "Di"):
        add_collector(run.db_path, name)
    assert run("add", "Ninja Blade Adept x6", "--tag", "trade", "--collector", "bo").exit_code == 0
    assert run("add", "Chugawug Elder", "--collector", "Bo").exit_code == 0
    save_deck_of(run.db_path, "Bo", "Bog", "4 Chugawug Elder\n3 Old Mossbeard\n")
    assert run("add", "Undead Drummer x5", "--collector", "Cy").exit_code == 0


@pytest.fixture
def traders(tmp_path: Path) -> Run:
    """me (the trader above, plus 2 LP Elders tagged trade in Binder 1), Bo and Cy (a copy
    of a template `_traders` made once a session)."""
    return Run(new_database(tmp_path / "mini.db", MINI_CATALOGUE, build=_traders))


def test_list_without_filters_is_per_card_and_finish(traders: Run) -> None:
    data = json.loads(traders("trade", "list", "-o", "json").stdout)
    # 5 NM and 2 LP Elders, 3 kept: as before holdings, one row a card and finish.
    assert items(data["offered"]) == {("1 U 15", "nonfoil", 4), ("1 C 41", "foil", 1)}
    assert all("condition" not in item for item in data["offered"])
    # Bo's deck (Old Mossbeard) is not my want, nor does it keep my copies.
    assert items(data["wanted"]) == {("1 U 132", "nonfoil", 2), ("1 U 42", "nonfoil", 2)}
    kept = json.loads(traders("trade", "list", "--keep-decks", "-o", "json").stdout)
    assert items(kept["offered"]) == {("1 U 15", "nonfoil", 4), ("1 C 41", "foil", 4),
                                      ("1 E 162", "nonfoil", 1)}  # fmt: skip


@pytest.mark.parametrize(
    ("options", "offered"),
    [
        # The untagged NM copies are kept first, so both tagged ones are offered.
        (["--tag", "trade"], {("1 U 15", "nonfoil", 2, "LP", "en")}),
        (["--tag", "TRADE", "--location", "binder 1"], {("1 U 15", "nonfoil", 2, "LP", "en")}),
        (["--location", "Binder 1", "--min-condition", "nm"], set()),
        # The LP copies are kept first; four of the five NM ones are offered.
        (["--min-condition", "Near Mint"], {("1 U 15", "nonfoil", 4, "NM", "en"),
                                            ("1 C 41", "foil", 1, "NM", "en")}),
        (["--min-condition", "lp"], {("1 U 15", "nonfoil", 2, "NM", "en"),
                                     ("1 U 15", "nonfoil", 2, "LP", "en"),
                                     ("1 C 41", "foil", 1, "NM", "en")}),
        (["--min-condition", "m", "--playset", "0"], set()),
        (["--tag", "trade", "--playset", "0", "--keep-decks"],
         {("1 U 15", "nonfoil", 2, "LP", "en")}),
    ],
)  # fmt: skip
def test_list_offers_only_the_copies_chosen(
    traders: Run, options: list[str], offered: set[tuple[str, str, int, str, str]]
) -> None:
    result = traders("trade", "list", *options, "-o", "json")
    assert result.exit_code == 0, result.output
    assert detailed(json.loads(result.stdout)["offered"]) == offered


def test_list_filters_show_condition_and_language(traders: Run, tmp_path: Path) -> None:
    text = traders("trade", "list", "--tag", "trade").stdout
    assert "Condition  Language" in text.splitlines()[1]
    csv_rows = traders("trade", "list", "--tag", "trade", "-o", "csv").stdout.splitlines()
    assert csv_rows[:2] == ["list,code,name,finish,qty,condition,language",
                            "offered,1 U 15,Chugawug Elder,nonfoil,2,LP,en"]  # fmt: skip
    assert csv_rows[2].endswith(",,")  # a want is no particular copy
    # The exported list, with its extra columns, is a list `trade match FILE` reads.
    path = tmp_path / "mine.csv"
    assert traders("trade", "export", str(path), "--tag", "trade").exit_code == 0
    assert path.read_text().splitlines()[0] == "List,Code,Name,Finish,Qty,Condition,Language"
    book = tmp_path / "mine.xlsx"
    assert traders("trade", "export", str(book), "--tag", "trade").exit_code == 0
    header = [c.value for c in load_workbook(book)["Offered"][1]]
    assert header == ["Code", "Name", "Finish", "Qty", "Condition", "Language"]
    for their_list in (path, book):
        result = traders("trade", "match", str(their_list), "--collector", "Bo", "-o", "json")
        data = json.loads(result.stdout)
        assert data["problems"] == []
        assert items(data["they_offer_i_want"]) == {("1 U 15", "nonfoil", 2)}
        assert items(data["they_want_i_can_spare"]) == {("1 U 132", "nonfoil", 2)}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--tag", "trdae"], "none of your copies is tagged 'trdae'; did you mean 'trade'?"),
        (["--location", "Bindr 1"], "in location 'Bindr 1'; did you mean 'Binder 1'?"),
        (["--min-condition", "good-ish"], "unknown condition 'good-ish'"),
        (["--collector", "Bob"], "no collector named 'Bob' in this database; did you mean 'Bo'?"),
    ],
)
def test_list_bad_options_are_one_line(traders: Run, options: list[str], message: str) -> None:
    result = traders("trade", "list", *options)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_collector_without_copies_in_a_place_is_told_so(traders: Run) -> None:
    result = traders("trade", "list", "--location", "Box", "--collector", "Cy")
    assert result.exit_code == 2
    assert "none of your copies has a location" in result.stderr


def test_match_with_a_collector_both_directions(traders: Run) -> None:
    result = traders("trade", "match", "--with", "bo", "-o", "json")
    assert result.exit_code == 0, result.output
    mine = json.loads(result.stdout)
    assert mine["with"] == "Bo"
    assert items(mine["they_offer_i_want"]) == {("1 U 132", "nonfoil", 2)}
    assert items(mine["they_want_i_can_spare"]) == {("1 U 15", "nonfoil", 3)}
    theirs = json.loads(traders("trade", "match", "--with", "me", "--collector", "Bo",
                                "-o", "json").stdout)  # fmt: skip
    assert theirs["they_offer_i_want"] == mine["they_want_i_can_spare"]
    assert theirs["they_want_i_can_spare"] == mine["they_offer_i_want"]
    proposal = mine["proposal"]
    assert (proposal["get_cards"], proposal["give_cards"]) == (2, 2)
    assert proposal["get_value"] == proposal["give_value"] == 4
    assert theirs["proposal"]["get"] == proposal["give"]
    text = traders("trade", "match", "--with", "Bo").stdout
    assert "Bo offers, you want: 2 cards" in text
    assert "Bo wants, you can spare: 3 cards" in text
    assert "  give 2 x Chugawug Elder (1 U 15) nonfoil" in text


def test_match_with_filters_trades_the_chosen_copies(traders: Run) -> None:
    text = traders("trade", "match", "--with", "Bo", "--tag", "trade").stdout
    assert "Bo wants, you can spare: 2 cards" in text
    assert "  give 2 x Chugawug Elder (1 U 15) nonfoil LP en" in text
    assert "  get  2 x Ninja Blade Adept (1 U 132) nonfoil NM en" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--with", "Boo"], "no collector named 'Boo' in this database; did you mean 'Bo'?"),
        (["--with", "ME"], "'ME' is you (me): a trade needs another collector"),
        (["--with", "Bo", "--collector", "bo"], "'Bo' is you (Bo)"),
        ([], "name either their list file or --with a collector of this database, not neither"),
        (["--with", "Bo", "theirs.csv"], "not both"),
    ],
)
def test_match_with_bad_names(traders: Run, args: list[str], message: str) -> None:
    result = traders("trade", "match", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_lobby_lists_who_has_something_to_trade(traders: Run) -> None:
    result = traders("trade", "lobby", "-o", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["collector"], data["others"]) == ("me", 3)
    rows = [tuple(entry.values()) for entry in data["lobby"]]
    # Bo has a trade to propose; Cy only offers (Undead Drummers I want); Di has nothing.
    assert rows == [("Bo", 2, 3, 2, 2, 4, 4), ("Cy", 2, 0, 0, 0, 0, 0)]
    text = traders("trade", "lobby").stdout.splitlines()
    assert text[0] == "2 of 3 other collectors have something to trade with me"
    assert text[1].split() == ["Collector", "They", "offer", "You", "offer", "Get", "Give",
                               "Get", "value", "Give", "value"]  # fmt: skip
    assert text[2].split() == ["Bo", "2", "3", "2", "2", "4", "4"]
    csv_rows = traders("trade", "lobby", "-o", "csv").stdout.splitlines()
    assert csv_rows[0].startswith("collector,they_offer_i_want,they_want_i_can_spare,")
    assert csv_rows[1:] == ["Bo,2,3,2,2,4,4", "Cy,2,0,0,0,0,0"]
    bo = json.loads(traders("trade", "lobby", "--collector", "Bo", "-o", "json").stdout)
    assert [tuple(entry.values()) for entry in bo["lobby"]] == [("me", 3, 2, 2, 2, 4, 4)]


def test_lobby_with_one_collector_says_so(run: Run) -> None:
    result = run("trade", "lobby")
    assert result.exit_code == 0
    assert "me is the only collector in this database" in result.stdout
    data = json.loads(run("trade", "lobby", "-o", "json").stdout)
    assert data == {"collector": "me", "others": 0, "lobby": []}
    result = run("trade", "lobby", "--collector", "nobody")
    assert result.exit_code == 2
    assert result.stderr.startswith("cardbase: no collector named 'nobody'")


def test_library_lists_of_any_collector(traders: Run) -> None:
    conn = Library(traders.db_path, "Cy").connect()
    try:
        bo = find_collector(conn, "bo").id
        assert deck_usage(conn) == {}
        assert deck_usage(conn, bo) == {"chugawugelder": 4, "oldmossbeard": 3}
        assert [(str(i.card.code), i.copies) for i in wants(conn, collector_id=bo)] == [
            ("1 E 162", 3), ("1 U 15", 3)]  # fmt: skip
        offered = haves(conn, offer=Offer(tags="trade"), collector_id=bo)
        assert [(str(i.card.code), i.copies, i.condition) for i in offered] == [
            ("1 U 132", 3, "NM")]  # fmt: skip
        other, found = match_with(conn, "Bo")
        assert other == "Bo"
        assert found.they_want_i_spare == []
        assert [entry.collector for entry in lobby(conn).entries] == ["me"]
    finally:
        conn.close()


def test_every_condition_code_and_name_parses() -> None:
    """'m' is Mint: parsing it once recursed looking for a did-you-mean."""
    for code, name in CONDITION_NAMES.items():
        assert parse_condition(code) == parse_condition(code.lower()) == code
        assert parse_condition(name) == code


def test_a_rare_on_offer_does_not_hide_an_even_swap(run: Run) -> None:
    """They want a rare and two commons of mine, I want a common of theirs: the proposal is
    a common for a common, not nothing."""
    assert run("collectors", "add", "Bo").exit_code == 0
    assert run("add", "1 C 1 x4", "1 C 14 x4", "1 R 20 x4").exit_code == 0  # one each to spare
    assert run("add", "1 C 21 x4", "--collector", "Bo").exit_code == 0
    result = run("trade", "match", "--with", "Bo", "--complete-series", "1", "-o", "json")
    assert result.exit_code == 0, result.output
    proposal = json.loads(result.stdout)["proposal"]
    assert [item["code"] for item in proposal["get"]] == ["1 C 21"]
    assert (proposal["get_value"], proposal["give_value"]) == (1, 1)


def test_a_trade_export_with_nothing_wanted_is_matched(run: Run, tmp_path: Path) -> None:
    """`trade export` writes an empty Wanted sheet for a collector who wants nothing; the
    match read it as a broken file."""
    run("collectors", "add", "Robert")
    run("add", "1 C 14 x5", "--collector", "Robert")
    lists = tmp_path / "robert.xlsx"
    assert "0 cards wanted" in run("trade", "export", str(lists), "--collector", "Robert").stdout
    matched = run("trade", "match", str(lists))
    assert matched.exit_code == 0, matched.output
