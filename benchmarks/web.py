"""`cardbase serve` under load: the search page and its count with 4 clients at once, and
the Deck Builder's validation update for a 60-card deck with 4 clients at once, timed by
the server itself (its `Server-Timing` header), with what the clients saw beside it.

The 4-client rows are run again with `serve --workers N` and, beside them, with one client
per worker: what 4 clients would see where the machine has a core for each of them, which a
2-core machine shared with its own clients cannot show with 4.

Run through benchmarks/run.py (`--only web`); needs the web extra and httpx.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote_plus, urlencode

from harness import Context, Row, has

CLIENTS = 4
# `serve --workers N` for the rows that name workers, beside the one process of the rest:
# $CARDBASE_BENCH_WORKERS, else 2 (the machine's cores here).
WORKERS = int(os.environ.get("CARDBASE_BENCH_WORKERS", "2"))
# Besides the in-process benchmark's queries (run.py's QUERIES), the page as people use it:
# plain options, a sort by clicking a column, later pages, the whole catalogue.
PAGE_SEARCHES = (
    {"q": "", "sphere": "nature", "type": "creature", "cost": "2..4"},
    {"q": "gem:rr", "sort": "cost", "desc": "1"},
    {"q": "atk>def r>=r", "page": "3"},
    {"q": "", "rarity": ">=r", "hero": "1"},
    {"q": ""},
    {"q": "", "page": "20"},
)
DECK_CARDS = 60
ROUNDS = 60  # search requests per client; deck updates in all


def _server(db: Path, workers: int = 1) -> tuple[subprocess.Popen[str], str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "cardbase", "--db", str(db), "serve", "--workers", str(workers)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdout is not None
    found = re.search(r"(http://\S+/)", child.stdout.readline())
    if not found:
        child.kill()
        raise RuntimeError("cardbase serve did not start")
    return child, found.group(1)


def _server_ms(response: object) -> float:
    timing = response.headers["server-timing"]  # type: ignore[attr-defined]
    return float(timing.split("dur=")[1])


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def _searches(
    url: str, searches: list[dict[str, str]], rounds: int
) -> tuple[list[float], list[float], list[float], list[str]]:
    """One client's searches, as a browser makes them: the page, then the count it asks
    for. Server-side ms of each page, client-side ms of each page, server ms of each count,
    and each page's query string."""
    import httpx

    server, client, counts, asked = [], [], [], []
    with httpx.Client(base_url=url, timeout=60) as http:
        for n in range(rounds):
            asked.append(urlencode(searches[n % len(searches)]))
            start = time.perf_counter()
            response = http.get(f"/search?{asked[-1]}")
            client.append((time.perf_counter() - start) * 1000)
            response.raise_for_status()
            server.append(_server_ms(response))
            later = re.search(r'hx-get="(/search/count[^"]*)"', response.text)
            if later:
                counted = http.get(later.group(1).replace("&amp;", "&"))
                counted.raise_for_status()
                counts.append(_server_ms(counted))
    return server, client, counts, asked


def _slowest(done: list[tuple[list[float], list[float], list[float], list[str]]]) -> str:
    """The search whose pages took longest at the median: where the p95 comes from."""
    by_search: dict[str, list[float]] = {}
    for server, _, _, asked in done:
        for ms, search in zip(server, asked, strict=True):
            by_search.setdefault(search, []).append(ms)
    search, times = max(by_search.items(), key=lambda item: statistics.median(item[1]))
    return f"slowest: {unquote_plus(search)} (median {statistics.median(times):.0f} ms)"


def _counts_anew(url: str, db: Path, searches: list[dict[str, str]], rounds: int) -> list[float]:
    """Each search's count, in server ms, with a commit before it so that the server keeps
    no count: what the first count of a search costs."""
    import sqlite3

    import httpx

    times = []
    with httpx.Client(base_url=url, timeout=60) as http, sqlite3.connect(db) as writer:
        (stamp,) = writer.execute("SELECT created_at FROM collector WHERE id = 1").fetchone()
        for n in range(rounds * len(searches)):
            search = searches[n % len(searches)]
            # A commit that changes a byte: one that writes a value as it was changes no page
            # and SQLite's data_version with it.
            writer.execute(
                "UPDATE collector SET created_at = ? WHERE id = 1", (f"{stamp}{n % 2 or ''}",)
            )
            writer.commit()
            response = http.get(f"/search/count?{urlencode(search)}")
            response.raise_for_status()
            times.append(_server_ms(response))
        writer.execute("UPDATE collector SET created_at = ? WHERE id = 1", (stamp,))
    return times


