"""Which column of a collection sheet means what: every header known, with the app that writes it.

Collectors bring their cards from other apps' exports, so each role below lists the headers
that mean it and the apps they come from (found in those apps' real exports; the fixtures in
tests/data/apps say where). Matching folds case, spaces and punctuation, and falls back to a
close fuzzy match for typos ("Quantiy"). Adding a synonym is adding a line here; reading a
header row with these is `cardbase.sheets.header`.

Headers that mean nothing to cardbase (prices, dates, ids, rarity) are listed too, so that
they are reported as ignored rather than guessed at: Deckbox's "Printing Id" is an id, not a
near miss of "Printing".
"""

from __future__ import annotations

from typing import Any

from cardbase.fields import VALUE_FIELDS

# role -> header -> the apps that write it ("people" for what people type in their own sheets).
HEADERS: dict[str, dict[str, str]] = {
    # A card's game, where a file holds several games' cards (their codes repeat).
    "game": {"game": "cardbase"},
    "code": {
        "code": "cardbase", "collector code": "people", "collector number": "Moxfield, ManaBox, "
        "Archidekt, TopDecked, MTGGoldfish, Echo MTG", "collector no": "people",
        "collector #": "MTGO", "collector's number": "Delver Lens", "collector_number": "deckstats",
        "collectorNumber": "Cardmarket", "card number": "Deckbox, Dragon Shield, TCGplayer",
        "card #": "people", "card no": "people", "number": "cardbase, Delver Lens", "no.": "people",
        "#": "people", "set number": "people", "cn": "people",
    },
    "name": {
        "name": "Moxfield, Deckbox, ManaBox, Archidekt, TCGplayer, Delver Lens, Echo MTG, "
        "TopDecked, cardbase", "card name": "Dragon Shield, MTGO", "card": "MTGGoldfish",
        "card_name": "deckstats", "english name": "Cardmarket", "simple name": "TCGplayer",
        "title": "people", "card title": "people",
        # The players of the client's other languages keep sheets in their own words.
        "kartenname": "people (German)", "karte": "people (German)", "nom": "people (French)",
        "nom de la carte": "people (French)", "carte": "people (French)",
        "nombre de la carta": "people (Spanish)", "carta": "people (Spanish)",
        "nome": "people (Portuguese)", "nome da carta": "people (Portuguese)",
    },
    "nonfoil": {
        "count": "Moxfield, Deckbox", "quantity": "ManaBox, Dragon Shield, Archidekt, TCGplayer, "
        "MTGGoldfish, MTGO, Delver Lens, TopDecked", "amount": "deckstats, Cardmarket",
        "reg qty": "Echo MTG, Delver Lens", "qty": "people", "regular": "people",
        "normal": "people", "non-foil": "people", "nonfoil": "cardbase", "non foil": "people",
        "owned": "people", "have": "people", "copies": "people", "normal qty": "people",
        "regular qty": "people", "nonfoil qty": "people", "non-foil qty": "people",
        "stock": "shops", "anzahl": "people (German)", "menge": "people (German)",
        "stück": "people (German)", "quantité": "people (French)", "quantite": "people (French)",
        "cantidad": "people (Spanish)", "quantidade": "people (Portuguese)",
    },
    "foil": {
        "foil qty": "Echo MTG, Delver Lens", "foil count": "people", "foils": "people",
        "foil quantity": "people", "holo qty": "people",
        # Counts in cardbase's export, finish words in Moxfield's: the values decide.
        "foil": "cardbase (a count); Moxfield, Deckbox, ManaBox, MTGGoldfish, Delver Lens (a "
        "finish)", "holo": "people",
    },
    "finish": {
        "finish": "Archidekt, TopDecked", "printing": "Dragon Shield, TCGplayer",
        "premium": "MTGO", "is_foil": "deckstats", "foil?": "Cardmarket", "is foil": "people",
        "foiling": "people", "treatment": "people",
    },
    "series": {
        "series": "cardbase", "set": "MTGO, Echo MTG, Delver Lens", "set code": "Dragon Shield, "
        "ManaBox, TCGplayer, Delver Lens, Echo MTG", "setcode": "TopDecked",
        "set_code": "deckstats", "edition code": "Deckbox, Archidekt", "set id": "MTGGoldfish",
        "exp.": "Cardmarket", "expansion code": "people", "edition": "Moxfield (a code), "
        "Deckbox (a name)", "set name": "Dragon Shield, ManaBox, TCGplayer, MTGGoldfish",
        "edition name": "Archidekt", "setname": "TopDecked", "exp. name": "Cardmarket",
        "expansion": "people",
    },
    "condition": {"condition": "most apps", "cond": "people", "card condition": "people",
                  "zustand": "people (German)", "état": "people (French)",
                  "etat": "people (French)", "estado": "people (Spanish, Portuguese)"},
    "language": {"language": "most apps", "lang": "TopDecked", "card language": "people",
                 "sprache": "people (German)", "langue": "people (French)",
                 "idioma": "people (Spanish, Portuguese)"},
    "location": {
        "location": "people", "folder name": "Dragon Shield", "binder name": "ManaBox",
        "list name": "Dragon Shield (Sorted)", "folder": "people", "binder": "people",
        "deck": "people", "storage": "people", "stored in": "people",
    },
    "tags": {"tags": "Moxfield, Deckbox, Archidekt, TopDecked", "tag": "people",
             "labels": "people", "label": "people"},
    "note": {"note": "Echo MTG", "notes": "TopDecked", "comment": "deckstats",
             "comments": "Cardmarket"},
    # Copies offered for trade: that many of the row's copies get the trade tag.
    "trade": {"tradelist count": "Moxfield, Deckbox", "trade quantity": "Dragon Shield",
              "trade qty": "people", "for trade": "people", "marked as trade": "Echo MTG"},
    # Cardmarket lists a playset (four copies) as one article with Playset? = X.
    "playset": {"playset?": "Cardmarket"},
    # ManaBox exports its binders, decks and lists (wish lists) together: rows of a list are
    # cards wanted, not owned (`LIST_KINDS`).
    "kind": {"binder type": "ManaBox"},
}  # fmt: skip
# Values of a "kind" column that mark a row as wanted rather than owned.
LIST_KINDS = frozenset({"list", "wishlist"})  # folded: "Wish List" is "wishlist"
# Headers that give way when another column has the same role: a set's name where its code
# is beside it (Deckbox's Edition beside its Edition Code), TCGplayer's Name beside Simple
# Name (which drops "(Retro Frame)" and the like), a Number beside a whole Code.
SECONDARY = frozenset({
    "edition", "set name", "edition name", "setname", "exp. name", "expansion", "set",
    "name", "number",
})  # fmt: skip
# Of those, the headers that name a set by its name, which give way even to a plain "Set":
# scrydex exports "Set" (the code) beside "Set Name", and Echo MTG "Set" (a name) beside
# "Set Code", so a set's code column is the series wherever there is one, and its name is
# the spare, read where the code is blank.
SET_NAMES = frozenset({"set name", "edition name", "setname", "exp. name"})
# Columns that say nothing cardbase keeps: read, listed as ignored, never guessed at.
IGNORED: dict[str, str] = {
    "purchase price": "Moxfield, ManaBox, Archidekt", "my price": "Deckbox", "price": "most apps",
    "price bought": "Dragon Shield", "acquired": "Echo MTG, Delver Lens",
    "acquired price": "Delver Lens, TopDecked", "acquired date": "TopDecked",
    "date acquired": "Echo MTG", "date bought": "Dragon Shield", "date added": "Archidekt",
    "added": "ManaBox, deckstats", "last modified": "Moxfield", "last updated": "Deckbox",
    "price each": "TCGplayer", "price sale": "TopDecked", "purchase price currency": "ManaBox",
    "low": "Dragon Shield", "mid": "Dragon Shield", "market": "Dragon Shield",
    "avg": "Dragon Shield", "trend": "Dragon Shield", "cost": "Deckbox", "mana cost": "people",
    "rarity": "most apps", "type": "Deckbox", "color": "people", "image url": "Deckbox",
    "printing id": "Deckbox", "printing note": "Deckbox", "scryfall id": "ManaBox, Archidekt",
    "multiverse id": "Archidekt", "tcgplayer id": "Deckbox", "tcgplayer product id": "Delver Lens",
    "tcgplayer productid": "Delver Lens", "product id": "TCGplayer", "sku": "TCGplayer",
    "external id": "TCGplayer", "manabox id": "ManaBox", "id": "TopDecked", "id #": "MTGO",
    "idproduct": "Cardmarket", "idarticle": "Cardmarket", "mvid": "Decked Builder",
    "echo_inventory_id": "Echo MTG", "tcgid": "Echo MTG", "echoid": "Echo MTG",
    "set_id": "deckstats", "misprint": "ManaBox, Deckbox",
    "altered": "ManaBox", "altered art": "Deckbox", "alter": "Moxfield", "proxy": "Moxfield",
    "signed": "Deckbox", "artist proof": "Deckbox", "promo": "Deckbox", "textless": "Deckbox",
    "signing": "TopDecked", "alteration": "TopDecked", "is_pinned": "deckstats",
    "is_signed": "deckstats", "signed?": "Cardmarket", "altered?": "Cardmarket",
    "onsale": "Cardmarket", "local name": "Cardmarket", "sideboarded": "MTGO",
    "annotation": "MTGO", "variation": "MTGGoldfish",
    "total qty": "Decked Builder (the sum of the other two)", "decks count built": "Deckbox",
    "decks count all": "Deckbox", "hero": "cardbase", "sphere": "cardbase",
    "traits": "cardbase", "attack": "cardbase", "defense": "cardbase", "gems": "cardbase",
    "text": "cardbase", "lore": "cardbase",
}  # fmt: skip
# A game's own fields (`cardbase.fields.VALUE_FIELDS`), by header and key: exports write
# them, and a collection takes its cards' values from the catalogue, so they are read as
# the card's and left as the other card columns are.
IGNORED.update({word: "cardbase (a game's own field)" for field in VALUE_FIELDS
                for word in (field.export or field.name, field.name)})  # fmt: skip
