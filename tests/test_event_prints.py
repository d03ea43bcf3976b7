"""The tables' prints: read back with openpyxl (which sheets, what each cell says, no code
on the wall's sheets), and printed with LibreOffice (slow): the text a player reads and how
many pages it takes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.helpers import Run, assert_one_line, ok
from tests.test_printing import preview_tool, printed

EVENT = "Spring Open"
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Mo"]


@pytest.fixture
def paired(run: Run) -> Run:
    ok(run, "event", "create", EVENT, "-f", "free-realms", "--seed", "5")
    for player in PLAYERS:
        ok(run, "event", "register", EVENT, player)
    ok(run, "event", "pair", EVENT)
    return run


def shown(run: Run) -> dict:  # type: ignore[type-arg]
    return json.loads(ok(run, "event", "show", EVENT, "-o", "json"))


def cells(path: Path) -> dict[str, list[list[object]]]:
    from openpyxl import load_workbook

    book = load_workbook(path)
    return {sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)] for sheet in book}


def test_every_print_and_codes_only_on_the_slips(paired: Run, tmp_path: Path) -> None:
    out = tmp_path / "round1.xlsx"
    assert ok(paired, "event", "print", EVENT, str(out)).strip() == f"wrote {out}"
    sheets = cells(out)
    assert list(sheets) == ["By table", "By name", "Slips", "Standings"]
    codes = {p["player"]: p["code"] for p in shown(paired)["players"]}
    tables = [s for s in shown(paired)["rounds"]]
    for title in ("By table", "By name", "Standings"):
        text = str(sheets[title])
        assert not any(code in text for code in codes.values()), title
    by_name = [row for row in sheets["By name"][3:] if row[0]]
    assert [row[0] for row in by_name] == sorted(PLAYERS)  # every player, the bye's too
    slips = [row for row in sheets["Slips"] if row[0] in codes]
    assert len(slips) == 2 * sum(1 for t in tables if t["second"])  # the bye has no slip
    assert all(row[1] == codes[row[0]] for row in slips)  # each code on its player's row
    bye = next(t for t in tables if not t["second"])
    assert [bye["table"], bye["first"], 0, "(bye)"] == sheets["By table"][3 + bye["table"] - 1][:4]


def test_slips_without_codes_and_one_print_alone(paired: Run, tmp_path: Path) -> None:
    out = tmp_path / "slips.xlsx"
    ok(paired, "event", "print", EVENT, str(out), "--what", "slips", "--no-codes")
    sheets = cells(out)
    assert list(sheets) == ["Slips"]
    codes = [p["code"] for p in shown(paired)["players"]]
    assert not any(code in str(sheets["Slips"]) for code in codes)
    ok(paired, "event", "print", EVENT, str(tmp_path / "s.xlsx"), "--what", "standings")
    assert list(cells(tmp_path / "s.xlsx")) == ["Standings"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--what", "tables"], "--what 'tables': print one of pairings, slips, standings, all"),
        (["--force", "--what", "x"], "--what 'x'"),
    ],
)
def test_bad_prints_are_one_line(paired: Run, tmp_path: Path, args: list[str], said: str) -> None:
    result = paired("event", "print", EVENT, str(tmp_path / "r.xlsx"), *args)
    assert said in assert_one_line(result)
    assert not (tmp_path / "r.xlsx").exists()


def test_a_print_is_not_overwritten_without_force(paired: Run, tmp_path: Path) -> None:
    out = tmp_path / "round1.xlsx"
    out.write_text("keep")
    assert "add --force" in assert_one_line(paired("event", "print", EVENT, str(out)))
    assert out.read_text() == "keep"
    ok(paired, "event", "print", EVENT, str(out), "--force")
    bad = paired("event", "print", EVENT, str(tmp_path / "round1.pdf"))
    assert "can write .xlsx" in assert_one_line(bad)


def test_nothing_to_print_before_round_1(run: Run, tmp_path: Path) -> None:
    ok(run, "event", "create", EVENT, "-f", "free-realms")
    result = run("event", "print", EVENT, str(tmp_path / "r.xlsx"))
    assert "no round paired yet" in assert_one_line(result)


@pytest.mark.slow
@pytest.mark.skipif(bool(preview_tool.missing_tools()), reason="needs soffice and poppler-utils")
def test_printed_in_libreoffice(paired: Run, tmp_path: Path) -> None:
    """13 players: 7 tables, one a bye, so 6 slips, five to a page: two pages of slips."""
    tables = shown(paired)["rounds"]
    for table in tables[:3]:
        if table["second"]:
            ok(paired, "event", "report", EVENT, "--table", str(table["table"]), "2-1")
    out = tmp_path / "round1.xlsx"
    ok(paired, "event", "print", EVENT, str(out))
    pages = printed(out, tmp_path)
    assert [page.landscape for page in pages] == [False] * 5
    by_table, by_name, *slips, standings = pages
    assert "Spring Open, round 1: pairings by table" in by_table.text
    first = tables[0]
    assert re.search(rf"\b1\s+{first['first']}\s+0\s+{first['second']}\s+0", by_table.text)
    assert re.search(r"Player\s+Table\s+Opponent", by_name.text)
    assert [line.split()[0] for line in by_name.text.splitlines()[3:] if line.strip()][
        : len(PLAYERS)
    ] == sorted(PLAYERS)
    assert len(slips) == 2
    said = "".join(page.text for page in slips)
    assert said.count("Best of 3.") == 6 and said.count("Signature") == 6
    assert "table 1\n" in slips[0].text and "table 6" not in slips[0].text
    codes = {p["player"]: p["code"] for p in shown(paired)["players"]}
    assert re.search(rf"{first['first']}\s+{codes[first['first']]}", slips[0].text)
    assert re.search(r"Place\s+Player\s+Points\s+Matches\s+OMW %\s+GW %\s+OGW %", standings.text)
    assert "standings in round 1" in standings.text
    assert not any(code in by_table.text + by_name.text + standings.text for code in codes.values())
