"""Collector codes such as ``1 U 132``: series, rarity letter, card number.

People type codes the way they read them off a card, a binder label or a forum post, so the
parser accepts any of space, ``-`` or ``/`` between the parts (or nothing), any case and leading
zeros, and reports exactly which part is wrong when it cannot make sense of one.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from cardbase.errors import CodeError, NotFoundError, Remedy, shorten
from cardbase.fields import RARITY_LETTERS, RARITY_NAMES
from cardbase.games import DEFAULT_GAME, GAMES, Game
from cardbase.limits import MAX_NUMBER, MAX_SERIES

_CANONICAL = re.compile(rf"([1-9][0-9]{{0,2}}) ([{RARITY_LETTERS}]) ([1-9][0-9]{{0,4}})")
# A '-' between parts is a separator (1-U-132), but one that starts a part, after a space or
# a '/', is a minus sign: "1 U -3" is card -3, refused as such, not card 3.
_PIECES = re.compile(r"(?:(?<![^\s/])-)?[0-9]+|[^\W\d_]+|[^\s\-/]")
_NUMBER = re.compile(r"-?[0-9]+")
_SHAPE = "like '1 U 132' (series, rarity letter, card number)"
# What stands between a code's parts as typed: "1 U 132" a space, "1-U-132" a '-', "1U132"
# nothing (the spaces around a '-' or '/' go with it).
_BETWEEN = re.compile(r"\s*-?[0-9]+([\s\-/]*)[^\W\d_]+([\s\-/]*)-?[0-9]+\s*")
# A code's bounded parts: as a message names one, several, and the game file's key.
_BOUNDED = (("series", "series", "series"), ("card number", "card numbers", "number"))
_PLAIN = "{series} {rarity} {number}"  # `CollectorCode.__str__`
_SEPARATOR_NAMES = {" ": "a space", "-": "'-'", "/": "'/'", "": "nothing"}


class CollectorCode(NamedTuple):
    """Ordered as printed sets are: by series, then rarity letter, then number."""

    series: int
    rarity: str
    number: int

    def __str__(self) -> str:
        return f"{self.series} {self.rarity} {self.number}"

    @property
    def rarity_name(self) -> str:
        return RARITY_NAMES[self.rarity]

    def to_dict(self) -> dict[str, str | int]:
        """The code's parts as JSON shows them beside every card and code."""
        return {"code": str(self), "series": self.series, "rarity": self.rarity,
                "number": self.number}  # fmt: skip


@functools.lru_cache(maxsize=8192)  # a sheet repeats codes; a code parses the same every time
def parse_code(text: str) -> CollectorCode:
    """Read what a person typed as a `CollectorCode`; a `CodeError` names the bad part."""
    canonical = _CANONICAL.fullmatch(text)
    if canonical:  # how exports and catalogues write codes: skip the general reading
        series, rarity, number = int(canonical[1]), canonical[2], int(canonical[3])
        if 0 < series <= MAX_SERIES and 0 < number <= MAX_NUMBER:
            return CollectorCode(series, rarity, number)
    if not text.strip():
        raise CodeError(f"empty collector code; expected one {_SHAPE}")
    shown = shorten(text.strip())
    pieces = _PIECES.findall(text.strip())
    numbers = [bool(_NUMBER.fullmatch(piece)) for piece in pieces]
    if len(pieces) == 3 and numbers[0] and numbers[2]:
        series_text, rarity_text, number_text = pieces
    elif len(pieces) == 2 and numbers[0] and not numbers[1]:
        raise CodeError(f"{shown}: the card number is missing; expected a code {_SHAPE}")
    elif len(pieces) > 3 and numbers[0] and numbers[2]:
        raise CodeError(f"{shown}: unexpected '{shorten(pieces[3], 20)}' after the card number")
    else:
        raise CodeError(f"{shown}: not a collector code; expected one {_SHAPE}")
    series = _positive(shown, "series", series_text, MAX_SERIES)
    rarity = rarity_text.upper()
    if rarity not in RARITY_NAMES:
        raise CodeError(
            f"{shown}: rarity '{shorten(rarity_text, 20)}' is not one of {' '.join(RARITY_NAMES)}"
        )
    number = _positive(shown, "card number", number_text, MAX_NUMBER)
    return CollectorCode(series, rarity, number)


def looks_like_code(text: str) -> bool:
    """True for text that a person most likely meant as a code rather than a card name."""
    pieces = _PIECES.findall(text.strip())
    return (
        len(pieces) == 3
        and bool(_NUMBER.fullmatch(pieces[0]))
        and bool(_NUMBER.fullmatch(pieces[2]))
        and len(pieces[1]) == 1
        and pieces[1].isalpha()
    )


