"""The words an app writes for a condition or a language where they mean something else
elsewhere: read as that app means them.

Most apps write conditions and languages that `cardbase.collection.attributes` reads as they
are ("Near Mint", "NearMint", "near_mint", "English", "en"). A few do not: Moxfield and
Deckbox grade "Played" where others write "Moderately Played"; Archidekt writes Korean as
"KR" (Kanuri in ISO 639-1) and Simplified Chinese as "CS" (Czech); Cardmarket numbers its
languages. An app is known by headers only its export has; its words are tried before the
general reading, so a file means what the app that wrote it meant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Dialect(NamedTuple):
    app: str
    signature: frozenset[str]  # folded headers that together only this app writes
    conditions: dict[str, str]  # folded value -> stored condition
    languages: dict[str, str]  # folded value -> stored language


# Words every sheet may use that the general reading does not know.
COMMON_CONDITIONS = {"goodlightlyplayed": "LP", "d": "DMG", "dm": "DMG"}
DIALECTS: tuple[Dialect, ...] = (
    # Deckbox's grading ladder, which Moxfield exports too: Mint, Near Mint, Good (Lightly
    # Played), Played, Heavily Played, Damaged. Both write Simplified Chinese as "Chinese".
    Dialect("Moxfield or Deckbox", frozenset({"tradelistcount"}), {"played": "MP"},
            {"chinese": "zh-Hans"}),
    Dialect("Archidekt", frozenset({"editioncode", "finish"}), {},
            {"jp": "ja", "kr": "ko", "cs": "zh-Hans", "ct": "zh-Hant"}),
    Dialect("Dragon Shield (Sorted)", frozenset({"listname", "cardname"}), {},
            {"jp": "ja", "kr": "ko", "cn": "zh-Hans", "tw": "zh-Hant"}),
    # Cardmarket's stock export numbers languages as its API does.
    Dialect("Cardmarket", frozenset({"idproduct"}), {}, {
        "1": "en", "2": "fr", "3": "de", "4": "es", "5": "it", "6": "zh-Hans", "7": "ja",
        "8": "pt", "9": "ru", "10": "ko", "11": "zh-Hant",
    }),
)  # fmt: skip


def dialect_of(headers: Sequence[str]) -> Dialect | None:
    """The app whose words a sheet with these headers uses, where that matters."""
    from cardbase.sheets.columns import fold

    folded = {fold(header) for header in headers}
    return next((d for d in DIALECTS if d.signature <= folded), None)
