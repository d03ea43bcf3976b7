"""The conventions of good CLIs: -o jsonl/tsv and --no-headers everywhere -o is, --db after
the command, --version, shell completion, NO_COLOR/FORCE_COLOR, confirmation before what
undo cannot take back, examples in every group's help."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cardbase.catalog.choice import REAL, SAMPLE, built_in
from cardbase.cli import app, lean_app
from tests.helpers import MINI_CATALOGUE, ROOT, Run, copy_database, new_database, subprocess_env

CLIENT = ROOT.parent / "shared" / "free-realms-client"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A database with holdings, a saved deck, a second collector and an undone change, and
    the files the commands read."""
    folder = tmp_path_factory.mktemp("conventions")
    path = folder / "base.db"
    new_database(path, MINI_CATALOGUE)
    deck = folder / "deck.txt"
    deck.write_text("3 Chugawug Cook\n2 Pixie Dewdancer\n")
    sheet = folder / "sheet.csv"
    sheet.write_text("Name,Qty\nChugawug Elder,1\n")
    run = Run(path)
    for args in (
        ["add", "1 C 14 x4", "1 U 132 foil", "2 C 101 x2 lp fr", "--tag", "trade"],
        ["add", "1 C 41"],
        ["undo"],
        ["deck", "save", str(deck), "--name", "Bog Stew"],
        ["collectors", "add", "Bob"],
        ["add", "1 E 82 x2", "1 C 1 x5", "--collector", "Bob"],
        *EVENT_SETUP,
    ):
        assert run(*args).exit_code == 0, args
    real = folder / "real.db"  # what the real client's texts and the move to it need
    new_database(real, built_in(REAL))
    sample = folder / "sample.db"
    new_database(sample, built_in(SAMPLE))
    files = {"deck": str(deck), "sheet": str(sheet), "catalogue": str(MINI_CATALOGUE),
             "out": str(folder / "event.json"), "prints": str(folder / "round.xlsx"),
             "game": str(ROOT / "cardbase" / "gamefiles" / "wildhearts.toml")}  # fmt: skip
    return path, {**files, "real": str(real), "sample": str(sample), "client": str(CLIENT)}


# Three events: one in round 1 with its tables open, one in registration, one whose Swiss
# round is over and whose top 2 can be cut.
EVENT_SETUP = [
    *(["event", "create", name, "--format", "free-realms", "--seed", "3", *more]
      for name, more in (("Open", []), ("Cup", []), ("Final", ["--rounds", "1", "--cut", "2"]))),
    *(["event", "register", name, player]
      for name in ("Open", "Cup", "Final") for player in ("Ann", "Bo", "Cy", "Di")),
    ["event", "pair", "Open"],
    ["event", "pair", "Final"],
    ["event", "report", "Final", "--table", "1", "2-0"],
    ["event", "report", "Final", "--table", "2", "2-1"],
]  # fmt: skip

