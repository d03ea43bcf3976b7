"""The `cardbase` command line: a thin layer that parses, calls the library, renders."""

from __future__ import annotations

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


def main() -> None:
    app(prog_name="cardbase")


__all__ = ["app", "main"]
