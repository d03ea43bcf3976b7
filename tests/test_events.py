"""Events through the library: registration with the desk's deck check, Swiss rounds stored
and resumed, results and their corrections, swaps, drops, standings, the cut, export; every
refusal leaves the event as it was, and so does a process killed inside a step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardbase.errors import CardbaseError
from cardbase.events import store
from cardbase.events.operations import RefusedDeck
from cardbase.library import Library
from tests.helpers import MINI_CATALOGUE, new_database

NAMES = [
    "Pixie Dewdancer", "Chugawug Elder", "Mistfen Bog", "Sudden Growth", "Robgoblin Scrapper",
    "Undead Drummer", "Robgoblin Sneak", "Smoldering Scrapheap", "Dirty Trick",
    "Clockwork Sentry", "Clockwork Dragonfly", "Steam Forge", "Overclock",
]  # fmt: skip
LEGAL = "\n".join(f"3 {name}" for name in NAMES) + "\n1 Ninja Blade Adept\n"  # 40 cards
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]


@pytest.fixture
def library(db_path: Path) -> Library:
    return Library(db_path)


@pytest.fixture
def decks(tmp_path: Path) -> dict[str, Path]:
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(LEGAL)
    bad.write_text("3 Chugawug Cook\n")
    return {"good": good, "bad": bad}


def open_event(library: Library, players: list[str] = PLAYERS, **options: object) -> str:
    library.create_event("Spring Open", "free-realms", seed=7, **options)  # type: ignore[arg-type]
    for player in players:
        library.register("Spring Open", player)
    return "Spring Open"


def report_all(library: Library, name: str, score: str = "2-1") -> None:
    for seat in library.event(name).round_seats():
        if seat.second is not None and not seat.reported:
            library.report(name, score, table=seat.number)


def stored(library: Library, name: str = "Spring Open") -> tuple[object, ...]:
    """Every row of the event as read back, its clock time and the players' codes (drawn
    by `secrets`, so never alike twice) left out."""
    state = library.event(name)
    players = [player._replace(code="") for player in state.players]
    return state.event._replace(created_at=""), players, state.seats


def test_create_list_show(library: Library) -> None:
    made = library.create_event("Spring  Open", "free-realms", cut=8, best_of=3, seed=42)
    assert (made.name, made.format, made.cut, made.seed, made.state) == (
        "Spring Open", "free-realms", 8, 42, "registration",
    )  # fmt: skip
    assert made.rounds is None and made.tiebreakers == ("omw", "gw", "ogw")
    library.register("spring open", "Ann")
    assert [(e.name, count, rounds) for e, count, rounds in library.events()] == [
        ("Spring Open", 1, 0)
    ]
    assert [p.name for p in library.event("SPRING OPEN").players] == ["Ann"]
    assert isinstance(library.create_event("Other", "free-realms").seed, int)  # drawn, kept


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"format": "chess"}, "unknown format 'chess'"),
        ({"cut": 3}, "--cut 3: a top cut of 2, 4, 8"),
        ({"best_of": 2}, "--best-of 2: use 1, 3, 5"),
        ({"seed": -1}, "--seed -1: give a number from 0"),
        ({"seed": 2**31}, "--seed 2147483648"),
        ({"rounds": 0}, "--rounds 0: give 1 to 20"),
    ],
)
def test_bad_events_are_refused(library: Library, options: dict, said: str) -> None:
    wanted = {"format": "free-realms", **options}
    with pytest.raises(CardbaseError, match=said.replace("(", r"\(")):
        library.create_event("Spring Open", **wanted)
    assert library.events() == []


def test_names_are_one_event_one_player(library: Library) -> None:
    open_event(library)
    with pytest.raises(CardbaseError, match="an event named 'Spring Open' exists already"):
        library.create_event("spring open", "free-realms")
    with pytest.raises(CardbaseError, match="'Ann' is registered already"):
        library.register("Spring Open", "ann")
    with pytest.raises(
        CardbaseError, match="no event named 'Spring Opne'; did you mean 'Spring Open'"
    ):
        library.register("Spring Opne", "Hal")
    with pytest.raises(
        CardbaseError, match="no player named 'Gis' in this event; did you mean 'Gus'"
    ):
        library.drop("Spring Open", "Gis")


def test_a_deck_is_checked_at_registration_and_its_verdict_kept(
    library: Library, decks: dict[str, Path]
) -> None:
    open_event(library, [])
    before = stored(library)
    with pytest.raises(RefusedDeck, match="not a valid Free Realms Constructed deck") as refused:
        library.register("Spring Open", "Hal", decks["bad"])
    assert refused.value.exit_code == 1
    assert [p.code for p in refused.value.report.problems] == ["too-few-cards"]
    assert stored(library) == before  # nobody registered
    player = library.register("Spring Open", "Hal", decks["good"])
    assert player.verdict is not None and player.verdict["valid"] is True
    assert player.verdict["cards"] == 40 and player.verdict["format"] == "free-realms"
    assert player.deck is not None and player.deck.splitlines()[0] == "3 Pixie Dewdancer"
    assert not player.locked


def test_lists_lock_when_round_one_is_paired(library: Library, decks: dict[str, Path]) -> None:
    open_event(library, ["Ann", "Bo"])
    library.register("Spring Open", "Ann", decks["good"])  # a list replaced before round 1
    paired = library.pair("Spring Open")
    assert paired.event.rounds == 3 and paired.event.state == "swiss"  # 2 players: 3 rounds
    assert all(p.locked for p in library.event("Spring Open").players)
    with pytest.raises(CardbaseError, match="deck list is locked"):
        library.register("Spring Open", "Ann", decks["good"])


def test_round_one_and_the_same_seed_give_the_same_round(tmp_path: Path) -> None:
    rounds = []
    for copy in ("a.db", "b.db"):
        path = tmp_path / copy
        new_database(path, MINI_CATALOGUE)
        library = Library(path)
        open_event(library)
        rounds.append([(s.first, s.second) for s in library.pair("Spring Open").tables])
    assert rounds[0] == rounds[1]
    assert len(rounds[0]) == 4 and rounds[0][-1][1] is None  # seven players: a bye, last


def test_a_round_closes_when_every_table_has_a_result(library: Library) -> None:
    name = open_event(library)
    first = library.pair(name)
    bye = first.tables[-1]
    assert bye.second is None and (bye.first_games, bye.second_games) == (2, 0)
    with pytest.raises(CardbaseError, match="round 1 of 'Spring Open' is not over: table 1, 2, 3"):
        library.pair(name)
    seat = first.tables[0]
    reported = library.report(name, "2-1", player=seat.second)
    assert (reported.seat.first_games, reported.seat.second_games) == (1, 2)  # their side first
    assert not reported.closed
    corrected = library.report(name, "1-1-1", table=seat.number)
    assert (corrected.seat.first_games, corrected.seat.second_games) == (1, 1)
    assert corrected.seat.drawn_games == 1 and corrected.seat.confirmed
    library.report(name, "id", player=first.tables[1].first)
    last = library.report(name, "2-0", table=3)
    assert last.closed
    assert library.event(name).seats[1].intentional_draw
    second = library.pair(name)
    assert second.round == 2
    with pytest.raises(CardbaseError, match="round 1 of 'Spring Open' is finished"):
        library.report(name, "2-0", table=1, round=1)


@pytest.mark.parametrize(
    ("result", "said"),
    [
        ("3-0", "a best-of-3 match ends when a player has won 2 games"),
        ("2-2", "a best-of-3 match ends"),
        ("2-", "write games won-lost, as 2-1"),
        ("two-one", "write games won-lost"),
        ("0-0", "no game played; write id"),
    ],
)
def test_a_malformed_result_changes_nothing(library: Library, result: str, said: str) -> None:
    name = open_event(library)
    library.pair(name)
    before = stored(library)
    with pytest.raises(CardbaseError, match=said):
        library.report(name, result, table=1)
    assert stored(library) == before


def test_the_bye_and_the_unpaired_have_no_result_to_report(library: Library) -> None:
    name = open_event(library)
    paired = library.pair(name)
    with pytest.raises(CardbaseError, match="'s bye: its result is 2-0"):
        library.report(name, "2-0", player=paired.tables[-1].first)
    library.register(name, "Hal")  # a late entry: paired from round 2
    with pytest.raises(CardbaseError, match="'Hal' is not paired in round 1"):
        library.report(name, "2-0", player="Hal")
    with pytest.raises(CardbaseError, match="table 9: round 1 has tables 1 to 4"):
        library.report(name, "2-0", table=9)


def test_late_entries_and_drops(library: Library) -> None:
    name = open_event(library, PLAYERS[:6])
    library.pair(name)
    late = library.register(name, "Hal")
    assert (late.entered_round, late.locked) == (2, True)
    report_all(library, name)
    dropped = library.drop(name, "Ann")
    assert dropped.dropped_after == 1
    with pytest.raises(CardbaseError, match="'Ann' dropped after round 1"):
        library.drop(name, "Ann")
    second = library.pair(name)
    seated = {p for s in second.tables for p in (s.first, s.second) if p}
    assert "Ann" not in seated and "Hal" in seated and len(seated) == 6
    _event, rows = library.standings(name)
    ann = next(row for row in rows if row.record.player == "Ann")
    assert ann.dropped and ann.record.matches == 1  # her result kept


def test_swaps_say_what_rule_they_break(library: Library) -> None:
    name = open_event(library, PLAYERS[:4])
    library.pair(name)
    report_all(library, name)
    second = library.pair(name)
    one, two = second.tables
    swap = library.swap(name, "1", "2")
    assert [(s.first, s.second) for s in swap.tables] == [
        (one.first, two.second),
        (two.first, one.second),
    ]
    assert any(rule.startswith("pair-downs") for rule in swap.broken), swap.broken
    back = library.swap(name, one.second or "", two.second or "")
    assert [(s.first, s.second) for s in back.tables] == [
        (s.first, s.second) for s in second.tables
    ]
    with pytest.raises(CardbaseError, match="both are at table 1"):
        library.swap(name, one.first, one.second or "")
    with pytest.raises(CardbaseError, match="a swap needs two different players"):
        library.swap(name, one.first, one.first)
    library.report(name, "2-0", table=1)
    before = stored(library)
    with pytest.raises(CardbaseError, match="table 1 has a result already"):
        library.swap(name, "1", "2")
    assert stored(library) == before


def test_a_swap_into_a_rematch_says_so(library: Library) -> None:
    name = open_event(library, PLAYERS[:4])
    first = library.pair(name)
    report_all(library, name)
    library.pair(name)
    a, b = first.tables[0].first, first.tables[0].second or ""
    # seat a's first-round opponent across from a again
    seats = library.event(name).round_seats()
    a_table = next(s for s in seats if a in (s.first, s.second))
    across = a_table.second if a_table.first == a else a_table.first
    swap = library.swap(name, across or "", b)
    assert any(rule.startswith("rematches: 0 -> ") for rule in swap.broken), swap.broken


def test_standings_explain_each_tiebreaker(library: Library) -> None:
    name = open_event(library, PLAYERS[:4])
    for _ in range(3):
        library.pair(name)
        report_all(library, name)
    event, rows = library.standings(name)
    assert event.state == "finished"  # the last Swiss round, no cut
    assert [row.record.points for row in rows] == sorted(
        (r.record.points for r in rows), reverse=True
    )
    assert rows[0].record.points == 9
    assert rows[0].reckoned[0].startswith("mean of ")
    assert "game points of" in rows[0].reckoned[1]
    with pytest.raises(CardbaseError, match="is over"):
        library.pair(name)


def test_the_cut_is_seeded_by_the_standings(library: Library) -> None:
    name = open_event(library, PLAYERS[:6], cut=4, rounds=2)
    with pytest.raises(CardbaseError, match="has played 0 of its 2 rounds"):
        library.cut(name)
    for _ in range(2):
        library.pair(name)
        report_all(library, name)
    with pytest.raises(CardbaseError, match="has played its 2 Swiss rounds: 'event cut'"):
        library.pair(name)
    _event, rows = library.standings(name)
    seeds = [row.record.player for row in rows[:4]]
    cut = library.cut(name)
    assert cut.stage == "cut" and cut.round == 3
    assert [(s.first, s.second) for s in cut.tables] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    with pytest.raises(CardbaseError, match="a cut match needs a winner"):
        library.report(name, "1-1", table=1)
    library.report(name, "0-2", table=1)
    library.report(name, "2-1", table=2)
    final = library.pair(name)  # in the cut, `pair` pairs the cut's next round too
    assert [(s.first, s.second) for s in final.tables] == [(seeds[3], seeds[1])]
    done = library.report(name, "2-0", table=1)
    assert done.event.state == "finished"
    with pytest.raises(CardbaseError, match=f"is over: {seeds[3]} won the final"):
        library.cut(name)


def test_no_cut_and_too_few_players(library: Library) -> None:
    name = open_event(library, ["Ann"])
    with pytest.raises(CardbaseError, match="has 1 player: register at least two"):
        library.pair(name)
    with pytest.raises(CardbaseError, match="has no top cut"):
        library.cut(name)


def test_export_writes_the_whole_event(library: Library, tmp_path: Path) -> None:
    name = open_event(library, PLAYERS[:5])
    library.pair(name)
    report_all(library, name)
    out = tmp_path / "spring.json"
    library.export_event(name, out)
    whole = json.loads(out.read_text())
    assert whole["event"]["seed"] == 7 and len(whole["players"]) == 5
    assert len(whole["rounds"]) == 3 and whole["rounds"][-1]["second"] is None
    assert [row["place"] for row in whole["standings"]] == [1, 2, 3, 4, 5]
    with pytest.raises(CardbaseError, match="the file exists; add --force"):
        library.export_event(name, out)
    library.export_event(name, out, force=True)
    library.export_event(name, tmp_path / "spring.csv")
    lines = (tmp_path / "spring.csv").read_text().splitlines()
    assert lines[0].startswith("round,stage,table,first,second") and "(bye)" in lines[3]
    library.export_event(name, tmp_path / "spring.html")
    page = (tmp_path / "spring.html").read_text()
    assert "<h1>Spring Open</h1>" in page and page.count("<tr>") + page.count("<tr ") == 6
    with pytest.raises(CardbaseError, match=r"can write \.json or \.csv or \.html"):
        library.export_event(name, tmp_path / "spring.txt")


def test_a_killed_step_loses_nothing_and_the_event_resumes(
    library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = open_event(library)
    before = stored(library)
    real = store.insert_round

    def killed(*args: object, **kwargs: object) -> None:
        real(*args, **kwargs)  # type: ignore[arg-type]
        raise KeyboardInterrupt  # the process stopped after writing, before the commit

    monkeypatch.setattr(store, "insert_round", killed)
    with pytest.raises(KeyboardInterrupt):
        library.pair(name)
    assert stored(library) == before  # no round, lists unlocked, still in registration
    monkeypatch.setattr(store, "insert_round", real)
    assert library.pair(name).round == 1  # and it resumes


def test_events_survive_a_database_copy(library: Library, tmp_path: Path) -> None:
    from cardbase.db.copy import copy_database

    name = open_event(library, PLAYERS[:3])
    library.pair(name)
    report_all(library, name)
    copied = tmp_path / "copy.db"
    copy_database(library.location, copied)
    assert stored(Library(copied)) == stored(library)


def run_event(library: Library, decks: dict[str, Path]) -> None:
    """A whole small event: a deck registered, a late entry, a drop, a swap, draws, an
    intentional draw, a correction, the cut and its final."""
    name = open_event(library, PLAYERS[:5], cut=4, rounds=3)
    library.register(name, "Flo", decks["good"])
    library.pair(name)
    library.report(name, "1-1-1", table=1)
    library.report(name, "id", table=2)
    library.report(name, "2-0", table=1)  # corrected
    report_all(library, name, "1-2")
    library.register(name, "Gus")
    library.pair(name)
    library.swap(name, "1", "2")
    report_all(library, name, "2-1")
    library.drop(name, "Ann")
    library.pair(name)
    report_all(library, name, "0-2")
    library.cut(name)
    report_all(library, name, "2-0")
    library.cut(name)
    report_all(library, name, "2-1")


def test_postgres_holds_an_event_as_sqlite_does(
    pg_mini: object, library: Library, decks: dict[str, Path]
) -> None:
    """The same event with the same seed on both engines: the same rows, read back alike,
    and a copy from PostgreSQL to SQLite the same again."""
    from cardbase.db.copy import copy_database

    on_postgres = Library(pg_mini)  # type: ignore[arg-type]
    for engine in (library, on_postgres):
        run_event(engine, decks)
    assert stored(on_postgres) == stored(library)
    assert on_postgres.standings("Spring Open")[1] == library.standings("Spring Open")[1]
    assert on_postgres.event("Spring Open").event.state == "finished"
    back = library.location.with_name("back.db")  # type: ignore[union-attr]
    copy_database(on_postgres.location, back)
    assert stored(Library(back)) == stored(library)
