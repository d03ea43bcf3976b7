"""The Trade Lobby: your haves and wants, the other collectors of this database and the
trades you can do with each, and a match against another player's uploaded list: `trade
list`, `trade lobby`, `trade match --with` and `trade match FILE` underneath; and a trade
with another collector carried out from the page (`trade make`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, File, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response

from cardbase.catalog.cards import holds_several_games
from cardbase.errors import CardbaseError
from cardbase.limits import MAX_COUNT, MAX_SERIES
from cardbase.trades import Rules, TradeItem
from cardbase.trades.items import value_rule
from cardbase.web import uploads
from cardbase.web.site import redirect, render, site_of, wants_json

router = APIRouter()


def read_rules(params: Mapping[str, str]) -> Rules:
    """`trade list`'s options from the form: playset, keep decks, complete a series."""
    return Rules.read(
        params.get("playset"), params.get("keep_decks") in ("1", "on"),
        params.get("complete_series"),
    )  # fmt: skip


def _lobby(request: Request, rules: Rules) -> dict[str, Any]:
    from cardbase.trades import lobby, match_with, trade_lists

    site = site_of(request)
    with site.connect(request) as conn:
        mine = trade_lists(conn, rules)
        found = lobby(conn, rules)
        other = request.query_params.get("with")
        match = match_with(conn, other, rules) if other else None
        several = holds_several_games(conn)
        completing = rules.completing(conn)
    last = next(iter(site.library(request).history(1, undoable=True)), None)
    return {"mine": mine, "lobby": found, "match": match[1] if match else None,
            "with": match[0] if match else None, "rules": rules,
            "max_count": MAX_COUNT, "max_series": MAX_SERIES, "value_rule": _value_rule(),
            "next_undo": last if last and last.source.startswith("trade with ") else None,
            "item_text": functools.partial(item_text, prefixed=several),
            "completing": completing}  # fmt: skip


def _value_rule() -> str:
    """The rule's words after "value: ", for a line that starts with the word in bold."""
    return value_rule().removeprefix("value: ")


def item_text(item: TradeItem, prefixed: bool = False) -> str:
    """A proposal's item as a trade names its cards ('1 C 14 nonfoil lp fr'), its count apart;
    `prefixed` where the database holds several games, so its code names this card alone."""
    detail = f" {item.condition} {item.language}" if item.condition else ""
    code = item.card.code_prefixed if prefixed else item.card.code_shown
    return f"{code} {item.finish}{detail}"


@router.get("/trades", response_class=HTMLResponse)
def trades_page(request: Request) -> Response:
    rules = read_rules(request.query_params)
    context = _lobby(request, rules)

    def twin() -> dict[str, Any]:
        """`trade lobby -o json`, with `trade match --with -o json` when a collector is chosen."""
        found, match = context["lobby"], context["match"]
        return {"collector": found.collector, "others": found.others,
                "lobby": [entry.to_dict() for entry in found.entries],
                "with": context["with"], "match": match.to_dict() if match else None,
                "value_rule": value_rule()}  # fmt: skip

    return render(request, "trades.html", context, twin=twin)


@router.post("/trades/match", response_class=HTMLResponse)
async def match_file(request: Request, file: Annotated[UploadFile, File()]) -> Response:
    """Their Offered and Wanted lists (a file they exported) against yours."""
    from starlette.concurrency import run_in_threadpool

    from cardbase.trades import match_trades, read_trade_lists, trade_lists

    site = site_of(request)
    rules = read_rules({k: v for k, v in (await request.form()).items() if isinstance(v, str)})
    _token, path = await uploads.keep(site.uploads, file)

    def matched() -> dict[str, Any]:
        with site.connect(request) as conn:
            theirs = read_trade_lists(conn, path)
            mine = trade_lists(conn, rules)
            return {"match": match_trades(theirs, mine.offered, mine.wanted),
                    "with": path.name, "problems": theirs.problems}  # fmt: skip

    context = _lobby(request, rules)
    try:
        with uploads.as_uploaded(path):
            context.update(await run_in_threadpool(matched))
    except CardbaseError as refused:  # said by the upload, to choose another file
        if wants_json(request):
            raise
        return render(request, "trades.html", {**context, "unread": refused.said("web")}, 400)
    return render(request, "trades.html", context)


# -- a trade carried out: `trade make` ---------------------------------------------------


def _sides(params: Mapping[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """Each side's rows as the form sends them: a card (`give_card`) and its copies, as typed."""
    getlist = getattr(params, "getlist", lambda key: [params[key]] if key in params else [])
    return {
        side: list(zip(getlist(f"{side}_card"), getlist(f"{side}_copies"), strict=False))
        for side in ("give", "get")
    }


def _items(rows: list[tuple[str, str]]) -> list[str]:
    """The rows with copies, as items ('2 1 C 14 nonfoil'); a count that is not one is
    refused here, in the page's words, as `add` refuses it."""
    items = []
    for card, copies in rows:
        text = str(copies).strip() or "0"
        if not text.isdecimal() or int(text) > MAX_COUNT:
            raise CardbaseError(
                f"'{text[:20]}' copies of {card[:40]}: choose a whole number, 0 to {MAX_COUNT:,}"
            )
        if int(text):
            items.append(f"{int(text)} {card}")
    return items


def _make_page(
    request: Request, other: str, rows: dict[str, list[tuple[str, str]]], *, do: bool
) -> Response:
    """The proposed trade, checked (a dry run), or made; a refusal said in the page, with the
    rows as they were typed so that they can be changed."""
    library = site_of(request).library(request)
    context: dict[str, Any] = {"other": other, "rows": rows, "value_rule": _value_rule(),
                               "trade": None, "error": None}  # fmt: skip
    try:
        give, get = _items(rows["give"]), _items(rows["get"])
        trade = library.trade(other, give, get, dry_run=not do)
    except CardbaseError as exc:
        if wants_json(request):
            raise
        context["error"] = exc.said("web")
        return render(request, "trade_make.html", context, status=400)
    if wants_json(request):
        return JSONResponse(trade.to_dict())
    if do:
        from cardbase.trades.exchange import said

        taken = [f"gave {m.describe()}" for m in trade.give] + [
            f"got {m.describe()}" for m in trade.get
        ]
        return redirect(f"/trades?{urlencode({'with': trade.other})}",
                        f"{said(trade)}: {'; '.join(taken)}.")  # fmt: skip
    context.update(trade=trade, other=trade.other)
    return render(request, "trade_make.html", context)


@router.get("/trades/make", response_class=HTMLResponse)
def trade_preview(request: Request) -> Response:
    """The trade a match proposes, as it would be made: which copies change hands, each
    side's value; every count can be changed before it is made."""
    return _make_page(request, request.query_params.get("with", ""),
                      _sides(request.query_params), do=False)  # fmt: skip


@router.post("/trades/make", response_class=HTMLResponse)
async def trade_make(request: Request) -> Response:
    """Check the counts again (`do=check`), or make the trade: both collections in one
    transaction, then back to the lobby with what changed hands and an Undo button."""
    from starlette.concurrency import run_in_threadpool

    form = await request.form()
    rows = _sides(form)
    other, do = str(form.get("with", "")), form.get("do") == "make"
    return await run_in_threadpool(_make_page, request, other, rows, do=do)
