"""The docs run as written: every ```console block of README.md and of each page in docs/, in
order from a fresh home, its output compared with what the page shows (tests/docs_runner.py
has the convention). One test per page: `pytest tests/test_docs.py -k collections`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests import docs_runner
from tests.docs_runner import Command, line_matches, matches, parse


def _pages_wanted(config: pytest.Config) -> bool:
    """Whether this run runs the pages: when this file is named (`pytest tests/test_docs.py
    -k collections`) or the run chose its own marks (CI's -m 'slow or not slow'); a plain
    `pytest` leaves them out, as it leaves out the slow tests."""
    named = any("test_docs" in str(arg) for arg in config.args)
    return named or config.option.markexpr != "not slow"


@pytest.fixture
def league(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """A fresh PostgreSQL database for the page's `needs postgres` blocks, or None when no
    server can be had (those blocks are then left out; with CARDBASE_REQUIRE_POSTGRES=1 the
    test fails instead, as the other PostgreSQL tests do)."""
    if not _pages_wanted(request.config):
        pytest.skip("the docs' pages run in CI, or with: pytest tests/test_docs.py -k PAGE")
    page: Path = request.param
    if not any(block.needs_postgres for block in parse(page.read_text(encoding="utf-8"))):
        yield None
        return
    try:
        server = request.getfixturevalue("postgres_server")
    except pytest.skip.Exception:
        yield None
        return
    from tests.conftest import postgres_database

    for url in postgres_database(server):
        yield url.url


def _client_ok() -> bool:
    found = docs_runner.client_folder().is_dir()
    if not found and os.environ.get("CARDBASE_REQUIRE_CLIENT") == "1":
        pytest.fail(f"CARDBASE_REQUIRE_CLIENT=1 but {docs_runner.client_folder()} is missing")
    return found


PAGES = docs_runner.pages()


# Each page starts from nothing (its first command makes the real catalogue's database) and
# runs its commands one after another: 5 to 30 s a page on a 2-core machine, too long for
# the default run. Not marked slow, so that naming the file runs them with its -k.
@pytest.mark.parametrize("league", PAGES, ids=docs_runner.page_id, indirect=True)
def test_page_runs_as_written(
    league: str | None, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    page: Path = request.node.callspec.params["league"]
    try:
        skipped = docs_runner.run_page(page, tmp_path, league, _client_ok())
    except docs_runner.NoClient as missing:
        pytest.skip(f"{missing} (the blocks before it ran); set CARDBASE_CLIENT_DIR")
    if skipped:
        print(f"{page.name}: left out: " + "; ".join(skipped))


def test_every_page_has_a_test() -> None:
    names = [docs_runner.page_id(page) for page in PAGES]
    assert "README" in names
    assert len(set(names)) == len(names)


def test_every_shell_block_runs_or_says_why_not() -> None:
    """A shell block is a ```console block the page test runs, or a ```sh one that says why
    it is not run (an install, a server left running, an hour of benchmarks)."""
    unsaid = {page.name: docs_runner.unrun_shell_blocks(page.read_text(encoding="utf-8"))
              for page in PAGES}  # fmt: skip
    assert {name: lines for name, lines in unsaid.items() if lines} == {}


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("```sh\npip install .\n```\n", [1]),
        ("<!-- not run: an install -->\n```sh\npip install .\n```\n", []),
        ("<!-- not run: -->\n```bash\npip install .\n```\n", [2]),
        ("<!-- exit 2 -->\n```sh\ncardbase x\n```\n", [2]),
        ("```console\n$ cardbase search\n```\n```toml\nkey = 1\n```\n", []),
        ("````markdown\n```sh\nshown, not a block\n```\n````\n", []),
    ],
)
def test_shell_blocks_that_say_nothing_are_found(text: str, lines: list[int]) -> None:
    assert docs_runner.unrun_shell_blocks(text) == lines


# ---------------------------------------------------------------- the matching


@pytest.mark.parametrize(
    ("expected", "actual", "same"),
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "c"], False),
        (["a"], ["a", "b"], False),  # more printed than shown: says so
        (["a", "b"], ["a"], False),
        (["a  "], ["a"], True),  # trailing spaces never count
        (["a"], ["a", "", ""], True),  # nor trailing blank lines
        (["..."], [], True),
        (["..."], ["x", "y"], True),
        (["a", "...", "z"], ["a", "z"], True),
        (["a", "...", "z"], ["a", "b", "c", "z"], True),
        (["a", "...", "z"], ["a", "b", "c"], False),
        (["...", "b", "..."], ["a", "b", "c"], True),
        (["...", "b", "..."], ["a", "c"], False),
        (["took […] s"], ["took 0.25 s"], True),
        (["took […] s"], ["took  s"], True),  # […] may be nothing
        (["took […] s"], ["took 0.25 ms"], False),
        (["[…]"], ["anything at all"], True),
        (["[…]"], ["a", "b"], False),  # within one line only
        (["x […] y […] z"], ["x 1 y 2 z"], True),
        (["a.b"], ["aXb"], False),  # regex characters are themselves
        (["(1) *"], ["(1) *"], True),
        (["  ..."], ["a", "b"], True),
        (["a ..."], ["a ..."], True),  # `...` inside a line is text
        (["a ..."], ["a b"], False),
    ],
)
def test_matching(expected: list[str], actual: list[str], same: bool) -> None:
    assert matches(expected, actual) is same


printable = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=20)
lines = st.lists(printable.filter(lambda s: s.strip() != "..." and "[…]" not in s), max_size=6)


@given(lines)
def test_output_matches_itself(shown: list[str]) -> None:
    assert matches(shown, shown)


@given(lines, st.integers(0, 6), st.integers(0, 6))
def test_an_ellipsis_line_stands_for_any_run_of_lines(shown: list[str], i: int, j: int) -> None:
    i, j = sorted((min(i, len(shown)), min(j, len(shown))))
    assert matches([*shown[:i], "...", *shown[j:]], shown)


@given(printable, printable, printable)
def test_any_text_stands_for_any_part_of_a_line(before: str, middle: str, after: str) -> None:
    line = before + middle + after
    # a line as a terminal shows it: trailing spaces never count, so none to match
    assume("[…]" not in before + after and line == line.rstrip())
    assert line_matches(f"{before}[…]{after}", line)


# ---------------------------------------------------------------- the parsing


PAGE = """\
Some text.

```console
$ cardbase search chugawug
Code  Name
...
$ cardbase add "1 C 143" \\
    --foil
```

<!-- exit 2 -->
```console
$ true
$ cardbase nope
Usage: […]
```

<!-- background -->
```console
$ cardbase serve --port 8420
```

<!-- needs postgres -->
```console
$ cat > deck.txt <<'DECK'
> 1 Chugawug Cook
DECK
$ cardbase --db "$LEAGUE" search cook
```

```pycon
>>> 1 + 1
2
```

```bash
$ not run
```
"""


def test_blocks_and_their_comments_are_read() -> None:
    blocks = parse(PAGE)
    assert [block.kind for block in blocks] == ["console"] * 4 + ["pycon"]
    first, failing, server, league, pycon = blocks
    assert first.commands == [
        Command("cardbase search chugawug", 4, ["Code  Name", "..."]),
        Command('cardbase add "1 C 143" \\\n    --foil', 7, []),
    ]
    assert (failing.exit, failing.commands[1].expected) == (2, ["Usage: […]"])
    assert first.exit == 0 and not first.background
    assert server.background and len(server.commands) == 1
    assert league.needs_postgres
    assert league.commands[0].text == "cat > deck.txt <<'DECK'\n1 Chugawug Cook\nDECK"
    assert league.commands[0].expected == []
    assert pycon.text == ">>> 1 + 1\n2\n" and pycon.line == 31


def test_a_page_runs_and_a_changed_message_fails(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ export WHO=ann\n$ mkdir sub && cd sub\n$ echo $WHO; pwd; echo oops >&2\n"
        "ann\n~/examples/sub\noops\n```\n\n<!-- exit 3 -->\n```console\n$ (exit 3)\n```\n"
    )
    assert docs_runner.run_page(page, tmp_path / "run", None, True) == []
    page.write_text("```console\n$ echo hello\nhullo\n```\n")
    with pytest.raises(docs_runner.DocsFailure) as failed:
        docs_runner.run_page(page, tmp_path / "run2", None, True)
    message = str(failed.value)
    assert "page.md:2 (the block at line 1): $ echo hello" in message
    assert "-hullo" in message and "+hello" in message
    page.write_text("```console\n$ false\n```\n")
    with pytest.raises(docs_runner.DocsFailure, match="exit code 1, the page wants 0"):
        docs_runner.run_page(page, tmp_path / "run3", None, True)


def test_pycon_blocks_share_a_session(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```pycon\n>>> x = 41\n```\n\ntext\n\n```pycon\n>>> x + 1\n42\n```\n")
    assert docs_runner.run_page(page, tmp_path / "run", None, True) == []
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n")
    with pytest.raises(docs_runner.DocsFailure, match="pycon block"):
        docs_runner.run_page(page, tmp_path / "run2", None, True)


# ---------------------------------------------------------------- what pages must list


def test_the_spreadsheet_page_lists_every_column_name_and_app_sample() -> None:
    """A header added to cardbase/sheets/columns.py, or an app sample to examples/apps, is
    in docs/spreadsheets.md too."""
    from cardbase.sheets.columns import HEADERS

    page = (docs_runner.ROOT / "docs" / "spreadsheets.md").read_text(encoding="utf-8")
    table = page.split("## Column names", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[2].strip() for line in table.splitlines() if line.startswith("| ")}
    listed = {header.strip() for row in rows for header in row.split(", ")}
    missing = [h for role in HEADERS.values() for h in role if h not in listed]
    assert not missing, f"docs/spreadsheets.md's column table lacks {missing}"
    samples = sorted((docs_runner.EXAMPLES / "apps").glob("*.[ct]sv"))
    assert samples
    assert [s.name for s in samples if f"apps/{s.name}" not in page] == []


def test_the_client_folder_is_written_freerealms(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`~/FreeRealms` in a command is the test client folder, and that folder is shown as
    `~/FreeRealms` in what commands print, as the home folder is shown as `~`."""
    client = tmp_path / "client"
    (client / "tcg").mkdir(parents=True)
    monkeypatch.setenv("CARDBASE_CLIENT_DIR", str(client))
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ ls ~/FreeRealms\ntcg\n$ echo ~/FreeRealms/tcg $HOME/x\n"
        "~/FreeRealms/tcg ~/x\n```\n"
    )
    assert docs_runner.run_page(page, tmp_path / "run", None, True) == []


def test_a_console_block_without_a_command_is_refused() -> None:
    with pytest.raises(docs_runner.DocsFailure, match="line 3: a console block starts with"):
        parse("Text.\n\n```console\nCode  Name\n```\n")
