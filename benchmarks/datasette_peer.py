"""`cardbase serve`'s search page beside datasette's table page with its full-text search
(`/db/cards?_search=WORD`), on the same cards, the same words and the same 4 clients.

datasette serves a copy of the card table made from cardbase's database (the columns a
search page shows, and an FTS5 table over the same four columns with cardbase's tokenizer),
so both answer the same question; the matched counts are compared before anything is
timed, and a difference is reported in the row. Both servers are up at once and are asked
in alternate rounds. datasette sends no Server-Timing, so both are timed by the clients.

What differs, and why the rows are still the pair to read: cardbase ranks the matches
(bm25) and fetches the count after the page, as htmx does; datasette lists matches in
table order and counts them inside its page. So cardbase's page is set against datasette's
page, and cardbase's page plus its count (what a person waits for before both show) too.

datasette is looked for as CARDBASE_DATASETTE, then beside this Python, then on PATH; a
separate virtual environment keeps its pins out of cardbase's:
`python -m venv /work/peer-venv && /work/peer-venv/bin/pip install datasette`, then
`CARDBASE_DATASETTE=/work/peer-venv/bin/datasette python benchmarks/run.py --only datasette`.
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

from harness import Context, Row, has, tool
from web import CLIENTS, _p95, _server

WORDS = ("dragon", "storm", "wizard", "forest")
# Alternate rounds of each server (the run's --reps, at least 3); in each, every client asks
# every word ASKS times.
ASKS = 3
SETTINGS = {
    "datasette": [],
    "datasette, suggest_facets off": ["--setting", "suggest_facets", "off"],
}
PEER_DB = """
ATTACH DATABASE ? AS cb;
CREATE TABLE cards (id INTEGER PRIMARY KEY, code TEXT, name TEXT, type TEXT, sphere TEXT,
    hero INTEGER, traits TEXT, cost INTEGER, attack INTEGER, defense INTEGER, gems TEXT,
    text TEXT, names TEXT);
INSERT INTO cards SELECT id, series || ' ' || rarity || ' ' || number, name, type, sphere,
    hero, traits, cost, attack, defense, gems, text, names FROM cb.card;
CREATE VIRTUAL TABLE cards_fts USING fts5(name, names, traits, text, content="cards",
    content_rowid="id", tokenize='porter unicode61 remove_diacritics 2');
INSERT INTO cards_fts(cards_fts) VALUES ('rebuild');
"""


def datasette_command() -> str | None:
    return os.environ.get("CARDBASE_DATASETTE") or tool("datasette")


def peer_database(cardbase_db: Path, target: Path) -> Path:
    """The cards as datasette is given them: a plain table and FTS5 over the same columns."""
    if not target.exists():
        with sqlite3.connect(target) as conn:
            statements = PEER_DB.split(";")
            conn.execute(statements[0], (str(cardbase_db),))
            for statement in statements[1:]:
                conn.execute(statement)
    return target


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _datasette(command: str, db: Path, settings: list[str]) -> tuple[subprocess.Popen[str], str]:
    import httpx

    port = _free_port()
    child = subprocess.Popen(
        [command, "serve", str(db), "--host", "127.0.0.1", "--port", str(port), *settings],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    for _ in range(300):
        try:
            if httpx.get(url + "-/versions.json", timeout=2).status_code == 200:
                return child, url
        except httpx.TransportError:
            time.sleep(0.1)
        if child.poll() is not None:
            break
    child.kill()
    raise RuntimeError(f"datasette did not start: {child.stderr.read() if child.stderr else ''}")


def _cardbase_count(http: object, word: str) -> int:
    answer = http.get(f"/search/count?q={quote(word)}")  # type: ignore[attr-defined]
    answer.raise_for_status()
    return int(re.sub(r"[^\d]", "", re.search(r"([\d,]+) (?:card|match)", answer.text).group(1)))  # type: ignore[union-attr]


def _counts(cardbase: str, peer: str, table: str) -> dict[str, tuple[int, int]]:
    import httpx

    found = {}
    with httpx.Client(base_url=cardbase, timeout=60) as ours, httpx.Client(timeout=60) as theirs:
        for word in WORDS:
            answer = theirs.get(f"{peer}{table}.json?_search={quote(word)}&_size=1")
            answer.raise_for_status()
            found[word] = (_cardbase_count(ours, word), answer.json()["filtered_table_rows_count"])
    return found


def _cardbase_client(url: str) -> tuple[list[float], list[float]]:
    """One client's searches: ms of each page, and of each page with its count after it."""
    import httpx

    pages, both = [], []
    with httpx.Client(base_url=url, timeout=60) as http:
        for _ in range(ASKS):
            for word in WORDS:
                start = time.perf_counter()
                page = http.get(f"/search?q={quote(word)}")
                pages.append((time.perf_counter() - start) * 1000)
                page.raise_for_status()
                later = re.search(r'hx-get="(/search/count[^"]*)"', page.text)
                if later:
                    http.get(later.group(1).replace("&amp;", "&")).raise_for_status()
                both.append((time.perf_counter() - start) * 1000)
    return pages, both


