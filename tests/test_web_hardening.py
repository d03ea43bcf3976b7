"""What an adversarial pass over `cardbase serve` found, kept fixed: refusals that leaked the
CSRF token, `Origin: null`, missing security headers, copies stored unchecked, uploads read
before the token was, file names in other scripts, a collector gone from under a browser,
and FastAPI's own JSON answers where every other error is a page."""

from __future__ import annotations

import asyncio
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run
from tests.web_helpers import Pages, error_of, flash_of, said_by_cli, text_of, upload

SHEET = "Card Name,Qty\nChugawug Elder,2\nChugawug Cok,1\n"
PAGES = ("/search", "/card/1C14", "/collection", "/deck", "/import", "/trades")


@pytest.fixture
def pages(db_path: Path) -> Pages:
    return Pages(db_path)


# -- 1. DNS rebinding and other sites ---------------------------------------------------------


def test_a_refusal_for_another_host_carries_no_token(pages: Pages) -> None:
    token = pages.site.csrf_token
    for path in ("/search", "/no/such/page", "/static/app.js", "/card/1C14"):
        rebound = pages.get(path, headers={"Host": "evil.example"})
        assert rebound.status_code == 421, path
        assert token not in rebound.text and "X-CSRF-Token" not in rebound.text, path
        assert "answers only for this computer" in error_of(rebound.text)
    # The server's own pages still carry it (every form needs it).
    assert token in pages.get("/search").text


def test_a_post_from_a_sandboxed_frame_is_another_site(pages: Pages, checksum) -> None:
    before = checksum(pages.site.db_path)
    for origin in ("null", " null", "http://evil.example"):
        framed = pages.post("/card/1C14/copies", {"op": "add"}, headers={"Origin": origin})
        assert framed.status_code == 403, origin
        assert "another site" in error_of(framed.text)
        assert pages.site.csrf_token not in framed.text
    assert checksum(pages.site.db_path) == before
    same = pages.post("/card/1C14/copies", {"op": "add"}, headers={"Origin": "http://testserver"})
    assert same.status_code == 200 and "0 -> 1" in flash_of(same.text)


def test_a_token_in_other_letters_is_refused_not_a_crash(pages: Pages) -> None:
    """`hmac.compare_digest` raises on a str with non-ASCII letters: it was a 500."""
    forged = pages.client.post(
        "/undo",
        headers={"X-CSRF-Token": ("é" * 43).encode("latin-1")},
        data={"back": "/collection"},
    )
    assert forged.status_code == 403
    form = pages.client.post("/undo", data={"csrf": "ключ", "back": "/collection"})
    assert form.status_code == 403


# -- 2. Security headers ----------------------------------------------------------------------


def _policy(response) -> dict[str, str]:
    policy = response.headers["content-security-policy"]
    return {d.split()[0]: d.strip() for d in policy.split(";") if d.strip()}