# Every command with -o, with arguments that make it print data.
DATA_COMMANDS: dict[str, list[str]] = {
    "show": ["show", "1 U 132"],
    "code": ["code", "1 U 132"],
    "add": ["add", "1 C 1 x2", "1 C 14"],
    "remove": ["remove", "1 C 14"],
    "set": ["set", "1 C 14 x1", "1 C 1 x2"],
    "move": ["move", "1 C 14", "--to", "Box"],
    "tag": ["tag", "signed", "1 C 14"],
    "untag": ["untag", "trade", "2 C 101"],
    "undo": ["undo"],
    "redo": ["redo"],
    "history": ["history"],
    "stats": ["stats"],
    "missing": ["missing", "--series", "2"],
    "doctor": ["doctor"],
    "search": ["search", "chug*"],
    "collection": ["collection"],
    "import": ["import", "{sheet}"],
    "catalog import": ["catalog", "import", "{catalogue}"],
    "collectors list": ["collectors", "list"],
    "deck check": ["deck", "check", "{deck}"],
    "deck stats": ["deck", "stats", "{deck}"],
    "deck list": ["deck", "list"],
    "deck show": ["deck", "show", "Bog Stew"],
    "deck code": ["deck", "code", "Bog Stew"],
    "deck diff": ["deck", "diff", "Bog Stew", "{sheet}"],
    "deck history": ["deck", "history", "Bog Stew"],
    "deck restore": ["deck", "restore", "Bog Stew", "1"],
    "deck sleeve": ["deck", "sleeve", "Bog Stew", "--partial"],
    "deck unsleeve": ["deck", "unsleeve", "Bog Stew"],
    "deck hand": ["deck", "hand", "Bog Stew", "--cards", "2", "--seed", "1"],
    "deck odds": ["deck", "odds", "Bog Stew", "t:creature", "--cards", "2"],
    "deck build": ["deck", "build", "--sphere", "nature"],
    "deck proxies": ["deck", "proxies", "Bog Stew", "{pdf}"],
    "trade list": ["trade", "list"],
    "trade match": ["trade", "match", "--with", "Bob"],
    "trade lobby": ["trade", "lobby"],
    "trade make": ["trade", "make", "Bob", "--give", "1 C 14", "--get", "1 E 82"],
    "db copy": ["db", "copy", "{base}", "{new}"],
    "db init": ["db", "init", "--db", "{new}"],
    "event create": ["event", "create", "New", "--format", "free-realms", "--seed", "5"],
    "event list": ["event", "list"],
    "event show": ["event", "show", "Open"],
    "event register": ["event", "register", "Cup", "Hal"],
    "event drop": ["event", "drop", "Cup", "Ann"],
    "event pair": ["event", "pair", "Cup"],
    "event swap": ["event", "swap", "Open", "1", "2"],
    "event report": ["event", "report", "Open", "--table", "1", "2-1"],
    "event standings": ["event", "standings", "Open"],
    "event cut": ["event", "cut", "Final"],
    "event export": ["event", "export", "Open", "{out}", "--force"],
    "event publish": ["event", "publish", "Open"],
    "event pending": ["event", "pending", "Open"],
    "event confirm": ["event", "confirm", "Open", "1", "2-1"],
    "event print": ["event", "print", "Open", "{prints}", "--force"],
    "catalog import-client": [
        "catalog",
        "import-client",
        "{client}",
        "--dry-run",
        "--db",
        "{real}",
    ],
    "catalog move-to-real": ["catalog", "move-to-real", "--dry-run", "--db", "{sample}"],
    "games list": ["games", "list"],
    "games check": ["games", "check", "{game}"],
}


def commands_with_output() -> list[str]:
    found = []

    def walk(command: typer.core.TyperGroup | typer.core.TyperCommand, path: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])
        leaf = path and not hasattr(command, "commands")
        if leaf and any("--output" in getattr(p, "opts", ()) for p in command.params):
            found.append(" ".join(path))

    walk(typer.main.get_command(app), [])
    return found


def test_every_command_with_output_is_in_the_table() -> None:
    assert sorted(commands_with_output()) == sorted(DATA_COMMANDS)


def _run(base: tuple[Path, dict[str, str]], tmp_path: Path, name: str, *extra: str):
    """The command on a fresh copy of the base database, so writes do not add up."""
    if name == "catalog import-client" and not CLIENT.is_dir():
        pytest.skip(f"{CLIENT}: no client folder here")
    path, files = base
    copy = copy_database(path, tmp_path / f"{len(list(tmp_path.iterdir()))}.db")
    new = tmp_path / "copied.db"  # where `db copy` writes, anew each time
    new.unlink(missing_ok=True)
    pdf = tmp_path / "proxies.pdf"  # where `deck proxies` writes, anew each time
    pdf.unlink(missing_ok=True)
    args = [arg.format(**files, base=path, new=new, pdf=pdf) for arg in DATA_COMMANDS[name]]
    return Run(copy)(*args, *extra)


