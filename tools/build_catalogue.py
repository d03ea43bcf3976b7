"""Rebuild cards.csv, the bundled catalogue, from a Free Realms client folder.

The catalogue is the game's own card database (`cardbase.client`): every printed card's
facts and its name in each client language. Game text and lore stay out: they are the
game's prose, which cardbase reads from the user's own client (`catalog import-client`).
The output is deterministic, so a rebuild from the same client is byte for byte the file in
the repository (tests/test_real_catalogue.py checks it).

Run from the repository root:  python tools/build_catalogue.py CLIENT_DIR > cards.csv
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

from cardbase.client.archetypes import ClientError
from cardbase.client.cards import read_client_cards
from cardbase.client.folder import find_client
from cardbase.client.texts import card_texts
from cardbase.fields import NAME_LANGUAGES, name_column
from cardbase.fieldtypes import TRAIT_SEPARATOR
from cardbase.games import DEFAULT_GAME

COLUMNS = ("code", "name", "type", "hero", "sphere", "traits", "cost", "attack", "defense",
           "gems", "artist", "game", *(name_column(tag) for tag in NAME_LANGUAGES))  # fmt: skip


def catalogue_csv(client: Path) -> str:
    """The text of cards.csv for the client folder `client`."""
    folder = find_client(client)
    catalogue = read_client_cards(folder)
    texts = card_texts(folder, catalogue.cards)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for card in catalogue.cards:
        names = [
            texts[tag][card.archetype].name if card.archetype in texts.get(tag, {}) else ""
            for tag in NAME_LANGUAGES
        ]
        writer.writerow([
            card.code, card.name, card.type, "yes" if card.hero else "", card.sphere or "",
            TRAIT_SEPARATOR.join(card.traits), _number(card.cost), _number(card.attack),
            _number(card.defense), card.gems, card.artist, DEFAULT_GAME, *names,
        ])  # fmt: skip
    return out.getvalue()


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("client", type=Path, help="the client folder, or its tcg folder")
    args = parser.parse_args()
    try:
        text = catalogue_csv(args.client)
    except ClientError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
