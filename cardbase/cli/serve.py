"""`cardbase serve`: the local web pages, over the same database and collector."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli.root import STATE, _tell_notices, app, command
from cardbase.errors import CardbaseError

MAX_WORKERS = 64  # processes: past this, a typo rather than a machine's cores


@command(app)
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host", help="Address to listen on (default 127.0.0.1: this computer only)."
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="Port (default: a free one).")
    ] = 0,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the pages in your web browser.")
    ] = False,
    pin: Annotated[
        str | None,
        typer.Option(
            "--pin",
            metavar="PIN",
            help="The organiser's PIN for the event pages (- : type it, hidden); held by "
            "the server, never stored.",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=MAX_WORKERS,
            help="Server processes answering at once (default 1); more use more cores when "
            "several people search at once.",
        ),
    ] = 1,
) -> None:
    """Search, cards, collection, Deck Builder, import, Trade Lobby and events as local web
    pages.

    \b
    Example: cardbase serve --open
    Example: cardbase serve --host 0.0.0.0 --port 8420 --pin -
    """
    from cardbase.web import INSTALL_HINT, missing_modules

    missing = missing_modules()
    if missing:
        raise CardbaseError(
            f"cardbase serve needs the web extra ({', '.join(missing)} not installed): "
            f"{INSTALL_HINT}"
        )
    from cardbase.library import Library
    from cardbase.web.server import run
    from cardbase.web.site import Site

    # opened here, not first in `run`: a new default database's notice is said now, before
    # the "serving" line, not when Ctrl-C ends the command
    Library(STATE.db_path, STATE.collector).connect().close()
    _tell_notices()
    site = Site(STATE.db_path, STATE.collector, STATE.defaults, STATE.config.get("format"),
                game=STATE.game)  # fmt: skip
    site.organiser_pin = None if pin is None else _pin(pin)
    run(site, host, port, open_browser, workers)


def _pin(given: str) -> str:
    """The PIN as given, or typed twice without echo for `-` (so it is in no shell's
    history); at least four characters, none of them spaces."""
    if given == "-":
        given = typer.prompt("Organiser PIN", hide_input=True, confirmation_prompt=True)
    pin = given.strip()
    if len(pin) < 4 or any(c.isspace() for c in pin):
        raise CardbaseError("--pin: give at least 4 characters and no spaces, as 4817")
    return pin
