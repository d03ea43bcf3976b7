"""Resolving many names at once (spreadsheet imports, trade lists) against a large catalogue.

Exact names are dictionary lookups on the folded name. A misspelled name is compared only
with catalogue names that share one of its words ("Onyx Wizard Tamr" shares "Onyx" and
"Wizard" with the right card), so 10k rows against 100k cards take a second, not the hours
a comparison with every name would. A fuzzy match is taken only when it is near-certain and
clearly better than the next; anything less is reported with suggestions, never guessed.
"""

from __future__ import annotations

import re
import sqlite3
from typing import NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.db import tables

ACCEPT_SCORE = 97.0  # 'Chugawug Cok' (96) is reported, one typo in a long name is taken
SUGGEST_SCORE = 70.0
MARGIN = 3.0  # the best match must beat the next distinct name by this much
MAX_CANDIDATES = 300


class Printing(NamedTuple):
    id: int
    game: str
    series: int
    rarity: str
    number: int
    name: str

    @property
    def code(self) -> str:
        return f"{self.series} {self.rarity} {self.number}"


class NameMatch(NamedTuple):
    """The printings a name means (one or more), or suggestions when it means none for sure."""

    printings: list[Printing]
    score: float  # 100 for an exact name
    suggestions: list[str]


_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


class NameIndex:
    def __init__(self, printings: list[Printing], keys: list[str] | None = None) -> None:
        """`keys` are the printings' folded names when already known (the database has them)."""
        self.printings = printings
        self.by_key: dict[str, list[Printing]] = {}
        self._by_number: dict[tuple[int, int], list[Printing]] | None = None
        for position, printing in enumerate(printings):
            key = keys[position] if keys is not None else name_key(printing.name)
            self.by_key.setdefault(key, []).append(printing)
        self.names = list(self.by_key)  # one entry per distinct folded name
        self.display = [self.by_key[key][0].name for key in self.names]
        self._postings: dict[str, set[int]] | None = None
        self._processed: list[str] | None = None
        self._cache: dict[str, NameMatch] = {}

    @property
    def by_number(self) -> dict[tuple[int, int], list[Printing]]:
        """(series, number) -> printings; built on the first code only."""
        if self._by_number is None:
            self._by_number = {}
            for printing in self.printings:
                self._by_number.setdefault((printing.series, printing.number), []).append(printing)
        return self._by_number

    @property
    def processed(self) -> list[str]:
        """Display names as rapidfuzz compares them, folded once rather than per lookup."""
        if self._processed is None:
            from rapidfuzz import utils

            self._processed = [utils.default_process(name) for name in self.display]
        return self._processed

    @property
    def postings(self) -> dict[str, set[int]]:
        """Word -> positions of names with it; built on the first misspelled name only."""
        if self._postings is None:
            self._postings = {}
            for position, name in enumerate(self.display):
                for word in _words(name):
                    self._postings.setdefault(word, set()).add(position)
        return self._postings

    @classmethod
    def load(cls, conn: sqlite3.Connection, game: str | None = None) -> NameIndex:
        sql = f"SELECT id, game, series, rarity, number, name, name_key FROM {tables.CARD_TABLE}"
        rows = conn.execute(sql + (" WHERE game = ?" if game else ""), (game,) if game else ())
        printings, keys = [], []
        for row in rows:
            printings.append(Printing(*row[:6]))
            keys.append(row[6])
        return cls(printings, keys)

    def exact(self, name: str) -> list[Printing]:
        return self.by_key.get(name_key(name), [])

    def match(self, name: str) -> NameMatch:
        """Remembered per name: a sheet lists the same card on many rows."""
        known = self._cache.get(name)
        if known is None:
            found = self.exact(name)
            known = NameMatch(found, 100.0, []) if found else self._fuzzy(name)
            self._cache[name] = known
        return known

    def _candidates(self, name: str) -> list[int]:
        """Names sharing the query's two rarest known words (or its one), rarest first.

        A typo spoils one word; the words left still pick out a small set of names.
        """
        index = self.postings
        postings = sorted((index[word] for word in set(_words(name)) if word in index), key=len)
        if not postings:
            return []
        if len(postings) >= 2:
            both = postings[0] & postings[1]
            if both:
                return sorted(both)[:MAX_CANDIDATES]
        return sorted(postings[0])[:MAX_CANDIDATES]

    def _fuzzy(self, name: str) -> NameMatch:
        from rapidfuzz import fuzz, process, utils

        candidates = self._candidates(name)
        if not candidates:
            return NameMatch([], 0.0, [])
        processed = self.processed
        ranked = process.extract(
            utils.default_process(name),
            {position: processed[position] for position in candidates},
            scorer=fuzz.ratio,
            processor=None,  # both sides are processed already
            score_cutoff=SUGGEST_SCORE,
            limit=4,
        )
        if not ranked:
            return NameMatch([], 0.0, [])
        _best, best_score, best_position = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        suggestions = [
            f"{self.display[pos]} ({', '.join(p.code for p in self.by_key[self.names[pos]])})"
            for _shown, _score, pos in ranked[:3]
        ]
        if best_score >= ACCEPT_SCORE and best_score - runner_up >= MARGIN:
            return NameMatch(self.by_key[self.names[best_position]], best_score, [])
        return NameMatch([], best_score, suggestions)
