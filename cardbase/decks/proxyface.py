"""One proxy card's face, drawn from the card's data: a band of its sphere's colour with its
name and cost, its type and traits, a PROXY mark where the art would be, its game text, its
attack and defense, its gems and its collector code.

Sizes are in millimetres from the card's lower left corner (`cardbase.decks.proxies` places
the card); type sizes shrink, never below a legible minimum, until a line fits its room.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from cardbase.catalog.cards import Card
from cardbase.decks.proxylayout import CARD_MM, MM
from cardbase.fieldtypes import GEM_HEX, HERO_COLOUR, SPHERE_COLOURS

REGULAR, BOLD = "Vera", "VeraBd"  # reportlab's own TrueType fonts, embedded as subsets
FONT_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf"}
INSET = 2.5  # the frame inside the card's edge
BAND = 8.0  # the name band's height
TEXT_TOP = 45.0  # the game text box: from here down to TEXT_BOTTOM
TEXT_BOTTOM = 13.0
TEXT_SIZES = (7.0, 6.5, 6.0, 5.5, 5.0, 4.5)  # points, tried in turn until the text fits
PROXY_RED = "#c62828"


def register_fonts() -> None:
    """The fonts, registered once a process (reportlab keeps them)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in FONT_FILES.items():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, file))


def printable(text: str, font: str = REGULAR) -> str:
    """`text` with each character the font lacks replaced by its plain form (é stays; a
    character with none becomes '?'), so that no card prints an empty box."""
    from reportlab.pdfbase import pdfmetrics

    known = pdfmetrics.getFont(font).face.charToGlyph
    out = []
    for char in text:
        if ord(char) in known or char in "\n":
            out.append(char)
            continue
        plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
        out.append(plain or "?")
    return "".join(out)


def draw_card(canvas: Any, card: Card, x: float, y: float) -> bool:
    """The card's face with its lower left corner at (x, y) points; False when its game text
    did not fit whole even in the smallest size (the sheet says which cards)."""
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(MM, MM)  # from here on, millimetres
    width, height = CARD_MM
    canvas.setLineWidth(0.15)
    canvas.setStrokeColor("#666666")
    canvas.rect(0, 0, width, height)  # the card's edge, where the cut falls
    colour = _sphere_colour(card)
    canvas.setStrokeColor(colour)
    canvas.setLineWidth(0.6)
    canvas.roundRect(INSET, INSET, width - 2 * INSET, height - 2 * INSET, 2.0)
    _draw_band(canvas, card, colour)
    _draw_type_line(canvas, card)
    _draw_proxy_mark(canvas)
    whole = _draw_text(canvas, card)
    _draw_footer(canvas, card)
    canvas.restoreState()
    return whole


def _sphere_colour(card: Card) -> str:
    if card.hero or not card.sphere:
        return HERO_COLOUR
    return SPHERE_COLOURS.get(card.sphere, "#555555")


