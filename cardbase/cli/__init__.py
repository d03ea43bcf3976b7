"""The `cardbase` command line: a thin layer that parses, calls the library, renders."""

from __future__ import annotations

import copy
import sys
from collections.abc import Sequence

import typer

from cardbase.cli import (  # noqa: F401  (importing registers the commands)
    cards,
    catalog,
    collection,
    decks,
    maintenance,
    search,
    sheets,
    trades,
)
from cardbase.cli.app import app

GLOBAL_OPTIONS_WITH_VALUE = ("--db",)
GLOBAL_FLAGS = ("--debug",)


def main() -> None:
    lean_app(sys.argv[1:])(prog_name="cardbase")


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
    for cardbase's forty); a search needs only its own. When the arguments leave any doubt,
    the whole app runs, so help and errors for unknown commands are the same either way.
    """
    name = invoked_name(args)
    if name is None:
        return app
    commands = [c for c in app.registered_commands if _command_name(c) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    lean = copy.copy(app)
    lean.registered_commands = commands
    lean.registered_groups = groups
    return lean


def _command_name(info: typer.models.CommandInfo) -> str:
    callback = info.callback
    return info.name or (callback.__name__.replace("_", "-") if callback else "")


__all__ = ["app", "main"]
