"""The peers' own scripts: what cardbase is measured against, as small as each job allows.

Each runs as `python -c SCRIPT ARGS` in a child process, so it pays its own start-up as
cardbase does.
"""

BARE_SEARCH = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
rows = conn.execute(
    "SELECT card.* FROM card JOIN card_fts ON card_fts.rowid = card.id "
    "WHERE card_fts MATCH ? ORDER BY card_fts.rank", (sys.argv[2],)).fetchall()
sys.stdout.write("\\n".join("\\t".join(map(str, row)) for row in rows))
"""

PANDAS_READ = "import pandas, sys; pandas.read_excel(sys.argv[1], engine='openpyxl', header=None)"
OPENPYXL_READ = (
    "import openpyxl, sys\n"
    "book = openpyxl.load_workbook(sys.argv[1], read_only=True)\n"
    "for sheet in book.worksheets:\n"
    "    for row in sheet.iter_rows(values_only=True):\n"
    "        pass\n"
)

EXPORT_FLOOR = """
import sqlite3, sys
from openpyxl import Workbook
conn = sqlite3.connect(sys.argv[1])
rows = conn.execute(
    "SELECT c.series || ' ' || c.rarity || ' ' || c.number, c.series, c.rarity, c.number, c.name,"
    " c.type, coalesce(c.sphere, ''), CASE WHEN c.hero THEN 'yes' ELSE '' END, c.traits, c.cost,"
    " c.attack, c.defense, c.gems, coalesce(o.nonfoil, 0), coalesce(o.foil, 0)"
    " FROM card c LEFT JOIN ownership o ON o.card_id = c.id ORDER BY c.game, c.series, c.number")
book = Workbook(write_only=True)
sheet = book.create_sheet("Cards")
sheet.append(["Code", "Series", "Rarity", "Number", "Name", "Type", "Sphere", "Hero", "Traits",
              "Cost", "Attack", "Defense", "Gems", "Nonfoil", "Foil"])
for row in rows:
    sheet.append(row)
book.save(sys.argv[2])
"""
