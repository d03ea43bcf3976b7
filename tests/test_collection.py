"""Ownership through the library and the CLI: changes, all-or-nothing, history, undo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbase.catalog.names import NameResolver
from cardbase.collection.changes import Mode, Request
from cardbase.collection.store import change_collection, undo_last
from cardbase.errors import CardbaseError
from cardbase.library import Library
from tests.helpers import (
    MINI_CATALOGUE,
    ROOT,
    Run,
    copy_database,
    new_database,
    owned,
    subprocess_env,
)


def test_add_by_code_name_count_and_finish(run: Run) -> None:
    result = run("add", "1 U 132", "Chugawug Elder x2", '3x"1 C 14"', "2 1 C 41 foil")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "Chugawug Cook (1 C 14) non-foil: 0 -> 3",
        "Chugawug Elder (1 U 15) non-foil: 0 -> 2",
        "Robgoblin Scrapper (1 C 41) foil: 0 -> 2",
        "Ninja Blade Adept (1 U 132) non-foil: 0 -> 1",
    ]
    assert owned(run) == {
        ("1 C 14", "nonfoil"): 3,
        ("1 U 15", "nonfoil"): 2,
        ("1 C 41", "foil"): 2,
        ("1 U 132", "nonfoil"): 1,
    }


def test_foil_flag_and_repeated_items_add_up(run: Run) -> None:
    run("add", "1 C 41", "1 C 41", "Robgoblin Scrapper x2 nonfoil", "--foil")
    assert owned(run) == {("1 C 41", "foil"): 2, ("1 C 41", "nonfoil"): 2}


def test_add_from_stdin(run: Run) -> None:
    pasted = "# my binder\n2 1 U 132 foil\nChugawug Elder x3\n\n// done\n1-u-15\n"
    result = run("add", "-", input=pasted)
    assert result.exit_code == 0, result.output
    assert owned(run) == {("1 U 132", "foil"): 2, ("1 U 15", "nonfoil"): 4}


@pytest.mark.parametrize(
    "line", ["Chugawug Elder // from Bob", "Chugawug Elder # from Bob", "  // from Bob", "# x"]
)
def test_add_from_stdin_reads_comments_as_deck_lists_do(run: Run, line: str) -> None:
    """A comment is a whole line, in `add -` as in a deck list (docs/collections.md): a `//`
    or `#` after a card is part of the line, so the line names no card, in both."""
    from cardbase.collection.items import item_lines
    from cardbase.decks.lists import parse_deck_text

    in_deck = parse_deck_text(f"{line}\n", "deck.txt")
    skipped = not (in_deck.lines or in_deck.problems)
    assert (item_lines(["-"], f"{line}\n") == []) == skipped
    result = run("add", "-", input=f"1 U 15\n{line}\n")
    if skipped:
        assert result.exit_code == 0, result.output
    else:
        assert [entry.card for entry in in_deck.lines] == [line.strip()]  # a name to resolve
        assert result.exit_code == 2
        assert f"no card named '{line}'. Did you mean Chugawug Elder" in result.stderr
        assert owned(run) == {}


def test_remove_more_than_owned_changes_nothing(run: Run, checksum) -> None:
    run("add", "1 U 15 x2", "1 U 132")
    before = checksum(run.db_path)
    result = run("remove", "1 U 132", "Chugawug Elder x3")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "cardbase: cannot remove 3 non-foil Chugawug Elder (1 U 15): you own 2 non-foil. "
        "Nothing was changed."
    )
    assert checksum(run.db_path) == before


def test_unknown_and_ambiguous_cards_change_nothing(run: Run, checksum) -> None:
    before = checksum(run.db_path)
    result = run("add", "1 U 132", "Chugawug Eldr")
    assert result.exit_code == 2
    assert "no card named 'Chugawug Eldr'. Did you mean Chugawug Elder (1 U 15)?" in result.stderr
    ambiguous = run("add", "Chugawug Cook")
    assert ambiguous.exit_code == 2
    assert "printed as 1 C 14, 2 C 101" in ambiguous.stderr
    assert checksum(run.db_path) == before


def test_set_and_clear(run: Run) -> None:
    run("add", "1 U 15 x2", "1 U 15 foil")
    run("set", "Chugawug Elder x5", "1 U 15 x0 foil")
    assert owned(run) == {("1 U 15", "nonfoil"): 5}
    assert run("set", "Chugawug Elder x5").stdout.strip() == "Nothing changed."


def test_dry_run_writes_nothing(run: Run, checksum) -> None:
    before = checksum(run.db_path)
    result = run("add", "1 U 15", "--dry-run")
    assert "would change: Chugawug Elder (1 U 15) non-foil: 0 -> 1" in result.stdout
    assert checksum(run.db_path) == before


def test_history_and_undo(run: Run) -> None:
    run("add", "1 U 15 x2")
    run("add", "-", input="1 U 132 foil\n1 C 41\n")
    history = json.loads(run("history", "-o", "json").stdout)
    assert [batch["source"] for batch in history] == ["add (2 lines)", "add '1 U 15 x2'"]
    plain = {"condition": "NM", "language": "en", "location": "", "tags": []}
    assert history[0]["changes"] == [
        {"code": "1 C 41", "name": "Robgoblin Scrapper", "finish": "nonfoil", **plain, "delta": 1},
        {"code": "1 U 132", "name": "Ninja Blade Adept", "finish": "foil", **plain, "delta": 1},
    ]
    undone = run("undo")
    assert undone.stdout.splitlines()[0].startswith("Undid add (2 lines) (")
    assert undone.stdout.splitlines()[0].endswith(", batch 2), 2 changes:")
    assert owned(run) == {("1 U 15", "nonfoil"): 2}
    run("undo")
    assert owned(run) == {}
    assert run("undo").stdout.strip() == "Nothing to undo."
    assert "(undone)" in run("history").stdout


def test_collection_totals_and_filters(run: Run) -> None:
    run("add", "1 U 15 x2", "1 C 41 foil", "1 C 41")
    text = run("collection").stdout
    assert "4 cards (3 non-foil, 1 foil), 2 distinct" in text
    chaos = run("collection", "s:chaos")
    assert "Robgoblin Scrapper" in chaos.stdout
    assert "Chugawug Elder" not in chaos.stdout
    assert "2 cards (1 non-foil, 1 foil), 1 distinct" in chaos.stdout


def test_stats_and_missing(run: Run) -> None:
    run("add", "1 U 15", "1 U 42 foil")
    stats = json.loads(run("stats", "-o", "json").stdout)
    assert stats["totals"] == {"cards": 2, "nonfoil": 1, "foil": 1, "distinct": 2}
    uncommon = next(row for row in stats["set"] if row["group"] == "1 FreeRealms uncommon")
    assert uncommon == {
        "group": "1 FreeRealms uncommon",
        "catalogue": 4,
        "nonfoil": 1,
        "foil": 1,
        "either": 2,
    }
    missing = json.loads(run("missing", "--series", "1", "--rarity", "U", "-o", "json").stdout)
    assert [card["code"] for card in missing] == ["1 U 92", "1 U 132"]
    missing_foil = json.loads(
        run("missing", "--series", "1", "--rarity", "U", "--foil", "-o", "json").stdout
    )
    assert [card["code"] for card in missing_foil] == ["1 U 15", "1 U 92", "1 U 132"]
    assert "1 FreeRealms" in run("stats").stdout


# -- properties ---------------------------------------------------------------------------

CODES = ["1 C 1", "1 U 15", "1 C 41", "2 U 102"]
operations = st.lists(
    st.tuples(
        st.sampled_from([Mode.ADD, Mode.REMOVE]),
        st.lists(
            st.tuples(
                st.sampled_from(CODES), st.sampled_from(["nonfoil", "foil"]), st.integers(1, 4)
            ),
            min_size=1,
            max_size=3,
        ),
    ),
    min_size=1,
    max_size=8,
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    new_database(path, MINI_CATALOGUE)
    return path


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations)
def test_counts_follow_a_model_and_undo_restores_every_state(
    template: Path, tmp_path: Path, ops: list
) -> None:
    path = tmp_path / f"model-{os.getpid()}-{abs(hash(str(ops)))}.db"
    copy_database(template, path)
    conn = Library(path).connect()
    resolver = NameResolver(conn)
    cards = {code: resolver.card(code) for code in CODES}
    model: dict[tuple[str, str], int] = {}
    states = [dict(model)]
    for mode, items in ops:
        requests = [Request(cards[code], finish, n) for code, finish, n in items]
        after = dict(model)
        for code, finish, n in items:
            after[(code, finish)] = after.get((code, finish), 0) + (n if mode is Mode.ADD else -n)
        try:
            changes = change_collection(Library(path), requests, mode, f"test {mode}")
        except CardbaseError:
            # refused only when it would go negative
            assert any(v < 0 for v in after.values()), after
            continue
        assert [key for key, v in after.items() if v < 0] == []
        model = {k: v for k, v in after.items() if v}
        if changes:
            states.append(dict(model))
        assert _counts(conn) == model
    while len(states) > 1:
        states.pop()
        assert undo_last(Library(path)) is not None
        assert _counts(conn) == states[-1]
    conn.close()
    path.unlink()


def _counts(conn) -> dict[tuple[str, str], int]:
    rows = conn.execute(
        "SELECT c.series || ' ' || c.rarity || ' ' || c.number, o.nonfoil, o.foil "
        "FROM ownership o JOIN card c ON c.id = o.card_id"
    ).fetchall()
    counts = {}
    for code, nonfoil, foil in rows:
        assert nonfoil >= 0
        assert foil >= 0
        if nonfoil:
            counts[(code, "nonfoil")] = nonfoil
        if foil:
            counts[(code, "foil")] = foil
    return counts


@pytest.mark.slow
def test_two_commands_at_once_both_count(db_path: Path) -> None:
    script = (
        "import sys\n"
        "from cardbase.cli import main\n"
        "path = sys.argv[1]\n"
        "for _ in range(15):\n"
        "    try:\n"
        "        sys.argv = ['cardbase', '--db', path, 'add', '1 U 15']\n"
        "        main()\n"
        "    except SystemExit as exit:\n"
        "        assert not exit.code, exit.code\n"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(db_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=subprocess_env(),
        )
        for _ in range(2)
    ]
    for worker in workers:
        _, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err.decode()
    conn = Library(db_path).connect()
    assert conn.execute("SELECT nonfoil FROM ownership").fetchone()[0] == 30
    assert conn.execute("SELECT count(*) FROM batch").fetchone()[0] == 30


def test_one_pasted_line_is_one_line_in_history(run: Run) -> None:
    run("add", "-", input="1 C 14 x2\n")
    run("move", "-", "--to", "Box", input="1 C 14\n")
    history = json.loads(run("history", "-o", "json").stdout)
    assert [batch["source"] for batch in history] == ["move (1 line)", "add (1 line)"]
