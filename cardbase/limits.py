"""The limits a real collection never reaches, named in one place.

Everything cardbase reads comes from people and other programs: a count typed on the command
line, a quantity in a spreadsheet cell, a deck file, a query. Each is checked against these
limits before it can cost unbounded time or memory, or reach SQLite as a number it cannot
hold, and the docs page docs/limits.md lists them. A value past a limit is bad input: one line,
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
MAX_CSV_FILE = 64_000_000  # bytes of a CSV or text sheet (500,000 rows are about 40 MB)
MAX_CATALOGUE_FILE = 256_000_000  # bytes of a catalogue CSV (a million cards are about 140 MB)
MAX_WORKBOOK_FILE = 64_000_000  # bytes of an .xlsx, .xlsm, .xls or .ods file
MAX_WORKBOOK_PARTS = 1_000  # files inside an .xlsx or .ods (it is a zip file)
MAX_WORKBOOK_PART = 128_000_000  # bytes of one of them, unpacked (a 250,000-row sheet at most)
MAX_WORKBOOK_UNPACKED = 256_000_000  # bytes of all of them, unpacked
MAX_ZIP_RATIO = 100  # unpacked over packed size of a part over 1 MB (Apache POI's bound too)
MAX_SHEETS = 100  # sheets of a workbook
MAX_COLUMNS = 256  # columns a sheet may use (IV, the width of Excel before 2007)
MAX_SHEET_ROWS = MAX_ROWS + 1_000  # rows a sheet may use: MAX_ROWS cards, titles and a header
MAX_SHEET_CELLS = 5_000_000  # rows x columns of a sheet's used area (the reader holds it whole)
MAX_SHEET_TEXT = 128_000_000  # bytes of text in a sheet's cells, a shared text once per use
MAX_PASTED = 1_000_000  # bytes `add -` reads from standard input
MAX_ITEM_LINE = 1_000  # characters of one pasted item

# -- Queries ------------------------------------------------------------------------------
# Far past any query a person types or a script builds, and inside what SQLite can run: the
# nesting is what SQLite's parser runs out of first (its stack of 100 overflows near 19 levels
# of -), and a query at every limit at once still runs (tests/test_query_limits.py).
MAX_QUERY_CHARS = 20_000  # characters in one query, or in one filter option's value
MAX_TERMS = 500  # terms in one query
MAX_NESTING = 12  # ( ) and - inside one another
MAX_QUERY_NUMBER = 999_999_999  # a number in a query, either sign: cost>=2, atk:1..3
MAX_RESULTS = 1_000_000_000  # --limit N: a larger N means every match, as this one does
