"""The foundation commands through the CLI, as a user types them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardbase.cli import app
from tests.helpers import ROOT, Run, subprocess_env

HEADER = "code,name,type,hero,sphere,traits,cost,attack,defense,gems,text,lore\n"


def one_line_error(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_search_lists_the_catalogue_and_matches_names(run: Run) -> None:
    everything = json.loads(run("search", "-o", "json").stdout)
    assert len(everything) == 22
    found = json.loads(run("search", "chugawug", "-o", "json").stdout)
    # name, traits and text ("Your Chugawugs get ..."), plurals included
    assert {card["code"] for card in found} == {"1 C 14", "1 U 15", "2 C 101", "1 R 20"}
    assert run("search", "chugawug", "--count").stdout.strip() == "4"


def test_search_table_and_csv(run: Run) -> None:
    table = run("search", "clockwork").stdout
    assert "Clockwork Dragonfly" in table
    assert "1 E 82" in table
    assert "Exclusive" in table
    csv_text = run("search", "clockwork", "-o", "csv").stdout.splitlines()
    assert csv_text[0].startswith("code,series,rarity,number,set_name,name,type")
    assert len(csv_text) == 3


def test_card_json_object_has_the_documented_fields(run: Run) -> None:
    card = json.loads(run("show", "1 E 162", "-o", "json").stdout)
    assert card == {
        "code": "1 E 162",
        "series": 1,
        "rarity": "E",
        "number": 162,
        "set_name": "FreeRealms",
        "name": "Old Mossbeard",
        "names": {},
        "type": "Creature",
        "hero": True,
        "sphere": None,
        "traits": ["Forest Troll", "Unique"],
        "cost": 6,
        "attack": 6,
        "defense": 8,
        "gems": "GG",
        "text": "Collect 4: [Spend 2] >> Ready all your creatures.",
        "lore": "",
        "artist": "",
        "game": "free-realms",
        "nonfoil": 0,
        "foil": 0,
    }


def test_code_command(run: Run) -> None:
    result = run("code", "1u132", "-o", "json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert {k: data[k] for k in ("code", "series", "rarity", "number")} == {
        "code": "1 U 132",
        "series": 1,
        "rarity": "U",
        "number": 132,
    }
    assert data["card"]["name"] == "Ninja Blade Adept"
    text = run("code", "01-u-132").stdout
    assert "1 U 132: series 1, Uncommon, card 132" in text
    assert "Ninja Blade Adept" in text


@pytest.mark.parametrize("output", ["table", "json"])
def test_code_with_no_card_exits_2_as_show_does(run: Run, output: str) -> None:
    for command in ("code", "show"):
        line = one_line_error(run(command, "5 C 5", "-o", output))
        assert line == "cardbase: no card has the code 5 C 5"


def test_bad_code_is_one_line_and_exit_2(run: Run) -> None:
    line = one_line_error(run("code", "1 X 132"))
    assert line == "cardbase: 1 X 132: rarity 'X' is not one of C U R E P S"


def test_catalog_import_reports_counts(run: Run, tmp_path: Path) -> None:
    source = tmp_path / "new.csv"
    source.write_text(HEADER + "3 C 1,Brand New,Trick,,Order,,1,,,Y,,\n")
    result = run("catalog", "import", str(source))
    assert result.exit_code == 0
    assert "1 added, 0 updated, 0 unchanged, 0 skipped" in result.stdout
    assert json.loads(run("catalog", "import", str(source), "-o", "json").stdout)["unchanged"] == 1


def test_catalog_import_bad_rows_exit_2_and_change_nothing(
    run: Run, tmp_path: Path, checksum
) -> None:
    source = tmp_path / "bad.csv"
    source.write_text(
        HEADER + "3 C 1,Brand New,Trick,,Order,,1,,,Y,,\n3 C 2,Odd,Trick,,Ordor,,1,,,Y,,\n"
    )
    before = checksum(run.db_path)
    result = run("catalog", "import", str(source))
    assert result.exit_code == 2
    assert "1 bad row, so nothing was imported" in result.stderr
    assert (
        "row 3: sphere 'Ordor' is not one of Chaos, Nature, Machine, Order; did you mean Order?"
        in result.stderr
    )
    assert checksum(run.db_path) == before
    skipped = run("catalog", "import", str(source), "--skip-bad")
    assert skipped.exit_code == 0
    assert "1 added" in skipped.stdout
    assert "skipped:" in skipped.stderr


def test_catalog_import_missing_file(run: Run, tmp_path: Path) -> None:
    line = one_line_error(run("catalog", "import", str(tmp_path / "nope.csv")))
    assert "nope.csv: cannot read the file" in line


def test_bad_database_file_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00\x01garbage" * 500)
    result = CliRunner().invoke(app, ["--db", str(junk), "search"])
    assert "not a cardbase database" in one_line_error(result)


def test_first_run_creates_the_default_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the default location (platformdirs': $XDG_DATA_HOME here) gets its folders made."""
    target = tmp_path / "fresh" / "cardbase" / "cardbase.db"
    monkeypatch.delenv("CARDBASE_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "fresh"))
    result = CliRunner().invoke(app, ["search", "chugawug cook", "-o", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)[0]["code"] == "1 C 14"
    assert target.exists()


def _commands(group, prefix=()):
    from typer.main import get_command

    command = get_command(group) if not hasattr(group, "commands") else group
    for name, sub in command.commands.items():
        if hasattr(sub, "commands"):
            yield from _commands(sub, (*prefix, name))
        else:
            yield (*prefix, name), sub


def test_every_command_has_help_with_an_example() -> None:
    commands = list(_commands(app))
    assert len(commands) >= 4
    for path, command in commands:
        assert command.help, path
        assert "Example: cardbase" in command.help, path
        result = CliRunner().invoke(app, [*path, "--help"])
        assert result.exit_code == 0, path
        assert "Example" in result.stdout, path
        # Each example on a line of its own, whole, as typed (click's \b keeps the lines):
        # `deck sleeve --help` ran its two examples together as one paragraph.
        examples = [line.strip() for line in command.help.splitlines() if "Example:" in line]
        shown = [line.strip() for line in result.stdout.splitlines() if "Example" in line]
        assert shown == examples, path
        assert all(example.startswith("Example: cardbase ") for example in examples), path


def test_card_keys_match_the_card_object(run: Run) -> None:
    from cardbase.fields import JSON_KEYS as CARD_KEYS

    assert tuple(json.loads(run("show", "1 U 15", "-o", "json").stdout)) == CARD_KEYS
    # CSV has the same columns, but the names in other languages, a column each (name_de ...)
    csv_header = run("search", "nothing-at-all-matches", "-o", "csv").stdout.strip().split(",")
    names_at = CARD_KEYS.index("names")
    assert csv_header[:names_at] == list(CARD_KEYS[:names_at])
    assert csv_header[names_at : names_at + 7] == [
        "name_de", "name_en_gb", "name_es", "name_es_mx", "name_fr", "name_pt_br", "name_zh_cn",
    ]  # fmt: skip
    assert csv_header[names_at + 7 :] == list(CARD_KEYS[names_at + 1 :])


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["search", "x"], "search"),
        (["--db", "a.db", "deck", "check", "f"], "deck"),
        (["--db=a.db", "--debug", "code", "1U1"], "code"),
        (["--help"], None),
        ([], None),
        (["--db", "a.db"], None),
    ],
)
def test_invoked_name(args: list[str], name: str | None) -> None:
    from cardbase.cli import invoked_name

    assert invoked_name(args) == name


