"""Reading the Free Realms game client's own files: its card database and its locale files.

The client's `tcg` folder holds every printed card (the archetype database) and every string
in eight languages (the locale files). cardbase reads them to build the bundled catalogue
(`tools/build_catalogue.py`) and to fill game text and lore from a folder the user has
(`cardbase catalog import-client`), so the repository never carries the game's prose.
"""
