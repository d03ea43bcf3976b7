"""The root Typer app, the options every command shares, and the error-to-exit-code rule.

Commands are small functions: parse options, call the library, render what it returns.
`command` wraps each one so that a `CardbaseError` becomes one line on stderr and exit code 2
(or the error's own code), never a traceback unless `--debug` asks for it.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from cardbase.db.engine import Connection
from cardbase.db.location import Location
from cardbase.errors import CardbaseError, UnknownCollectorError

if TYPE_CHECKING:
    from cardbase.collection.plan import Defaults
    from cardbase.config import Config
    from cardbase.library import Library

F = TypeVar("F", bound=Callable[..., Any])
INTERNAL_ERROR = 70  # EX_SOFTWARE: distinct from 1 (a check failed) and 2 (bad input)
INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C
# SQLite's words for a statement that names what the database does not have: its schema
# was changed behind cardbase's back.
MISSING_SCHEMA = ("no such table", "no such column", "no such index")
NEWLINES = "\n"  # an error message may list problems a line each (and a caret line)


class Output(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"
    jsonl = "jsonl"
    tsv = "tsv"


def _remember_output(value: Output) -> Output:
    """jsonl and tsv are json and csv written another way: a command sees json or csv and
    renders as it always does, and `render.print_json` and `render.print_csv` write lines or
    tabs. So every command that has json and csv has these too, and none can forget them."""
    STATE.output = value
    return {Output.jsonl: Output.json, Output.tsv: Output.csv}.get(value, value)


OutputOption = Annotated[
    Output,
    typer.Option(
        "--output",
        "-o",
        callback=_remember_output,
        help="table (default); json, or jsonl (one object a line), for scripts; csv or tsv.",
    ),
]


def _report_output(value: Output) -> Output:
    """A command that reports what it did (add, undo, import) has no rows for csv or tsv:
    asked for them, it says so, rather than printing its table as if it had understood."""
    if value in (Output.csv, Output.tsv):
        raise typer.BadParameter(f"{value} is for listings; this command prints a table or json")
    return _remember_output(value)


ReportOutputOption = Annotated[
    Output,
    typer.Option(
        "--output",
        "-o",
        callback=_report_output,
        help="table (default); json, or jsonl (one object a line), for scripts.",
    ),
]

# A command group that lists when called alone (`cardbase collectors`, `cardbase games`) takes
# these itself: the global options' injection reaches only its subcommands.
NoHeadersOption = Annotated[
    bool, typer.Option("--no-headers", help="csv and tsv without the header row.")
]
GroupDbOption = Annotated[
    str | None,
    typer.Option("--db", metavar="PATH", help="Database file, as before the command."),
]


def take_group_options(no_headers: bool, db: str | None) -> None:
    STATE.no_headers = no_headers
    if db is not None:
        STATE.db_option = db


COLLECTOR_ENV = "CARDBASE_COLLECTOR"
GAME_ENV = "CARDBASE_GAME"


@dataclass
class State:
    db_option: str | None = None
    debug: bool = False
    collector_option: str | None = None  # --collector, or $CARDBASE_COLLECTOR
    collector_from_env: bool = False
    # the collector `collector` chose for this command, and where it came from: for naming
    # the source when that name is unknown (`_collector_source`)
    collector_chosen: tuple[str, str] | None = None
    game_option: str | None = None  # --game, before the command
    output: Output = Output.table  # -o as typed: jsonl and tsv reach commands as json, csv
    no_headers: bool = False  # --no-headers: csv and tsv without their header row

    @property
    def db_path(self) -> Location:
        from cardbase.db.location import ENV_VAR, resolve_db_path

        configured = None if self.db_option or os.environ.get(ENV_VAR) else self.config.get("db")
        return resolve_db_path(self.db_option, configured)

    @property
    def config(self) -> Config:
        from cardbase.config import load_config

        return load_config()

    @property
    def collector(self) -> str | None:
        """Whose collection: --collector, else $CARDBASE_COLLECTOR, else the config file's,
        else None, the database's default collector."""
        chosen: str | None = self.collector_option
        if chosen:
            source = f"${COLLECTOR_ENV}: " if self.collector_from_env else ""
        else:
            config = self.config
            chosen, source = config.get("collector"), f"{config.path}: collector: "
        self.collector_chosen = None if chosen is None else (chosen, source)
        return chosen

    @property
    def defaults(self) -> Defaults:
        """Condition and language of added copies: the config file's, else NM and English."""
        from cardbase.collection.plan import Defaults

        config = self.config
        return Defaults(config.get("condition") or None, config.get("language") or None)

    @property
    def game(self) -> str | None:
        """The game a code or name means where several games have one: --game, else
        $CARDBASE_GAME, else the config file's, else None (such a code is refused)."""
        from cardbase.errors import CardbaseError
        from cardbase.games import known_game

        for source, given in (
            ("--game", self.game_option),
            (f"${GAME_ENV}", os.environ.get(GAME_ENV)),
        ):
            if given and given.strip():
                try:
                    return known_game(given)
                except CardbaseError as exc:
                    raise CardbaseError(f"{source}: {exc.message}") from None
        return self.config.get("game")

    @property
    def library(self) -> Library:
        """The database the options name, as the collector they name: every command's."""
        from cardbase.library import Library

        return Library(self.db_path, self.collector, self.defaults, self.game)

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        with self.library.reading() as conn:
            yield conn


