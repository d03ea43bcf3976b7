"""`cardbase serve`: the library as local web pages (search, card, collection, Deck Builder,
import, Trade Lobby).

Nothing here is a second implementation: every handler calls the library functions the
command line calls, and renders what they return with Jinja2 templates; htmx (vendored in
`static/`, so the pages work offline) swaps in the parts that change.

The web stack is an optional extra (`pip install 'cardbase[web]'`). This module imports
nothing of it, so `cardbase serve` can say what is missing in one line; the app itself is
`cardbase.web.app.create_app`.
"""

from __future__ import annotations

import importlib.util

# The modules `cardbase[web]` installs, by their import names.
WEB_MODULES = ("fastapi", "jinja2", "uvicorn", "multipart")
INSTALL_HINT = "pip install 'cardbase[web]'"


def missing_modules() -> list[str]:
    """The web extra's modules that are not installed (none when the extra is)."""
    return [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]
