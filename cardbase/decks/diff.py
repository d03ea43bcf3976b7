"""What changed between two decks: per section, the cards added, removed and whose count
changed, as `deck diff` prints them and a player reads a new list against the old one."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from cardbase.decks.formats import Placed


class CountChange(NamedTuple):
    section: str
    card: str  # the card's label: name and code
    before: int
    after: int

    @property
    def kind(self) -> str:
        return "added" if not self.before else "removed" if not self.after else "changed"

    def describe(self) -> str:
        if self.kind == "added":
            return f"+{self.after} {self.card}"
        if self.kind == "removed":
            return f"-{self.before} {self.card}"
        return f"{self.before} -> {self.after} {self.card}"

    def to_dict(self) -> dict[str, object]:
        return {**self._asdict(), "kind": self.kind}


def counts(placed: Iterable[Placed]) -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = defaultdict(int)
    for p in placed:
        found[p.line.section, p.card.label()] += p.line.copies
    return found


def deck_diff(old: Iterable[Placed], new: Iterable[Placed]) -> list[CountChange]:
    """Every card whose count differs, by section (main first) then card."""
    before, after = counts(old), counts(new)
    keys = sorted(before.keys() | after.keys(), key=lambda k: (k[0] != "main", k[0], k[1]))
    return [
        CountChange(section, card, before.get((section, card), 0), after.get((section, card), 0))
        for section, card in keys
        if before.get((section, card), 0) != after.get((section, card), 0)
    ]
