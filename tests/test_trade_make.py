"""Trades carried out between two collectors of one database (`Library.trade`, `trade make`):
copies change hands with their attributes, both collections in one transaction, a batch in
each side's history that either side's undo reverts whole; on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardbase.collection import pairs
from cardbase.db.location import PostgresUrl
from cardbase.errors import CardbaseError
from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE, Run, assert_one_line, new_database

Holdings = set[tuple[str, str, str, str, str, str, str, int]]


def _two_collectors(location: Path | str) -> None:
    """Me and Bo: my Cooks in three holdings, Bo's foil French Bogs in a box."""
    run = Run(location)  # type: ignore[arg-type]
    for args in (
        ("collectors", "add", "Bo"),
        ("add", "1 C 14 x3", "--condition", "lp", "--location", "Binder 1"),
        ("add", "1 C 14 x1", "--tag", "trade"),
        ("add", "1 C 14 x2 mp"),
        ("--collector", "Bo", "add", "1 R 20 x2 foil fr", "--location", "Box", "--note", "mine"),
        ("--collector", "Bo", "add", "1 C 1 x2"),
    ):
        result = run(*args)
        assert result.exit_code == 0, (args, result.output)


@pytest.fixture(params=["sqlite", "postgres"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path | PostgresUrl]:
    if request.param == "sqlite":
        yield new_database(tmp_path / "trade.db", MINI_CATALOGUE, build=_two_collectors)
        return
    url: PostgresUrl = request.getfixturevalue("pg_mini")
    _two_collectors(url.url)
    yield url


@pytest.fixture
def sqlite_location(tmp_path: Path) -> Path:
    return new_database(tmp_path / "trade.db", MINI_CATALOGUE, build=_two_collectors)


def holdings(location: Path | PostgresUrl) -> Holdings:
    """Every collector's holdings: whose, card, finish, condition, language, location, tags,
    copies."""
    with Library(location).reading() as conn:
        rows = conn.execute(
            "SELECT c.name, k.series, k.rarity, k.number, h.finish, h.condition, h.language, "
            "h.location, h.tags, h.copies FROM holding AS h "
            "JOIN collector AS c ON c.id = h.collector_id JOIN card AS k ON k.id = h.card_id"
        ).fetchall()
    return {
        (name, f"{series} {rarity} {number}", *rest) for name, series, rarity, number, *rest in rows
    }  # type: ignore[misc]


def batches(location: Path | PostgresUrl) -> list[tuple[str, str, int]]:
    with Library(location).reading() as conn:
        rows = conn.execute(
            "SELECT c.name, b.source, b.undone FROM batch AS b "
            "JOIN collector AS c ON c.id = b.collector_id ORDER BY b.id"
        ).fetchall()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def test_copies_change_hands_with_their_attributes(location: Path | PostgresUrl) -> None:
    before = holdings(location)
    trade = Library(location).trade("Bo", ["1 C 14 x2"], ["1 R 20 foil"])
    after = holdings(location)
    # I gave my Cook tagged trade first, then the worst condition (MP); Bo's Bog arrives
    # foil and French, in no location and without Bo's note.
    assert before - after == {
        ("me", "1 C 14", "nonfoil", "NM", "en", "", "trade", 1),
        ("me", "1 C 14", "nonfoil", "MP", "en", "", "", 2),
        ("Bo", "1 R 20", "foil", "NM", "fr", "Box", "", 2),
    }
    assert after - before == {
        ("me", "1 C 14", "nonfoil", "MP", "en", "", "", 1),
        ("me", "1 R 20", "foil", "NM", "fr", "", "", 1),
        ("Bo", "1 C 14", "nonfoil", "NM", "en", "", "", 1),
        ("Bo", "1 C 14", "nonfoil", "MP", "en", "", "", 1),
        ("Bo", "1 R 20", "foil", "NM", "fr", "Box", "", 1),
    }
    assert [m.describe() for m in trade.give] == [
        "1 x Chugawug Cook (1 C 14) non-foil #trade",
        "1 x Chugawug Cook (1 C 14) non-foil MP",
    ]
    assert [m.describe() for m in trade.get] == ["1 x Mistfen Bog (1 R 20) foil fr in Box"]
    assert trade.summary() == {"give_cards": 2, "get_cards": 1, "give_value": 2, "get_value": 3}


def test_a_dry_run_says_what_it_would_take_and_writes_nothing(sqlite_location: Path) -> None:
    before, history = holdings(sqlite_location), batches(sqlite_location)
    trade = Library(sqlite_location).trade("bo", ["1 C 14 x1 lp"], dry_run=True)
    assert trade.batch is None and trade.other == "Bo"
    assert [m.describe() for m in trade.give] == [
        "1 x Chugawug Cook (1 C 14) non-foil LP in Binder 1"
    ]
    assert (holdings(sqlite_location), batches(sqlite_location)) == (before, history)


def test_each_side_sees_the_trade_in_its_history(location: Path | PostgresUrl) -> None:
    trade = Library(location).trade("Bo", ["1 C 14 x2"], ["1 R 20 foil"])
    mine = Library(location).history(1)[0]
    theirs = Library(location, "Bo").history(1)[0]
    assert (mine.id, theirs.id) == (trade.batch, trade.their_batch)
    assert mine.source == f"trade with Bo: gave 2, got 1 (their batch {theirs.id})"
    assert theirs.source == f"trade with me: gave 1, got 2 (their batch {mine.id})"
    assert sorted(c.delta for c in theirs.changes) == [-1, 1, 1]


@pytest.mark.parametrize("side", ["me", "Bo"])
def test_undo_by_either_side_reverts_both_and_redo_makes_it_again(
    location: Path | PostgresUrl, side: str
) -> None:
    before = holdings(location)
    Library(location).trade("Bo", ["1 C 14 x2"], ["1 R 20 foil"])
    traded = holdings(location)
    undone = Library(location, side).undo()
    assert undone is not None and undone.source.startswith("trade with ")
    assert holdings(location) == before
    assert [state for _, _, state in batches(location)][-2:] == [1, 1]
    assert Library(location, "Bo" if side == "me" else "me").undo() is not None  # an add
    Library(location, "Bo" if side == "me" else "me").redo()
    redone = Library(location, side).redo()
    assert redone is not None and holdings(location) == traded


def test_undo_is_refused_when_the_other_side_no_longer_has_the_copies(
    location: Path | PostgresUrl,
) -> None:
    Library(location).trade("Bo", ["1 C 14 x1 lp"], ["1 R 20 foil"])
    Library(location, "Bo").remove(["1 C 14 lp"])  # Bo sold the Cook I gave
    before, history = holdings(location), batches(location)
    with pytest.raises(CardbaseError) as refused:
        Library(location).undo()
    assert refused.value.said() == (
        "cannot undo the trade with Bo: Bo's collection has changed since (Bo has 0 Chugawug "
        "Cook (1 C 14) non-foil LP, the undo would take 1); nothing was changed. Trade what is "
        "still there with: cardbase trade make Bo"
    )
    assert "cardbase" not in refused.value.said("web")
    assert (holdings(location), batches(location)) == (before, history)


def test_redo_is_refused_once_the_other_side_has_changed_since(
    location: Path | PostgresUrl,
) -> None:
    Library(location).trade("Bo", ["1 C 14 x1"], ["1 C 1"])
    Library(location).undo()
    Library(location, "Bo").add(["1 U 15"])  # Bo's new change: their redo is gone
    before = holdings(location)
    with pytest.raises(CardbaseError, match="cannot redo the trade with Bo: Bo has changed"):
        Library(location).redo()
    assert holdings(location) == before


def test_a_failure_midway_leaves_both_collections_as_they_were(
    sqlite_location: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.collection import store
    from cardbase.trades import exchange

    before, history = holdings(sqlite_location), batches(sqlite_location)
    calls: list[int] = []

    def fail_on_their_side(*args: object, **kwargs: object) -> int:
        calls.append(1)
        if len(calls) == 2:  # my side is written; Bo's fails
            raise OSError("disk full")
        return store.write_changes(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(exchange, "write_changes", fail_on_their_side)
    with pytest.raises(OSError):
        Library(sqlite_location).trade("Bo", ["1 C 14 x2"], ["1 R 20 foil"])
    assert len(calls) == 2
    assert (holdings(sqlite_location), batches(sqlite_location)) == (before, history)


@pytest.mark.parametrize(
    ("give", "get", "said"),
    [
        (["1 C 14 x9"], [], "you cannot give 9 non-foil Chugawug Cook (1 C 14): you have 1 "
         "non-foil #trade, 2 non-foil MP, 3 non-foil LP in Binder 1"),
        ([], ["1 R 20 x3 foil"], "Bo cannot give 3 foil Mistfen Bog (1 R 20): Bo has 2 foil fr "
         "in Box"),
        ([], ["1 U 15"], "Bo cannot give 1 non-foil Chugawug Elder (1 U 15): Bo has none"),
        (["1 C 14 x1 hp"], [], "you cannot give 1 non-foil HP Chugawug Cook (1 C 14)"),
    ],
)  # fmt: skip
def test_copies_a_side_does_not_hold_are_refused_and_nothing_changes(
    sqlite_location: Path, give: list[str], get: list[str], said: str
) -> None:
    before, history = holdings(sqlite_location), batches(sqlite_location)
    with pytest.raises(CardbaseError) as refused:
        Library(sqlite_location).trade("Bo", [*give, "1 C 14"], [*get, "1 C 1"])
    assert refused.value.said().startswith(said)
    assert refused.value.said().endswith("Nothing was changed.")
    assert "--collector" not in refused.value.said("web")
    assert (holdings(sqlite_location), batches(sqlite_location)) == (before, history)


@pytest.mark.parametrize(
    ("other", "give", "said"),
    [
        ("me", ["1 C 14"], "'me' is you (me): a trade needs another collector"),
        ("Boo", ["1 C 14"], "no collector named 'Boo' in this database; did you mean 'Bo'?"),
        ("Bo", [], "nothing to trade: name the cards you give, the cards you get, or both"),
        ("Bo", ["Chugawug Cok"], "give "),
    ],
)
def test_a_trade_that_cannot_be_is_one_line(
    sqlite_location: Path, other: str, give: list[str], said: str
) -> None:
    with pytest.raises(CardbaseError) as refused:
        Library(sqlite_location).trade(other, give)
    assert refused.value.said().startswith(said)


@pytest.mark.parametrize(
    ("source", "partner"),
    [
        ("trade with Bo: gave 2, got 1 (their batch 42)", 42),
        ("trade with Bo (their batch 7) again", None),
        ("add 'trade with Bo (their batch 7)'", None),
        ("import trades.csv (their batch 7)", None),
    ],
)
def test_only_a_trade_source_names_a_partner(source: str, partner: int | None) -> None:
    assert pairs.partner_of(source) == partner


def test_a_batch_that_names_another_is_no_pair_unless_both_do(sqlite_location: Path) -> None:
    """Undo trusts a link only when both batches name each other."""
    library = Library(sqlite_location)
    library.add(["1 U 15"])
    with library.writing() as conn:
        conn.execute("UPDATE batch SET source = 'trade with Bo: x (their batch 1)' "
                     "WHERE id = (SELECT max(id) FROM batch)")  # fmt: skip
    before = holdings(sqlite_location)
    assert library.undo() is not None
    assert before - holdings(sqlite_location) == {("me", "1 U 15", "nonfoil", "NM", "en", "",
                                                   "", 1)}  # fmt: skip


# -- the command line ----------------------------------------------------------------------


def test_trade_make_json_is_the_librarys_trade(sqlite_location: Path) -> None:
    run = Run(sqlite_location)
    args = ("trade", "make", "Bo", "--give", "1 C 14 x2", "--get", "1 R 20 foil")
    preview = run(*args, "--dry-run", "-o", "json")
    assert preview.exit_code == 0, preview.output
    expected = Library(sqlite_location).trade("Bo", ["1 C 14 x2"], ["1 R 20 foil"], dry_run=True)
    assert json.loads(preview.stdout) == expected.to_dict()
    assert json.loads(preview.stdout)["value_rule"].startswith("value: each copy counts by")
    done = json.loads(run(*args, "-o", "json").stdout)
    assert done["done"] is True and done["give_value"] == 2 and done["get_value"] == 3
    assert done["batch"] == Library(sqlite_location).history(1)[0].id


def test_trade_make_says_what_changed_hands(sqlite_location: Path) -> None:
    run = Run(sqlite_location)
    preview = run("trade", "make", "Bo", "--give", "1 C 14 x2", "--get", "1 R 20 foil", "--dry-run")
    assert preview.exit_code == 0, preview.output
    assert preview.stdout.splitlines()[:4] == [
        "Would trade with Bo: give 2 cards (value 2), get 1 card (value 3)",
        "  give 1 x Chugawug Cook (1 C 14) non-foil #trade",
        "  give 1 x Chugawug Cook (1 C 14) non-foil MP",
        "  get  1 x Mistfen Bog (1 R 20) foil fr in Box",
    ]
    assert "value: each copy counts by its rarity" in preview.stdout
    assert batches(sqlite_location)[-1][1] == "add '1 C 1 x2'"
    done = run("trade", "make", "Bo", "--give", "1 C 14 x2", "--get", "1 R 20 foil")
    assert done.stdout.startswith("Traded with Bo: give 2 cards")
    assert "undo" in done.stdout
    assert run("--collector", "Bo", "undo").exit_code == 0
    assert batches(sqlite_location)[-1][2] == 1


def test_trade_make_refusal_is_one_line(sqlite_location: Path) -> None:
    before = holdings(sqlite_location)
    result = Run(sqlite_location)("trade", "make", "Bo", "--get", "1 U 15")
    said = assert_one_line(result)
    assert "Bo cannot give 1 non-foil Chugawug Elder (1 U 15): Bo has none" in said
    assert "--collector Bo" in said
    assert holdings(sqlite_location) == before