@pytest.mark.parametrize("name", sorted(DATA_COMMANDS))
def test_jsonl_is_json_one_object_a_line(
    base: tuple[Path, dict[str, str]], tmp_path: Path, name: str
) -> None:
    whole = _run(base, tmp_path, name, "-o", "json")
    lines = _run(base, tmp_path, name, "-o", "jsonl")
    assert whole.exit_code == lines.exit_code, whole.output + lines.output
    assert lines.exit_code in (0, 1), lines.output  # deck check and build: 1 is a verdict
    if name == "deck build":  # the mini catalogue holds no 40-card deck: a shortage, on stderr
        assert whole.stdout == lines.stdout == ""
        return
    value = json.loads(whole.stdout)
    rows = [json.loads(line) for line in lines.stdout.splitlines()]
    assert rows == (value if isinstance(value, list) else [value])
    assert value not in ([], None, {}), "the table should make every command print data"


CSV_COMMANDS = sorted(
    name
    for name in DATA_COMMANDS
    if name.split()[0] not in ("add", "remove", "set", "move", "tag", "untag", "undo", "redo")
    and name
    not in (
        "doctor",
        "import",
        "catalog import",
        "deck build",
        "deck proxies",
        "deck restore",
        "deck sleeve",
        "deck unsleeve",
        "trade match",
        "trade make",
        "catalog import-client",
        "catalog move-to-real",
        "db init",
        "event create",
        "event register",
        "event drop",
        "event report",
        "event export",
        "event publish",
        "event pending",
        "event confirm",
        "event print",
        "games check",
    )
)


@pytest.mark.parametrize("name", CSV_COMMANDS)
def test_tsv_is_csv_with_tabs_and_no_headers_drops_the_header(
    base: tuple[Path, dict[str, str]], tmp_path: Path, name: str
) -> None:
    commas = _run(base, tmp_path, name, "-o", "csv")
    tabs = _run(base, tmp_path, name, "-o", "tsv")
    bare = _run(base, tmp_path, name, "-o", "tsv", "--no-headers")
    assert commas.exit_code == tabs.exit_code == bare.exit_code, commas.output + tabs.output
    rows = list(csv.reader(io.StringIO(commas.stdout)))
    assert len(rows) >= 2, commas.stdout
    assert list(csv.reader(io.StringIO(tabs.stdout), delimiter="\t")) == rows
    assert "\t" in tabs.stdout
    assert list(csv.reader(io.StringIO(bare.stdout), delimiter="\t")) == rows[1:]
    bare_csv = _run(base, tmp_path, name, "-o", "csv", "--no-headers")
    assert list(csv.reader(io.StringIO(bare_csv.stdout))) == rows[1:]


def test_groups_with_output_take_no_headers(base: tuple[Path, dict[str, str]]) -> None:
    run = Run(base[0])
    with_header = run("collectors", "-o", "csv").stdout.splitlines()
    assert run("collectors", "-o", "csv", "--no-headers").stdout.splitlines() == with_header[1:]


@pytest.mark.parametrize("where", ["before", "after"])
def test_db_before_or_after_the_command(tmp_path: Path, where: str) -> None:
    path = tmp_path / "elsewhere.db"
    new_database(path, MINI_CATALOGUE)
    runner = CliRunner()
    args = ["add", "1 C 14"]
    given = ["--db", str(path), *args] if where == "before" else [*args, "--db", str(path)]
    assert runner.invoke(app, given).exit_code == 0
    found = runner.invoke(app, ["search", "--db", str(path), "is:owned", "-o", "json"])
    assert [card["code"] for card in json.loads(found.stdout)] == ["1 C 14"]
    deck = runner.invoke(app, ["deck", "list", "--db", str(path), "-o", "json"])
    assert deck.exit_code == 0 and json.loads(deck.stdout) == []


def test_db_after_the_collectors_listing(tmp_path: Path) -> None:
    """`cardbase collectors` lists as a command does, so it takes --db after it as well."""
    path = tmp_path / "elsewhere.db"
    new_database(path, MINI_CATALOGUE)
    runner = CliRunner()
    assert runner.invoke(app, ["collectors", "add", "Bob", "--db", str(path)]).exit_code == 0
    listed = runner.invoke(app, ["collectors", "--db", str(path), "-o", "json"])
    assert listed.exit_code == 0, listed.output
    assert sorted(c["name"] for c in json.loads(listed.stdout)) == ["Bob", "me"]


