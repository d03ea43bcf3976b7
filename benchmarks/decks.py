"""Deck benchmarks: checks in process, a cold check of a list with typos, and the
tournament desk's cold check of a folder of decks."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import generate
from harness import BIN, Context, Row, alternate, median, run_command

from cardbase.library import Library


def bench_decks(ctx: Context) -> Iterator[Row]:
    """Deck checks per second, in process, on the generated deck lists."""
    from cardbase.decks.check import check_deck
    from cardbase.decks.sheetdecks import read_deck_file

    conn = Library(ctx.database("large")).connect()
    decks = [
        read_deck_file(path) for path in sorted((ctx.data / f"decks-{ctx.size}").glob("*.txt"))
    ]
    start = time.perf_counter()
    rounds = max(1, ctx.reps)
    for _ in range(rounds):
        for deck in decks:
            check_deck(conn, deck)
    elapsed = time.perf_counter() - start
    per_second = rounds * len(decks) / elapsed
    yield Row(
        "deck checks",
        "cardbase check_deck",
        elapsed / (rounds * len(decks)),
        f"{per_second:.0f} checks/s",
    )


def _cold_check(ctx: Context, target: Path, name: str) -> float:
    """The median of cold `deck check TARGET` runs on the generated catalogue (every deck
    here has a problem, so exit 1 is expected)."""
    command = [str(BIN / "cardbase"), "--db", str(ctx.database("large")), "deck", "check"]
    runs = alternate(
        {name: lambda: run_command([*command, str(target)], exit_codes=(1,))}, ctx.reps
    )
    return median(runs[name])


def bench_deck_typos(ctx: Context) -> Iterator[Row]:
    """A cold `deck check` of a hand-typed 60-line deck with three misspelled names: what it
    costs to refuse them with suggestions against the whole catalogue."""
    deck = ctx.data / f"deck-with-typos-{ctx.size}.txt"
    if not deck.exists():  # data generated before this benchmark was
        catalogue = list(generate.catalogue_rows(generate.SIZES[ctx.size]))
        generate.write_typo_deck(deck, catalogue)
    name = "cardbase deck check (3 typos)"
    detail = f"{generate.TYPO_DECK_LINES} lines, {ctx.size} cards"
    yield Row("deck check, cold", name, _cold_check(ctx, deck, name), detail, target="<= 0.3 s")


def bench_desk(ctx: Context) -> Iterator[Row]:
    """The tournament desk: a cold `deck check DIR` of a hundred 40-card deck files, one line
    a deck (the issue's target: under 2 s)."""
    folder = ctx.data / f"desk-{ctx.size}"
    if not folder.exists():  # data generated before this benchmark was
        catalogue = list(generate.catalogue_rows(generate.SIZES[ctx.size]))
        generate.write_desk_decks(folder, catalogue)
    name = "cardbase deck check DIR"
    detail = f"{generate.DESK_DECKS} decks of {generate.DESK_DECK_CARDS} cards, {ctx.size} cards"
    yield Row("deck check, a folder", name, _cold_check(ctx, folder, name), detail,
              target="<= 2 s")  # fmt: skip


PROXY_DECK_CARDS = 40


def bench_proxies(ctx: Context) -> Iterator[Row]:
    """A cold `deck proxies` of a 40-card deck whose cards have the catalogue's longest game
    texts, so that every face wraps and shrinks its text (the issue's target: under 2 s and
    under 2 MB)."""
    from cardbase.db import tables

    database = ctx.database("large")
    with Library(database).reading() as conn:
        rows = conn.execute(
            f"SELECT series, rarity, number FROM {tables.CARD_TABLE} "
            "ORDER BY length(text) DESC, id LIMIT 14"
        ).fetchall()
    copies = [3] * 13 + [PROXY_DECK_CARDS - 39]
    deck = ctx.work / "proxies-deck.txt"
    deck.write_text(
        "".join(f"{n} {s} {r} {c}\n" for n, (s, r, c) in zip(copies, rows, strict=True))
    )
    out = ctx.work / "proxies.pdf"
    command = [str(BIN / "cardbase"), "--db", str(database), "deck", "proxies", str(deck),
               str(out), "--force"]  # fmt: skip
    name = "cardbase deck proxies"
    runs = alternate({name: lambda: run_command(command)}, ctx.reps)
    detail = f"{PROXY_DECK_CARDS} cards, 5 pages, {out.stat().st_size / 1000:.0f} kB"
    yield Row("proxy sheet PDF, cold", name, median(runs[name]), detail, target="< 2 s, < 2 MB")
