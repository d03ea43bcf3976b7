"""The geometry of a proxy sheet, as data: papers, the card's size, the grid, the cut marks.

All in millimetres from the page's (or the card's) lower left corner, as PDF measures; the
sheet (`cardbase.decks.proxies`), the card face (`cardbase.decks.proxyface`) and the tests
that render the pages read the same numbers.
"""

from __future__ import annotations

from cardbase.errors import CardbaseError, Remedy

MM = 72 / 25.4  # PDF points in a millimetre
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height in mm
CARD_MM = (63.0, 88.0)  # the game's cards, as poker cards are
GRID = (3, 3)  # columns, rows: nine cards a page
PER_PAGE = GRID[0] * GRID[1]
CUT_GAP_MM = 1.0  # between a card's edge and its cut mark's start, in the margin
CUT_MARK_MM = 5.0  # the mark's length (Letter leaves 7.7 mm above and below the grid)


def paper_size(paper: str) -> tuple[float, float]:
    """A paper's size in mm, by name in any case."""
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise CardbaseError(
            f"unknown paper '{paper}'",
            Remedy(f"use --paper {' or --paper '.join(PAPERS)}", f"choose {' or '.join(PAPERS)}"),
        ) from None


def grid_origin(paper: str) -> tuple[float, float]:
    """The grid's lower left corner on the page in mm, from the page's lower left: centred."""
    width, height = paper_size(paper)
    return (width - GRID[0] * CARD_MM[0]) / 2, (height - GRID[1] * CARD_MM[1]) / 2


def slot_origin(paper: str, slot: int) -> tuple[float, float]:
    """Where card `slot` (0 to 8, left to right, top row first) has its lower left corner."""
    left, bottom = grid_origin(paper)
    column, row = slot % GRID[0], slot // GRID[0]
    return left + column * CARD_MM[0], bottom + (GRID[1] - 1 - row) * CARD_MM[1]
