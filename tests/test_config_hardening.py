"""The config file under bad input: TOML written correctly (emoji included), a broken file
repairable from `cardbase config`, every read bounded as other inputs are, an unknown
collector blamed on the config only when the config named it, and --collector before the
command as well as after it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardbase.config import KEYS, load_config, save_setting
from cardbase.errors import CardbaseError
from tests.helpers import ROOT, Run, subprocess_env
from tests.test_collectors import holdings

TIMEOUT = 60  # seconds: a child that reads a pipe or /dev/zero would otherwise never end
MEMORY = 1 << 30  # bytes of address space for a child: far more than cardbase needs


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    monkeypatch.setenv("CARDBASE_CONFIG", str(path))
    return path


def one_line_refusal(result: Result, *words: str) -> None:
    """Exit 2, one line on stderr naming what it must, never a traceback."""
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("cardbase: ") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.stderr


# 1. TOML written correctly, and a broken file repaired from the command line


def test_an_emoji_collector_is_written_as_toml_and_used(run: Run, config: Path) -> None:
    assert run("collectors", "add", "😀Bob").exit_code == 0
    said = run("config", "set", "collector", "😀Bob")
    assert said.exit_code == 0, said.output
    assert '"😀Bob"' in config.read_text(encoding="utf-8")  # UTF-8, not \ud83d\ude00
    assert tomllib.loads(config.read_text(encoding="utf-8"))["collector"] == "😀Bob"
    assert "😀Bob" in run("config").stdout
    assert run("add", "1 C 14").exit_code == 0
    assert holdings(run.db_path, "😀Bob") == [("1 C 14", "nonfoil", "NM", "en", "", "", 1, "")]
    assert run("config", "unset", "collector").exit_code == 0


def test_an_emoji_database_path_is_written_as_toml_and_used(
    db_path: Path, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.cli import app

    target = db_path.with_name('cards 😀\t"q" \\.db')
    db_path.rename(target)
    monkeypatch.delenv("CARDBASE_DB")
    runner = CliRunner()
    assert runner.invoke(app, ["config", "set", "db", str(target)]).exit_code == 0
    assert load_config(config).get("db") == str(target)
    added = runner.invoke(app, ["add", "1 C 14"])
    assert added.exit_code == 0, added.output
    assert holdings(target) == [("1 C 14", "nonfoil", "NM", "en", "", "", 1, "")]


@given(st.text())
def test_toml_string_is_read_back_as_written(value: str) -> None:
    from cardbase.config import toml_string

    assert tomllib.loads(f"key = {toml_string(value)}\n")["key"] == value


VALID = {  # keys that take only a few words: spellings their checkers accept
    "condition": ["NM", "lp", "Near Mint", "excellent", "mint"],
    "language": ["en", "FR", "de"],
    "format": ["free-realms", "wildhearts-ffa"],
}


def _values(key: str) -> st.SearchStrategy[str]:
    if key not in VALID:
        return st.text()
    pad = st.sampled_from(["", " ", "\t"])
    return st.builds(lambda a, v, b: a + v + b, pad, st.sampled_from(VALID[key]), pad)


@st.composite
def settings_and_values(draw: st.DrawFn) -> tuple[str, str]:
    key = draw(st.sampled_from(list(KEYS)))
    return key, draw(_values(key))


# 150 lists of settings, each saved, read back and one removed in a config file: over 1 s.
@pytest.mark.slow
@settings(max_examples=150, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(settings_and_values(), min_size=1, max_size=4))
def test_every_setting_the_checker_accepts_round_trips(pairs: list[tuple[str, str]]) -> None:
    expected: dict[str, str] = {}
    for key, value in pairs:
        try:
            expected[key] = KEYS[key][1](value)
        except CardbaseError:
            assume(False)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        for key, value in pairs:
            saved = save_setting(key, value, path)
            assert saved.problem is None
        assert load_config(path).values == expected
        save_setting(pairs[0][0], None, path)
        expected.pop(pairs[0][0])
        assert load_config(path).values == expected


def test_a_path_that_is_not_text_is_refused_not_written(run: Run, config: Path) -> None:
    refused = run("config", "set", "db", "/tmp/caf\udce9.db")  # a Latin-1 byte in argv
    one_line_refusal(refused, "db:", "not UTF-8")
    assert not config.exists()


OLD_WRITER = 'collector = "\\ud83d\\ude00Bob"\nlanguage = "fr"\n'  # what json.dumps wrote


def test_a_broken_file_is_refused_in_one_line_but_repaired_from_config(
    run: Run, config: Path, checksum: Callable[[Path], str]
) -> None:
    config.write_text(OLD_WRITER, encoding="utf-8")
    before = checksum(run.db_path)
    for args in (["search", "chug"], ["add", "1 C 14"], ["config", "set", "colour", "red"]):
        one_line_refusal(run(*args), str(config))
    assert checksum(run.db_path) == before
    shown = run("config")
    assert shown.exit_code == 0, shown.output
    assert "not a valid TOML file" in shown.stdout and "fr" in shown.stdout
    as_json = json.loads(run("config", "-o", "json").stdout)
    assert as_json["settings"] == {"language": "fr"} and "TOML" in as_json["problem"]
    unset = run("config", "unset", "collector")
    assert unset.exit_code == 0 and unset.stderr == "", unset.output
    assert load_config(config).values == {"language": "fr"}
    assert run("add", "1 C 14").exit_code == 0
    assert holdings(run.db_path) == [("1 C 14", "nonfoil", "NM", "fr", "", "", 1, "")]


def test_set_repairs_a_bad_setting_and_says_what_is_still_wrong(run: Run, config: Path) -> None:
    config.write_text('# mine\ncondition = "nearly new"\nlanguage = "klingon"\n')
    fixed = run("config", "set", "condition", "lp")
    assert fixed.exit_code == 0, fixed.output
    assert "still not usable" in fixed.stderr and "language" in fixed.stderr
    assert run("config", "unset", "language").stderr == ""
    assert config.read_text() == '# mine\ncondition = "LP"\n'


# 2. The config file read within bounds


def _small_memory() -> None:
    """In the child: an address space of a gigabyte, so a file read whole fails there."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _child(config: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**subprocess_env(), "CARDBASE_CONFIG": str(config)}
    return subprocess.run(
        [sys.executable, "-m", "cardbase", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=TIMEOUT,
        preexec_fn=_small_memory if sys.platform == "linux" else None,
    )


def _refused_by_child(config: Path | str, *words: str) -> None:
    child = _child(config, "search", "chug")
    assert child.returncode == 2, child.stderr
    assert child.stderr.count("\n") == 1 and str(config) in child.stderr
    for word in words:
        assert word in child.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    _refused_by_child(fifo, "a pipe")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_refused_not_read() -> None:
    _refused_by_child("/dev/zero", "a device")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "config.toml"
    with huge.open("wb") as handle:  # sparse: gigabytes that take no disk
        handle.truncate(2 * MEMORY)
    _refused_by_child(huge, "over 64,000 bytes")  # read whole, it would not fit


def test_a_folder_is_refused(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDBASE_CONFIG", str(tmp_path))
    one_line_refusal(run("search", "chug"), "a folder")


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 60_000,
        "a = " + "{b = " * 12_000,
        'a = [ """x"""" , ' + "[" * 50_000,  # a string's closing quotes cannot hide them
        "[" * 3 + "a" + "]" * 3 + "\nb = [[[[[[1]]]]]]\n",
    ],
)
def test_deep_nesting_is_refused_before_tomllib(run: Run, config: Path, text: str) -> None:
    config.write_text(text)
    one_line_refusal(run("search", "chug"), str(config), "nested")


