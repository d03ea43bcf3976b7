"""Proxy sheets: a deck's cards, or the copies a collector lacks, printed at true size.

Fan events of the out-of-print game allow proxies. A sheet holds 3 x 3 cards of 63 x 88 mm
abutting in the middle of an A4 or Letter page, with cut marks in the margin on every card
edge, so that one cut along each line frees every card; each copy is its own card, so a
deck of 40 is five pages. The geometry is data (`cardbase.decks.proxylayout`: papers, card
size, grid, cut marks), which the sheet, the card face and the tests read alike.

The PDF is drawn with reportlab, whose own free TrueType fonts (Bitstream Vera) are embedded
as subsets: a copy shop's printer prints what the screen shows.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.cards import Card, name_key
from cardbase.db.engine import Connection
from cardbase.decks.check import owned_by_name
from cardbase.decks.formats import Placed
from cardbase.decks.proxylayout import (
    CARD_MM,
    CUT_GAP_MM,
    CUT_MARK_MM,
    GRID,
    MM,
    PER_PAGE,
    grid_origin,
    paper_size,
    slot_origin,
)
from cardbase.errors import CardbaseError, Remedy
from cardbase.fileio.writing import check_target, output_file

INSTALL_HINT = "pip install 'cardbase[pdf]'"


class ProxySheet(NamedTuple):
    """What `deck proxies` wrote: the cards printed and those left out because owned."""

    path: Path
    deck: str
    paper: str
    copies: int  # cards printed
    pages: int
    owned_left_out: int  # copies left out under --missing: the collector has them
    without_text: list[str]  # cards printed without game text (the catalogue has none)
    text_cut: list[str] = []  # noqa: RUF012 (read-only) cards whose text did not fit whole

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "path": str(self.path)}


def missing_copies(
    conn: Connection, placed: list[Placed], own: int | None = None
) -> tuple[list[Card], int]:
    """The copies of a deck's cards the collector lacks, a card each, and how many copies were
    left out because the collection has them. Owned copies count by name, any printing or
    finish (as `deck check --owned` counts), less those sleeved in other built decks (`own`:
    the saved deck printed, whose copies are its own), taken by the deck's first lines first."""
    from cardbase.collection.sleeved import in_decks_by_name

    keys = [name_key(p.card.name) for p in placed]
    free = Counter(owned_by_name(conn, sorted(set(keys))))
    for key, decks in in_decks_by_name(conn, keys, own).items():
        free[key] = max(0, free[key] - sum(decks.values()))
    lacking: list[Card] = []
    left_out = 0
    for item, key in zip(placed, keys, strict=True):
        have = min(free[key], item.line.copies)
        free[key] -= have
        left_out += have
        lacking += [item.card] * (item.line.copies - have)
    return lacking, left_out


def every_copy(placed: list[Placed]) -> list[Card]:
    return [item.card for item in placed for _ in range(item.line.copies)]


def check_can_draw() -> None:
    """Refuse, in one line with the way to install it, when reportlab is not installed."""
    import importlib.util

    if importlib.util.find_spec("reportlab") is None:
        raise CardbaseError(
            "proxy sheets need the pdf extra (reportlab is not installed)",
            Remedy(INSTALL_HINT, f"install it where cardbase serve runs: {INSTALL_HINT}"),
        )


def write_proxies(
    path: Path,
    deck: str,
    cards: list[Card],
    paper: str,
    *,
    force: bool = False,
    owned_left_out: int = 0,
) -> ProxySheet:
    """Write `cards` as a PDF of pages of nine, replacing `path` only once it is complete."""
    from reportlab.pdfgen.canvas import Canvas

    from cardbase.decks.proxyface import REGULAR, draw_card, register_fonts

    width, height = paper_size(paper)
    check_target(path, force, (".pdf",))
    register_fonts()
    with output_file(path, force=force, suffixes=(".pdf",)) as temporary:
        canvas = Canvas(
            str(temporary), pagesize=(width * MM, height * MM), pageCompression=1,
            initialFontName=REGULAR,
        )  # fmt: skip
        canvas.setTitle(f"{deck}: proxies")
        canvas.setCreator("cardbase")
        cut: set[str] = set()
        for start in range(0, len(cards), PER_PAGE):
            draw_cut_marks(canvas, paper)
            for slot, card in enumerate(cards[start : start + PER_PAGE]):
                x, y = slot_origin(paper, slot)
                if not draw_card(canvas, card, x * MM, y * MM):
                    cut.add(card.label())
            canvas.showPage()
        canvas.save()
    pages = -(-len(cards) // PER_PAGE)
    without = sorted({card.label() for card in cards if not card.text.strip()})
    return ProxySheet(
        path, deck, paper.lower(), len(cards), pages, owned_left_out, without, sorted(cut)
    )


def draw_cut_marks(canvas: Any, paper: str) -> None:
    """A short line in the margin on each card edge of the full grid, at all four sides."""
    left, bottom = grid_origin(paper)
    right, top = left + GRID[0] * CARD_MM[0], bottom + GRID[1] * CARD_MM[1]
    near, far = CUT_GAP_MM, CUT_GAP_MM + CUT_MARK_MM
    canvas.saveState()
    canvas.setLineWidth(0.5)
    canvas.setStrokeGray(0)
    for column in range(GRID[0] + 1):
        x = left + column * CARD_MM[0]
        canvas.line(x * MM, (top + near) * MM, x * MM, (top + far) * MM)
        canvas.line(x * MM, (bottom - near) * MM, x * MM, (bottom - far) * MM)
    for row in range(GRID[1] + 1):
        y = bottom + row * CARD_MM[1]
        canvas.line((left - near) * MM, y * MM, (left - far) * MM, y * MM)
        canvas.line((right + near) * MM, y * MM, (right + far) * MM, y * MM)
    canvas.restoreState()