def test_version() -> None:
    from cardbase import __version__

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"cardbase {__version__}\n"
    child = subprocess.run(
        [sys.executable, "-m", "cardbase", "--version"],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        check=False,
    )
    assert (child.returncode, child.stdout) == (0, f"cardbase {__version__}\n")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_generation(monkeypatch: pytest.MonkeyPatch, shell: str) -> None:
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    result = CliRunner().invoke(lean_app([]), ["--show-completion", shell])
    assert result.exit_code == 0, result.output
    assert "_CARDBASE_COMPLETE" in result.stdout
    assert f"complete_{shell}" in result.stdout


def test_completion_answers_and_ordinary_commands_do_without_it() -> None:
    """The shell asks with _CARDBASE_COMPLETE and no arguments, which loads the whole app;
    an ordinary command's lean app has no completion options to build."""
    env = {**subprocess_env(), "_CARDBASE_COMPLETE": "complete_bash"}
    env.update({"COMP_WORDS": "cardbase sea", "COMP_CWORD": "1"})
    child = subprocess.run(
        [sys.executable, "-m", "cardbase"], capture_output=True, text=True, env=env, check=False
    )
    assert child.returncode == 0, child.stderr
    assert "search" in child.stdout.split()
    assert lean_app(["search", "chug"])._add_completion is False
    assert "--show-completion" in CliRunner().invoke(app, ["--help"]).stdout


@pytest.mark.parametrize(
    ("environ", "rich"),
    [
        ({}, True),
        ({"NO_COLOR": ""}, True),
        ({"NO_COLOR": "1"}, False),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
    ],
)
def test_no_color_only_when_set_to_something(
    monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], rich: bool
) -> None:
    from cardbase.cli import render

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setattr(render, "on_terminal", lambda: True)
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    assert render.use_rich() is rich


@pytest.mark.parametrize(("force", "rich"), [("1", True), ("", False)])
def test_force_color_in_a_pipe(monkeypatch: pytest.MonkeyPatch, force: str, rich: bool) -> None:
    from cardbase.cli import render

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(render, "on_terminal", lambda: False)
    monkeypatch.setenv("FORCE_COLOR", force)
    assert render.use_rich() is rich


