"""The `cardbase` command line: a thin layer that parses, calls the library, renders."""

from __future__ import annotations

from cardbase.cli import cards, catalog, collection, search, sheets  # noqa: F401 (registers them)
from cardbase.cli.app import app


def main() -> None:
    app(prog_name="cardbase")


__all__ = ["app", "main"]
