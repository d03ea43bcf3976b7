"""What keeps `cardbase serve` safe to run: local by default, POST with a CSRF token for
every change, card text escaped, no paths from requests, no tracebacks in pages; and the
server's imports cost the other commands nothing."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cardbase.db import schema
from cardbase.library import Library
from tests.conftest import MINI_CATALOGUE, ROOT, Run, subprocess_env
from tests.web_helpers import Pages, error_of, text_of

SCRIPT = "<script>alert(1)</script>"


@pytest.fixture
def pages(db_path: Path) -> Pages:
    return Pages(db_path)


def test_every_change_needs_the_pages_token(pages: Pages, run: Run, checksum) -> None:
    before = checksum(pages.site.db_path)
    actions = {"/card/1C14/copies": {"op": "add"}, "/undo": {}, "/deck/save": {"name": "x", "deck": "1 1 C 14"},
               "/deck/delete": {"name": "x"}, "/collector": {"name": "me"}}  # fmt: skip
    for path, form in actions.items():
        missing = pages.client.post(path, data=form)
        assert missing.status_code == 403, path
        assert (
            error_of(missing.text)
            == "this form has expired or came from elsewhere; reload the page"
        )
        forged = pages.client.post(path, data={**form, "csrf": "guess"})
        assert forged.status_code == 403
    assert checksum(pages.site.db_path) == before
    # A changing route does not answer GET.
    assert pages.get("/undo").status_code == 405


def test_other_sites_and_other_hosts_are_refused(pages: Pages) -> None:
    foreign = pages.post(
        "/card/1C14/copies", {"op": "add"}, headers={"Origin": "http://evil.example"}
    )
    assert foreign.status_code == 403 and "another site" in error_of(foreign.text)
    rebound = pages.get("/search", headers={"Host": "evil.example"})
    assert rebound.status_code == 421
    assert pages.get("/search", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    public = Pages(pages.site.db_path, public=True)
    assert public.get("/search", headers={"Host": "192.0.2.7:8000"}).status_code == 200


def test_a_card_named_like_a_script_shows_as_text(tmp_path: Path) -> None:
    catalogue = tmp_path / "cards.csv"
    row = f'9 C 1,{SCRIPT},Trick,,Order,"<b>x</b>",1,,,Y,"[Y]: <img src=x onerror=alert(2)>",<i>lore</i>\n'
    catalogue.write_text(MINI_CATALOGUE.read_text() + row)
    path = tmp_path / "xss.db"
    schema.prepare(path, Library(path), catalogue)
    pages = Pages(path)
    for url in ("/search?q=alert", "/card/9C1", "/deck/results?q=alert"):
        page = pages.get(url).text
        assert SCRIPT not in page and "<img src=x" not in page and "<b>x</b>" not in page, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, url
    card = pages.get("/card/9C1").text
    assert 'class="gem-cost"' in card  # the [Y] is drawn, the rest of the text escaped
    deck = pages.post("/deck/update", {"deck": f"1 {SCRIPT}\n"}, htmx=True).text
    assert SCRIPT not in deck and "&lt;script&gt;" in deck


def test_no_stack_trace_reaches_a_page(pages: Pages, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardbase.query import search

    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(search, "search", broken)
    response = pages.get("/search")
    assert response.status_code == 500
    assert "Traceback" not in response.text and 'File "' not in response.text
    assert error_of(response.text).startswith("internal error (RuntimeError); nothing was changed")


def test_bad_input_is_one_line(pages: Pages) -> None:
    for response in (
        pages.get("/card/9Z9"),
        pages.post("/deck/update", {"deck": "1 Chugawug Cook", "format": "chess"}),
        pages.post("/deck/helper", {"sphere": "purple"}),
        pages.post("/card/1C14/copies", {"op": "explode"}),
    ):
        assert response.status_code in (400, 404)
        assert not error_of(response.text).startswith("cardbase: ") and "\n" not in error_of(
            response.text
        )


def test_serve_without_the_web_extra_says_how_to_install_it(
    run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cardbase.web

    monkeypatch.setattr(cardbase.web, "missing_modules", lambda: ["fastapi", "uvicorn"])
    result = run("serve")
    assert result.exit_code == 2
    assert result.stderr == (
        "cardbase: cardbase serve needs the web extra (fastapi, uvicorn not installed): "
        "pip install 'cardbase[web]'\n"
    )


def test_a_taken_port_is_one_line(run: Run) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run("serve", "--port", str(port))
    assert result.exit_code == 2
    assert result.stderr.startswith(
        f"cardbase: 127.0.0.1 port {port} is in use. Choose another --port"
    )


def test_only_loopback_addresses_are_private() -> None:
    from cardbase.web.server import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")


PROBE = """
import json, sys
report, sys.argv = sys.argv[1], ["cardbase", *sys.argv[2:]]
from cardbase.cli import main
try:
    main()
except SystemExit:
    pass
web = sorted({m.split(".")[0] for m in sys.modules} & {"fastapi", "starlette", "uvicorn", "jinja2", "multipart"})
with open(report, "w") as out:
    json.dump(web + sorted(m for m in sys.modules if m.startswith("cardbase.web")), out)
"""


@pytest.mark.parametrize("args", [["search", "chugawug"], ["show", "1 U 132"], ["collection"], ["stats"],
                                  ["deck", "list"], ["trade", "lobby"], ["add", "1 C 14"]], ids=" ".join)  # fmt: skip
def test_other_commands_never_import_the_web_stack(
    db_path: Path, tmp_path: Path, args: list[str]
) -> None:
    report = tmp_path / "report.json"
    command = [sys.executable, "-c", PROBE, str(report), "--db", str(db_path), *args]
    subprocess.run(command, cwd=ROOT, env=subprocess_env(), capture_output=True, check=True)
    assert json.loads(report.read_text()) == []


def test_the_pages_text_is_words_not_markup(pages: Pages) -> None:
    assert "Search" in text_of(pages.get("/search").text)


@pytest.mark.slow  # over a second: CI runs it (pytest -m 'slow or not slow')
def test_serve_on_another_address_warns_and_open_starts_the_browser(db_path: Path) -> None:
    """`--host 0.0.0.0` says who can reach the pages before serving; `--open` hands the URL
    to the browser Python's webbrowser finds ($BROWSER, here a script that notes it)."""
    pytest.importorskip("fastapi", reason="the web extra is not installed: pip install '.[web]'")
    import re
    import signal
    import time

    opened = db_path.parent / "opened.txt"
    browser = db_path.parent / "browser.sh"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(0o755)
    env = subprocess_env() | {"BROWSER": f"{browser} %s"}
    command = [sys.executable, "-m", "cardbase", "--db", str(db_path), "serve"]
    child = subprocess.Popen(
        [*command, "--host", "0.0.0.0", "--open"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout is not None
    first = child.stdout.readline()
    found = re.search(r"at (http://0\.0\.0\.0:\d+/)", first)
    assert found, first
    deadline = time.monotonic() + 10
    while not opened.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=20)
    assert opened.read_text().strip() == found.group(1)
    assert err.startswith("cardbase: warning: listening on 0.0.0.0: anyone who can reach")
    assert "Traceback" not in err and child.returncode == 0
    assert "stopped" in out
