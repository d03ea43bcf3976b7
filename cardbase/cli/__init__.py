"""The `cardbase` command line: a thin layer that parses, calls the library, renders."""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import typer

GLOBAL_OPTIONS_WITH_VALUE = ("--db", "--collector")
GLOBAL_FLAGS = ("--debug",)
# Which module registers each command or group (tests/test_cli_foundation.py checks this
# against the commands the modules register): a command imports only its own module.
COMMAND_MODULES: dict[str, str] = {
    "search": "search", "collection": "search", "missing": "collection",
    "show": "cards", "code": "cards",
    "add": "collection", "remove": "collection", "set": "collection", "undo": "collection",
    "redo": "collection",
    "history": "collection", "stats": "collection", "move": "collection",
    "tag": "collection", "untag": "collection",
    "import": "sheets", "export": "sheets",
    "backup": "maintenance", "restore": "maintenance", "doctor": "maintenance",
    "catalog": "catalog", "deck": "decks", "trade": "trades",
    "collectors": "collectors", "config": "collectors",
    "serve": "serve", "db": "database", "event": "events", "games": "games",
}  # fmt: skip


def load_commands(*modules: str) -> typer.Typer:
    """The app with the commands of `modules` (all of them when none is named) registered."""
    for module in modules or sorted(set(COMMAND_MODULES.values())):
        importlib.import_module(f"cardbase.cli.{module}")
    from cardbase.cli.root import app

    return app


def __getattr__(name: str) -> Any:
    """`cardbase.cli.root` for scripts and tests is the whole app, every command registered."""
    if name == "app":
        app = load_commands()
        globals()["app"] = app  # once loaded, it stays loaded
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    try:
        lean_app(sys.argv[1:])(prog_name="cardbase")
    except KeyboardInterrupt:  # before any command ran (while importing): nothing was begun
        sys.stderr.write("cardbase: interrupted; nothing was changed\n")
        raise SystemExit(130) from None


def invoked_name(args: Sequence[str]) -> str | None:
    """The command or group the arguments run, past the global options; None if unclear."""
    position = 0
    while position < len(args):
        word = args[position]
        if word in GLOBAL_OPTIONS_WITH_VALUE:
            position += 2
        elif word in GLOBAL_FLAGS or word.startswith(
            tuple(f"{o}=" for o in GLOBAL_OPTIONS_WITH_VALUE)
        ):
            position += 1
        elif word.startswith("-"):
            return None  # --help, or an option typer should judge
        else:
            return word
    return None


def lean_app(args: Sequence[str]) -> typer.Typer:
    """The app with only the command (or group) being run registered.

    Typer builds a click command for every registered command on each start (about 18 ms
    for cardbase's forty), and each command module costs its imports; a search needs only
    its own. When the arguments leave any doubt, the whole app runs, so help and errors for
    unknown commands are the same either way.
    """
    name = invoked_name(args)
    if name is None or name not in COMMAND_MODULES:
        return load_commands()
    app = load_commands(COMMAND_MODULES[name])
    commands = [c for c in app.registered_commands if _command_name(c) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:  # pragma: no cover - COMMAND_MODULES is tested
        return load_commands()
    lean = copy.copy(app)
    lean.registered_commands = commands
    lean.registered_groups = groups
    lean._add_completion = False  # the completion options cost each start; help has them
    return lean


def _command_name(info: typer.models.CommandInfo) -> str:
    callback = info.callback
    return info.name or (callback.__name__.replace("_", "-") if callback else "")


__all__ = ["app", "main"]
