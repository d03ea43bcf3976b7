"""`cardbase event ...` through typer's runner: a whole event typed as an organiser types it,
and every bad input one line, exit 2 (an invalid deck: exit 1 with the desk's report), the
event unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Run, assert_one_line
from tests.test_events import LEGAL

EVENT = "Spring Open"


def ok(run: Run, *args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def snapshot(run: Run) -> str:
    return ok(run, "event", "show", EVENT, "-o", "json")


@pytest.fixture
def paired(run: Run) -> Run:
    ok(run, "event", "create", EVENT, "--format", "free-realms", "--seed", "11", "--cut", "2")
    for player in ("Ann", "Bo", "Cy", "Di", "Ed"):
        ok(run, "event", "register", EVENT, player)
    ok(run, "event", "pair", EVENT)
    return run


def test_an_event_from_registration_to_the_final(run: Run, tmp_path: Path) -> None:
    created = json.loads(ok(run, "event", "create", EVENT, "--format", "free-realms",
                            "--seed", "11", "--cut", "2", "--rounds", "2", "-o", "json"))  # fmt: skip
    assert created["seed"] == 11 and created["cut"] == 2
    deck = tmp_path / "ann.txt"
    deck.write_text(LEGAL)
    assert "deck valid" in ok(run, "event", "register", EVENT, "Ann", "--deck", str(deck))
    for player in ("Bo", "Cy", "Di"):
        ok(run, "event", "register", EVENT, player)
    for number in (1, 2):
        paired = json.loads(ok(run, "event", "pair", EVENT, "--why", "-o", "json"))
        assert paired["round"] == number and len(paired["why"]) == 2
        for table in paired["tables"]:
            ok(run, "event", "report", EVENT, table["first"], "2-1")
    standings = json.loads(ok(run, "event", "standings", EVENT, "-o", "json"))
    assert [row["points"] for row in standings] == [6, 3, 3, 0]
    assert set(standings[0]["reckoned"]) == {"omw", "gw", "ogw"}
    cut = ok(run, "event", "cut", EVENT)
    assert "round 3 (top cut)" in cut and f"table 1: {standings[0]['player']} v" in cut
    shown = ok(run, "event", "show", EVENT).splitlines()[0]  # it said "round 3 of 2"
    assert ", top 2 cut: final (round 3, after 2 Swiss rounds), best of 3," in shown
    done = ok(run, "event", "report", EVENT, "--table", "1", "2-0")
    assert "round 3 is over: the event is finished" in done
    assert "finished" in ok(run, "event", "list")
    out = tmp_path / "spring.html"
    assert f"wrote {out}" in ok(run, "event", "export", EVENT, str(out))
    again = run("event", "export", EVENT, str(out))
    assert again.exit_code == 2 and "add --force" in again.stderr
    ok(run, "event", "export", EVENT, str(out), "--force")


def test_an_invalid_deck_is_refused_with_the_desks_report(run: Run, tmp_path: Path) -> None:
    ok(run, "event", "create", EVENT, "--format", "free-realms")
    deck = tmp_path / "short.txt"
    deck.write_text("3 Chugawug Cook\n")
    result = run("event", "register", EVENT, "Hal", "--deck", str(deck))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith("\u2718 invalid: short.txt, 3 cards")
    assert "too-few-cards" in result.stdout and "(add 37)" in result.stdout
    as_json = json.loads(run("event", "register", EVENT, "Hal", "--deck", str(deck),
                             "-o", "json").stdout)  # fmt: skip
    assert as_json["registered"] is False and as_json["problems"][0]["code"] == "too-few-cards"
    assert json.loads(snapshot(run))["players"] == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["event", "show", "Spring Opn"], "no event named 'Spring Opn'; did you mean 'Spring Open'"),
        (["event", "drop", EVENT, "Zed"], "no player named 'Zed' in this event; did you mean 'Ed'"),
        (["event", "report", EVENT, "Ann", "2-"], "result '2-': write games won-lost"),
        (["event", "report", EVENT, "Ann", "3-1"], "a best-of-3 match ends"),
        (["event", "report", EVENT, "2-1"], "give PLAYER RESULT"),
        (["event", "pair", EVENT], "round 1 of 'Spring Open' is not over"),
        (["event", "swap", EVENT, "Ann", "Ann"], "'Ann' twice: a swap needs two different players"),
        (["event", "swap", EVENT, "1", "9"], "table 9: this round has tables 1 to 3"),
        (["event", "create", "Other", "--format", "free-realms", "--seed", "x1"], "--seed 'x1': give a whole number"),
        (["event", "create", EVENT, "--format", "free-realms"], "exists already"),
        (["event", "cut", EVENT], "has played 1 of its 3 rounds"),
        (["event", "register", EVENT, ""], "a player's name is empty"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_exit_2_and_changes_nothing(
    paired: Run, args: list[str], said: str
) -> None:
    before = snapshot(paired)
    result = paired(*args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and said in lines[0], result.stderr
    assert snapshot(paired) == before


def test_a_result_for_a_finished_round_is_refused(paired: Run) -> None:
    for seat in json.loads(snapshot(paired))["rounds"]:
        if seat["second"]:
            ok(paired, "event", "report", EVENT, "--table", str(seat["table"]), "1-1")
    ok(paired, "event", "report", EVENT, "--table", "1", "2-1", "--round", "1")  # corrected
    ok(paired, "event", "pair", EVENT)
    before = snapshot(paired)
    result = paired("event", "report", EVENT, "--table", "1", "2-0", "--round", "1")
    assert result.exit_code == 2
    assert "round 1 of 'Spring Open' is finished" in result.stderr
    assert snapshot(paired) == before


def test_swaps_and_reports_in_words(paired: Run) -> None:
    swapped = ok(paired, "event", "swap", EVENT, "1", "2")
    assert swapped.startswith("Spring Open, round 1:") and "the swap breaks" in swapped
    reported = ok(paired, "event", "report", EVENT, "--table", "1", "id")
    assert "intentional draw" in reported
    shown = ok(paired, "event", "show", EVENT)
    assert "intentional draw" in shown and "(bye)  bye" in shown
    dropped = ok(paired, "event", "drop", EVENT, "Ed")
    assert dropped.strip() == "dropped Ed after round 1"


def test_publish_and_the_codes_the_organiser_sees(paired: Run) -> None:
    shown = json.loads(snapshot(paired))
    codes = [p["code"] for p in shown["players"]]
    assert len(set(codes)) == 5 and all(len(c) == 6 for c in codes)
    assert shown["event"]["lists_published"] is False
    words = ok(paired, "event", "show", EVENT)
    assert "deck lists hidden" in words and all(f"code {c}" in words for c in codes)
    assert ok(paired, "event", "publish", EVENT).strip() == "Spring Open: deck lists published"
    assert json.loads(snapshot(paired))["event"]["lists_published"] is True
    assert "hidden" in ok(paired, "event", "publish", EVENT, "--hide")


def test_a_round_reported_from_one_file(paired: Run, tmp_path: Path) -> None:
    seats = [s for s in json.loads(snapshot(paired))["rounds"] if s["second"]]
    results = tmp_path / "round1.txt"
    results.write_text(f"{seats[0]['table']} 2-1\n{seats[1]['first']} 0-2\n")
    said = ok(paired, "event", "report", EVENT, "--file", str(results))
    assert said.splitlines() == ["round 1: 2 results reported", "round 1 is over"]
    rounds = json.loads(snapshot(paired))["rounds"]
    assert [(s["first_games"], s["second_games"]) for s in rounds if s["second"]] == [
        (2, 1), (0, 2),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "args", "said"),
    [
        ("1 2-1\n2 4-0\n", [], "round1.txt line 2: result '4-0': a best-of-3 match ends"),
        ("1 2-1\n", ["Ann", "2-1"], "--file FILE takes no player, result"),
    ],
)
def test_a_bad_results_file_is_one_line_and_stores_nothing(
    paired: Run, tmp_path: Path, body: str, args: list[str], said: str
) -> None:
    results = tmp_path / "round1.txt"
    results.write_text(body)
    before = snapshot(paired)
    result = paired("event", "report", EVENT, *args, "--file", str(results))
    assert said in assert_one_line(result)
    assert snapshot(paired) == before


def test_tiebreakers_from_the_command_line(run: Run) -> None:
    made = json.loads(ok(run, "event", "create", "Club", "-f", "free-realms",
                         "--tiebreakers", "gw,omw", "-o", "json"))  # fmt: skip
    assert made["tiebreakers"] == ["gw", "omw"]
    for player in ("Ann", "Bo"):
        ok(run, "event", "register", "Club", player)
    ok(run, "event", "pair", "Club")
    ok(run, "event", "report", "Club", "--table", "1", "2-0")
    assert ok(run, "event", "standings", "Club").splitlines()[0].split()[-2:] == ["gw", "omw"]
    bad = run("event", "create", "Other", "-f", "free-realms", "--tiebreakers", "omw,sos")
    assert "unknown tiebreaker 'sos': use omw, gw, ogw, mw" in assert_one_line(bad)
    assert "Other" not in ok(run, "event", "list")


def test_the_organiser_confirms_players_reports(paired: Run, db_path: Path) -> None:
    from cardbase.library import Library

    library = Library(db_path)
    seat = next(s for s in library.event(EVENT).round_seats() if s.second)
    codes = {p.name: p.code for p in library.event(EVENT).players}
    assert ok(paired, "event", "pending", EVENT).strip() == "no report waiting"
    library.player_report(EVENT, codes[seat.first], "2-1")
    library.player_report(EVENT, codes[str(seat.second)], "2-1")  # both say they won
    waiting = json.loads(ok(paired, "event", "pending", EVENT, "-o", "json"))["pending"]
    assert [(w["table"], w["agreed"]) for w in waiting] == [(seat.number, None)]
    assert "no: decide" in ok(paired, "event", "pending", EVENT)
    before = snapshot(paired)
    refused = paired("event", "confirm", EVENT, str(seat.number))
    assert "players disagree" in assert_one_line(refused) and snapshot(paired) == before
    done = ok(paired, "event", "confirm", EVENT, str(seat.number), "1-2")
    assert f"table {seat.number}: {seat.first} v {seat.second}  1-2 (confirmed)" in done
    assert json.loads(ok(paired, "event", "pending", EVENT, "-o", "json"))["pending"] == []