def _positive(shown: str, part: str, digits: str, limit: int) -> int:
    """A part's number, checked by its digits first: int() refuses numbers of over 4,300."""
    if not _NUMBER.fullmatch(digits):
        raise CodeError(f"{shown}: {part} '{shorten(digits, 20)}' is not a number")
    if digits.startswith("-") and digits.strip("-0"):
        raise CodeError(f"{shown}: {part} {shorten(digits, 20)} must be 1 or more")
    if len(digits.lstrip("-0")) > len(str(limit)) or int(digits) > limit:
        raise CodeError(f"{shown}: {part} {shorten(digits, 20)} is too large (at most {limit})")
    value = int(digits)
    if value < 1:
        raise CodeError(f"{shown}: {part} {value} must be 1 or more")
    return value


def game_code(text: str, code: CollectorCode, game: str) -> CollectorCode:
    """`code`, as `text` typed it, checked against `game`'s code pattern (its game file's
    `[code]`): the series and number within its bounds, a rarity letter it has, and only
    its separators between the parts. A `CodeError` names the part and what the game's
    codes allow, in one line."""
    known = GAMES.get(game)
    if known is None:
        return code
    pattern, title = known.code, known.title
    for part, parts, key in _BOUNDED:
        value = getattr(code, key)
        low, high = pattern.get(key) or (1, MAX_SERIES if key == "series" else MAX_NUMBER)
        if not low <= value <= high:
            raise CodeError(f"{shorten(text.strip())}: {part} {value} is outside {title}'s "
                            f"codes ({parts} {low} to {high})")  # fmt: skip
    if known.rarities and code.rarity not in known.rarities:
        raise CodeError(f"{shorten(text.strip())}: rarity '{code.rarity}' is not one of "
                        f"{title}'s ({' '.join(known.rarities)})")  # fmt: skip
    allowed = pattern.get("separators") or list(_SEPARATOR_NAMES)
    # Every separator allowed (both shipped games): nothing to look for, on 100k rows.
    if len(allowed) < len(_SEPARATOR_NAMES) and any(s not in allowed for s in _separators(text)):
        said = " or ".join(_SEPARATOR_NAMES[sep] for sep in allowed)
        raise CodeError(f"{shorten(text.strip())}: {title}'s codes have {said} between "
                        f"their parts, as in {format_code(code, game)}")  # fmt: skip
    return code


def in_some_game(text: str, code: CollectorCode, preferred: str | None = None) -> CollectorCode:
    """`code` checked against the pattern of a game it could be (`game_code`), where the
    user named no game: it must fit one; if it fits none, the preferred game's (the one
    chosen, else the default) says why."""
    for game in GAMES.values():
        try:
            return game_code(text, code, game.key)
        except CodeError:
            continue
    return game_code(text, code, preferred or DEFAULT_GAME)


def format_code(code: CollectorCode, game: str) -> str:
    """The code in `game`'s canonical form (its game file's `canonical`, such as
    "{series} {rarity} {number}"): how tables, exports and catalogues write it."""
    known: Game | None = GAMES.get(game)
    canonical = known.code.get("canonical") if known else None
    if not canonical or canonical == _PLAIN:  # every shipped game's: no formatting to do
        return str(code)
    return str(canonical.format(series=code.series, rarity=code.rarity, number=code.number))


def no_card_with_code(
    code: CollectorCode, game: str | None = None, loaded: bool = True
) -> NotFoundError:
    """The refusal of a code no card has: of any game, or of the one `game` its prefix named
    (wh:1 C 41). A game none of whose cards are in the database (`loaded` False) is said so,
    with how to load its catalogue: the code may well be one of its cards, only not here."""
    if game is None:
        return NotFoundError(f"no card has the code {code}")
    known = GAMES.get(game)
    title = known.title if known else game
    said = f"no {title} card has the code {format_code(code, game)}"
    if loaded:
        return NotFoundError(said)
    load = (
        f"cardbase catalog import {game}"
        if known and known.catalogue
        else "cardbase catalog import FILE (a CSV in the cards.csv shape)"
    )
    return NotFoundError(
        f"{said}: {title}'s catalogue is not loaded",
        Remedy(f"Load it with '{load}'", f"Load it on the command line: {load}"),
    )


def _separators(text: str) -> list[str]:
    """The two separators a code was typed with (`_SEPARATOR_NAMES`' keys)."""
    found = _BETWEEN.fullmatch(text)
    if not found:
        return []
    return [next((ch for ch in "-/" if ch in between), " " if between else "")
            for between in found.groups()]  # fmt: skip