def test_every_response_has_the_security_headers(
    pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    responses = [pages.get(path) for path in PAGES]
    responses += [pages.get("/static/htmx.min.js"), pages.get("/nowhere"),
                  pages.get("/search", headers={"Host": "evil.example"}),
                  pages.post("/undo", {}, headers={"Origin": "null"})]  # fmt: skip
    from cardbase.query import search

    monkeypatch.setattr(search, "search", lambda *_a, **_k: 1 / 0)
    responses.append(pages.get("/search"))  # a bug's 500, sent outside the middleware
    assert responses[-1].status_code == 500
    for response in responses:
        where = f"{response.request.url} {response.status_code}"
        policy = _policy(response)
        assert policy["script-src"] == "script-src 'self'", where  # no inline, no eval
        assert policy["frame-ancestors"] == "frame-ancestors 'none'", where
        assert policy["default-src"] == "default-src 'none'", where
        assert "unsafe" not in policy["style-src"], where  # style attributes only
        assert response.headers["x-frame-options"] == "DENY", where
        assert response.headers["x-content-type-options"] == "nosniff", where
        # same-origin, not no-referrer: with no-referrer the pages' own posts say Origin: null
        assert response.headers["referrer-policy"] == "same-origin", where
        assert len(response.headers.get_list("content-security-policy")) == 1, where


def test_the_pages_need_nothing_the_policy_forbids(pages: Pages, run: Run) -> None:
    """No inline script, event handler attribute, javascript: link or <style> element: the
    policy would block them (htmx's own indicator <style> is turned off in its config)."""
    run("add", "1 C 14 x2 lp", "--location", "Binder 1")
    bodies = [pages.get(path).text for path in PAGES] + [pages.get("/card/9Z9").text]
    bodies.append(pages.post("/deck/update", {"deck": "4 Chugawug Cook"}, htmx=True).text)
    for body in bodies:
        assert not re.search(r"<script(?![^>]*\bsrc=)", body)
        assert not re.search(r"\son[a-z]+\s*=", body), re.search(r"\son[a-z]+\s*=.{40}", body)
        assert "javascript:" not in body and "<style" not in body
        assert not re.search(r'(src|href)="(https?:)?//', body)  # nothing from elsewhere
    config = re.search(r'name="htmx-config" content=\'([^\']+)\'', bodies[0]).group(1)
    assert json.loads(config)["includeIndicatorStyles"] is False


# -- 3. The card page's copy form checks what `add` checks ------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [("language", "zz"), ("language", "<script>"), ("location", "Binder\x1b[2J"),
     ("location", "Box\x85"), ("location", "x" * 5000), ("location", 'the "good" box'),
     ("condition", "zz"), ("tags", "trade\x07")],
    ids=["language-zz", "language-script", "location-esc", "location-c1", "location-long",
         "location-quote", "condition-zz", "tag-bell"],
)  # fmt: skip
def test_a_copy_with_a_bad_attribute_is_refused(
    pages: Pages, checksum, field: str, value: str
) -> None:
    before = checksum(pages.site.db_path)
    holding = {"op": "add", "finish": "nonfoil", "holding": "1", "condition": "NM",
               "language": "en", "location": "", "tags": "", field: value}  # fmt: skip
    response = pages.post("/card/1C14/copies", holding)
    assert response.status_code == 400
    message = error_of(response.text)
    assert message.startswith(f"{'tag' if field == 'tags' else field}") or (
        message.startswith(f"unknown {field}")
    ), message
    assert "\n" not in message and "\x1b" not in response.text and "<script>" not in response.text
    assert checksum(pages.site.db_path) == before


def test_the_copy_form_says_what_add_says(pages: Pages, run: Run) -> None:
    holding = {"op": "add", "holding": "1", "condition": "NM", "location": "", "tags": ""}
    page = pages.post("/card/1C14/copies", {**holding, "language": "zz"})
    assert error_of(page.text) == said_by_cli(run("add", "1 C 14", "--language", "zz").stderr)
    quoted = pages.post("/card/1C14/copies", {**holding, "language": "en", "location": 'a"b'})
    assert error_of(quoted.text) == said_by_cli(run("add", "1 C 14", "--location", 'a"b').stderr)


def test_a_condition_typed_in_lower_case_is_stored_as_the_code(pages: Pages, run: Run) -> None:
    holding = {"op": "add", "finish": "nonfoil", "holding": "1", "condition": "nm",
               "language": "French", "location": " Binder   1 ", "tags": "trade"}  # fmt: skip
    added = pages.post("/card/1C14/copies", holding)
    assert added.status_code == 200, error_of(added.text)
    copies = run("collection", "--copies", "-o", "csv").stdout
    assert "1 C 14,Chugawug Cook,nonfoil,NM,fr,Binder 1,trade,1," in copies
    removed = pages.post("/card/1C14/copies", {**holding, "op": "remove", "condition": "near mint"})
    assert removed.status_code == 200, error_of(removed.text)
    assert "1 C 14" not in run("collection", "--copies", "-o", "csv").stdout


# -- 4. Uploads -------------------------------------------------------------------------------

CHUNK = 64 * 1024


def _post_chunked(pages: Pages, path: str, prefix: bytes, total: int, boundary: str):
    """POST a body of `total` bytes with no Content-Length (as `Transfer-Encoding: chunked`
    arrives), straight to the ASGI app: how many of its chunks the server read, and what
    it answered."""
    read = 0
    answer: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, object]:
        nonlocal read
        if read * CHUNK >= total:
            return {"type": "http.disconnect"}
        chunk = prefix if read == 0 else b"x" * CHUNK
        read += 1
        return {"type": "http.request", "body": chunk, "more_body": read * CHUNK < total}

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000),
             "server": ("127.0.0.1", 8000), "state": {},
             "headers": [(b"host", b"127.0.0.1:8000"), (b"transfer-encoding", b"chunked"),
                         (b"content-type", f"multipart/form-data; boundary={boundary}".encode())]}  # fmt: skip
    asyncio.run(pages.client.app(scope, receive, send))  # type: ignore[arg-type]
    return read, answer["status"], answer["body"].decode()


