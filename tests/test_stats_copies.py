"""`cardbase stats` per location and per condition, beside the completion tables."""

from __future__ import annotations

import csv
import json

from tests.helpers import Run
from tests.test_sheet_holdings import add_collector


def held(run: Run) -> None:
    run("add", "1 U 15 x3", "1 U 15 foil", "1 C 1")
    run("add", "1 C 41 x2", "--location", "Binder 1", "--condition", "lp")
    run("add", "1 U 15", "--location", "binder 1", "--condition", "dmg")  # Binder 1's spelling
    run("add", "1 E 162", "--location", "a box", "--condition", "mint", "--tag", "trade")


def test_json_per_location_and_condition(run: Run) -> None:
    held(run)
    found = json.loads(run("stats", "-o", "json").stdout)
    assert [(r["group"], r["key"], r["copies"], r["foil"], r["distinct"])
            for r in found["location"]] == [
        ("a box", "a box", 1, 0, 1),
        ("Binder 1", "Binder 1", 3, 0, 2),
        ("(no location)", "", 5, 1, 2),
    ]  # fmt: skip
    assert [(r["key"], r["copies"], r["nonfoil"], r["distinct"]) for r in found["condition"]] == [
        ("M", 1, 1, 1),
        ("NM", 5, 4, 2),
        ("LP", 2, 2, 1),
        ("DMG", 1, 1, 1),
    ]
    copies = found["totals"]["cards"]
    assert sum(r["copies"] for r in found["location"]) == copies == 9
    assert sum(r["copies"] for r in found["condition"]) == copies
    assert found["series"] and found["set"] and found["sphere"]


def test_table_and_csv(run: Run) -> None:
    held(run)
    table = run("stats").stdout
    assert "Location" in table and "(no location)" in table
    assert table.index("M (Mint)") < table.index("NM (Near Mint)") < table.index("DMG (Damaged)")
    rows = list(csv.reader(run("stats", "-o", "csv").stdout.splitlines()))
    assert rows[0] == ["by", "group", "catalogue", "nonfoil", "foil", "either", "copies",
                       "distinct"]  # fmt: skip
    assert ["location", "(no location)", "", "", "", "", "5", "2"] in rows
    assert ["condition", "LP (Lightly Played)", "", "", "", "", "2", "1"] in rows
    assert rows[1][0] == "series" and rows[1][-2:] == ["", ""]


def test_an_empty_collection_and_another_collector(run: Run) -> None:
    empty = json.loads(run("stats", "-o", "json").stdout)
    assert (empty["location"], empty["condition"]) == ([], [])
    assert "Location" not in run("stats").stdout
    held(run)
    add_collector(run.db_path, "Bob")
    run("add", "1 C 14 x2", "--location", "Shop", "--collector", "Bob")
    bob = json.loads(run("stats", "-o", "json", "--collector", "Bob").stdout)
    assert [(r["group"], r["copies"]) for r in bob["location"]] == [("Shop", 2)]
    assert [(r["key"], r["copies"]) for r in bob["condition"]] == [("NM", 2)]


def test_an_unknown_game_is_refused(run: Run) -> None:
    """`stats --game nope` printed empty tables, exit 0; a game's name in another case
    ('Wildhearts') counted nothing."""
    refused = run("stats", "--game", "nope")
    assert refused.exit_code == 2
    assert "stats --game: no game 'nope'" in refused.stderr and "wildhearts" in refused.stderr
    assert "Traceback" not in refused.output
    cased = run("stats", "--game", "Free-Realms", "-o", "json")
    assert cased.exit_code == 0, cased.output
    assert cased.stdout == run("stats", "-o", "json").stdout
