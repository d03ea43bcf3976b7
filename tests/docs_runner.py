"""The docs' runnable examples (tests/test_docs.py runs them): every ```console block of a page
in docs/ and of README.md, in order, from a fresh data folder, its output compared with what
the page shows; ```pycon blocks as doctests.

The convention, as the pages follow it:

- In a ```console block a line starting with `$ ` is a command (bash; a line ending in `\\`
  goes on; a heredoc's lines, `<<'END'` up to `END`, belong to its command). The lines after
  it, up to the next `$ ` line, are its expected output: stdout, then stderr, compared line
  by line with trailing spaces stripped. A line that is exactly `...` matches any number of
  lines; `[…]` in a line matches any text within that line. No lines: not compared.
- HTML comments on the lines just before the fence: `<!-- exit 2 -->` (the block's last
  command exits 2, the others 0), `<!-- background -->` (its one command is a server, run
  until the page ends), `<!-- needs postgres -->` (run only with a PostgreSQL server; $LEAGUE
  is a fresh database URL).
- A page runs in a fresh home: `HOME`, `XDG_DATA_HOME` and `XDG_CONFIG_HOME` new and empty, no
  CARDBASE_* variable, the working directory a fresh copy of examples/ (for README.md, a
  folder holding one, as the repository's folder does), `NO_COLOR=1`,
  `COLUMNS=100`. `~/FreeRealms` stands for the game client's folder. In what commands print,
  the home folder is shown as `~` and the client's folder as `~/FreeRealms`, as the reader's
  own terminal would show them in the docs.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CLIENT_WORD = "~/FreeRealms"
ELLIPSIS_LINE = "..."
ANY_TEXT = "[…]"
COMMAND_TIMEOUT = 300  # seconds; a first import of the client takes a few
SERVER_WAIT = 30


def pages() -> list[Path]:
    """README.md and every page of docs/, README first."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def page_id(page: Path) -> str:
    return page.stem


# ---------------------------------------------------------------- parsing


@dataclass
class Command:
    text: str  # as shown, continuation lines joined by newlines
    line: int  # 1-based line of its `$ ` in the page
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    kind: str  # "console" or "pycon"
    line: int  # 1-based line of the opening fence
    text: str  # the block's body (pycon), dedented
    commands: list[Command] = field(default_factory=list)
    exit: int = 0
    background: bool = False
    needs_postgres: bool = False


_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[\w+-]*)")
_COMMENT = re.compile(r"^\s*<!--(.*?)-->\s*$")
_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][\w]*)\1")


def _directives(lines: list[str], fence_index: int) -> list[str]:
    """The words of the HTML comments on the lines just before a fence (blank lines between
    them allowed): `exit 2`, `background`, `needs postgres`."""
    found: list[str] = []
    index = fence_index - 1
    while index >= 0:
        line = lines[index]
        comment = _COMMENT.match(line)
        if comment:
            found.extend(part.strip() for part in re.split(r"[;,]", comment.group(1)))
        elif line.strip():
            break
        index -= 1
    return [word for word in found if word]


SHELL_FENCES = ("sh", "bash", "shell", "zsh")


def unrun_shell_blocks(text: str) -> list[int]:
    """The lines of the page's shell blocks (```sh, ```bash) that say nothing of why they are
    not run: every shell block is a ```console block the test runs, or says `not run: WHY`
    in a comment before it (an install, a server's options, a long benchmark), so none is
    left out unseen."""
    lines = text.splitlines()
    found: list[int] = []
    inside: str | None = None
    for index, line in enumerate(lines):
        opening = _FENCE.match(line)
        if inside is not None:
            if line.strip().startswith(inside) and not line.strip().strip(inside[0]):
                inside = None
            continue
        if not opening:
            continue
        inside = opening["fence"]
        said = _directives(lines, index)
        if opening["info"].lower() in SHELL_FENCES and not any(
            word.startswith("not run:") and word[len("not run:") :].strip() for word in said
        ):
            found.append(index + 1)
    return found