def _peer_client(url: str) -> list[float]:
    import httpx

    pages = []
    with httpx.Client(base_url=url, timeout=60) as http:
        for _ in range(ASKS):
            for word in WORDS:
                start = time.perf_counter()
                page = http.get(f"cards?_search={quote(word)}&_size=50")
                pages.append((time.perf_counter() - start) * 1000)
                page.raise_for_status()
    return pages


def _at_once(client: Callable[[], object]) -> list[object]:
    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(lambda _: client(), range(CLIENTS)))


def bench_datasette(ctx: Context) -> Iterator[Row]:
    command = datasette_command()
    if not (has("fastapi") and has("httpx")):
        yield Row("search page vs datasette", "skipped", 0.0, "pip install -e '.[web,test]'")
        return
    if not command:
        yield Row("search page vs datasette", "datasette", float("nan"),
                  "peer not installed (CARDBASE_DATASETTE or datasette on PATH)")  # fmt: skip
        return
    cardbase_db = ctx.database("large")
    peer_db = peer_database(cardbase_db, ctx.work / "datasette.db")
    children = []
    try:
        child, ours = _server(cardbase_db)
        children.append(child)
        peers = {}
        for name, settings in SETTINGS.items():
            child, url = _datasette(command, peer_db, settings)
            children.append(child)
            peers[name] = url + peer_db.stem + "/"
        counts = _counts(ours, next(iter(peers.values())), "cards")
        differ = {word: pair for word, pair in counts.items() if pair[0] != pair[1]}
        matched = (
            "same matches" if not differ else f"MATCHES DIFFER (cardbase, datasette): {differ}"
        )
        _at_once(lambda: _cardbase_client(ours))  # warm both: first pages open files
        for url in peers.values():
            _at_once(lambda url=url: _peer_client(url))
        pages: list[float] = []
        both: list[float] = []
        theirs: dict[str, list[float]] = {name: [] for name in peers}
        for _ in range(max(3, ctx.reps)):
            for done in _at_once(lambda: _cardbase_client(ours)):
                pages.extend(done[0])  # type: ignore[index]
                both.extend(done[1])  # type: ignore[index]
            for name, url in peers.items():
                for done in _at_once(lambda url=url: _peer_client(url)):
                    theirs[name].extend(done)  # type: ignore[arg-type]
        yield from _rows(ctx, counts, matched, pages, both, theirs)
    finally:
        for child in children:
            child.terminate()
            child.wait(timeout=30)


def _rows(
    ctx: Context,
    counts: dict[str, tuple[int, int]],
    matched: str,
    pages: list[float],
    both: list[float],
    theirs: dict[str, list[float]],
) -> Iterator[Row]:
    words = ", ".join(f"{word} {n:,}" for word, (n, _) in counts.items())
    ours_p95 = _p95(pages)
    detail = f"{CLIENTS} clients, {len(pages)} pages, {ctx.size} cards; {words}; {matched}"
    yield Row("search page vs datasette", "cardbase page, client p95", ours_p95 / 1000, detail)
    yield Row("search page vs datasette", "cardbase page + its count, client p95",
              _p95(both) / 1000, "the count is a second request, after the page")  # fmt: skip
    for name, times in theirs.items():
        theirs_p95 = _p95(times)
        yield Row("search page vs datasette", f"{name} (_search=, _size=50), client p95",
                  theirs_p95 / 1000, f"page + count: {_p95(both) / theirs_p95:.2f}",
                  ratio=ours_p95 / theirs_p95, target="<= 1.0")  # fmt: skip
