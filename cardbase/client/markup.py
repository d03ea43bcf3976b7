"""The client's light HTML in game text and lore, as the plain text cardbase shows.

The client writes `<b>+2 attack</b>`, `<i>Crush</i>`, `<br>` and `<link target=...>word</link>`
(a word linked to its rules). Cards print the same words without the markup, and cardbase's
texts are plain (costs in brackets, ``>>`` before an effect, line breaks between abilities),
so tags go, `<br>` becomes a line break and entities become their characters.
"""

from __future__ import annotations

import html
import re

_BREAK = re.compile(r"<\s*/?\s*br\s*/?\s*>", re.IGNORECASE)
_TAG = re.compile(r"</?(?:b|i|u|link)(?:\s[^<>]*)?>", re.IGNORECASE)
_SPACES = re.compile(r"[ \t]+")


def plain_text(markup: str) -> str:
    """`markup` without its tags: each line trimmed, runs of spaces one, no empty lines."""
    text = html.unescape(_TAG.sub("", _BREAK.sub("\n", markup)))
    lines = (_SPACES.sub(" ", line).strip() for line in text.replace("\r", "").split("\n"))
    return "\n".join(line for line in lines if line)
