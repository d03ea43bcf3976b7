"""The Deck Builder: results on one side, the deck on the other, validated as it changes.

Validation is `deck check`'s (`check_deck`), the statistics `deck stats`' (`deck_stats`), and
the Deck Builder Helper is `deck build`'s (`build_and_keep`, never saving or writing); the
page only edits the deck list's text (`cardbase.decks.editing`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from cardbase.catalog.cards import Card
from cardbase.catalog.names import NameResolver
from cardbase.db.engine import Connection
from cardbase.decks import builder, editing
from cardbase.decks.check import DeckReport, DeckStats, check_deck, deck_stats, get_format, place
from cardbase.decks.deckcode import looks_like_code
from cardbase.decks.formats import FORMATS, Placed
from cardbase.decks.lists import parse_deck_text
from cardbase.errors import CardbaseError
from cardbase.fields import DEFAULT_FORMAT
from cardbase.limits import MAX_DECK_FILE
from cardbase.text import plural
from cardbase.web.faces import Chart, cost_curve
from cardbase.web.pages.queries import SearchForm, read_form, run_search
from cardbase.web.site import Site, is_htmx, partial, render, site_of, wants_json

router = APIRouter()
RESULTS = 30  # cards beside the deck: the search narrows them


class DeckState(NamedTuple):
    """What the deck form carries: the deck list and how to check it."""

    text: str
    format: str
    players: int | None
    owned: bool
    name: str


class Panel(NamedTuple):
    state: DeckState
    report: DeckReport
    stats: DeckStats
    placed: list[Placed]
    chart: Chart
    notes: list[str]  # the Helper's: what it left out, or why it could not build
    toast: str = ""  # what a click did, said where the eye is (the bar), then faded

    def groups(self) -> list[tuple[str, int, list[Placed]]]:
        """The deck's cards by type (Creature, Resource, ...) with each type's count, and
        each other section (Side) after them as one group: a 40-card list is read so."""
        found: dict[str, list[Placed]] = {}
        for item in self.placed:
            main = item.line.section == "main"
            found.setdefault(item.card.type if main else item.line.section.title(), []).append(item)
        main_types = sorted(k for k, v in found.items() if v[0].line.section == "main")
        order = main_types + [k for k in found if k not in main_types]
        return [(k, sum(i.line.copies for i in found[k]), found[k]) for k in order]


def read_state(
    site: Site, text: str, format_: str | None, players: str | None, owned: bool, name: str
) -> DeckState:
    """The form, checked: a deck list within `deck check`'s file limit, a known format."""
    if len(text.encode()) > MAX_DECK_FILE:
        raise CardbaseError(
            f"the deck list is over {MAX_DECK_FILE:,} bytes, the most a deck list may hold; "
            "nothing was checked"
        )
    key = get_format(format_ or site.deck_format or DEFAULT_FORMAT).key
    count = int(players) if players and players.isdigit() and len(players) < 3 else None
    return DeckState(text.replace("\r\n", "\n"), key, count, owned, name.strip())


def panel(conn: Connection, state: DeckState, notes: list[str] | None = None) -> Panel:
    """The deck checked (every problem, as `deck check` reports them) and described."""
    deck = parse_deck_text(state.text, state.name or "deck")
    own = _saved_id(conn, state.name) if state.owned else None
    placed_as = place(conn, deck, get_format(state.format).game)
    report = check_deck(
        conn, deck, state.format, state.players, state.owned, placed_as=placed_as, own=own
    )
    placed = placed_as[0]
    stats = deck_stats(placed)
    return Panel(state, report, stats, placed, cost_curve(stats.cost_curve), notes or [])


def _saved_id(conn: Connection, name: str) -> int | None:
    """The saved deck the list is named as, if any: its sleeved copies count as its own."""
    from cardbase.decks.saved import find_deck
    from cardbase.errors import NotFoundError

    try:
        return find_deck(conn, name).id if name else None
    except NotFoundError:
        return None