def _fitted(text: str, font: str, size: float, room: float, least: float = 5.0) -> float:
    """The largest size up to `size` (points) at which `text` fits `room` mm."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    while size > least and stringWidth(text, font, size) / MM > room:
        size -= 0.5
    return size


def _write(canvas: Any, x: float, y: float, text: str, font: str, size: float, **how: Any) -> None:
    """Text at (x, y) mm in `size` points: the canvas is in millimetres, the font is not."""
    canvas.setFont(font, size / MM)
    if how.get("align") == "right":
        canvas.drawRightString(x, y, text)
    elif how.get("align") == "centre":
        canvas.drawCentredString(x, y, text)
    else:
        canvas.drawString(x, y, text)


def _draw_band(canvas: Any, card: Card, colour: str) -> None:
    width, height = CARD_MM
    top = height - INSET
    canvas.setFillColor(colour)
    canvas.rect(INSET, top - BAND, width - 2 * INSET, BAND, stroke=0, fill=1)
    name = printable(card.name, BOLD)
    cost_room = 8.0 if card.cost is not None else 0.0
    size = _fitted(name, BOLD, 9.0, width - 2 * INSET - 3 - cost_room)
    canvas.setFillColor("#ffffff")
    _write(canvas, INSET + 1.5, top - BAND + 2.6, name, BOLD, size)
    if card.cost is not None:
        centre_x, centre_y = width - INSET - 4.2, top - BAND / 2
        canvas.circle(centre_x, centre_y, 3.0, stroke=0, fill=1)
        canvas.setFillColor("#111111")
        _write(canvas, centre_x, centre_y - 1.2, str(card.cost), BOLD, 9.0, align="centre")


def _draw_type_line(canvas: Any, card: Card) -> None:
    width, height = CARD_MM
    kind = card.type + (" \u00b7 " + ", ".join(card.traits) if card.traits else "")
    sphere = card.sphere_shown
    kind, sphere = printable(kind, BOLD), printable(sphere)
    y = height - INSET - BAND - 4.0
    canvas.setFillColor("#111111")
    room = width - 2 * INSET - 3 - (12.0 if sphere else 0.0)
    _write(canvas, INSET + 1.5, y, kind, BOLD, _fitted(kind, BOLD, 6.5, room, 4.0))
    if sphere:
        _write(canvas, width - INSET - 1.5, y, sphere, REGULAR, 6.5, align="right")


def _draw_proxy_mark(canvas: Any) -> None:
    """PROXY in large red letters where the art would be: no one takes it for a card."""
    width, _height = CARD_MM
    bottom, top = TEXT_TOP + 2.0, CARD_MM[1] - INSET - BAND - 6.5
    canvas.setStrokeColor(PROXY_RED)
    canvas.setLineWidth(0.4)
    canvas.rect(INSET + 1.5, bottom, width - 2 * INSET - 3, top - bottom)
    canvas.setFillColor(PROXY_RED)
    _write(canvas, width / 2, (bottom + top) / 2 - 3.5, "PROXY", BOLD, 28.0, align="centre")


def _draw_text(canvas: Any, card: Card) -> bool:
    """The game text, wrapped at word breaks and at its own line breaks, in the largest size
    that fits the box."""
    from reportlab.lib.utils import simpleSplit

    text = printable(card.text.strip())
    if not text:
        return True
    width, _height = CARD_MM
    room = width - 2 * INSET - 4
    for size in TEXT_SIZES:
        lines = [
            part
            for para in text.split("\n")
            for part in simpleSplit(para, REGULAR, size, room * MM)
        ]
        leading = size * 1.2 / MM
        if len(lines) * leading <= TEXT_TOP - TEXT_BOTTOM:
            break
    canvas.setFillColor("#111111")
    y = TEXT_TOP - size / MM
    for line in lines:
        if y < TEXT_BOTTOM:
            return False
        _write(canvas, INSET + 2, y, line, REGULAR, size)
        y -= leading
    return True


def _draw_footer(canvas: Any, card: Card) -> None:
    """Attack and defense at the left, the gems in the middle, the code at the right."""
    width, _height = CARD_MM
    base = INSET + 3.0
    canvas.setFillColor("#111111")
    if card.attack is not None or card.defense is not None:
        stats = (
            f"ATK {card.attack if card.attack is not None else '-'}  "
            f"DEF {card.defense if card.defense is not None else '-'}"
        )
        _write(canvas, INSET + 1.5, base, stats, BOLD, 7.0)
    gems = [gem for gem in card.gems if gem in GEM_HEX]
    start = width / 2 + 3.0 - (len(gems) - 1) * 2.5  # right of centre: clear of ATK/DEF
    for index, gem in enumerate(gems):
        centre = start + index * 5.0
        canvas.setFillColor(GEM_HEX[gem])
        canvas.circle(centre, base + 1.2, 2.0, stroke=0, fill=1)
        canvas.setFillColor("#111111" if gem == "Y" else "#ffffff")
        _write(canvas, centre, base + 0.25, gem, BOLD, 6.0, align="centre")
    canvas.setFillColor("#111111")
    _write(canvas, width - INSET - 1.5, base, str(card.code), REGULAR, 6.5, align="right")
    _write(canvas, width - INSET - 1.5, base + 4.0, "proxy", REGULAR, 5.0, align="right")