def _file_part(boundary: str) -> bytes:
    return (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"'
            "\r\nContent-Type: text/csv\r\n\r\nCard Name,Qty\r\n").encode()  # fmt: skip


def test_an_upload_without_the_token_is_refused_before_it_is_read(pages: Pages) -> None:
    boundary = "b0undary"
    read, status, body = _post_chunked(
        pages, "/import/plan", _file_part(boundary), 300 << 20, boundary
    )
    assert status == 403 and "this form has expired" in error_of(body)
    assert read <= 2  # of 4,800: nothing was spooled
    assert not any(pages.site.uploads.rglob("*.csv"))


def test_a_chunked_upload_stops_at_the_limit_while_it_streams(
    pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardbase.web import guard

    monkeypatch.setattr(guard, "MAX_BODY", 1 << 20)
    boundary = "b0undary"
    token = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n'
             f"{pages.site.csrf_token}\r\n").encode() + _file_part(boundary)  # fmt: skip
    read, status, body = _post_chunked(pages, "/import/plan", token, 300 << 20, boundary)
    assert status == 413 and "over" in error_of(body) and "the importer's limit" in error_of(body)
    assert read <= (1 << 20) // CHUNK + 2
    assert not any(pages.site.uploads.rglob("*.csv"))


@pytest.mark.parametrize("name", ["Коллекция.csv", "コレクション.csv", "Ma collection été.CSV"])
def test_a_file_named_in_any_script_is_read(pages: Pages, name: str) -> None:
    planned = upload(pages, "/import/plan", name, SHEET)
    assert planned.status_code == 200, error_of(planned.text)
    assert f"{name}, row 3: no card named 'Chugawug Cok'" in text_of(planned.text)


def test_a_decomposed_name_is_kept_composed(pages: Pages) -> None:
    decomposed = unicodedata.normalize("NFD", "Sammlung für Jörg.csv")
    planned = upload(pages, "/import/plan", decomposed, SHEET)
    assert "Sammlung für Jörg.csv, row 3" in text_of(planned.text)


def test_a_name_with_no_letters_left_still_has_its_extension(pages: Pages) -> None:
    from cardbase.web.uploads import safe_name

    assert safe_name("💾💾.csv") == "upload.csv"
    assert len(safe_name("ж" * 300 + ".xlsx").encode()) <= 210
    for refused in ("run.sh", ".csv", "csv", "Коллекция", "a.csv.exe"):
        bad = upload(pages, "/import/plan", refused, SHEET)
        assert bad.status_code == 400 and "is not a spreadsheet" in error_of(bad.text), refused


def test_a_damaged_workbook_is_named_as_uploaded(pages: Pages) -> None:
    folder = str(pages.site.uploads)
    for path in ("/import/plan", "/trades/match"):
        broken = upload(pages, path, "My Cards.xlsx", b"PK\x03\x04 not really a zip file")
        assert broken.status_code == 400, path
        message = error_of(broken.text)
        assert folder not in broken.text and "cardbase-web-" not in broken.text, message
        assert message.startswith("My Cards.xlsx"), message


# -- 5. A collector removed or renamed from the command line -----------------------------------


@pytest.mark.parametrize("change", [("remove", "Alice"), ("rename", "Alice", "Alicia")])
def test_a_collector_gone_from_the_cli_falls_back_with_a_message(
    pages: Pages, run: Run, checksum, change: tuple[str, ...]
) -> None:
    run("collectors", "add", "Alice")
    pages.post("/collector", {"name": "Alice", "back": "/collection"})
    assert "Alice's collection" in text_of(pages.get("/collection").text)
    assert run("collectors", *change).exit_code == 0
    before = checksum(pages.site.db_path)
    refused = pages.post("/card/1C14/copies", {"op": "add"})  # not made for someone else
    assert refused.status_code == 400
    assert "'Alice' chosen in this browser is not in this database" in error_of(refused.text)
    assert 'class="chooser"' in refused.text  # a way to choose another
    assert checksum(pages.site.db_path) == before
    assert "cardbase_collector" not in pages.client.cookies  # the refusal let it go
    run("collectors", "add", "Alice")
    pages.post("/collector", {"name": "Alice", "back": "/collection"})
    assert run("collectors", "remove", "Alice").exit_code == 0
    page = pages.get("/collection")  # a page open since, reloaded
    assert page.status_code == 200
    assert "'Alice' chosen in this browser is not in this database" in flash_of(page.text)
    assert "Your collection" in text_of(page.text)  # the default collector's
    assert pages.get("/search").status_code == 200  # and every page after it


