"""redo: re-applies the change last undone, exactly (holdings, notes, totals); undo and redo
alternate; a new change forgets what could be redone, as an editor's redo does."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.helpers import Run
from tests.test_collectors import holdings, totals

# Changes that split, move, tag, re-note and drop holdings: what undo and redo must restore.
OPS: list[tuple[str, ...]] = [
    ("add", "1 C 14 x2", "--note", "from Bob"),
    ("add", "1 C 14", "--note", "from Ann"),
    ("add", "1 U 132 foil lp fr", "--location", "Binder 1", "--tag", "trade"),
    ("remove", "1 C 14"),
    ("tag", "signed", "1 C 14 x1"),
    ("move", "1 U 132", "--to", "Box"),
    ("set", "1 C 41 x3", "--note", "playset"),
    ("set", "1 C 41 x0"),
    ("untag", "trade", "1 U 132"),
    ("add", "2 C 101 foil", "--condition", "mp"),
]


def state(db_path: Path) -> tuple[list[tuple], list[tuple]]:
    return holdings(db_path), totals(db_path)


def test_undo_and_redo_alternate(run: Run, db_path: Path) -> None:
    assert run("add", "1 C 14 x2", "--note", "from Bob").exit_code == 0
    first = state(db_path)
    assert run("add", "1 C 14", "--note", "from Ann").exit_code == 0
    second = state(db_path)
    for _ in range(3):
        assert run("undo").exit_code == 0
        assert state(db_path) == first
        assert run("redo").exit_code == 0
        assert state(db_path) == second
    run("undo")
    run("undo")
    assert holdings(db_path) == []
    assert "Redid add '1 C 14 x2'" in run("redo").stdout
    assert state(db_path) == first
    assert "Redid add '1 C 14'" in run("redo").stdout
    assert state(db_path) == second
    assert run("redo").stdout == "Nothing to redo.\n"


def test_a_new_change_forgets_what_could_be_redone(run: Run, db_path: Path) -> None:
    run("add", "1 C 14")
    run("add", "1 C 41")
    run("undo")
    run("add", "1 U 132")
    after = state(db_path)
    assert run("redo").stdout == "Nothing to redo.\n"
    # ... and still, once that change is undone: 1 C 41's add was made on another collection
    assert "Undid add '1 U 132'" in run("undo").stdout
    assert "Redid add '1 U 132'" in run("redo").stdout
    assert state(db_path) == after
    assert run("redo").stdout == "Nothing to redo.\n"


def test_redo_follows_the_order_of_the_undos(run: Run, db_path: Path) -> None:
    """add A, add B, undo (B), add C, undo (C), undo (A): redo brings back A, then C; B's redo
    went when C was made."""
    run("add", "1 C 14")
    with_a = state(db_path)
    run("add", "1 C 41")
    run("undo")
    run("add", "1 U 132")
    with_c = state(db_path)
    run("undo")
    run("undo")
    assert holdings(db_path) == []
    assert "Redid add '1 C 14'" in run("redo").stdout
    assert state(db_path) == with_a
    assert "Redid add '1 U 132'" in run("redo").stdout
    assert state(db_path) == with_c
    assert run("redo").stdout == "Nothing to redo.\n"


def test_redo_is_per_collector(run: Run, db_path: Path) -> None:
    run("collectors", "add", "Alice")
    run("add", "1 C 14", "--collector", "Alice")
    run("add", "1 C 41")
    run("undo", "--collector", "Alice")
    assert run("redo").stdout == "Nothing to redo.\n"
    assert "Redid" in run("redo", "--collector", "Alice").stdout
    assert holdings(db_path, "Alice") == [("1 C 14", "nonfoil", "NM", "en", "", "", 1, "")]


def test_undo_and_redo_say_what_they_did(run: Run) -> None:
    run("add", "1 C 14 x2")
    undone = run("undo").stdout.splitlines()
    assert undone[0].startswith("Undid add '1 C 14 x2' (")
    assert undone[0].endswith(", batch 1), 1 change:")
    assert undone[1] == "  Chugawug Cook (1 C 14) non-foil: 2 -> 0"
    redone = json.loads(run("redo", "-o", "json").stdout)
    assert redone["source"] == "add '1 C 14 x2'"
    assert redone["undone"] is False
    assert redone["changes"][0]["delta"] == 2
    assert run("history").stdout.count("(undone)") == 0


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))])
def test_undo_and_redo_follow_a_model_of_two_stacks(run: Run, db_path: Path, seed: int) -> None:
    """Random changes, undos and redos; after each, the holdings and totals are those the
    model of an undo stack and a redo stack says."""
    rng = random.Random(seed)
    applied = [state(db_path)]
    undone: list[tuple[list[tuple], list[tuple]]] = []
    for _ in range(30):
        step = rng.choice(["change", "change", "undo", "redo"])
        if step == "change":
            result = run(*rng.choice(OPS))
            if result.exit_code != 0 or "Nothing changed" in result.stdout:
                assert state(db_path) == applied[-1]
                continue
            applied.append(state(db_path))
            undone.clear()
        elif step == "undo":
            run("undo")
            if len(applied) > 1:
                undone.append(applied.pop())
        else:
            run("redo")
            if undone:
                applied.append(undone.pop())
        assert state(db_path) == applied[-1], step
