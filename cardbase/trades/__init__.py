"""Trade lists, as the game client's Trade Lobby had them: what a collector offers, what they
want, and the trades they can do with another collector, from that collector's list file or
from their collection in the same database.

Foil and non-foil copies are listed apart, since collectors value them apart.

- `items`: trade items, and which copies may be offered (`Offer`);
- `lists`: one collector's haves and wants;
- `files`: lists written and read as spreadsheets;
- `matching`: the trades two lists allow, and a balanced proposal;
- `lobby`: trades between collectors of one database.
"""

from cardbase.trades.files import read_trade_lists, write_trade_lists
from cardbase.trades.items import ANY_COPY, RARITY_VALUE, Offer, TheirList, TradeItem
from cardbase.trades.lists import Rules, check_offer, deck_usage, haves, trade_lists, wants
from cardbase.trades.lobby import Lobby, LobbyEntry, lobby, match_with
from cardbase.trades.matching import TradeMatch, match_trades

__all__ = [
    "ANY_COPY",
    "RARITY_VALUE",
    "Lobby",
    "LobbyEntry",
    "Offer",
    "Rules",
    "TheirList",
    "TradeItem",
    "TradeMatch",
    "check_offer",
    "deck_usage",
    "haves",
    "lobby",
    "match_trades",
    "match_with",
    "read_trade_lists",
    "trade_lists",
    "wants",
    "write_trade_lists",
]