STATE = State()


def with_examples(summary: str, *examples: str) -> str:
    """A group's help: its summary, then examples kept line by line (click's \\b) as typed,
    quoted wherever the shell would otherwise read a character (`'cost<=2'`)."""
    lines = "\n".join(f"  {example}" for example in examples)
    return f"{summary}\n\n\b\nExamples:\n{lines}"


app = typer.Typer(
    name="cardbase",
    help=with_examples(
        "A card database and collection manager for the Free Realms Trading Card Game.",
        "cardbase search chugawug",
        "cardbase search 's:chaos cost<=2' -o json",
        'cardbase show "Chugawug Cook"',
        'cardbase add "Chugawug Cook x2" --foil',
        "cardbase collection --copies tag:trade",
        "cardbase deck check my-deck.txt",
    ),
    no_args_is_help=True,
    # --install-completion and --show-completion: only the whole app (help, completion) has
    # them; `cardbase.cli.lean_app` leaves them out of an ordinary command's start.
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _usage_error_in_one_line(self: Any, file: Any = None) -> None:
    """A usage error (a missing option, a number that is not one, a command that does not
    exist) as every other error: one line that names what is wrong and where to look, not
    click's usage, hint and error over four."""
    where = f"; see '{self.ctx.command_path} -h'" if self.ctx is not None else ""
    message = " ".join(self.format_message().split()).rstrip(".")
    typer.echo(f"cardbase: {message}{where}", file=file, err=file is None)


def _parsing_click() -> Any:
    """The click typer parses with: its own copy (typer._click) where it has one, so that a
    command's start does not import a second click (7 ms) only to reword its errors."""
    vendored = getattr(typer, "_click", None)
    if vendored is not None:
        return vendored
    import click

    return click


_parsing_click().exceptions.UsageError.show = _usage_error_in_one_line


def _show_version(value: bool) -> None:
    if value:
        from cardbase import __version__

        typer.echo(f"cardbase {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="PATH",
            help="Database file (default: $CARDBASE_DB, else one in your user data folder).",
        ),
    ] = None,
    collector: Annotated[
        str | None,
        typer.Option(
            "--collector",
            metavar="NAME",
            help="Whose collection (default: $CARDBASE_COLLECTOR, the config file's "
            "collector, else the database's default collector).",
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            "--game",
            metavar="GAME",
            help="The game a code or name means where several games have the card (default: "
            "$CARDBASE_GAME, the config file's game; else cardbase asks).",
        ),
    ] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks of errors.")] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Catalogue, collection, search and deck checks for trading card games."""
    from cardbase.db.connect import on_wait

    STATE.db_option = db
    STATE.debug = debug
    if collector is not None and not collector.strip():
        raise typer.BadParameter(
            "'' is not a collector's name; name one, or leave it out", param_hint="--collector"
        )
    # typed here, or by the command's own --collector (which also reads $CARDBASE_COLLECTOR)
    STATE.collector_option = collector
    STATE.collector_from_env = False
    STATE.collector_chosen = None
    STATE.output, STATE.no_headers = Output.table, False
    STATE.game_option = game
    on_wait(lambda message: typer.echo(f"cardbase: {message}", err=True))


