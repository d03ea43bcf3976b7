"""Results from the floor through the library: a file of results in one transaction, a
player's own report by code kept apart until the organiser confirms it, tiebreakers chosen
at creation, deck lists published; on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.errors import CardbaseError
from cardbase.events.store import CODE_ALPHABET, CODE_LENGTH
from cardbase.library import Library
from tests.test_events import open_event, stored

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed"]


@pytest.fixture(params=["sqlite", "postgres"])
def library(request: pytest.FixtureRequest, db_path: Path) -> Library:
    if request.param == "postgres":
        return Library(request.getfixturevalue("pg_mini"))
    return Library(db_path)


@pytest.fixture
def paired(library: Library) -> tuple[Library, str]:
    name = open_event(library, PLAYERS)
    library.pair(name)
    return library, name


def code_of(library: Library, name: str, player: str) -> str:
    return next(p.code for p in library.event(name).players if p.name == player)


def table_of(library: Library, name: str, player: str):  # type: ignore[no-untyped-def]
    return next(s for s in library.event(name).round_seats() if player in (s.first, s.second))


def played(library: Library, name: str) -> list:  # type: ignore[type-arg]
    return [s for s in library.event(name).round_seats() if s.second is not None]


def test_codes_are_six_letters_of_the_alphabet_and_unlike(paired: tuple[Library, str]) -> None:
    library, name = paired
    codes = [p.code for p in library.event(name).players]
    assert len(set(codes)) == len(codes)
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert all("code" not in p.to_dict() for p in library.event(name).players)


def test_tiebreakers_are_the_organisers_in_order(library: Library) -> None:
    made = library.create_event("Club", "free-realms", tiebreakers=["GW", "omw"])
    assert made.tiebreakers == ("gw", "omw")
    assert library.event("Club").event.tiebreakers == ("gw", "omw")
    for player in ("Ann", "Bo"):
        library.register("Club", player)
    library.pair("Club")
    library.report("Club", "2-1", table=1)
    row = library.standings("Club")[1][0]
    assert set(row.to_dict(("gw", "omw"))["reckoned"]) == {"gw", "omw"}


@pytest.mark.parametrize(
    ("keys", "said"),
    [
        (["omw", "xyz"], "unknown tiebreaker 'xyz': use omw, gw, ogw, mw"),
        (["gw", "gw"], "'gw' twice"),
        ([""], "--tiebreakers: name them"),
    ],
)
def test_bad_tiebreakers_are_refused(library: Library, keys: list[str], said: str) -> None:
    with pytest.raises(CardbaseError, match=said):
        library.create_event("Club", "free-realms", tiebreakers=keys)
    assert library.events() == []


def test_lists_are_published_and_hidden(paired: tuple[Library, str]) -> None:
    library, name = paired
    assert library.event(name).event.lists_published is False
    assert library.publish_lists(name).lists_published is True
    assert library.event(name).event.lists_published is True
    library.publish_lists(name, False)
    assert library.event(name).event.lists_published is False


def test_a_file_reports_every_table_at_once(paired: tuple[Library, str], tmp_path: Path) -> None:
    library, name = paired
    seats = played(library, name)
    results = tmp_path / "round1.txt"
    results.write_text(f"# round 1\n{seats[0].number} 2-1\n\n{seats[1].second} 1-2\n")
    done = library.report_file(name, results)
    assert [d.seat.number for d in done] == [seats[0].number, seats[1].number]
    assert done[-1].closed
    after = played(library, name)
    assert (after[0].first_games, after[0].second_games) == (2, 1)
    assert (after[1].first_games, after[1].second_games) == (2, 1)  # the second's 1-2


def test_a_csv_file_with_a_header(paired: tuple[Library, str], tmp_path: Path) -> None:
    library, name = paired
    seats = played(library, name)
    results = tmp_path / "round1.csv"
    results.write_text("table,result\n" + "".join(f"{s.number},1-1-1\n" for s in seats))
    assert len(library.report_file(name, results)) == len(seats)
    assert all(s.drawn_games == 1 for s in played(library, name))


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("1 2-1\n2 2-\n", r"round1.txt line 2: result '2-'"),
        ("1 2-1\n9 2-1\n", r"round1.txt line 2: table 9: round 1 has tables 1 to 3"),
        ("1 2-1\nZed 2-1\n", r"line 2: no player named 'Zed'"),
        ("1 2-1\n1 2-0\n", r"line 2: table 1 is on line 1 too"),
        ("2-1\n", r"round1.txt line 1: '2-1': give a table or a player"),
        ("# nothing\n", r"no results"),
    ],
)
def test_one_bad_line_stores_none(
    paired: tuple[Library, str], tmp_path: Path, body: str, said: str
) -> None:
    library, name = paired
    before = stored(library, name)
    results = tmp_path / "round1.txt"
    results.write_text(body)
    with pytest.raises(CardbaseError, match=said):
        library.report_file(name, results)
    assert stored(library, name) == before


def test_players_report_and_the_organiser_confirms(paired: tuple[Library, str]) -> None:
    library, name = paired
    seat = played(library, name)[0]
    first, second = code_of(library, name, seat.first), code_of(library, name, seat.second)
    sent = library.player_report(name, first.lower(), "2-1")
    assert (sent.player.name, sent.seat.number, str(sent.score)) == (seat.first, seat.number, "2-1")
    assert not table_of(library, name, seat.first).reported  # not the table's result yet
    [waiting] = library.pending_reports(name)
    assert waiting.agreed is not None and not waiting.to_dict()["both"]
    library.player_report(name, second, "1-2")  # the same result from the other side
    [waiting] = library.pending_reports(name)
    assert str(waiting.agreed) == "2-1" and waiting.to_dict()["both"]
    done = library.confirm(name, seat.number)
    assert (done.seat.first_games, done.seat.second_games, done.seat.confirmed) == (2, 1, True)
    assert library.pending_reports(name) == []
    with pytest.raises(CardbaseError, match="confirmed; ask the organiser"):
        library.player_report(name, second, "2-0")


def test_disagreeing_players_are_both_shown(paired: tuple[Library, str]) -> None:
    library, name = paired
    seat = played(library, name)[0]
    library.player_report(name, code_of(library, name, seat.first), "2-1")
    library.player_report(name, code_of(library, name, seat.second), "2-1")  # each a winner
    [waiting] = library.pending_reports(name)
    assert waiting.agreed is None and [r["result"] for r in waiting.to_dict()["sent"]] == [
        "2-1", "1-2",
    ]  # fmt: skip
    before = stored(library, name)
    with pytest.raises(CardbaseError, match=f"players disagree .*{seat.first} sent 2-1"):
        library.confirm(name, seat.number)
    assert stored(library, name) == before
    done = library.confirm(name, seat.number, "1-2")  # the organiser decides
    assert (done.seat.first_games, done.seat.second_games) == (1, 2)


def test_a_player_reports_their_own_table_only(paired: tuple[Library, str]) -> None:
    library, name = paired
    mine, theirs = played(library, name)[:2]
    code = code_of(library, name, mine.first)
    before = stored(library, name)
    with pytest.raises(CardbaseError, match=f"not {mine.first}'s table: report for table"):
        library.player_report(name, code, "2-0", pairing=theirs.id)
    with pytest.raises(CardbaseError, match="has that code"):
        library.player_report(name, "AAAAAA", "2-0")
    bye = next(s for s in library.event(name).round_seats() if s.second is None)
    with pytest.raises(CardbaseError, match="has the bye"):
        library.player_report(name, code_of(library, name, bye.first), "2-0")
    assert stored(library, name) == before and library.pending_reports(name) == []
    library.player_report(name, code, "2-0", pairing=mine.id)
    assert [p.seat.number for p in library.pending_reports(name)] == [mine.number]


def test_a_finished_round_takes_no_report(paired: tuple[Library, str]) -> None:
    library, name = paired
    seat = played(library, name)[0]
    code = code_of(library, name, seat.first)
    for each in played(library, name):
        library.report(name, "2-0", table=each.number)
    library.pair(name)
    old = seat.id
    with pytest.raises(CardbaseError, match=r"not .*'s table|has the bye"):
        library.player_report(name, code, "2-0", pairing=old)
    with pytest.raises(CardbaseError, match="no report waiting"):
        library.confirm(name, 1)
    with pytest.raises(CardbaseError, match="table 9: round 2 has tables 1 to 3"):
        library.confirm(name, 9, "2-0")


def test_the_players_view_holds_only_their_own(paired: tuple[Library, str]) -> None:
    library, name = paired
    seat = played(library, name)[0]
    code = code_of(library, name, seat.second)
    library.player_report(name, code, "2-0")
    view = library.player_view(name, code)
    assert view.player.name == seat.second and view.seat == table_of(library, name, seat.second)
    assert str(view.sent) == "2-0" and view.standing is not None
    assert "code" not in str(view.to_dict()) and code not in str(view.to_dict())


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    sent=st.one_of(
        st.text(alphabet=CODE_ALPHABET + "abc0O ", max_size=8),
        st.tuples(st.integers(0, len(PLAYERS) - 1), st.booleans()),
    )
)
def test_no_code_reports_another_table(db_path: Path, sent: str | tuple[int, bool]) -> None:
    """Whatever code is sent (a made-up one, or a player's typed in lower case with spaces),
    a report lands on the table its owner sits at, or nowhere."""
    library = Library(db_path)
    if not library.events():
        open_event(library, PLAYERS)
        library.pair("Spring Open")
    players = library.event("Spring Open").players
    owners = {p.code: p.name for p in players}
    if isinstance(sent, tuple):
        code = players[sent[0]].code
        typed = " ".join(code.lower()) if sent[1] else code
    else:
        typed = sent
    key = "".join(typed.split()).upper()
    try:
        done = library.player_report("Spring Open", typed, "2-1")
    except CardbaseError as exc:
        assert key not in owners or "bye" in exc.message
        return
    assert owners[key] == done.player.name
    assert done.player.name in (done.seat.first, done.seat.second)
