"""The import page: upload a collection sheet, see `import --dry-run`'s plan (rows, cards,
the columns read and ignored, every problem with its suggestion), apply it, undo it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from cardbase.collection.changes import ImportMode
from cardbase.errors import CardbaseError, Remedy
from cardbase.web import uploads
from cardbase.web.site import Site, render, site_of, wants_json

router = APIRouter()
SHOWN_CHANGES = 200  # of a plan's changes on the page; the counts cover all
CONFIRM_REPLACE = Remedy(
    "add --yes to replace it", "tick 'Yes, replace my collection' and apply it again"
)


def _mode(text: str) -> ImportMode:
    try:
        return ImportMode(text)
    except ValueError:
        raise CardbaseError(f"mode '{text[:20]}': use add, set or replace") from None


def _import(request: Request, site: Site, path: Path, mode: ImportMode, sheet: str,
            dry_run: bool, skip_bad: bool) -> dict[str, object]:  # fmt: skip
    with uploads.as_uploaded(path):
        report = site.library(request).import_sheet(
            path, sheet=sheet or None, mode=mode.value, dry_run=dry_run, skip_bad=skip_bad
        )
    return {"report": report, "shown": SHOWN_CHANGES, "held": _held(request, site)}


def _held(request: Request, site: Site) -> int:
    """The cards the collection holds: what a replace would take away, said before it."""
    from cardbase.collection.stats import totals

    with site.connect(request) as conn:
        return totals(conn).cards


def _page(request: Request, context: dict[str, object], status: int = 200) -> Response:
    report = context.get("report")
    twin = _no_plan_yet if report is None else report.to_dict  # type: ignore[attr-defined]
    context.setdefault("modes", list(ImportMode))
    return render(request, "import.html", context, status, twin=twin)


def _no_plan_yet() -> dict[str, object]:
    """The empty import page's twin: no plan until a sheet is posted, and the modes it takes
    (a script posts its sheet to /import with format=json for the plan itself)."""
    return {"plan": None, "modes": [mode.value for mode in ImportMode]}


@router.get("/import", response_class=HTMLResponse)
def import_page(request: Request) -> Response:
    return _page(request, {})


@router.post("/import/plan", response_class=HTMLResponse)
async def plan(
    request: Request,
    file: Annotated[UploadFile, File()],
    mode: str = Form("add"),
    sheet: str = Form(""),
) -> Response:
    """The dry run, bad rows listed rather than refused, so the plan shows them all."""
    site = site_of(request)
    chosen = _mode(mode)
    try:
        token, path = await uploads.keep(site.uploads, file)
        context = await run_in_threadpool(_import, request, site, path, chosen, sheet, True, True)
    except CardbaseError as refused:  # said above the upload form, to choose another file
        if wants_json(request):
            raise
        return _page(request, {"unread": refused.said("web"), "mode": chosen, "sheet": sheet}, 400)
    context.update(token=token, mode=chosen, sheet=sheet, name=path.name)
    return _page(request, context)


@router.post("/import/apply", response_class=HTMLResponse)
def apply(
    request: Request,
    token: str = Form(...),
    mode: str = Form("add"),
    sheet: str = Form(""),
    skip_bad: bool = Form(False),
    replace: bool = Form(False),
) -> Response:
    """The import itself, all or nothing unless bad rows are to be skipped, as on the
    command line; a replace of a collection with cards is confirmed first, as the command
    line asks. A refusal shows the plan again with what to do, not a page of its own."""
    site = site_of(request)
    chosen = _mode(mode)
    path = uploads.find(site.uploads, token)
    keep = {"token": token, "mode": chosen, "sheet": sheet, "name": path.name}
    try:
        if chosen is ImportMode.REPLACE and not replace and _held(request, site):
            raise CardbaseError("the collection was not replaced", CONFIRM_REPLACE)
        context = _import(request, site, path, chosen, sheet, False, skip_bad)
    except CardbaseError as refused:
        if wants_json(request):
            raise
        context = _import(request, site, path, chosen, sheet, True, True)
        context.update(keep, refused=refused.said("web"))
        return _page(request, context, 400)
    context.update(keep, applied=True)
    return _page(request, context)
