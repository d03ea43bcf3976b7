"""The names close to a misspelling: the one scorer, its thresholds, and where candidates come from.

Every refusal to guess a name offers what `CloseNames.search` finds, so a text gets the same
suggestions from every command. Names are scored with rapidfuzz's WRatio, which rates a whole
name with a typo ('Chugawug Cok') and a single misspelled word ('Chugawg') alike.

Scoring all of a 100k-card catalogue takes 0.1 s a text: too slow for an import with thousands
of misspellings, and a deck check should not spend it either. So a text is scored against the
names with its longest known word (long words are rare ones), narrowed by each of its other
words while some names are left; a text with no known word, against the names with words close
to its words; and only when that finds nothing close enough, against every name. The names are
held as one folded text, where finding a word's names is a search in C: a command pays for the
words it asks about, not for indexing 500k words it never will; once it has asked about
`WORDS_BEFORE_INDEX` words (an import does), one pass indexes them all.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from cardbase.catalog.cards import name_key
from cardbase.db import tables
from cardbase.db.engine import Connection

SUGGESTION_CUTOFF = 70.0  # the WRatio a name, or a word of one, needs to be suggested
SUGGESTION_SPREAD = 5.0  # 'Chugawug Cok' suggests Chugawug Cook, not every Chugawug near it
SUGGESTION_LIMIT = 3
SHORTEST_CLOSE_WORD = 3  # shorter unknown words are close to too many words to narrow anything
FEW_NAMES = 1_000  # a pool this small is narrowed name by name, not by all names with the word
WORDS_BEFORE_INDEX = 30  # words looked up one search at a time before indexing every word

# Everything but word characters, spaces and newlines becomes a space, in one of two ways.
_NOT_WORD = re.compile(r"[^\w\n ]|_")
_ASCII_NOT_WORD = {c: " " for c in range(128) if not chr(c).isalnum() and chr(c) not in " \n"}


def _spaced(folded: str) -> str:
    """Punctuation and odd spaces as plain spaces; ASCII text (most catalogues) by a table,
    as the regex takes 35 ms over 100k names."""
    if folded.isascii():
        return folded.translate(_ASCII_NOT_WORD)
    return _NOT_WORD.sub(" ", folded)


def fold_words(text: str) -> list[str]:
    """A text's words as names are searched by: case-folded, split at spaces and punctuation."""
    return _spaced(text.casefold()).split()


def ranked(text: str, choices: Sequence[str] | Mapping[int, str]) -> list[Any]:
    """(choice, score, key) as close as the best one, best first (ties in the choices' order).

    rapidfuzz is imported here, so that only a command with a misspelling pays for it.
    """
    from rapidfuzz import fuzz, process, utils

    found = process.extract(
        text,
        choices,
        scorer=fuzz.WRatio,
        processor=utils.default_process,
        score_cutoff=SUGGESTION_CUTOFF,
        limit=None,
    )
    if not found:
        return []
    return [item for item in found if item[1] >= found[0][1] - SUGGESTION_SPREAD]


class CloseNames:
    def __init__(self, names: Sequence[str]) -> None:
        """`names` in the order that breaks ties; a name may repeat (a reprint)."""
        self.names = list(names)
        lines = _spaced("\n".join(self.names).casefold()).split("\n")
        if len(lines) != len(self.names):  # a name with a line break in it
            lines = [" ".join(fold_words(name)) for name in self.names]
        # " name one \n name two ": a word is " word ", and name p is text[offsets[p]:...[p+1]].
        self.text = " " + " \n ".join(lines) + " "
        self.offsets = list(itertools.accumulate((len(line) + 3 for line in lines), initial=0))
        self._with: dict[str, set[int]] = {}
        self._postings: dict[str, set[int]] | None = None
        self._vocabulary: list[str] | None = None

    @classmethod
    def load(cls, conn: Connection) -> CloseNames:
        """Every name, in catalogue order (so ties read as the catalogue does).

        SQLite joins them into one string: a third of the time of 100k rows as tuples. It joins
        them in the subquery's order, as it does for an aggregate over an ordered subquery (an
        import reads the same order with a plain ORDER BY; tests/test_names.py compares).
        Reprints are left in: `search` shows a name once anyway, and hashing 100k names to drop
        them would cost more than scoring them twice.
        """
        ordered = f"SELECT name FROM {tables.CARD_TABLE} ORDER BY game, series, number, rarity"
        if not conn.engine.in_process:  # rows from a server: no single string to gain
            return cls([row[0] for row in conn.execute(ordered)])
        count, joined = conn.execute(
            f"SELECT count(*), coalesce(group_concat(name, char(10)), '') FROM ({ordered})"
        ).fetchone()
        names = joined.split("\n") if count else []
        if len(names) != count:  # a name with a line break in it
            names = [row[0] for row in conn.execute(ordered)]
        return cls(names)

    def search(self, text: str) -> list[str]:
        """Up to `SUGGESTION_LIMIT` names, best first, one for each folded name."""
        pool = self._pool(text)
        found = ranked(text, {p: self.names[p] for p in pool}) if pool else []
        if not found:  # its words led nowhere close: the scan the pool spares the rest
            found = ranked(text, self.names)
        shown: dict[str, str] = {}
        for name, _score, _key in found:
            shown.setdefault(name_key(name), name)
            if len(shown) == SUGGESTION_LIMIT:
                break
        return list(shown.values())

    def _pool(self, text: str) -> list[int]:
        """The names with the text's longest known word, narrowed by each further word that
        leaves some; with no known word, the names with words close to the text's words."""
        words = sorted(set(fold_words(text)), key=lambda word: (-len(word), word))
        pool: set[int] = set()
        for word in words:
            if not pool:
                pool = self._names_with(word)
            elif self._postings is None and len(pool) <= FEW_NAMES and word not in self._with:
                pool = {p for p in pool if self._has(p, word)} or pool  # 'of': skip its 60k names
            else:
                pool = (pool & self._names_with(word)) or pool
        if pool:
            return sorted(pool)
        close = {c for w in words if len(w) >= SHORTEST_CLOSE_WORD for c in self._close_words(w)}
        return sorted(set().union(*map(self._names_with, sorted(close))))

    def _names_with(self, word: str) -> set[int]:
        """The positions of the names with the word (a set never changed once made)."""
        if self._postings is None and len(self._with) >= WORDS_BEFORE_INDEX:
            self._postings = self._index()
            self._with.clear()
        if self._postings is not None:
            return self._postings.get(word) or set()
        found = self._with.get(word)
        if found is None:
            found = self._with[word] = set()
            needle, find, offsets = f" {word} ", self.text.find, self.offsets
            at = find(needle)
            while at >= 0:
                found.add(bisect.bisect_right(offsets, at) - 1)
                at = find(needle, at + 1)
        return found

    def _index(self) -> dict[str, set[int]]:
        """Every word's names in one pass: the same answers as searching the text word by
        word, for a tenth of the time once most words are asked about."""
        postings: dict[str, set[int]] = {}
        for position, line in enumerate(self.text.split("\n")):
            for word in line.split():
                found = postings.get(word)
                if found is None:
                    postings[word] = {position}
                else:
                    found.add(position)
        return postings

    def _has(self, position: int, word: str) -> bool:
        start, end = self.offsets[position], self.offsets[position + 1]
        return self.text.find(f" {word} ", start, end) >= 0

    def _close_words(self, word: str) -> list[str]:
        if self._vocabulary is None:
            words = self._postings if self._postings is not None else self.text.split()
            self._vocabulary = sorted(set(words))
        return [close for close, _score, _key in ranked(word, self._vocabulary)]
