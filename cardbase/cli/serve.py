"""`cardbase serve`: the local web pages, over the same database and collector."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.cli.root import STATE, app, command
from cardbase.errors import CardbaseError


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
) -> None:
    """Search, cards, collection, Deck Builder, import and Trade Lobby as local web pages.

    Example: cardbase serve --open
    """
    from cardbase.web import INSTALL_HINT, missing_modules

    missing = missing_modules()
    if missing:
        raise CardbaseError(
            f"cardbase serve needs the web extra ({', '.join(missing)} not installed): "
            f"{INSTALL_HINT}"
        )
    from cardbase.web.server import run
    from cardbase.web.site import Site

    site = Site(STATE.db_path, STATE.collector, STATE.defaults, STATE.config.get("format"),
                game=STATE.game)  # fmt: skip
    run(site, host, port, open_browser)