def results(conn: Connection, form: SearchForm) -> Any:
    return run_search(conn, form._replace(size=RESULTS))


def page_context(request: Request, shown: Panel) -> dict[str, Any]:
    form = read_form(request.query_params)
    site = site_of(request)
    with site.connect(request) as conn:
        found = results(conn, form)
        decks = saved_decks(conn)
    return {"panel": shown, "formats": FORMATS, "form": form, "found": found, **decks,
            "spheres": builder.spheres(), "max_heroes": builder.MAX_HEROES}  # fmt: skip


def saved_decks(conn: Connection) -> dict[str, Any]:
    """The saved decks list's context: the decks, and each one's copies (`deck list`'s),
    by id, for its Mark as built and Unsleeve buttons."""
    from cardbase.decks.sleeves import decks_with_copies

    listed = decks_with_copies(conn)
    return {"decks": [deck for deck, _ in listed],
            "built": {deck.id: copies for deck, copies in listed}}  # fmt: skip


def respond(request: Request, shown: Panel, changed: bool = True) -> Response:
    """For htmx, the report beside the deck, and the deck list itself when the server
    changed it (`changed`: not while it is being typed, or the caret would jump); the whole
    page (with results and saved decks) without htmx."""
    if is_htmx(request):
        shown_here = {"panel": shown, "oob": changed, "summary": True,
                      "csrf": site_of(request).csrf_token}  # fmt: skip
        return partial("_deck_report.html", shown_here, request=request)
    return render(request, "deck.html", page_context(request, shown))


@router.get("/deck", response_class=HTMLResponse)
def deck_page(request: Request) -> Response:
    """The builder, with a saved deck opened (`?open=NAME`, as `deck show` reads it), and
    that deck's History."""
    from cardbase.decks.saved import deck_text, find_deck, saved_placed
    from cardbase.web.pages.deckversions import versions_of

    site = site_of(request)
    name = request.query_params.get("open", "")
    unopened, versions = None, []
    with site.connect(request) as conn:
        text, fmt = "", None
        try:
            if name:
                saved = find_deck(conn, name)
                text = deck_text(conn, saved_placed(conn, saved))
                fmt, name = saved.format, saved.name
                versions = versions_of(conn, saved.name)
        except CardbaseError as refused:  # an old link: the builder, saying so above the list
            if wants_json(request):
                raise
            unopened, name = refused.said("web"), ""
        shown = panel(conn, read_state(site, text, fmt, None, False, name))
    context = {**page_context(request, shown), "unopened": unopened, "versions": versions}
    status = 404 if unopened else 200
    return render(request, "deck.html", context, status, twin=lambda: builder_twin(context, name))


def builder_twin(context: dict[str, Any], opened: str) -> dict[str, Any]:
    """The Deck Builder's JSON twin: the saved decks as `deck list -o json` gives them and,
    for an opened deck, its list, its check (`deck check -o json`), its stats and its
    versions (`deck history -o json`), so a script reads what the page shows."""
    shown: Panel = context["panel"]
    decks = [{**deck.to_dict(), **context["built"][deck.id].to_dict()} for deck in context["decks"]]
    if not opened:
        return {"decks": decks, "deck": None}
    deck = {"name": opened, "format": shown.state.format, "text": shown.state.text,
            "check": shown.report.to_dict(), "stats": shown.stats.to_dict(),
            "versions": [version.to_dict() for version in context["versions"]]}  # fmt: skip
    return {"decks": decks, "deck": deck}


@router.get("/deck/results", response_class=HTMLResponse)
def deck_results(request: Request) -> HTMLResponse:
    with site_of(request).connect(request) as conn:
        found = results(conn, read_form(request.query_params))
    return partial("_deck_results.html", {"found": found}, request=request)


