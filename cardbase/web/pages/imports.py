"""The import page: upload a collection sheet, see `import --dry-run`'s plan (rows, cards,
every problem with its suggestion), apply it, undo it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from cardbase.collection.changes import ImportMode
from cardbase.errors import CardbaseError
from cardbase.web import uploads
from cardbase.web.site import Site, render, site_of

router = APIRouter()
SHOWN_CHANGES = 200  # of a plan's changes on the page; the counts cover all


def _mode(text: str) -> ImportMode:
    try:
        return ImportMode(text)
    except ValueError:
        raise CardbaseError(f"mode '{text[:20]}': use add, set or replace") from None


def _import(request: Request, site: Site, path: Path, mode: ImportMode, sheet: str | None,
            dry_run: bool, skip_bad: bool) -> dict[str, object]:  # fmt: skip
    from cardbase.sheets.importer import import_collection

    report = import_collection(
        site.library(request), path, sheet or None, mode.mode, dry_run=dry_run,
        skip_bad=skip_bad, defaults=site.defaults,
    )  # fmt: skip
    return {"report": report, "shown": SHOWN_CHANGES}


@router.get("/import", response_class=HTMLResponse)
def import_page(request: Request) -> Response:
    return render(request, "import.html", {"modes": list(ImportMode)})


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
    token, path = await uploads.keep(site.uploads, file)
    from starlette.concurrency import run_in_threadpool

    with uploads.as_uploaded(path):
        context = await run_in_threadpool(_import, request, site, path, chosen, sheet, True, True)
    context.update(token=token, mode=chosen, sheet=sheet, modes=list(ImportMode), name=path.name)
    return render(request, "import.html", context)


@router.post("/import/apply", response_class=HTMLResponse)
def apply(
    request: Request,
    token: str = Form(...),
    mode: str = Form("add"),
    sheet: str = Form(""),
    skip_bad: bool = Form(False),
) -> Response:
    """The import itself, all or nothing unless bad rows are to be skipped, as on the
    command line; `cardbase undo` (the button) reverts it whole."""
    site = site_of(request)
    path = uploads.find(site.uploads, token)
    with uploads.as_uploaded(path):
        context = _import(request, site, path, _mode(mode), sheet, False, skip_bad)
    context.update(applied=True, modes=list(ImportMode), name=path.name)
    return render(request, "import.html", context)
