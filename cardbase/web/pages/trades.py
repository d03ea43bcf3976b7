"""The Trade Lobby: your haves and wants, the other collectors of this database and the
trades you can do with each, and a match against another player's uploaded list: `trade
list`, `trade lobby`, `trade match --with` and `trade match FILE` underneath."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, File, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from cardbase.errors import CardbaseError
from cardbase.limits import MAX_COUNT, MAX_SERIES
from cardbase.trades import Rules
from cardbase.web import uploads
from cardbase.web.site import render, site_of, wants_json

router = APIRouter()


def read_rules(params: Mapping[str, str]) -> Rules:
    """`trade list`'s options from the form: playset, keep decks, complete a series."""
    return Rules.read(
        params.get("playset"), params.get("keep_decks") in ("1", "on"),
        params.get("complete_series"),
    )  # fmt: skip


def _lobby(request: Request, rules: Rules) -> dict[str, Any]:
    from cardbase.trades import lobby, match_with, trade_lists

    with site_of(request).connect(request) as conn:
        mine = trade_lists(conn, rules)
        found = lobby(conn, rules)
        other = request.query_params.get("with")
        match = match_with(conn, other, rules) if other else None
    return {"mine": mine, "lobby": found, "match": match[1] if match else None,
            "with": match[0] if match else None, "rules": rules,
            "max_count": MAX_COUNT, "max_series": MAX_SERIES}  # fmt: skip


@router.get("/trades", response_class=HTMLResponse)
def trades_page(request: Request) -> Response:
    rules = read_rules(request.query_params)
    return render(request, "trades.html", _lobby(request, rules))


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
