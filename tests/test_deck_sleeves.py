"""Built decks: sleeving takes free copies (most worn first), a shortfall is refused whole,
re-sleeving follows an edit, and every change that would take sleeved copies is refused
unless --force, which takes them out of the deck and says so."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.collection.sleeved import SleevedError
from cardbase.decks.sleeves import ShortOfCopies
from cardbase.library import Library
from tests.helpers import Run, assert_one_line, database_checksum, ok

BOG = "Mistfen Bog"  # 1 R 20 in the mini catalogue


def _collection(run: Run) -> None:
    ok(run, "add", f"{BOG} x2", "--condition", "lp", "--location", "Binder 1")
    ok(run, "add", f"{BOG} x2 foil")
    ok(run, "add", f"{BOG} x1", "--condition", "dmg")
    ok(run, "add", "Overclock x3")


@pytest.fixture
def built(db_path: Path, tmp_path: Path) -> Path:
    """A collection of five Mistfen Bogs (2 LP in Binder 1, 2 foil NM, 1 DMG) and three
    Overclocks, and the saved deck 'Bog' of 3 Bogs and 2 Overclocks."""
    run = Run(db_path)
    _collection(run)
    deck = tmp_path / "bog.txt"
    deck.write_text(f"3 {BOG}\n2 Overclock\n")
    ok(run, "deck", "save", str(deck), "--name", "Bog")
    return db_path


def _save(db: Path, tmp_path: Path, name: str, text: str, replace: bool = False) -> None:
    file = tmp_path / f"{name}.txt"
    file.write_text(text)
    Library(db).save_deck(file, name, replace=replace)


def _taken(done) -> list[tuple[str, str, str, int]]:
    return [(c.card.name, c.holding.finish, c.holding.condition, c.copies) for c in done.taken]


def test_sleeving_takes_the_most_worn_copies_first(built: Path) -> None:
    done = Library(built).sleeve_deck("bog")
    assert _taken(done) == [
        (BOG, "nonfoil", "DMG", 1), (BOG, "nonfoil", "LP", 2), ("Overclock", "nonfoil", "NM", 2),
    ]  # fmt: skip
    assert (done.sleeved, done.cards, done.missing) == (5, 5, [])
    said = ok(Run(built), "deck", "sleeve", "Bog")  # again: nothing more to take
    assert said.startswith("'Bog': 5 of 5 cards sleeved; took 0 copies, released 0")


def test_take_names_copies_to_take_first(built: Path) -> None:
    done = Library(built).sleeve_deck("Bog", [f"{BOG} x1 foil"])
    assert _taken(done)[:2] == [(BOG, "foil", "NM", 1), (BOG, "nonfoil", "DMG", 1)]
    said = ok(Run(built), "deck", "unsleeve", "Bog")
    assert said.startswith("'Bog': 5 copies free again")


def test_the_cli_says_which_copies_it_took(built: Path) -> None:
    said = ok(Run(built), "deck", "sleeve", "Bog").splitlines()
    assert "  took 2 Mistfen Bog (1 R 20): non-foil, LP, en, in Binder 1" in said
    as_json = json.loads(ok(Run(built), "deck", "unsleeve", "Bog", "-o", "json"))
    assert as_json["sleeved"] == 0 and sum(c["copies"] for c in as_json["released"]) == 5


def test_a_shortfall_is_refused_whole_naming_the_decks_that_hold_copies(
    built: Path, tmp_path: Path
) -> None:
    library = Library(built)
    _save(built, tmp_path, "Other", f"4 {BOG}\n")
    library.sleeve_deck("Other")
    before = database_checksum(built)
    refused = assert_one_line(Run(built)("deck", "sleeve", "Bog"), code=1)
    assert (
        "2 Mistfen Bog (built decks hold some: 'Other')" in refused
        and "nothing was sleeved" in refused
    )
    assert "--partial" in refused and "deck proxies Bog OUT.pdf --missing" in refused
    assert database_checksum(built) == before
    with pytest.raises(ShortOfCopies) as error:
        library.sleeve_deck("Bog")
    assert "--partial" not in error.value.said("web")
    partial = ok(Run(built), "deck", "sleeve", "Bog", "--partial")
    assert "Not free, still missing: 2 Mistfen Bog (built decks hold some: 'Other')" in partial
    assert "cardbase deck proxies Bog OUT.pdf --missing" in partial


def test_re_sleeving_an_edited_deck_takes_more_and_releases_extra(
    built: Path, tmp_path: Path
) -> None:
    library = Library(built)
    library.sleeve_deck("Bog")
    file = tmp_path / "edited.txt"
    file.write_text(f"4 {BOG}\n1 Overclock\n")
    saved = Run(built)("deck", "save", str(file), "--name", "Bog", "--force")
    assert "'Bog' is built from its list before this save" in saved.stderr
    done = library.sleeve_deck("Bog")
    assert _taken(done) == [(BOG, "foil", "NM", 1)]
    assert [(c.card.name, c.copies) for c in done.released] == [("Overclock", 1)]
    assert done.sleeved == 5


@pytest.mark.parametrize(
    "args",
    [
        ["remove", f"{BOG} x1", "--condition", "dmg"],
        ["set", f"{BOG} x0", "--condition", "dmg"],
        ["move", f"{BOG}", "--condition", "dmg", "--to", "Box"],
        ["tag", "trade", f"{BOG}", "--condition", "dmg"],
        ["remove", "Overclock x2"],
    ],
)
def test_taking_sleeved_copies_is_refused_unless_forced(built: Path, args: list[str]) -> None:
    Library(built).sleeve_deck("Bog")
    run = Run(built)
    before = database_checksum(built)
    refused = assert_one_line(run(*args))
    assert "'Bog'" in refused and "nothing was changed" in refused
    assert "deck unsleeve Bog" in refused and "--force" in refused
    assert database_checksum(built) == before
    forced = run(*args, "--force")
    assert forced.exit_code == 0, forced.output
    assert "out of the built deck 'Bog'" in forced.stderr
    assert Library(built).sleeve_deck("Bog", partial=True).sleeved <= 5


def test_removing_free_copies_is_fine(built: Path) -> None:
    Library(built).sleeve_deck("Bog")
    assert Run(built)("remove", "Overclock x1").exit_code == 0  # 3 owned, 2 sleeved


def test_undo_of_an_add_that_sleeved_copies_came_from(db_path: Path, tmp_path: Path) -> None:
    library = Library(db_path)
    library.add(["Overclock x2"])
    _save(db_path, tmp_path, "Clock", "2 Overclock\n")
    library.sleeve_deck("Clock")
    with pytest.raises(SleevedError, match="'Clock'"):
        library.undo()
    assert library.undo(force=True) is not None
    assert library.sleeve_deck("Clock", partial=True).sleeved == 0


def test_a_trade_may_not_give_sleeved_copies(built: Path) -> None:
    run = Run(built)
    ok(run, "collectors", "add", "Bo")
    Library(built).sleeve_deck("Bog")
    refused = run("trade", "make", "Bo", "--give", "Overclock x2", "--yes")
    assert "'Bog'" in assert_one_line(refused)
    assert run("trade", "make", "Bo", "--give", "Overclock x2", "--yes", "--force").exit_code == 0


def test_deleting_a_built_deck_frees_its_copies(built: Path) -> None:
    library = Library(built)
    library.sleeve_deck("Bog")
    said = ok(Run(built), "deck", "delete", "Bog", "--yes")
    assert said == "Deleted 'Bog'; its 5 sleeved copies are free again.\n"
    assert Run(built)("remove", f"{BOG} x1", "--condition", "dmg").exit_code == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["deck", "sleeve", "Nope"], "no deck file or saved deck named 'Nope'"),
        (["deck", "unsleeve", "Nope"], "no deck file or saved deck named 'Nope'"),
        (["deck", "sleeve", "Bog", "--take", "Pixie Dewdancer"], "'Bog' holds no such card"),
        (["deck", "sleeve", "Bog", "--take", "Nonsense Card"], "Nonsense Card"),
    ],
)
def test_bad_sleeve_input_is_one_line(built: Path, args: list[str], said: str) -> None:
    before = database_checksum(built)
    assert said in assert_one_line(Run(built)(*args))
    assert database_checksum(built) == before


@pytest.mark.slow  # about 1.5 s; the plan's own property test below runs by default
@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    decks=st.lists(st.integers(min_value=0, max_value=6), min_size=1, max_size=3),
    partial=st.booleans(),
)
def test_free_copies_are_owned_less_sleeved_and_unsleeving_restores_them(
    built: Path, tmp_path: Path, decks: list[int], partial: bool
) -> None:
    library = Library(built)
    names = [f"D{n}" for n in range(len(decks))]
    for name, bogs in zip(names, decks, strict=True):
        _save(built, tmp_path, name, f"{bogs or 1} {BOG}\n", replace=True)
    before = database_checksum(built)
    sleeved = 0
    for name in names:
        with contextlib.suppress(ShortOfCopies):
            sleeved += library.sleeve_deck(name, partial=partial).sleeved
        assert 0 <= sleeved <= 5  # never more than owned: free never negative
    for name in names:
        library.unsleeve_deck(name)
    assert database_checksum(built) == before


def test_collection_and_deck_list_show_owned_in_decks_and_free(built: Path, tmp_path: Path) -> None:
    run = Run(built)
    cards = {c["name"]: c for c in json.loads(ok(run, "collection", "-o", "json"))}
    assert (cards[BOG]["in_decks"], cards[BOG]["free"]) == (0, 5)
    assert "In decks" not in ok(run, "collection")  # no deck built: the table as it was
    Library(built).sleeve_deck("Bog")
    cards = {c["name"]: c for c in json.loads(ok(run, "collection", "-o", "json"))}
    assert (cards[BOG]["in_decks"], cards[BOG]["free"]) == (3, 2)
    assert (cards["Overclock"]["in_decks"], cards["Overclock"]["free"]) == (2, 1)
    assert "In decks" in ok(run, "collection")
    _save(built, tmp_path, "Other", f"4 {BOG}\n")
    listed = {d["name"]: d for d in json.loads(ok(run, "deck", "list", "-o", "json"))}
    assert {k: listed["Bog"][k] for k in ("owned", "in_decks", "free", "sleeved")} == {
        "owned": 5, "in_decks": 0, "free": 5, "sleeved": 5,
    }  # fmt: skip
    assert {k: listed["Other"][k] for k in ("owned", "in_decks", "free", "sleeved")} == {
        "owned": 4, "in_decks": 2, "free": 2, "sleeved": 0,
    }  # fmt: skip
    assert "built" in ok(run, "deck", "list")


def test_check_owned_counts_free_copies_and_names_the_deck(built: Path, tmp_path: Path) -> None:
    run = Run(built)
    _save(built, tmp_path, "Other", f"4 {BOG}\n")
    assert run("deck", "check", "Other", "--owned").exit_code in (0, 1)
    assert "not-owned" not in ok_or_verdict(run, "deck", "check", "Other", "--owned")
    Library(built).sleeve_deck("Bog")
    said = ok_or_verdict(run, "deck", "check", "Other", "--owned")
    assert "the deck needs 4, you own 5, 3 of them sleeved in built decks (3 in 'Bog')" in said
    assert "unsleeve 'Bog'" in said
    own = ok_or_verdict(run, "deck", "check", "Bog", "--owned")
    assert "needs 3" not in own  # its own sleeved copies are its own


def ok_or_verdict(run: Run, *args: str) -> str:
    result = run(*args)
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def test_a_trade_gives_free_copies_before_sleeved_ones(built: Path) -> None:
    run = Run(built)
    ok(run, "collectors", "add", "Bo")
    Library(built).sleeve_deck("Bog")  # the DMG and both LP Bogs
    ok(run, "add", f"{BOG} x1")  # a free NM one: given, though the worst go first
    trade = Library(built).trade("Bo", [f"{BOG} x1"])
    assert [(m.holding.condition, m.copies) for m in trade.give] == [("NM", 1)]


def test_an_import_that_replaces_and_a_redo_are_guarded_too(built: Path, tmp_path: Path) -> None:
    run = Run(built)
    Library(built).sleeve_deck("Bog")
    sheet = tmp_path / "less.csv"
    sheet.write_text("Name,Qty\nOverclock,3\n")
    before = database_checksum(built)
    refused = assert_one_line(run("import", str(sheet), "--mode", "replace", "--yes"))
    assert "'Bog'" in refused and database_checksum(built) == before
    ok(run, "deck", "unsleeve", "Bog")
    ok(run, "remove", "Overclock x3")
    ok(run, "undo")
    Library(built).sleeve_deck("Bog")
    assert "'Bog'" in assert_one_line(run("redo"))  # redoing the remove takes them again
    assert run("redo", "--force").exit_code == 0


CONDITIONS = ["M", "NM", "LP", "MP", "HP", "DMG"]


@settings(max_examples=200, deadline=None)
@given(
    held=st.dictionaries(
        st.tuples(st.sampled_from(CONDITIONS), st.sampled_from(["nonfoil", "foil"])),
        st.integers(min_value=1, max_value=4),
        max_size=6,
    ),
    elsewhere=st.integers(min_value=0, max_value=6),
    mine=st.integers(min_value=0, max_value=6),
    need=st.integers(min_value=0, max_value=8),
)
def test_the_plan_takes_only_free_copies_most_worn_first(
    held: dict[tuple[str, str], int], elsewhere: int, mine: int, need: int
) -> None:
    """On plain values: what other decks hold is never taken, free is never negative, the
    deck ends with what it needs or all it can get, and takes go most worn first."""
    from collections import Counter
    from types import SimpleNamespace

    from cardbase.collection.changes import Holding
    from cardbase.collection.sleeved import InDeck
    from cardbase.decks.sleeves import Pool, plan, worn_first

    card = SimpleNamespace(name="Bog")  # the plan only carries the card
    holdings = {Holding(1, finish, condition): n for (condition, finish), n in held.items()}
    order = sorted(holdings, key=worn_first)
    others: dict[Holding, list[InDeck]] = {}
    ours: dict[Holding, int] = {}
    left_other, left_mine = elsewhere, mine
    for holding in order:  # other decks and this one hold some copies already
        n = holdings[holding]
        o = min(n, left_other)
        m = min(n - o, left_mine)
        left_other, left_mine = left_other - o, left_mine - m
        if o:
            others[holding] = [InDeck(2, "Other", o)]
        if m:
            ours[holding] = m
    pool = Pool(Counter({"bog": need} if need else {}), {"bog": "Bog"}, {1: "bog"},
                {1: card}, holdings, ours, others)  # type: ignore[dict-item]  # fmt: skip
    taken, released, missing = plan(pool, [])
    after = Counter(ours)
    for c in taken:
        assert c.copies <= pool.free(c.holding)  # only free copies
        after[c.holding] += c.copies
    for c in released:
        after[c.holding] -= c.copies
    assert all(n >= 0 for n in after.values())
    for holding, n in after.items():
        taken_by_others = sum(d.copies for d in others.get(holding, []))
        assert n + taken_by_others <= holdings[holding]  # free never negative
    available = sum(ours.values()) + sum(pool.free(h) for h in holdings)
    assert sum(after.values()) == min(need, available)
    assert sum(m.copies for m in missing) == max(0, need - available)
    ranks = [worn_first(c.holding) for c in taken]
    assert ranks == sorted(ranks)
