"""Drawing a card from its data: the colours of its sphere and gems, game text with its
power-up costs shown as gems, and the cost curve as a chart.

Everything is computed here and escaped by the templates; only `gem_text` returns markup,
and it escapes the card's text before adding its own spans.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from cardbase.catalog.cards import Card
from cardbase.codes import format_code
from cardbase.fieldtypes import GEM_COLOURS, GEM_HEX, HERO_COLOUR, SPHERE_COLOURS
from cardbase.games import DEFAULT_GAME, game_of_prefix, game_prefix

# A power-up's gems in game text: [Y], [RR], [GB].
GEM_COST = re.compile(r"\[([RGBY]{1,4})\]")


def sphere_colour(card: Card) -> str:
    if card.hero or not card.sphere:
        return HERO_COLOUR
    return SPHERE_COLOURS.get(card.sphere, "#666666")


def gem_colour(letter: str) -> str:
    return GEM_HEX.get(letter, "#999999")


def gem_name(letter: str) -> str:
    return GEM_COLOURS.get(letter, letter)


def gem_text(text: str) -> Markup:
    """Game text, escaped, with `[RR]` power-up costs drawn as gems (and named for screen
    readers)."""

    def gems(match: re.Match[str]) -> str:
        letters = match.group(1)
        label = " ".join(gem_name(letter) for letter in letters)
        dots = "".join(
            f'<span class="gem gem-{letter}" aria-hidden="true"></span>' for letter in letters
        )
        return f'<span class="gem-cost" role="img" aria-label="{label}">{dots}</span>'

    return Markup(GEM_COST.sub(gems, str(escape(text))))


def gem_dots(letters: str) -> Markup:
    """A card's gems as coloured dots, which a screen reader skips, and their colours in
    words for it instead ("gems: blue, green, green")."""
    if not letters:
        return Markup("")
    dots = "".join(f'<span class="gem gem-{letter}" aria-hidden="true"></span>'
                   for letter in letters if letter in GEM_HEX)  # fmt: skip
    words = ", ".join(gem_name(letter) for letter in letters)
    return Markup(f'{dots}<span class="sr">gems: {escape(words)}</span>')


def card_url(card: Card, game: str = DEFAULT_GAME) -> str:
    """A card's page: its code without spaces (`/card/1C14`), which the code parser reads.
    A bare code on the web is `game`'s card (the server's game, `web_game`), so a card of
    any other game has its game's prefix (`/card/wh:1C41`; `/card/fr:1C41` when the server
    chose Wildhearts): every link names one card, whichever games print the code."""
    code = card.code
    shown = getattr(card, "game", DEFAULT_GAME)
    prefix = "" if shown == game else f"{game_prefix(shown)}:"
    return f"/card/{prefix}{code.series}{code.rarity}{code.number}"


@pass_context
def card_url_here(context: Context, card: Card) -> str:
    """`card_url` as templates call it: with the game of the server that renders them
    (the default game's for a fragment rendered without its request)."""
    request = context.get("request")
    return card_url(card, web_game(request.app.state.site.game if request else None))


@pass_context
def code_here(context: Context, card: Card) -> str:
    """A card's code as the server's tables show it: bare for a card of the server's game
    (`web_game`), with its game's prefix for another's (``wh:1 C 41``), as `card_url`."""
    request = context.get("request")
    game = web_game(request.app.state.site.game if request else None)
    shown = format_code(card.code, card.game)
    return shown if card.game == game else f"{game_prefix(card.game)}:{shown}"


def web_game(chosen: str | None) -> str:
    """The game a bare code means on the web: the server's (`serve --game`, the config
    file's `game`), else the default game, as tables write codes (`Card.code_shown`). A
    link cannot ask which, so the card page says its game and the other games' card of
    the same code instead."""
    return (game_of_prefix(chosen) if chosen else None) or DEFAULT_GAME  # "wh" is wildhearts


class Bar(NamedTuple):
    label: str
    value: int
    x: float
    y: float
    height: float


class Chart(NamedTuple):
    width: int
    height: int
    bar_width: float
    bars: list[Bar]


def cost_curve(curve: dict[int, int], width: int = 320, height: int = 140) -> Chart:
    """Bars for the creatures at each coin cost, scaled to the tallest, for an SVG chart."""
    plot = height - 36  # room for the counts above and the costs below
    tallest = max(curve.values(), default=0) or 1
    slot = width / max(len(curve), 1)
    bars = [
        Bar(str(cost), count, index * slot + slot * 0.15, 18 + plot - plot * count / tallest,
            plot * count / tallest)
        for index, (cost, count) in enumerate(curve.items())
    ]  # fmt: skip
    return Chart(width, height, slot * 0.7, bars)
