"""The search form as the library reads it: the query box and a control for every plain
option, made from `cardbase.fields` as the command line's options are, so the two never
drift apart."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from cardbase.catalog.cards import Card
from cardbase.db.engine import Connection
from cardbase.fields import FLAGS, OPTION_FIELDS, SORT_KEYS, TABLE_FIELDS
from cardbase.query import advice
from cardbase.query import search as lib
from cardbase.query.advice import Advice
from cardbase.query.nodes import Query

PAGE_SIZES = (25, 50, 100, 200)
VIEWS = ("table", "gallery")  # the first is the default, which the URL leaves out
DEFAULT_PAGE = 50
MAX_PAGE = 1_000  # pages past it would make SQLite walk a million rows for one view


class Control(NamedTuple):
    """One plain option as a form control: a select for choice fields, else a text box."""

    name: str
    label: str
    help: str
    choices: tuple[str, ...]
    example: str


CONTROLS = tuple(
    Control(f.name, f.name.title(), f.option or "", f.choices, f.example.strip("'"))
    for f in OPTION_FIELDS
)
# Columns of the results table, as the terminal's: field, header, and the sort key a click
# on the header asks for.
COLUMNS: tuple[tuple[str, str, str | None], ...] = tuple(
    (f.name, f.table or f.name, f.name if f.name in SORT_KEYS else None) for f in TABLE_FIELDS
)


class SearchForm(NamedTuple):
    text: str
    filters: dict[str, str | bool | None]
    sort: str | None
    desc: bool
    page: int
    size: int
    view: str = VIEWS[0]  # how the results are shown; the cards are the same either way

    def params(self) -> dict[str, Any]:
        """The form as URL parameters, so a link or bookmark repeats the search."""
        values: dict[str, Any] = {"q": self.text, **self.filters}
        values.update(sort=self.sort, desc="1" if self.desc else "", page=self.page)
        values["size"] = self.size if self.size != DEFAULT_PAGE else ""
        values["view"] = self.view if self.view != VIEWS[0] else ""
        return {k: ("1" if v is True else v) for k, v in values.items() if v not in (None, "")}

    def query(self, owned: bool = False) -> Query:
        filters = dict(self.filters)
        if owned:
            filters["owned"] = True
        return lib.build_query(self.text, filters, self.sort, self.desc)


def _number(text: str | None, default: int, low: int, high: int) -> int:
    return min(max(int(text), low), high) if text and text.isdigit() and len(text) < 9 else default


def read_form(params: Mapping[str, str]) -> SearchForm:
    """A search from URL parameters; blank controls are not filters."""
    filters: dict[str, str | bool | None] = {
        c.name: (params.get(c.name) or "").strip() or None for c in CONTROLS
    }
    for flag in FLAGS:
        filters[flag] = params.get(flag) in ("1", "on", "true")
    size = _number(params.get("size"), DEFAULT_PAGE, 1, max(PAGE_SIZES))
    sort = (params.get("sort") or "").strip() or None
    view = params.get("view") if params.get("view") in VIEWS else VIEWS[0]
    return SearchForm(
        (params.get("q") or "").strip(), filters, sort, params.get("desc") == "1",
        _number(params.get("page"), 1, 1, MAX_PAGE), size, str(view),
    )  # fmt: skip


class Results(NamedTuple):
    cards: list[Card]
    page: int
    more: bool  # a next page exists
    total: int | None  # None until counted (`count_matches`)
    warnings: list[Advice]  # what `cardbase search` warns of, with the links it suggests

    def to_dict(self) -> dict[str, Any]:
        """The page's JSON twin: its cards as `cardbase search -o json` gives them."""
        return {"cards": [card.to_dict() for card in self.cards], "page": self.page,
                "more": self.more, "total": self.total,
                "warnings": [warning.to_dict() for warning in self.warnings]}  # fmt: skip


def results_twin(context: Mapping[str, Any]) -> Callable[[], Any]:
    """A search page's JSON twin: its results, or its query error as the error pages'
    JSON says one."""

    def twin() -> Any:
        if context["query_error"]:
            fix = context["query_fix"]
            return {"error": context["query_error"], "status": 400,
                    **({"suggestion": fix._asdict()} if fix else {})}  # fmt: skip
        results: Results = context["results"]
        return results.to_dict()

    return twin


def run_search(conn: Connection, form: SearchForm, owned: bool = False) -> Results:
    """One page of cards, one more read to know whether a next page exists. The count of
    every match is left to `count_matches` (the page asks for it once shown): on 100k cards
    it can cost as much again as the page, and the results need not wait for it. The
    earlier pages are skipped in SQL: fetched and sliced off, page 20 made 1,001 cards of
    Python objects for 51."""
    first = (form.page - 1) * form.size
    query, warned = advice.warnings(conn, form.query(owned), form.text, form.filters)
    cards = lib.search(conn, query, form.size + 1, offset=first)
    more = len(cards) > form.size
    total = first + len(cards) if not more and (cards or form.page == 1) else None
    if not cards and form.page == 1 and not owned and not warned:
        warned = advice.no_match(conn, query)
    return Results(cards[: form.size], form.page, more, total, warned)


def count_matches(conn: Connection, form: SearchForm, owned: bool = False) -> int:
    query, _ = advice.warnings(conn, form.query(owned), form.text, form.filters)
    return lib.count(conn, query)