def test_the_installed_entry_point_runs_only_what_it_needs(db_path: Path) -> None:
    from cardbase.cli import app, lean_app

    assert [c.callback.__name__ for c in lean_app(["search"]).registered_commands] == ["run"]
    assert lean_app(["nosuch"]) is app
    assert lean_app(["--help"]) is app
    assert len(lean_app(["deck", "check"]).registered_groups) == 1
    found = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardbase",
            "--db",
            str(db_path),
            "search",
            "chugawug",
            "-o",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=subprocess_env(),
    )
    assert len(json.loads(found.stdout)) == 4
    helped = subprocess.run(
        [sys.executable, "-m", "cardbase", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=subprocess_env(),
    )
    commands = ("search", "deck", "trade", "import", "doctor")
    assert [name for name in commands if name not in helped.stdout] == []
    unknown = subprocess.run(
        [sys.executable, "-m", "cardbase", "nosuch"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=subprocess_env(),
    )
    assert unknown.returncode == 2
    assert "No such command" in unknown.stderr


def test_long_tables_on_a_terminal_are_printed_plain(monkeypatch, capsys) -> None:
    from cardbase.cli import render

    monkeypatch.setattr(render, "use_rich", lambda: True)
    monkeypatch.setattr(render, "RICH_MAX_ROWS", 3)
    render.print_table(("Code", "Name"), [("1 C 1", "A"), ("1 C 2", "B")])
    boxed = capsys.readouterr().out
    assert "┃" in boxed or "│" in boxed
    render.print_table(("Code", "Name"), [(f"1 C {n}", "A") for n in range(1, 5)])
    plain = capsys.readouterr().out
    assert "│" not in plain
    assert plain.splitlines() == [
        "Code   Name",
        "1 C 1  A",
        "1 C 2  A",
        "1 C 3  A",
        "1 C 4  A",
    ]


# Runs one command in a fresh interpreter, then reports its exit code and which of the
# write-side libraries it imported, to the file named by the first argument.
IMPORT_PROBE = """
import json, sys
report, sys.argv = sys.argv[1], ["cardbase", *sys.argv[2:]]
from cardbase.cli import main
try:
    main()
    code = 0
except SystemExit as exit:
    code = exit.code or 0
heavy = sorted({name.split(".")[0] for name in sys.modules} & {"sqlalchemy", "sqlmodel", "openpyxl"})
with open(report, "w") as out:
    json.dump({"exit": code, "heavy": heavy}, out)
"""


def imports_of(db_path: Path, tmp_path: Path, *args: str) -> dict:
    report = tmp_path / "report.json"
    command = [sys.executable, "-c", IMPORT_PROBE, str(report), "--db", str(db_path), *args]
    subprocess.run(command, cwd=ROOT, env=subprocess_env(), capture_output=True, check=True)
    return json.loads(report.read_text())


@pytest.mark.parametrize(
    "args",
    [
        ["search", "chugawug"],
        ["search", "s:chaos t:creature", "-o", "json"],
        ["show", "1 U 132"],
        ["show", "chugawug elder", "-o", "json"],
        ["code", "1u132"],
        ["collection"],
        ["stats"],
    ],
    ids=" ".join,
)
def test_read_commands_import_no_write_libraries(
    db_path: Path, tmp_path: Path, args: list[str]
) -> None:
    Run(db_path)("add", "1 U 132")  # the database exists and has something to show
    assert imports_of(db_path, tmp_path, *args) == {"exit": 0, "heavy": []}


def test_the_import_probe_sees_a_write_library(db_path: Path, tmp_path: Path) -> None:
    found = imports_of(db_path, tmp_path, "export", str(tmp_path / "out.xlsx"))
    assert found == {"exit": 0, "heavy": ["openpyxl"]}


def test_ctrl_c_is_one_line_and_exit_130(
    run: Run, monkeypatch: pytest.MonkeyPatch, checksum
) -> None:
    """An interrupted command says so and exits 130, as shells expect; a write rolls back."""
    from cardbase.collection import store

    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    before = checksum(run.db_path)
    monkeypatch.setattr(store, "write_changes", interrupted)
    result = run("add", "1 U 15")
    assert result.exit_code == 130
    assert result.stderr == "cardbase: interrupted; nothing was changed\n"
    assert checksum(run.db_path) == before


def test_each_command_is_found_in_the_module_that_registers_it() -> None:
    """`main` imports only the invoked command's module, by COMMAND_MODULES: it must not
    drift from what the modules register."""
    from cardbase.cli import COMMAND_MODULES, _command_name, app

    registered = {
        _command_name(info): info.callback.__module__
        for info in app.registered_commands
        if info.callback is not None
    }
    for group in app.registered_groups:
        first = group.typer_instance.registered_commands[0].callback
        registered[group.name] = first.__module__
    expected = {name: f"cardbase.cli.{module}" for name, module in COMMAND_MODULES.items()}
    assert registered == expected


def test_a_search_imports_only_its_own_command_module(db_path: Path) -> None:
    script = (
        "import sys\n"
        "sys.argv = ['cardbase', '--db', sys.argv[1], 'search', 'chugawug']\n"
        "from cardbase.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('cardbase.cli.')))\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", script, str(db_path)],
        capture_output=True, text=True, env=subprocess_env(), check=True,
    )  # fmt: skip
    loaded = found.stdout.strip().splitlines()[-1]
    assert "cardbase.cli.decks" not in loaded
    assert "cardbase.cli.search" in loaded


@pytest.mark.parametrize(
    ("code", "cost"),
    [("1 C 21", "1 star"), ("1 C 51", "2 stars"), ("1 C 14", "2 coins"), ("1 C 1", "1 coin")],
)
def test_show_counts_the_cost_in_its_unit(run: Run, code: str, cost: str) -> None:
    assert re.search(rf"^Cost +{cost}$", run("show", code).stdout, re.M)


def test_a_player_count_below_one_is_bad_input(run: Run, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Chugawug Cook\n")
    result = run("deck", "check", str(deck), "--players", "0")
    assert result.exit_code == 2
    assert "0 is not in the range x>=1" in result.output


def test_a_database_named_by_db_is_made_without_a_notice(tmp_path: Path) -> None:
    """The notice is for the default database only (tests/test_first_run.py)."""
    path = tmp_path / "cards.db"
    run = Run(path)
    first = run("search", "chugawug")
    assert first.exit_code == 0 and "Chugawug Cook" in first.stdout
    assert "a new database" not in first.stderr