def test_brackets_inside_strings_are_only_text(run: Run, config: Path, tmp_path: Path) -> None:
    deep = "[[[[[[{{{{{{"
    config.write_text(f"db = \"{tmp_path}/{deep}.db\"\ncatalogue = '{deep}'  # [[[[[[\n")
    assert load_config(config).get("db") == f"{tmp_path}/{deep}.db"
    result = run("config")
    assert result.exit_code == 0 and deep in result.stdout


def test_a_table_or_array_is_refused_as_not_text(run: Run, config: Path) -> None:
    config.write_text('collector = ["Bob"]\n')
    one_line_refusal(run("search", "chug"), "collector must be text in quotes")


# 3. An unknown collector blamed on the config file only when the config named it


@pytest.mark.parametrize(
    "args",
    [
        ["collectors", "remove", "Bob", "--force"],
        ["collectors", "rename", "Bob", "X"],
        ["collectors", "default", "Bob"],
        ["trade", "match", "--with", "Bob"],
    ],
)
@pytest.mark.parametrize("configured", [None, 'collector = "Ada"\n'])
def test_a_typed_name_is_not_blamed_on_the_config(
    run: Run, config: Path, args: list[str], configured: str | None
) -> None:
    run("collectors", "add", "Ada")
    if configured:
        config.write_text(configured)
    result = run(*args)
    one_line_refusal(result, "no collector named 'Bob'")
    assert result.stderr.startswith("cardbase: no collector named 'Bob'")


def test_the_config_is_blamed_for_its_own_collector(run: Run, config: Path) -> None:
    config.write_text('collector = "Zed"\n')
    for args in (["trade", "match", "--with", "me"], ["add", "1 C 14"]):
        result = run(*args)
        assert result.stderr.startswith(f"cardbase: {config}: collector: no collector named 'Zed'")


# 4. --collector before the command


def test_collector_before_the_command(
    run: Run, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run("collectors", "add", "Ada")
    run("collectors", "add", "Bob")
    added = run("--collector", "Ada", "add", "1 C 14")
    assert added.exit_code == 0, added.output
    assert holdings(db_path, "Ada") == [("1 C 14", "nonfoil", "NM", "en", "", "", 1, "")]
    monkeypatch.setenv("CARDBASE_COLLECTOR", "Bob")
    assert run("--collector=Ada", "add", "1 U 15").exit_code == 0  # typed wins over $...
    assert run("add", "1 U 15").exit_code == 0  # ... which wins over nothing typed
    assert run("--collector", "Ada", "add", "1 C 14", "--collector", "me").exit_code == 0
    assert [row[0] for row in holdings(db_path, "Ada")] == ["1 C 14", "1 U 15"]
    assert [row[0] for row in holdings(db_path, "Bob")] == ["1 U 15"]
    assert [row[0] for row in holdings(db_path, "me")] == ["1 C 14"]
    unknown = run("--collector", "Zed", "search", "chug")
    assert unknown.stderr.startswith("cardbase: no collector named 'Zed'")  # typed: no source


def test_collector_before_the_command_keeps_the_lean_start(db_path: Path) -> None:
    from cardbase.cli import _command_name, invoked_name, lean_app

    args = ["--db", str(db_path), "--collector", "me", "add", "1 C 14"]
    assert invoked_name(args) == "add"
    assert invoked_name(["--collector=me", "search"]) == "search"
    lean = lean_app(args)
    assert [_command_name(c) for c in lean.registered_commands] == ["add"]
    assert CliRunner().invoke(lean, args).exit_code == 0
    assert holdings(db_path) == [("1 C 14", "nonfoil", "NM", "en", "", "", 1, "")]
