"""The limits a real collection never reaches, named in one place.

Everything cardbase reads comes from people and other programs: a count typed on the command
line, a quantity in a spreadsheet cell, a deck file, a query. Each is checked against these
limits before it can cost unbounded time or memory, or reach SQLite as a number it cannot
hold, and the README's "Limits" lists them. A value past a limit is bad input: one line,
exit 2, nothing changed.
"""

from __future__ import annotations

# -- Cards and counts ---------------------------------------------------------------------
MAX_SERIES = 999  # a collector code's series
MAX_NUMBER = 99_999  # a collector code's card number
MAX_COUNT = 9_999  # copies in one item, sheet row or deck line

# -- Files --------------------------------------------------------------------------------
MAX_CELL = 32_767  # characters in a spreadsheet cell: Excel's own limit
MAX_ROWS = 500_000  # rows of a collection sheet
MAX_DECK_FILE = 1_000_000  # bytes of a deck list

# -- Queries ------------------------------------------------------------------------------
# Far past any query a person types or a script builds, and inside what SQLite can run: the
# nesting is what SQLite's parser runs out of first (its stack of 100 overflows near 19 levels
# of -), and a query at every limit at once still runs (tests/test_query_limits.py).
MAX_QUERY_CHARS = 20_000  # characters in one query, or in one filter option's value
MAX_TERMS = 500  # terms in one query
MAX_NESTING = 12  # ( ) and - inside one another
MAX_QUERY_NUMBER = 999_999_999  # a number in a query, either sign: cost>=2, atk:1..3
MAX_RESULTS = 1_000_000_000  # --limit N: a larger N means every match, as this one does