YesOption = Annotated[
    bool, typer.Option("--yes", "-y", help="Do not ask for confirmation on a terminal.")
]


def interactive() -> bool:
    """Whether a person can answer a question: standard input and error are a terminal."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def confirm(question: str, yes: bool) -> None:
    """Ask before what `undo` cannot take back. On a terminal the answer must be yes; --yes
    answers it ahead, and scripts (no terminal to ask on) go ahead as they always did."""
    if yes or not interactive():
        return
    if not typer.confirm(question, default=False, err=True):
        raise fail("cancelled; nothing was changed", 1)


def fail(message: str, code: int = 2) -> typer.Exit:
    from cardbase.text import visible

    typer.echo(f"cardbase: {visible(message, keep=NEWLINES)}", err=True)
    return typer.Exit(code)


def _unexpected(exc: Exception) -> typer.Exit:
    """One line for what is not bad input: a database the system would not let us use (exit
    2: damaged, locked past the timeout, disk full, read-only), else a bug (exit 70)."""
    from cardbase.db.health import damage

    if damage.is_damage(exc):
        return fail(str(damage.damaged(STATE.db_path, exc)))
    if isinstance(exc, sqlite3.OperationalError) and str(exc).startswith(MISSING_SCHEMA):
        return fail(str(damage.schema_broken(STATE.db_path, exc)))
    if isinstance(exc, sqlite3.OperationalError) and str(exc) == "interrupted":
        # Ctrl-C while SQLite ran a statement outside the query layer (stats, an export)
        return fail("interrupted; nothing was changed", INTERRUPTED)
    if isinstance(exc, sqlite3.OperationalError):
        return fail(f"{STATE.db_path}: {exc}; nothing was changed")
    return fail(
        f"internal error ({type(exc).__name__}: {exc}); nothing was changed. "
        "Run again with --debug for the traceback, and please report it",
        INTERNAL_ERROR,
    )


def _remember_collector(ctx: Any, param: Any, value: str | None) -> str | None:
    """The command's --collector, or $CARDBASE_COLLECTOR; a --collector typed before the
    command (`cardbase --collector Ada add ...`) wins over the environment, as typed always
    does, and one typed after the command over that."""
    if value is None:
        return value
    if not value.strip():
        raise typer.BadParameter("'' is not a collector's name; name one, or leave it out")
    from_env = getattr(ctx.get_parameter_source(param.name), "name", "") == "ENVIRONMENT"
    if from_env and STATE.collector_option is not None:
        return value
    STATE.collector_option = value
    STATE.collector_from_env = from_env
    return value


def _collector_source(exc: UnknownCollectorError) -> str:
    """Where an unknown collector's name came from, when the user did not type it here
    ($CARDBASE_COLLECTOR, the config file): named first, as a config file's other errors are.
    Only when the unknown name is the one the command chose as whose collection: a name
    typed as an argument (`collectors remove Bob`, `trade match --with Bo`) came from
    nowhere else, however the config file might also name a collector."""
    from cardbase.errors import shorten

    if STATE.collector_chosen is None:
        return ""
    name, source = STATE.collector_chosen
    # the library's message names the collector it could not find (`find_collector`)
    return source if exc.message.startswith(f"no collector named '{shorten(name, 40)}' ") else ""


def _remember_db(ctx: Any, param: Any, value: str | None) -> str | None:
    if value is not None:
        STATE.db_option = value
    return value


def _remember_no_headers(ctx: Any, param: Any, value: bool) -> bool:
    STATE.no_headers = value
    return value


def _shared_options(has_output: bool) -> list[typer.core.TyperOption]:
    """The options every command takes without declaring them: --collector; --db after the
    command as well as before it (`cardbase search --db x.db`); and, where there is -o,
    --no-headers. Each sets `STATE` before the command runs."""
    shared = [
        typer.core.TyperOption(
            param_decls=["--collector"],
            metavar="NAME",
            envvar=COLLECTOR_ENV,
            expose_value=False,
            callback=_remember_collector,
            help="Whose collection (default: $CARDBASE_COLLECTOR, the config file's "
            "collector, else the database's default collector).",
        ),
        typer.core.TyperOption(
            param_decls=["--db"],
            metavar="PATH",
            expose_value=False,
            callback=_remember_db,
            help="Database file, as before the command.",
        ),
    ]
    if has_output:
        shared.append(
            typer.core.TyperOption(
                param_decls=["--no-headers"],
                is_flag=True,
                expose_value=False,
                callback=_remember_no_headers,
                help="csv and tsv without the header row.",
            )
        )
    return shared


@functools.cache
def _with_collector(cls: type[typer.core.TyperCommand]) -> type[typer.core.TyperCommand]:
    """`cls` with the shared options (`_shared_options`), which no command has to declare."""

    def __init__(self: typer.core.TyperCommand, *args: Any, **kwargs: Any) -> None:
        cls.__init__(self, *args, **kwargs)
        has_output = any("--output" in param.opts for param in self.params)
        self.params.extend(_shared_options(has_output))

    return type(cls.__name__, (cls,), {"__init__": __init__})


def guarded(function: F) -> F:
    """`function` with the exit-code rule: a `CardbaseError` ends as one line and its code,
    anything unexpected as one line and 70, never a traceback unless --debug."""

    @functools.wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        from cardbase.db.sqlite import committed

        saved_before = committed()
        if sys.stdout is None:  # started with stdout closed (`cardbase search >&-`)
            raise fail("standard output is closed; nothing was run", 2)
        try:
            return function(*args, **kwargs)
        except CardbaseError as exc:
            _tell_notices()
            if STATE.debug:
                raise
            if isinstance(exc, UnknownCollectorError):
                exc.message = _collector_source(exc) + exc.message
            raise fail(str(exc), exc.exit_code) from None
        except (typer.Exit, typer.Abort):  # a command's own exit code, e.g. 1 for a bad deck
            raise
        except BrokenPipeError:  # `cardbase search | head`: not an error
            sys.stderr.close()
            raise typer.Exit(0) from None
        except OSError as exc:  # the library wraps its own files' errors: this is stdout
            if STATE.debug:
                raise
            raise fail(
                f"cannot write the output ({exc.strerror or exc}); nothing was changed by "
                "writing it",
                2,
            ) from None
        except KeyboardInterrupt:  # Ctrl-C: a write still open has rolled back by now
            if STATE.debug:
                raise
            if committed() > saved_before:
                raise fail(
                    "interrupted after the change was saved ('cardbase history' shows it)",
                    INTERRUPTED,
                ) from None
            raise fail("interrupted; nothing was changed", INTERRUPTED) from None
        except Exception as exc:
            if STATE.debug:
                raise
            raise _unexpected(exc) from None
        finally:
            _tell_notices()

    return run  # type: ignore[return-value]


def _tell_notices() -> None:
    """What an upgrade during the command had to say (`cardbase.notices`), on stderr."""
    from cardbase import notices

    for message in notices.take():
        typer.echo(f"cardbase: note: {message}", err=True)


def command(
    group: typer.Typer, name: str | None = None, cls: type[typer.core.TyperCommand] | None = None
) -> Callable[[F], F]:
    """Register a command whose `CardbaseError`s end as one line and the error's exit code."""

    def register(function: F) -> F:
        group.command(name, cls=_with_collector(cls or typer.core.TyperCommand))(guarded(function))
        return function

    return register
