"""Trades between collectors of one database, as the game's Trade Lobby had them between
players: with one named collector, and with everyone at once.

Both sides' lists are made by the same rules (`lists.Rules`) from each collector's own rows,
so a trade looks the same from either side: what one gets the other gives.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from cardbase.collection.collectors import all_collectors, current_collector, find_collector
from cardbase.db.engine import Connection
from cardbase.errors import CardbaseError, shorten
from cardbase.progress import Progress, quiet, step
from cardbase.trades.lists import DEFAULT_RULES, Rules, trade_lists
from cardbase.trades.matching import TradeMatch, match_trades


def match_with(
    conn: Connection, name: str, rules: Rules = DEFAULT_RULES, progress: Progress = quiet
) -> tuple[str, TradeMatch]:
    """The trades between the connection's collector and the one named: their name as
    stored, and the match seen from this side; `progress` hears each list made and the
    matching."""
    me, other = current_collector(conn), find_collector(conn, name)
    if other.id == me.id:
        raise CardbaseError(
            f"'{shorten(name, 40)}' is you ({me.name}): a trade needs another collector",
            "'cardbase trade lobby' lists the collectors you can trade with",
        )
    mine = step("Making my lists", progress, lambda: trade_lists(conn, rules, me.id))
    theirs = step("Making their lists", progress, lambda: trade_lists(conn, rules, other.id))
    return other.name, match_trades(theirs, mine.offered, mine.wanted, progress)


class LobbyEntry(NamedTuple):
    """One other collector: how many cards each side can trade, and the balanced proposal."""

    collector: str
    they_offer_i_want: int
    they_want_i_can_spare: int
    get_cards: int
    give_cards: int
    get_value: int
    give_value: int

    @staticmethod
    def of(name: str, match: TradeMatch) -> LobbyEntry:
        summary = match.summary()
        return LobbyEntry(
            name,
            sum(item.copies for item in match.they_offer_i_want),
            sum(item.copies for item in match.they_want_i_spare),
            summary["get_cards"],
            summary["give_cards"],
            summary["get_value"],
            summary["give_value"],
        )

    def order(self) -> tuple[Any, ...]:
        """Most to trade first: the biggest proposal, then the most either side could swap."""
        proposal = self.get_cards + self.give_cards
        possible = self.they_offer_i_want + self.they_want_i_can_spare
        return (-proposal, -possible, self.collector.casefold())

    def to_dict(self) -> dict[str, Any]:
        return self._asdict()


class Lobby(NamedTuple):
    collector: str  # whose lobby
    others: int  # how many other collectors the database has
    entries: list[LobbyEntry]  # those with something to trade, most first


def lobby(conn: Connection, rules: Rules = DEFAULT_RULES) -> Lobby:
    """Every other collector with something to trade with the connection's collector."""
    me = current_collector(conn)
    others = [c for c in all_collectors(conn) if c.id != me.id]
    if not others:
        return Lobby(me.name, 0, [])
    mine = trade_lists(conn, rules, me.id)
    entries = []
    for other in others:
        match = match_trades(trade_lists(conn, rules, other.id), mine.offered, mine.wanted)
        if match.they_offer_i_want or match.they_want_i_spare:
            entries.append(LobbyEntry.of(other.name, match))
    return Lobby(me.name, len(others), sorted(entries, key=LobbyEntry.order))