def test_force_color_draws_a_rich_table_into_a_pipe(run: Run) -> None:
    env = {**subprocess_env(), "FORCE_COLOR": "1", "CARDBASE_DB": str(run.db_path)}
    env.pop("NO_COLOR", None)
    child = subprocess.run(
        [sys.executable, "-m", "cardbase", "search", "chugawug"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    assert "\x1b[" in child.stdout  # rich's escapes, though stdout is a pipe


DESTRUCTIVE = [
    (["deck", "delete", "Bog Stew"], "Delete the deck 'Bog Stew' (5 cards)?"),
    (["collectors", "remove", "Bob", "--force"], "Remove the collector 'Bob'"),
    (["import", "{sheet}", "--mode", "replace"], "Replace your collection of 7 cards with"),
]


@pytest.mark.parametrize(("args", "question"), DESTRUCTIVE, ids=lambda a: str(a)[:24])
def test_destructive_commands_ask_on_a_terminal(
    base: tuple[Path, dict[str, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    checksum,
    args: list[str],
    question: str,
) -> None:
    from cardbase.cli import root

    path, files = base
    args = [arg.format(**files) for arg in args]
    copy = copy_database(path, tmp_path / "copy.db")
    before = checksum(copy)
    monkeypatch.setattr(root, "interactive", lambda: True)
    declined = Run(copy)(*args, input="n\n")
    assert declined.exit_code == 1
    assert question in declined.stderr
    assert declined.stderr.endswith("cardbase: cancelled; nothing was changed\n")
    assert checksum(copy) == before
    assert Run(copy)(*args, input="y\n").exit_code == 0
    assert checksum(copy) != before
    again = copy_database(path, tmp_path / "again.db")
    answered = Run(again)(*args, "--yes")
    assert answered.exit_code == 0 and question not in answered.stderr
    assert checksum(again) != before


def test_scripts_are_not_asked(base: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    copy = copy_database(base[0], tmp_path / "copy.db")
    result = Run(copy)("deck", "delete", "Bog Stew")
    assert result.exit_code == 0 and "?" not in result.output


def test_replacing_an_empty_collection_asks_nothing(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.cli import root

    monkeypatch.setattr(root, "interactive", lambda: True)
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("Name,Qty\nChugawug Elder,1\n")
    assert run("import", str(sheet), "--mode", "replace").exit_code == 0


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_METACHARACTERS = set("<>|&;()*?!$`[]{}~#")


def examples(text: str) -> list[str]:
    lines = [line.strip() for line in text.splitlines()]
    found = [line.split("Example: ", 1)[1] for line in lines if "Example: " in line]
    if "Examples:" in lines:
        after = lines[lines.index("Examples:") + 1 :]
        found += after[: after.index("")] if "" in after else after
    return [part.strip() for line in found for part in line.split("; ")]


@pytest.mark.parametrize(
    "group", [[], ["deck"], ["trade"], ["catalog"], ["collectors"], ["db"], ["event"]]
)
def test_every_group_shows_examples_quoted_for_the_shell(group: list[str]) -> None:
    help_text = CliRunner().invoke(app, [*group, "--help"], env={"COLUMNS": "200"}).stdout
    assert "Examples:" in help_text
    assert len(examples(help_text)) >= 2


def test_every_example_quotes_its_shell_metacharacters() -> None:
    """`'cost<=2'`, not `cost<=2`: an example pasted into a shell runs as shown."""
    shown = []
    for group in ([], ["deck"], ["trade"], ["catalog"], ["collectors"], ["config"], ["db"],
                  ["event"]):  # fmt: skip
        shown += examples(CliRunner().invoke(app, [*group, "--help"]).stdout)
    for name in DATA_COMMANDS:
        shown += examples(CliRunner().invoke(app, [*name.split(), "--help"]).stdout)
    assert len(shown) > 25
    for example in shown:
        assert example.startswith("cardbase"), example
        bare = _QUOTED.sub("", example)
        assert not (_METACHARACTERS & set(bare)), example


def test_plurals(run: Run) -> None:
    run("add", "1 C 14")
    assert "1 card (1 non-foil, 0 foil), 1 distinct" in run("collection").stdout
    assert "1 card owned" in run("stats").stdout
    assert run("undo").stdout.endswith("1 change:\n  Chugawug Cook (1 C 14) non-foil: 1 -> 0\n")


def test_the_environment_has_no_colour_settings_of_its_own() -> None:
    assert not os.environ.get("NO_COLOR")


@pytest.mark.parametrize(
    "args",
    [
        ["add", "1 C 14"],
        ["remove", "1 C 14"],
        ["set", "1 C 14 x2"],
        ["undo"],
        ["redo"],
        ["move", "1 C 14", "--to", "Box"],
        ["tag", "trade", "1 C 14"],
        ["import", "x.csv"],
        ["catalog", "import", "x.csv"],
        ["trade", "match", "--with", "me"],
        ["deck", "build", "--sphere", "chaos"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
@pytest.mark.parametrize("form", ["csv", "tsv"])
def test_a_report_asked_for_as_csv_says_it_has_no_rows(
    run: Run, checksum, args: list[str], form: str
) -> None:
    """A command that reports what it did printed its table under -o csv, as if it had
    understood; it refuses, before doing anything."""
    before = checksum(run.db_path)
    result = run(*args, "-o", form)
    assert result.exit_code == 2
    assert f"{form} is for listings; this command prints a table or json" in result.output
    assert checksum(run.db_path) == before


def test_doctor_findings_are_rows_in_csv(run: Run) -> None:
    rows = list(csv.reader(io.StringIO(run("doctor", "-o", "csv").stdout)))
    assert rows[0] == ["check", "ok", "detail"]
    assert ["integrity", "True", "ok"] in rows