def parse(text: str) -> list[Block]:
    """The page's ```console and ```pycon blocks, in order."""
    lines = text.splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            index += 1
            continue
        indent, fence = len(opening["indent"]), opening["fence"]
        body: list[str] = []
        end = index + 1
        while end < len(lines):
            closing = lines[end].strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                break
            body.append(lines[end][indent:] if lines[end][:indent].isspace() else lines[end])
            end += 1
        kind = opening["info"].lower()
        if kind in ("console", "pycon"):
            block = Block(kind, index + 1, "\n".join(body) + "\n")
            for word in _directives(lines, index):
                if word.startswith("exit"):
                    block.exit = int(word.split()[1])
                elif word == "background":
                    block.background = True
                elif word == "needs postgres":
                    block.needs_postgres = True
            if kind == "console":
                block.commands = _commands(body, index + 2)
                first = next((line for line in body if line.strip()), "")
                if not first.startswith("$ "):
                    raise DocsFailure(
                        f"line {index + 1}: a console block starts with a `$ ` command, not "
                        f"{first!r} (output alone goes in a ```text block)"
                    )
            blocks.append(block)
        index = end + 1
    return blocks


def _commands(body: list[str], first_line: int) -> list[Command]:
    commands: list[Command] = []
    index = 0
    while index < len(body):
        line = body[index]
        if not line.startswith("$ "):
            if commands:
                commands[-1].expected.append(line)
            index += 1
            continue
        start = index
        parts = [line[2:]]
        while parts[-1].endswith("\\") and index + 1 < len(body):
            index += 1
            parts.append(body[index])
        heredocs = [m.group(2) for m in _HEREDOC.finditer("\n".join(parts))]
        for word in heredocs:
            while index + 1 < len(body):
                index += 1
                here = body[index]
                parts.append(here[2:] if here.startswith("> ") else here)
                if parts[-1] == word:
                    break
        commands.append(Command("\n".join(parts), first_line + start))
        index += 1
    for command in commands:
        while command.expected and not command.expected[-1].strip():
            command.expected.pop()
    return commands


# ---------------------------------------------------------------- matching


@cache
def _line_pattern(expected: str) -> re.Pattern[str]:
    pieces = expected.split(ANY_TEXT)
    return re.compile(".*?".join(re.escape(piece) for piece in pieces), re.DOTALL)


