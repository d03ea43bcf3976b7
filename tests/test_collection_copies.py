"""`collection --copies` and the copy terms and options through the CLI, as a user types them."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from cardbase.query.copies import COPY_KEYS
from tests.helpers import MINI_CATALOGUE, Run, new_database

ME = [  # what `add` is given, in this order
    ["1 C 14 x2", "--condition", "nm", "--location", "Binder 1", "--tag", "trade"],
    ["1 C 14", "--condition", "Lightly Played", "--language", "French", "--note", "from Ann"],
    ["1 U 132 foil", "--tag", "signed", "--tag", "trade"],
    ["1 C 41 x3"],
]
COPIES = [  # ... and the holdings it makes, in the order --copies lists them
    {"code": "1 C 14", "name": "Chugawug Cook", "finish": "nonfoil", "condition": "NM",
     "language": "en", "location": "Binder 1", "tags": ["trade"], "copies": 2, "note": ""},
    {"code": "1 C 14", "name": "Chugawug Cook", "finish": "nonfoil", "condition": "LP",
     "language": "fr", "location": "", "tags": [], "copies": 1, "note": "from Ann"},
    {"code": "1 C 41", "name": "Robgoblin Scrapper", "finish": "nonfoil", "condition": "NM",
     "language": "en", "location": "", "tags": [], "copies": 3, "note": ""},
    {"code": "1 U 132", "name": "Ninja Blade Adept", "finish": "foil", "condition": "NM",
     "language": "en", "location": "", "tags": ["signed", "trade"], "copies": 1, "note": ""},
]  # fmt: skip
for _copy in COPIES:  # the card's name in the copy's language: the mini catalogue has no others
    _copy["local_name"] = _copy["name"]


def _copies(db_path: Path) -> None:
    run = Run(db_path)
    for args in ME:
        assert run("add", *args).exit_code == 0
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(
            "INSERT INTO collector (name, name_key, is_default, created_at) "
            "VALUES ('Ann', 'ann', 0, 'now')"
        )
    for args in (["1 C 1", "--tag", "trade"], ["1 C 14 x5", "--condition", "hp"]):
        assert run("add", *args, "--collector", "ann").exit_code == 0


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """The default collector's copies above, and Ann's: a trade copy of 1 C 1, and 1 C 14
    (a copy of a template `_copies` made once a session)."""
    return Run(new_database(tmp_path / "mini.db", MINI_CATALOGUE, build=_copies))


def shown(run: Run, *args: str) -> list[dict]:
    """The copies `-o json` lists, without the game each says (all Free Realms' here)."""
    result = run(*args, "-o", "json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert all(copy.pop("game") == "free-realms" for copy in found)
    return found


def test_copies_are_one_row_per_holding(run: Run) -> None:
    assert shown(run, "collection", "--copies") == COPIES
    assert [copy["code"] for copy in shown(run, "collection", "--copies", "order:-name")] == [
        "1 C 41", "1 U 132", "1 C 14", "1 C 14",
    ]  # fmt: skip


def test_copies_as_csv_and_as_a_table(run: Run) -> None:
    rows = list(csv.reader(io.StringIO(run("collection", "--copies", "-o", "csv").stdout)))
    assert tuple(rows[0]) == COPY_KEYS
    assert rows[1:] == [
        [str(c[key]) if key != "tags" else ", ".join(c[key]) for key in COPY_KEYS] for c in COPIES
    ]
    table = run("collection", "--copies").stdout.splitlines()
    assert table[0].split() == [
        "Code", "Name", "Finish", "Condition", "Language", "Location", "Tags", "Copies", "Note",
    ]  # fmt: skip
    assert table[2].split() == ["1", "C", "14", "Chugawug", "Cook", "non-foil", "LP", "fr", "1",
                                "from", "Ann"]  # fmt: skip
    assert table[4].split()[-3:] == ["signed,", "trade", "1"]
    assert table[-1] == "7 cards (6 non-foil, 1 foil), 3 distinct, in 4 holdings"


def test_with_copies_the_terms_and_options_pick_copies(run: Run) -> None:
    trade = [COPIES[0], COPIES[3]]
    assert shown(run, "collection", "--copies", "tag:trade") == trade
    assert shown(run, "collection", "--copies", "--tag", "TRADE") == trade
    assert shown(run, "collection", "--copies", "-tag:trade") == [COPIES[1], COPIES[2]]
    assert shown(run, "collection", "--copies", "1C14", "cond>=nm") == [COPIES[0]]
    assert shown(run, "collection", "--copies", "--language", "fr") == [COPIES[1]]
    assert shown(run, "collection", "--copies", 'in:"binder 1"', "--condition", "lp") == []
    assert run("collection", "--copies", "--count", "-in:none").stdout == "1\n"
    assert shown(run, "collection", "--copies", "--limit", "1", "--sort", "name") == [COPIES[0]]


def test_without_copies_collection_is_one_row_per_card_with_its_totals(run: Run) -> None:
    """A copy term picks the cards; each row still counts every copy of its card."""
    cards = shown(run, "collection", "tag:trade")
    assert [(c["code"], c["nonfoil"], c["foil"]) for c in cards] == [
        ("1 C 14", 3, 0), ("1 U 132", 0, 1),
    ]  # fmt: skip
    assert [c["code"] for c in shown(run, "collection")] == ["1 C 14", "1 C 41", "1 U 132"]
    assert [c["code"] for c in shown(run, "collection", "-tag:trade")] == ["1 C 41"]
    assert run("collection", "cond:lp").stdout.splitlines()[-1] == (
        "3 cards (3 non-foil, 0 foil), 1 distinct"
    )
    assert [c["code"] for c in shown(run, "search", "-cond:nm", "--sphere", "nature")][:2] == [
        "1 C 1", "1 U 15",
    ]  # fmt: skip


def test_terms_see_only_the_current_collectors_copies(run: Run) -> None:
    assert [c["code"] for c in shown(run, "search", "tag:trade")] == ["1 C 14", "1 U 132"]
    ann = shown(run, "search", "tag:trade", "--collector", "ann")
    assert [c["code"] for c in ann] == ["1 C 1"]
    assert shown(run, "search", "cond:hp") == []
    assert [c["code"] for c in shown(run, "collection", "cond:hp", "--collector", "Ann")] == [
        "1 C 14"
    ]
    copies = shown(run, "collection", "--copies", "--collector", "ann")
    assert [(c["code"], c["condition"], c["copies"]) for c in copies] == [
        ("1 C 1", "NM", 1), ("1 C 14", "HP", 5),
    ]  # fmt: skip


def test_no_copies_that_match(run: Run) -> None:
    result = run("collection", "--copies", "tag:nothing")
    assert result.exit_code == 0
    assert result.stderr == "You own no copies that match.\n"
    assert result.stdout == "0 cards (0 non-foil, 0 foil), 0 distinct, in 0 holdings\n"
    assert shown(run, "collection", "--copies", "tag:nothing") == []


def test_explain_shows_the_copies_statement(run: Run) -> None:
    explained = run("collection", "--copies", "tag:trade", "--explain").stdout
    assert "JOIN my_holding AS h ON h.card_id = c.id" in explained
    assert "EXISTS" not in explained
    assert "EXISTS (SELECT 1 FROM my_holding" in run("collection", "tag:trade", "--explain").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["search", "cond:xx"], "cardbase: unknown condition 'xx': use one of M, NM, LP, MP"),
        (["collection", "lang:frenc"], "did you mean French (fr)?"),
        (["collection", "--condition", "nearmnt"], "did you mean NM?"),
        (["search", "--language", "klingon"], "cardbase: --language klingon: unknown language"),
        (["collection", "--copies", "tag:"], "expected a value after 'tag:'"),
        (["search", "--copies"], "No such option: --copies"),
        (["missing", "--tag", "trade"], "No such option: --tag"),
    ],
)
def test_bad_input_is_refused_on_one_line(
    run: Run, checksum, args: list[str], message: str
) -> None:
    before = checksum(run.db_path)
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr
    if args[1].startswith("--") and args[1] != "--copies" and args[0] != "missing":
        assert len(result.stderr.splitlines()) == 1  # an option's value has no caret to show
    assert checksum(run.db_path) == before