def _deck(url: str, rounds: int) -> list[float]:
    """The Deck Builder's update (check, stats, curve) of a 60-card deck, in server ms."""
    import httpx

    with httpx.Client(base_url=url, timeout=60) as http:
        page = http.get("/deck?q=s:chaos t:creature")
        token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
        codes = re.findall(r'name="add" value="([^"]+)"', page.text)[: DECK_CARDS // 3]
        deck = "".join(f"3 {code}\n" for code in codes)
        times = []
        for _ in range(rounds):
            response = http.post(
                "/deck/update", data={"deck": deck, "csrf": token}, headers={"HX-Request": "true"}
            )
            response.raise_for_status()
            assert f"{3 * len(codes)} cards" in response.text
            times.append(_server_ms(response))
    return times


def _odds(url: str, rounds: int) -> list[float]:
    """The Deck Builder's odds of a 60-card deck (a creature of cost 2 or less by turn 3),
    in server ms: `deck odds` asked from the page."""
    import httpx

    with httpx.Client(base_url=url, timeout=60) as http:
        page = http.get("/deck?q=s:chaos t:creature")
        token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)  # type: ignore[union-attr]
        codes = re.findall(r'name="add" value="([^"]+)"', page.text)[: DECK_CARDS // 3]
        deck = "".join(f"3 {code}\n" for code in codes)
        form = {"deck": deck, "csrf": token, "odds_q": "t:creature cost<=2", "turn": "3"}
        times = []
        for _ in range(rounds):
            response = http.post("/deck/odds", data=form, headers={"HX-Request": "true"})
            response.raise_for_status()
            assert "%" in response.text, response.text[:300]
            times.append(_server_ms(response))
    return times


def _search_rows(
    url: str, searches: list[dict[str, str]], rounds: int, detail: str, clients: int = CLIENTS
) -> Iterator[Row]:
    """The search page and its count, `clients` at once (the first of each search warmed)."""
    _searches(url, searches, len(searches))  # warm: the first of each opens pages
    with ThreadPoolExecutor(clients) as pool:
        done = list(pool.map(lambda n: _searches(url, searches[n:] + searches[:n], rounds),
                             range(clients)))  # fmt: skip
    server = [ms for times, _, _, _ in done for ms in times]
    client = [ms for _, times, _, _ in done for ms in times]
    counts = [ms for _, _, times, _ in done for ms in times]
    detail = f"{clients} clients, {len(server)} pages, {detail}"
    yield Row("search page", "server p95", _p95(server) / 1000,
              f"{detail}; {_slowest(done)}", target="<= 30 ms")  # fmt: skip
    yield Row("search page", "server p50", sorted(server)[len(server) // 2] / 1000, detail)
    yield Row("search page", "client p95", _p95(client) / 1000, "loopback, queueing included")
    if counts:
        yield Row("search page", "its count, server p95", _p95(counts) / 1000,
                  f"{len(counts)} counts, fetched after the page; the same search's "
                  "count is kept until the database changes", target="<= 30 ms")  # fmt: skip


def _deck_rows(url: str, rounds: int, detail: str, clients: int = CLIENTS) -> Iterator[Row]:
    with ThreadPoolExecutor(clients) as pool:
        decks = list(pool.map(lambda _: _deck(url, rounds), range(clients)))
    deck = [ms for times in decks for ms in times]
    yield Row("deck update", "server p95", _p95(deck) / 1000,
              f"{clients} clients, {DECK_CARDS}-card deck, {len(deck)} updates{detail}",
              target="<= 10 ms")  # fmt: skip


def bench_web(ctx: Context, queries: tuple[str, ...]) -> Iterator[Row]:
    if not (has("fastapi") and has("httpx")):
        yield Row("web pages", "skipped", 0.0, "pip install -e '.[web,test]'")
        return
    searches = [{"q": query} for query in queries] + list(PAGE_SEARCHES)
    rounds = max(ROUNDS // 7 * ctx.reps, len(searches))
    child, url = _server(ctx.database("large"))
    try:
        yield from _search_rows(url, searches, rounds, f"{ctx.size} cards, 1 process")
        anew = _counts_anew(url, ctx.database("large"), searches, max(ctx.reps, 3))
        yield Row("search page", "its count taken anew, server p95", _p95(anew) / 1000,
                  f"1 client, {len(anew)} counts, each after a commit (as a new search "
                  "or a changed collection asks)")  # fmt: skip
        yield from _deck_rows(url, rounds, "")
        yield from _alone_rows(url, rounds)
    finally:
        child.terminate()
        child.wait(timeout=30)
    if WORKERS > 1:
        yield from _workers_rows(ctx, searches, rounds)


def _workers_rows(ctx: Context, searches: list[dict[str, str]], rounds: int) -> Iterator[Row]:
    """The 4-client rows again with `serve --workers WORKERS`: one process per core rather
    than four clients' Python queueing for one process's GIL; then with one client per
    worker (as many rounds each, so as many requests per client)."""
    child, url = _server(ctx.database("large"), WORKERS)
    try:
        for row in (*_search_rows(url, searches, rounds, f"{ctx.size} cards"),
                    *_deck_rows(url, rounds, "")):  # fmt: skip
            yield replace(row, benchmark=f"{row.benchmark}, {WORKERS} workers")
        if WORKERS < CLIENTS:
            named = f"{WORKERS} workers, a client each"
            for row in (*_search_rows(url, searches, rounds, f"{ctx.size} cards", WORKERS),
                        *_deck_rows(url, rounds, "", WORKERS)):  # fmt: skip
                yield replace(row, benchmark=f"{row.benchmark}, {named}")
    finally:
        child.terminate()
        child.wait(timeout=30)


def _alone_rows(url: str, rounds: int) -> Iterator[Row]:
    """The Deck Builder with one client, then its odds with one and with `CLIENTS`."""
    alone = _deck(url, rounds)
    yield Row("deck update", "server p95, 1 client", _p95(alone) / 1000,
              f"{DECK_CARDS}-card deck, {len(alone)} updates, nobody else asking")  # fmt: skip
    alone = _odds(url, rounds)
    yield Row("deck odds", "server p95, 1 client", _p95(alone) / 1000,
              f"{DECK_CARDS}-card deck, {len(alone)} questions, nobody else asking",
              target="<= 20 ms")  # fmt: skip
    with ThreadPoolExecutor(CLIENTS) as pool:
        asked = list(pool.map(lambda _: _odds(url, rounds), range(CLIENTS)))
    odds = [ms for times in asked for ms in times]
    yield Row("deck odds", "server p95", _p95(odds) / 1000,
              f"{CLIENTS} clients, {DECK_CARDS}-card deck, {len(odds)} questions "
              "(a creature of cost 2 or less by turn 3)")  # fmt: skip