def line_matches(expected: str, actual: str) -> bool:
    expected, actual = expected.rstrip(), actual.rstrip()
    if ANY_TEXT not in expected:
        return expected == actual
    return _line_pattern(expected).fullmatch(actual) is not None


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` is what `expected` shows: line by line, a line `...` standing for
    any number of lines (none too) and `[…]` for any text within a line."""
    expected = _trimmed(expected)
    actual = [line.rstrip() for line in actual]
    memo: dict[tuple[int, int], bool] = {}

    def match(e: int, a: int) -> bool:
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(expected):
            result = not any(actual[a:])  # blank lines at the end do not count
        elif expected[e].strip() == ELLIPSIS_LINE:
            result = any(match(e + 1, skip) for skip in range(a, len(actual) + 1))
        else:
            result = (
                a < len(actual) and line_matches(expected[e], actual[a]) and match(e + 1, a + 1)
            )
        memo[key] = result
        return result

    return match(0, 0)


def _trimmed(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[-1]:
        lines.pop()
    return lines


# ---------------------------------------------------------------- running


class DocsFailure(AssertionError):
    pass


class NoClient(Exception):
    """A page reached a block that reads the game client's folder, and there is none."""


def client_folder() -> Path:
    """The game client's files for `~/FreeRealms`: CARDBASE_CLIENT_DIR, else
    shared/free-realms-client beside the repository (as tests/test_client_files.py)."""
    given = os.environ.get("CARDBASE_CLIENT_DIR")
    return Path(given) if given else ROOT.parent / "shared" / "free-realms-client"


class Session:
    """One page's run: its fresh home, its shell state between commands (exported variables
    and the working directory, kept as a user's terminal keeps them), its servers."""

    def __init__(self, page: Path, tmp: Path, league: str | None) -> None:
        self.page = page
        self.home = tmp / "home"
        # README.md's tour starts where its reader installed from, the repository's folder,
        # with examples/ in it; a docs page's commands start in examples/ itself.
        readme = page.name == "README.md"
        self.cwd = self.home / "cardbase" if readme else self.home / "examples"
        examples = self.cwd / "examples" if readme else self.cwd
        (self.home / ".local" / "share").mkdir(parents=True)
        (self.home / ".config").mkdir(parents=True)
        self.cwd.mkdir(exist_ok=True)
        if EXAMPLES.is_dir():
            shutil.copytree(EXAMPLES, examples, dirs_exist_ok=True)
        self.state = tmp / "shell-state.sh"
        self.state.write_text("")
        self.client = client_folder()
        self.servers: list[subprocess.Popen[bytes]] = []
        self.block: Block | None = None
        self.pycon: subprocess.Popen[str] | None = None
        bin_dir = str(Path(sys.executable).parent)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARDBASE_")}
        for name in ("PYTEST_XDIST_WORKER", "PYTEST_CURRENT_TEST", "COLOR", "FORCE_COLOR"):
            env.pop(name, None)
        env.update(
            HOME=str(self.home),
            XDG_DATA_HOME=str(self.home / ".local" / "share"),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            NO_COLOR="1",
            COLUMNS="100",
            LINES="40",
            TERM="dumb",
            PATH=os.pathsep.join([bin_dir, env.get("PATH", "/usr/bin:/bin")]),
            # this worktree's cardbase, whichever is installed
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        )
        if league:
            env["LEAGUE"] = league
        self.env = env

    # what commands print, as the page shows it
    def shown(self, text: str) -> str:
        text = text.replace(str(self.client), CLIENT_WORD)
        return text.replace(str(self.home), "~")

    def command_text(self, command: Command) -> str:
        return command.text.replace(CLIENT_WORD, shlex.quote(str(self.client)))

    def run(self, command: Command) -> tuple[int, list[str]]:
        script = (
            f"source {shlex.quote(str(self.state))}\n"
            f"cd {shlex.quote(str(self.cwd))}\n"
            f"{self.command_text(command)}\n"
            "__rc=$?\n"
            f'{{ export -p; echo cd "$(printf %q "$PWD")"; }} > {shlex.quote(str(self.state))}.new\n'
            "exit $__rc\n"
        )
        try:
            done = subprocess.run(
                ["bash", "-c", script], env=self.env, capture_output=True, timeout=COMMAND_TIMEOUT,
                stdin=subprocess.DEVNULL,
            )  # fmt: skip
        except subprocess.TimeoutExpired as exc:
            raise self.failure(command, f"did not end within {COMMAND_TIMEOUT} s") from exc
        self._keep_state()
        out = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
        return done.returncode, self.shown(out).splitlines()

    def _keep_state(self) -> None:
        new = self.state.with_suffix(".sh.new")
        if not new.exists():
            return
        kept = []
        for line in new.read_text().splitlines():
            if line.startswith("cd "):
                self.cwd = Path(shlex.split(line[3:])[0])
                continue
            kept.append(line)
        self.state.write_text("\n".join(kept) + "\n")
        new.unlink()

    def failure(self, command: Command, what: str) -> DocsFailure:
        name = _shown_name(self.page)
        block = f" (the block at line {self.block.line})" if self.block else ""
        return DocsFailure(f"{name}:{command.line}{block}: $ {command.text}\n{what}")

    def check(self, command: Command, code: int, wanted_code: int, out: list[str]) -> None:
        problems = []
        if code != wanted_code:
            problems.append(f"exit code {code}, the page wants {wanted_code}")
        if command.expected and not matches(command.expected, out):
            diff = "\n".join(
                difflib.unified_diff(
                    _trimmed(command.expected), _trimmed(out), "the page shows", "the command printed",
                    lineterm="",
                )
            )  # fmt: skip
            problems.append(f"output differs:\n{diff}")
        elif code != wanted_code:
            problems.append("it printed:\n" + "\n".join(out[-30:]))
        if problems:
            raise self.failure(command, "\n".join(problems))

    def run_block(self, block: Block) -> None:
        self.block = block
        if block.kind == "pycon":
            self.run_pycon(block)
            return
        if block.background:
            self.start_server(block)
            return
        for index, command in enumerate(block.commands):
            last = index == len(block.commands) - 1
            code, out = self.run(command)
            self.check(command, code, block.exit if last else 0, out)

    # servers ----------------------------------------------------------

    def start_server(self, block: Block) -> None:
        if len(block.commands) != 1:
            raise DocsFailure(
                f"{self.page.name}:{block.line}: a background block holds one command, "
                f"not {len(block.commands)}"
            )
        command = block.commands[0]
        log = self.home / f"server-{len(self.servers)}.log"
        script = (
            f"source {shlex.quote(str(self.state))}\ncd {shlex.quote(str(self.cwd))}\n"
            f"exec {self.command_text(command)}\n"
        )
        with log.open("wb") as out:
            server = subprocess.Popen(
                ["bash", "-c", script], env=self.env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        self.servers.append(server)
        deadline = time.monotonic() + SERVER_WAIT
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise self.failure(
                    command, f"the server exited ({server.returncode}):\n{log.read_text()}"
                )
            url = _served_url(log.read_text(errors="replace"), command.text)
            if url and _answers(url):
                return
            time.sleep(0.2)
        raise self.failure(command, f"no answer within {SERVER_WAIT} s:\n{log.read_text()}")

    # pycon --------------------------------------------------------------

    def run_pycon(self, block: Block) -> None:
        if self.pycon is None:
            self.pycon = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("docs_pycon.py"))],
                cwd=self.cwd, env=self.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True,
            )  # fmt: skip
        assert self.pycon.stdin and self.pycon.stdout
        request = {"text": block.text, "name": self.page.name, "line": block.line}
        self.pycon.stdin.write(json.dumps(request) + "\n")
        self.pycon.stdin.flush()
        answer = self.pycon.stdout.readline()
        if not answer:
            raise DocsFailure(f"{self.page.name}:{block.line}: the doctest process died")
        report = json.loads(answer)
        if report["failed"]:
            name = _shown_name(self.page)
            raise DocsFailure(f"{name}:{block.line}: pycon block\n{self.shown(report['output'])}")

    def close(self) -> None:
        for server in self.servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(server.pid, signal.SIGKILL)
                    server.wait()
        if self.pycon is not None:
            assert self.pycon.stdin
            self.pycon.stdin.close()
            try:
                self.pycon.wait(10)
            except subprocess.TimeoutExpired:
                self.pycon.kill()
                self.pycon.wait()


def _shown_name(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else page.name


_URL = re.compile(r"https?://[\w.\[\]:-]+:\d+")


def _served_url(log: str, command: str) -> str | None:
    """Where the server listens: the first URL with a port it printed, else `--port N`."""
    found = _URL.search(log)
    if found:
        return found.group(0).replace("0.0.0.0", "127.0.0.1") + "/"
    port = re.search(r"--port[ =](\d+)", command)
    return f"http://127.0.0.1:{port.group(1)}/" if port and port.group(1) != "0" else None


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True  # it answered, if not with 200
    except OSError:
        return False


def run_page(page: Path, tmp: Path, league: str | None, client_ok: bool) -> list[str]:
    """Run every block of `page` in order; raise DocsFailure at the first that fails, and
    NoClient at the first that reads the client's folder when there is none. The blocks left
    out for want of PostgreSQL are returned, to say so."""
    skipped: list[str] = []
    session = Session(page, tmp, league)
    try:
        for block in parse(page.read_text(encoding="utf-8")):
            if block.needs_postgres and league is None:
                skipped.append(f"line {block.line}: needs postgres")
                continue
            if not client_ok and CLIENT_WORD in block.text:
                # the blocks after it may need what it reads: the page stops here
                raise NoClient(f"{_shown_name(page)}:{block.line} needs {client_folder()}")
            session.run_block(block)
    finally:
        session.close()
    return skipped