@pytest.mark.parametrize(
    "args",
    [
        ["collection", "--copies", "cond:lp.."],
        ["collection", "--copies", "cond:..lp"],
        ["search", "cond:nm..m"],
        ["search", "cond>=lp.."],
        ["collection", "--condition", "lp.."],
    ],
)
def test_a_condition_range_is_refused_not_read_as_one_condition(run: Run, args: list[str]) -> None:
    run("add", "1 C 14 lp", "1 U 15 mp")
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "not a range" in result.stderr and "cond>=" in result.stderr


@pytest.mark.parametrize(
    ("note", "refused"),
    [
        ("a\x07b", "has control characters"),
        ("x" * 1_001, "is 1,001 characters; at most 1,000"),
        ("two\nlines\tand a tab", None),
    ],
)
def test_a_note_is_text_of_a_readable_size(run: Run, note: str, refused: str | None) -> None:
    before = run("collection", "--copies", "-o", "csv").stdout
    result = run("add", "1 C 14", "--note", note)
    if refused is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 2
    assert refused in result.stderr and len(result.stderr.splitlines()) == 1
    assert run("collection", "--copies", "-o", "csv").stdout == before


@pytest.mark.parametrize(
    ("args", "finishes"),
    [
        (["is:foil"], ["foil"]),
        (["--nonfoil"], ["nonfoil"]),
        (["--", "-is:foil"], ["nonfoil"]),
        (["is:owned"], ["nonfoil", "foil"]),
    ],
)
def test_finish_flags_pick_the_copies_of_that_finish(
    run: Run, args: list[str], finishes: list[str]
) -> None:
    """Of a card, is:foil asks for a foil copy; of copies, it picks the foil ones."""
    run("add", "2 C 101 x2", "2 C 101 foil")
    listed = run("collection", "--copies", "-o", "csv", *args).stdout.splitlines()[1:]
    assert sorted(line.split(",")[2] for line in listed if "2 C 101" in line) == sorted(finishes)
