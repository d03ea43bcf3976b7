"""Files in and out, safely, knowing nothing of cards: reads bounded in size and time (old
and zipped workbooks checked before a parser sees them), sheets read into plain rows, and
writes that never leave half a file or overwrite one unasked. Everything above it (sheets,
decks, catalogues, trades) reads and writes through here."""