def test_a_collector_cookie_that_will_not_go_is_no_redirect_loop(pages: Pages) -> None:
    pages.client.cookies.set("cardbase_collector", "Nobody")  # not one the server set
    page = pages.get("/collection")  # deleting it cannot work: the second time, the chooser
    assert page.status_code == 400 and 'class="chooser"' in page.text
    assert "'Nobody' chosen in this browser is not in this database" in error_of(page.text)


def test_an_unknown_collector_in_a_link_shows_the_chooser(pages: Pages) -> None:
    response = pages.get("/collection", params={"collector": "Nobody"})
    assert response.status_code == 400 and "no collector named 'Nobody'" in error_of(response.text)
    assert 'class="chooser"' in response.text


# -- 6. FastAPI's own answers as the site's pages -------------------------------------------


def test_a_malformed_form_is_a_page_that_echoes_nothing(pages: Pages) -> None:
    missing = pages.post("/card/1C14/copies", {"finish": "foil"})
    assert missing.status_code == 400
    assert error_of(missing.text) == (
        "this form cannot be read: 'op' is missing; reload the page and try again"
    )
    echoed = pages.post("/card/1C14/copies", {"op": "add", "holding": "<b>sneaky</b>"})
    assert echoed.status_code == 400 and "'holding' is not valid" in error_of(echoed.text)
    assert "sneaky" not in echoed.text and '"detail"' not in echoed.text
    as_json = pages.post("/card/1C14/copies", {"op": "add", "holding": "sneaky"},
                         headers={"Accept": "application/json"})  # fmt: skip
    assert as_json.status_code == 400 and "sneaky" not in as_json.text
    assert as_json.json()["error"].startswith("this form cannot be read: 'holding' is not valid")


def test_an_unknown_address_is_the_sites_error_page(pages: Pages) -> None:
    page = pages.get("/no/such/page?q=<b>x</b>")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert error_of(page.text).startswith("there is no page at this address")
    assert "<b>x</b>" not in page.text and "Not Found" not in page.text
    assert pages.get("/nowhere", headers={"Accept": "application/json"}).json() == {
        "error": "there is no page at this address; the Search page has links to every card",
        "status": 404,
    }
    wrong = pages.get("/undo")
    assert wrong.status_code == 405 and "POST" in wrong.headers["allow"]
    assert error_of(wrong.text).startswith("this address does not take")
    assert pages.get("/static/nothing.js").status_code == 404


@pytest.mark.parametrize("host", ["localhost:abc", "127.0.0.1:99999"])
def test_a_host_whose_port_is_no_port_is_refused(pages: Pages, host: str) -> None:
    response = pages.client.get("/", headers={"host": host})
    assert response.status_code == 421
    assert 'name="csrf"' not in response.text


def test_an_origin_of_another_scheme_is_another_site(pages: Pages) -> None:
    token = pages.site.csrf_token
    response = pages.client.post(
        "/undo", data={"csrf": token}, headers={"origin": "https://testserver"}
    )
    assert response.status_code == 403
    same = pages.client.post("/undo", data={"csrf": token}, headers={"origin": "http://testserver"})
    assert same.status_code != 403


def test_a_boosted_form_that_fails_gets_the_whole_error_page(pages: Pages) -> None:
    """hx-boost swaps the body: an error answering a boosted form is the whole page (header,
    heading, main), where a targeted swap gets only the error's line to show in place."""
    boosted = pages.post("/deck/save", {"deck": "", "name": "Nothing"},
                         headers={"HX-Request": "true", "HX-Boosted": "true"})  # fmt: skip
    assert boosted.status_code == 400 and "<main" in boosted.text and "<h1>" in boosted.text
    assert error_of(boosted.text).startswith("the deck is empty")
    targeted = pages.post("/deck/save", {"deck": "", "name": "Nothing"}, htmx=True)
    assert "<main" not in targeted.text and error_of(targeted.text).startswith("the deck is empty")
