"""What every page shares: the database and collector the server was started with, the
collector a request chose, a connection for it, and rendering a template.

The server holds no per-user state beyond a cookie naming the collector: each request reads
through a connection of that collector (as `open_db` scopes every read), one its thread
keeps while it still reads the database as it is (`cardbase.web.connections`), so a page
always shows the database as it is now, whatever the command line changed meanwhile.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape

from cardbase import notices
from cardbase.collection.plan import Defaults
from cardbase.db.engine import Connection
from cardbase.db.location import Location
from cardbase.fields import FLAGS
from cardbase.games import game_title
from cardbase.text import plural
from cardbase.web.connections import KeptConnections
from cardbase.web.counts import CountCache
from cardbase.web.superseded import TabWork
from cardbase.web.trylog import TryLog

if TYPE_CHECKING:
    from cardbase.collection.collectors import Collector
    from cardbase.library import Library

COLLECTOR_COOKIE = "cardbase_collector"
FLASH_COOKIE = "cardbase_flash"
HERE = Path(__file__).resolve().parent


@dataclass
class Site:
    """The server's settings: the same database, collector, defaults and deck format the
    command line would use, and a secret for the CSRF token."""

    db_path: Location
    collector: str | None = None  # the server's default; a request may choose another
    defaults: Defaults = field(default_factory=Defaults)
    deck_format: str | None = None  # the config file's format, as `deck check` uses it
    public: bool = False  # listening beyond this computer: any Host header is accepted
    csrf_token: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    # The organiser's PIN for the event pages (`serve --pin`): held by the server alone,
    # never stored in the database; None: no organiser page. The session cookie a right PIN
    # earns is this server's own secret, so a restart signs every organiser out.
    organiser_pin: str | None = None
    organiser_session: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    uploads: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="cardbase-web-")))
    game: str | None = None  # the game a code several games share means (`Library.game`)
    # A worker process of several (`serve --workers`) shares the uploads folder, which the
    # server's first process removes, and keeps the wrong tries in a file there.
    owns_uploads: bool = True
    tries_file: Path | None = None

    counts: CountCache = field(init=False, repr=False)
    kept: KeptConnections = field(init=False, repr=False)  # each thread's, per collector
    tabs: TabWork = field(init=False, repr=False)
    wrong_tries: TryLog = field(init=False, repr=False)  # by client address

    def __post_init__(self) -> None:
        """Uploaded sheets go with the server: when it stops (the app's lifespan), and also
        when a site that was never started as a server (a test's client) is let go."""
        if self.owns_uploads:
            weakref.finalize(self, shutil.rmtree, self.uploads, True)
        self.counts = CountCache(self.db_path)
        weakref.finalize(self, self.counts.close)
        self.wrong_tries = TryLog(self.tries_file)
        self.tabs = TabWork()
        self.kept = KeptConnections()

    def for_workers(self) -> dict[str, Any]:
        """What a worker process makes its own `Site` of (`serve --workers`; it is pickled
        across): the same database, collector and settings, the same secrets, so that a
        form or an organiser's cookie one worker gave is good at every other, and the same
        uploads folder, so an import's preview and its confirmation may reach different
        workers. Counts, running searches and connections stay each process's own."""
        shared = {f.name: getattr(self, f.name) for f in fields(self) if f.init}
        tries = self.uploads / ".wrong-tries.db"  # never an upload's token (no dots in one)
        return shared | {"owns_uploads": False, "tries_file": tries}

    def collector_of(self, request: Request) -> str | None:
        """Whose pages: ?collector= on a link, else the cookie the chooser set, else the
        server's (the command line's --collector, $CARDBASE_COLLECTOR or config)."""
        chosen = request.query_params.get("collector")
        chosen = chosen or unquote(request.cookies.get(COLLECTOR_COOKIE, ""))
        return chosen or self.collector

    def library(self, request: Request) -> Library:
        """The database as the request's collector sees it: what every handler calls."""
        from cardbase.library import Library

        return Library(self.db_path, self.collector_of(request), self.defaults, self.game)

    @contextmanager
    def connect(self, request: Request) -> Iterator[Connection]:
        """A connection of the request's collector, without the progress handler the
        command line uses so that Ctrl-C ends a statement at once: a handler runs Python
        every few thousand SQLite steps, and with it each concurrent request's queries
        waited for the GIL again and again (4 clients on 100k cards: search page p95 231 ms,
        without it far less). Here Ctrl-C stops the server, which lets requests finish.
        The connection is this thread's kept one, when it still reads the database as it is."""
        with self.kept.reading(self.library(request)) as conn:
            yield conn

    @contextmanager
    def searching(self, request: Request, supersedes: bool = False) -> Iterator[Connection]:
        """`connect`, for a search or a count a newer search from the same tab may stop
        (`cardbase.web.superseded`); a new page of results (`supersedes`) stops the tab's
        older ones."""
        with self.connect(request) as conn, self.tabs.running(request, conn, supersedes):
            yield conn


def site_of(request: Request) -> Site:
    site: Site = request.app.state.site
    return site


def _environment() -> Environment:
    """Autoescaping on for every template: card names, texts and messages are user data.
    The templates are the package's own and never change under a running server, so they
    are not checked for changes at each use (a file's stat per template and include: a
    fifth of the Deck Builder's 0.7 ms report)."""
    env = Environment(
        loader=PackageLoader("cardbase.web", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    from cardbase.web import faces

    env.filters["gem_text"] = faces.gem_text
    env.filters["gem_dots"] = faces.gem_dots  # {{ card.gems|gem_dots }}: dots, named in words
    env.filters["plural"] = plural  # {{ n|plural("card") }}: "1 card", "2 cards", as the CLI
    env.globals["sphere_colour"] = faces.sphere_colour
    env.globals["gem_colour"] = faces.gem_colour
    env.globals["gem_name"] = faces.gem_name
    env.globals["card_url"] = faces.card_url_here
    env.globals["code_here"] = faces.code_here  # {{ code_here(card) }}: wh:1 C 41, or 1 C 41
    env.globals["url"] = url
    env.filters["game_title"] = game_title  # {{ card.game|game_title }}: its game's title
    env.globals["flags"] = FLAGS  # is:hero ... as the plain flag options, from the registry
    return env


def is_htmx(request: Request) -> bool:
    """An htmx request that swaps a part of the page. A boosted link or form (hx-boost)
    swaps the whole page, so it is answered (an error too) with the whole page, never a
    bare fragment in place of it."""
    headers = request.headers
    return headers.get("hx-request") == "true" and headers.get("hx-boosted") != "true"


def wants_json(request: Request) -> bool:
    """The page's JSON twin is asked for: ``?format=json``, as datasette's pages take it, or
    a script's Accept: application/json (without text/html, which a browser sends)."""
    if request.query_params.get("format") == "json":
        return True
    accept = request.headers.get("accept", "").lower()
    return "application/json" in accept and "text/html" not in accept


def render(
    request: Request,
    template: str,
    context: Mapping[str, Any],
    status: int = 200,
    twin: Callable[[], Any] | None = None,
) -> Response:
    """A page (or, for htmx, the same template's partial when it has one) with what every
    page shows: the collector chooser, the CSRF token, a message left by a redirect, and
    what the library had to say while the request ran (`cardbase.notices`). `twin`: the
    page's JSON twin, the library's result as the command line's ``-o json`` gives it."""
    if twin is not None and wants_json(request):
        return JSONResponse(twin(), status_code=status)
    site = site_of(request)
    me, everyone = site.counts.kept(("chooser", site.collector_of(request)),
                                    lambda: _chooser(site, request))  # fmt: skip
    flash = unquote(request.cookies.get(FLASH_COOKIE, ""))
    html = ENV.get_template(template).render(
        request=request, csrf=site.csrf_token, collector=me.name,
        collector_is_default=me.is_default, collectors=everyone,
        flash=flash, notes=notices.take(), **context,
    )  # fmt: skip
    response = HTMLResponse(html, status_code=status)
    if flash:
        response.delete_cookie(FLASH_COOKIE)
    return response


def _chooser(site: Site, request: Request) -> tuple[Collector, tuple[str, ...]]:
    """The request's collector and everyone's names, for the chooser every page shows."""
    from cardbase.collection.collectors import all_collectors, current_collector

    with site.connect(request) as conn:
        return current_collector(conn), tuple(c.name for c in all_collectors(conn))


def partial(
    template: str, context: Mapping[str, Any], status: int = 200, request: Request | None = None
) -> HTMLResponse:
    """A fragment for htmx to swap in: no page around it, but the notes the request heard
    (`cardbase.notices`) above it; `request` for one with card links (their game)."""
    notes = ENV.get_template("_notes.html").render(notes=notices.take())
    html = notes + ENV.get_template(template).render(request=request, **context)
    return HTMLResponse(html, status_code=status)


def redirect(url: str, message: str = "") -> Response:
    """After a change, back to a page to see it (so reloading never repeats the change), with
    the change's one-line message shown there once."""
    response = RedirectResponse(url, status_code=303)
    if message:
        # Quoted: a cookie holds only ASCII, and a message quotes card names in any script.
        response.set_cookie(FLASH_COOKIE, quote(message[:1000]), max_age=60, httponly=True,
                            samesite="strict")  # fmt: skip
    return response


def url(path: str, params: Mapping[str, Any]) -> str:
    """`path` with the non-empty `params`: the links a page makes keep the query."""
    kept = {k: v for k, v in params.items() if v not in (None, "", False)}
    return f"{path}?{urlencode(kept)}" if kept else path


ENV = _environment()
