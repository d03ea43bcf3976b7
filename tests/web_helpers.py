"""Helpers for the web pages' tests: a TestClient over a fresh database, and reading pages."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("httpx", reason="the web tests need httpx (pip install '.[test]')")

from fastapi.testclient import TestClient

from cardbase.web.app import create_app
from cardbase.web.site import Site


class Pages:
    """A browser without JavaScript: GETs, and POSTs that carry the page's CSRF token."""

    def __init__(self, db_path: Path, **site: object) -> None:
        self.site = Site(db_path, **site)  # type: ignore[arg-type]
        self.client = TestClient(create_app(self.site), raise_server_exceptions=False)

    def get(self, path: str, **kwargs: object):
        return self.client.get(path, **kwargs)

    def post(
        self, path: str, data: dict | None = None, *, htmx: bool = False,
        headers: dict | None = None, **kwargs: object,
    ):  # fmt: skip
        headers = {**({"HX-Request": "true"} if htmx else {}), **(headers or {})}
        form = {"csrf": self.site.csrf_token, **(data or {})}
        return self.client.post(path, data=form, headers=headers, **kwargs)


def text_of(page: str) -> str:
    """A page's visible text, one space between words: what a person reads."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def error_of(page: str) -> str:
    """The error a page shows: a line (`p`), or a query's with its caret (`pre`)."""
    found = re.search(r'<(p|pre) class="error"[^>]*>(.*?)</\1>', page, re.S)
    return html.unescape(found.group(2)) if found else ""


def said_by_cli(stderr: str) -> str:
    """The command line's error as the page says it: the same words, without the program's
    name in front (the page is cardbase's own)."""
    return stderr.strip("\n").removeprefix("cardbase: ")


def flash_of(page: str) -> str:
    found = re.search(r'<p class="flash"[^>]*>(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


def upload(pages: Pages, path: str, name: str, body: bytes | str, **fields: str) -> Any:
    """A file sent as a page's upload form sends it, with the form's other fields."""
    content = body.encode() if isinstance(body, str) else body
    return pages.post(path, fields, files={"file": (name, content, "text/csv")})
