"""Each card's name, game text and lore in every locale the client folder has.

The locale files name a card's strings by the hash of ``title_<id>``, ``game_text_<id>`` and
``lore_<id>``; the English strings equal the archetype database's own. Markup becomes plain
text (`cardbase.client.markup`). Translations name some words by placeholder, ``[#HAND#]``,
which the client fills with the word of that name (the string keyed ``HAND``, its grammar
marks such as ``{nn}`` dropped): so does cardbase, and a placeholder without a word stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from cardbase.client.archetypes import ClientError
from cardbase.client.cards import ClientCard
from cardbase.client.folder import ClientFolder
from cardbase.client.locale import (
    ENGLISH,
    LOCALES,
    MAX_STRING,
    LocaleFile,
    lookup2,
    string_key,
)
from cardbase.client.markup import plain_text

KINDS = ("title", "game_text", "lore")
PLACEHOLDER = re.compile(r"\[#([A-Z0-9_]+)#\]")
MAX_WORD = 100  # characters of a placeholder's word; the real ones are under 30
_GRAMMAR = re.compile(r"\{[^{}]*\}")


class CardTexts(NamedTuple):
    name: str
    text: str
    lore: str


def card_texts(
    folder: ClientFolder, cards: Sequence[ClientCard]
) -> dict[str, dict[int, CardTexts]]:
    """Language tag -> archetype id -> the card's strings there, for every locale of
    `LOCALES` the folder has (a card missing from a locale is missing from its dict)."""
    keys = {
        card.archetype: tuple(string_key(kind, card.archetype) for kind in KINDS) for card in cards
    }
    wanted = {hashed for hashes in keys.values() for hashed in hashes}
    found: dict[str, dict[int, CardTexts]] = {}
    for locale in folder.locales():
        if locale not in LOCALES:
            continue
        texts = found[LOCALES[locale]] = {}
        if locale == ENGLISH:  # the archetype database's own strings: every card has them
            texts.update((c.archetype, CardTexts(c.name, c.text, c.lore)) for c in cards)
            continue
        files = LocaleFile(folder.locale, locale)
        strings = files.strings(wanted)
        _fill_placeholders(strings, files)
        for archetype, (title, text, lore) in keys.items():
            name = " ".join(strings.get(title, "").split())
            if name:
                texts[archetype] = CardTexts(
                    name, plain_text(strings.get(text, "")), plain_text(strings.get(lore, ""))
                )
    return found


def _fill_placeholders(strings: dict[int, str], files: LocaleFile) -> None:
    """Each ``[#WORD#]`` in `strings` replaced by the locale's word for it, in place."""
    names = {name for text in strings.values() for name in PLACEHOLDER.findall(text)}
    if not names:
        return
    hashes = {lookup2(name.encode()): name for name in names}
    words = {
        hashes[hashed]: " ".join(_GRAMMAR.sub("", word).split())
        for hashed, word in files.strings(hashes).items()
    }

    too_long = [name for name, found in words.items() if len(found) > MAX_WORD]
    if too_long:
        raise ClientError(
            f"{files.dat_path}: the word {too_long[0]} is {len(words[too_long[0]]):,} characters "
            f"long (a word is at most {MAX_WORD}); the file is damaged"
        )

    def word(match: re.Match[str]) -> str:
        return words.get(match[1]) or match[0]

    for hashed, text in strings.items():
        filled = PLACEHOLDER.sub(word, text)
        if len(filled) > MAX_STRING:
            raise ClientError(
                f"{files.dat_path}, string {hashed}: {len(filled):,} characters with its "
                f"words filled in (at most {MAX_STRING:,}); the file is damaged"
            )
        strings[hashed] = filled
