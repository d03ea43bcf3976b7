"""Catalogue text never reaches the terminal as control sequences, in any view."""

from __future__ import annotations

import json
import sqlite3

import pytest

from cardbase.text import visible
from tests.helpers import Run

# Clear the screen, retitle the window, overwrite the line, an 8-bit CSI, a right-to-left
# override: what a hostile or broken catalogue file can put in a card's text.
EVIL_NAME = "Evil\x1b[2J Eye"
EVIL_TEXT = "Stun.\x1b]0;pwned\x07 Then\rover \x9b31m\u202etxet"
RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")


@pytest.fixture
def evil(run: Run) -> Run:
    with sqlite3.connect(run.db_path) as conn:
        conn.execute(
            "UPDATE card SET name = ?, traits = ?, text = ?, lore = ? WHERE id = 1",
            (EVIL_NAME, "Pixie\x1b[5m", EVIL_TEXT, "line one\nline two\x00"),
        )
    run("add", "1 C 1")
    return run


def assert_nothing_raw(text: str) -> None:
    assert not [ch for ch in RAW if ch in text], repr(text)


@pytest.mark.parametrize("rich", [False, True])
@pytest.mark.parametrize(
    "args",
    [("show", "1 C 1"), ("search", "t:creature"), ("collection",), ("history",), ("missing",)],
)
def test_views_show_control_characters_as_escapes(
    evil: Run, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], rich: bool
) -> None:
    from cardbase.cli import render

    monkeypatch.setattr(render, "use_rich", lambda: rich)
    result = evil(*args)
    assert result.exit_code == 0, result.output
    assert_nothing_raw(result.output)
    if args[0] in ("show", "search", "collection") and not rich:  # rich folds long cells
        assert "Evil\\x1b[2J Eye" in result.stdout


def test_the_detail_view_keeps_line_breaks_and_escapes_the_rest(evil: Run) -> None:
    shown = evil("show", "1 C 1").stdout
    assert "Stun.\\x1b]0;pwned\\x07 Then\\x0dover \\x9b31m\\u202etxet" in shown
    assert "line one\n" in shown and "line two\\x00" in shown


def test_json_keeps_the_text_and_escapes_it(evil: Run) -> None:
    result = evil("search", "t:creature", "-o", "json")
    assert_nothing_raw(result.stdout)
    card = next(c for c in json.loads(result.stdout) if c["code"] == "1 C 1")
    assert (card["name"], card["text"]) == (EVIL_NAME, EVIL_TEXT)


def test_error_lines_escape_what_they_quote(evil: Run) -> None:
    result = evil("show", "Evil\x1b[2J Eyes")
    assert result.exit_code == 2
    assert_nothing_raw(result.stderr)
    assert "\\x1b[2J" in result.stderr
    query = evil("search", "s:\x1b[2J")
    assert_nothing_raw(query.stderr)
    caret = query.stderr.splitlines()
    assert caret[-1].index("^") == caret[-2].index("\ufffd")  # still under the problem


def test_visible() -> None:
    assert visible("plain text") == "plain text"
    assert visible("a\tb\nc") == "a\\x09b\\x0ac"
    assert visible("a\nb", keep="\n") == "a\nb"
    assert visible("\u2066x\u2069\x7f") == "\\u2066x\\u2069\\x7f"