@router.post("/deck/update", response_class=HTMLResponse)
def update(
    request: Request,
    deck: str = Form(""),
    format_: str | None = Form(None, alias="format"),
    players: str | None = Form(None),
    owned: bool = Form(False),
    name: str = Form(""),
    add: str | None = Form(None),
    more: int | None = Form(None),
    less: int | None = Form(None),
) -> Response:
    """A click or an edit: one copy more of a card (`add`, by code) or of a line (`more`),
    one less of a line (`less`), or the text as typed; then the deck checked again."""
    site = site_of(request)
    state = read_state(site, deck, format_, players, owned, name)
    with site.connect(request) as conn:
        if looks_like_code(state.text):
            return respond(request, _opened_code(conn, state))
        text, card = state.text, None
        if add:
            card = NameResolver(conn).card(add)
            text = editing.add_card(conn, text, card)
        line = more or less
        if line:
            card = _card_on(conn, text, line, state.format)
            text = editing.bump(text, line, 1 if more else -1)
        shown = panel(conn, state._replace(text=text))
        if card is not None:
            shown = shown._replace(toast=toast(shown.placed, card, "Added" if add else ""))
        return respond(request, shown, bool(add or line))


def _opened_code(conn: Connection, state: DeckState) -> Panel:
    """A deck code pasted in the list (`deck code`'s, from a chat): its cards, as a list."""
    from cardbase.decks.operations import first_format, placed_of_code
    from cardbase.decks.saved import deck_text

    game, placed = placed_of_code(conn, state.text.strip(), "The list was left as pasted")
    if get_format(state.format).game != game:
        state = state._replace(format=first_format(game).key)
    copies = sum(p.line.copies for p in placed)
    note = f"Opened the deck code: {plural(copies, 'card')}"
    return panel(conn, state._replace(text=deck_text(conn, placed)), [note])


def _card_on(conn: Connection, text: str, line: int, format_: str) -> Card | None:
    """The card a deck line names, before a click changes (or removes) it."""
    deck = parse_deck_text(text, "deck")
    placed, _problems = place(conn, deck, get_format(format_).game)
    return next((item.card for item in placed if item.line.line == line), None)


def toast(placed: list[Placed], card: Card, verb: str) -> str:
    """What a click did, in one line: the card, and how many of it the deck holds now."""
    copies = sum(item.line.copies for item in placed if item.card.id == card.id)
    return f"{verb + ' ' if verb else ''}{card.name}: {copies} in the deck"


@router.post("/deck/helper", response_class=HTMLResponse)
def helper(
    request: Request,
    sphere: str = Form(...),
    heroes: str = Form(""),
    format_: str | None = Form(None, alias="format"),
    owned: bool = Form(False),
    deck: str = Form(""),
) -> Response:
    """Deck Builder Helper: `deck build`'s legal deck of one sphere from what you own."""
    site = site_of(request)
    built = site.library(request).build_deck(sphere, _heroes(heroes))
    result = built.result
    if result.shortage:
        notes = [f"✘ cannot build a {result.sphere} deck: {result.shortage.web}"]
        text = deck
    else:
        notes = [f"left out: {note}" for note in result.left_out[: builder.LEFT_OUT_SHOWN]]
        text = built.text
    state = read_state(site, text, format_ or DEFAULT_FORMAT, None, owned,
                       f"{result.sphere} build")  # fmt: skip
    with site.connect(request) as conn:
        shown = panel(conn, state, notes)
    built_one = f"Built a {result.sphere} deck: {plural(shown.report.cards, 'card')}"
    return respond(request, shown._replace(toast="" if result.shortage else built_one))


def _heroes(text: str) -> int | None:
    """The Helper's Heroes as `deck build --heroes` takes them: blank is the game's default
    (two, and more only to fill what the sphere's cards cannot); a number is the most, which
    the library checks."""
    cleaned = text.strip()
    if not cleaned:
        return None
    if not cleaned.isdecimal():
        raise CardbaseError(
            f"Heroes '{cleaned[:20]}' is not a number; give 0 to {builder.MAX_HEROES}, "
            "or leave it blank for the default"
        )
    return int(cleaned)