# Words in a header that no role claims which say it counts copies, or says which finish,
# condition or language they are: such a column is an error, never silently left out.
SUSPECT_WORDS: dict[str, tuple[str, ...]] = {
    "count": ("qty", "qyt", "quant", "count", "copies", "amount", "owned", "anzahl", "menge"),
    "foil count or finish": ("foil", "holo", "finish", "premium"),
    "condition": ("cond",),
    "language": ("lang",),
}

# Values of a finish column, folded to lower case.
FINISH_VALUES: dict[str, str] = {
    "foil": "foil", "yes": "foil", "true": "foil", "x": "foil", "1": "foil", "holo": "foil",
    "y": "foil", "f": "foil", "foiled": "foil", "premium": "foil", "holofoil": "foil",
    "normal": "nonfoil", "no": "nonfoil", "false": "nonfoil", "0": "nonfoil", "": "nonfoil",
    "n": "nonfoil", "nonfoil": "nonfoil", "non-foil": "nonfoil", "regular": "nonfoil",
    "non foil": "nonfoil", "not foil": "nonfoil",
}  # fmt: skip
# Special foils that apps write in a finish column: foil, with the app's word kept as a tag
# (the value's tag here), so nothing is lost. Any other value with the word "foil" in it
# ("Step and Compleat Foil") is a special foil too, tagged with its own words.
SPECIAL_FOILS: dict[str, str] = {
    "etched": "etched", "etched foil": "etched", "foil etched": "etched",
    "foil_etched": "etched", "etchedfoil": "etched", "rainbow foil": "rainbow foil",
    "rainbow": "rainbow foil", "double rainbow foil": "double rainbow foil",
    "galaxy foil": "galaxy foil", "surge foil": "surge foil", "textured foil": "textured foil",
    "gilded foil": "gilded foil", "halo foil": "halo foil", "confetti foil": "confetti foil",
    "cold foil": "cold foil", "oil slick": "oil slick", "neon ink": "neon ink",
    "reverse holo": "reverse holo", "reverse holofoil": "reverse holo",
}  # fmt: skip
# A finish column's value that only an app would write there, told apart from a count's.
FINISH_WORDS = frozenset(FINISH_VALUES) - {"1", "0", ""} | frozenset(SPECIAL_FOILS)


def fold(text: Any) -> str:
    """A header folded for comparison: lower case, only letters, digits and # ? _ (deckstats'
    set_id is its own id, not MTGGoldfish's Set ID)."""
    return "".join(ch for ch in str(text).casefold() if ch.isalnum() or ch in "#?_")


# folded header -> (role, the header as listed); roles first, so a role's word is never
# shadowed by an ignored one.
KNOWN: dict[str, tuple[str, str]] = {
    **{fold(word): ("", word) for word in IGNORED},
    **{fold(word): (role, word) for role, words in HEADERS.items() for word in words},
}
SECONDARY_FOLDED = frozenset(fold(word) for word in SECONDARY)
# folded header -> how readily it gives way to another column of its role: 0 never, 1 to a
# header of rank 0, 2 to any other (`cardbase.sheets.header.map_header`).
RANKS: dict[str, int] = {
    **{fold(word): 1 for word in SECONDARY},
    **{fold(word): 2 for word in SET_NAMES},
}
