"""`Library`: one cardbase database, opened for one collector, and everything done with it.

The command line and the web pages are two faces of this object: each parses what a person
typed, calls one of its methods and shows what it returns, so that the two cannot disagree
about a rule. It is also the Python API::

    from cardbase import Library

    library = Library.open("cards.db")          # created with the game's catalogue if new
    library.search("s:chaos cost<=2", limit=5)  # the query language of `cardbase search`
    library.add(["1 C 143 x2"], condition="nm", location="Binder 1")  # Chugawug Cook
    library.undo()

A `Library` holds no connection between calls: each method opens one, and each write is one
transaction, whole or not at all, as every command's is. `reading()` and `writing()` give a
connection for what the methods do not cover, on either engine (`cardbase.db.engine`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.db.location import Location, PostgresUrl

if TYPE_CHECKING:
    from cardbase.catalog.cards import Card
    from cardbase.catalog.gamelist import GameSummary
    from cardbase.collection.changes import Batch, Change, Selector
    from cardbase.collection.plan import Defaults
    from cardbase.collection.stats import CollectionStats
    from cardbase.db.engine import Connection
    from cardbase.decks.check import DeckReport, DeckStats
    from cardbase.decks.diff import CountChange
    from cardbase.decks.formats import Format
    from cardbase.decks.odds import Odds
    from cardbase.decks.operations import BuiltDeck, Hand
    from cardbase.decks.proxies import ProxySheet
    from cardbase.decks.saved import SavedDeck
    from cardbase.decks.sleeves import DeckCopies, Sleeving
    from cardbase.decks.versions import Restored, Version
    from cardbase.events.operations import Paired, Reported, Swap
    from cardbase.events.reports import Pending, PlayerReport, PlayerView
    from cardbase.events.standings import Standing
    from cardbase.events.state import Snapshot
    from cardbase.events.store import Event, Player
    from cardbase.progress import Progress
    from cardbase.query.copies import Copy
    from cardbase.sheets.exporter import ExportReport
    from cardbase.sheets.importer import ImportReport
    from cardbase.trades.exchange import Trade


class Library:
    """A cardbase database as one collector sees it: `collector` None is the database's
    default collector; `defaults` are an added copy's condition and language when it does
    not say (the config file's, for the command line); `game`, the game whose card a code
    or a name means where several games have one (a game's key or prefix; None: such a code
    is refused, naming the games)."""

    def __init__(
        self,
        location: Location | str,
        collector: str | None = None,
        defaults: Defaults | None = None,
        game: str | None = None,
    ) -> None:
        # Text is read as the command line reads --db: a path, or a postgresql:// URL.
        self.location = _where(location) if isinstance(location, str) else location
        self.collector = collector
        self._defaults = defaults
        if game is not None:
            from cardbase.games import known_game

            game = known_game(game)
        self.game = game

    @classmethod
    def open(
        cls,
        location: str | Path | Location | None = None,
        collector: str | None = None,
        defaults: Defaults | None = None,
    ) -> Library:
        """The database at `location`: a SQLite file (created, with the game's catalogue,
        if there is none), a ``postgresql://`` URL, or None for $CARDBASE_DB, else the file in
        the user's data folder. A collector that does not exist is refused here."""
        library = cls(_where(location), collector, defaults)
        with library.reading():
            pass  # made ready (created, upgraded) and the collector checked, once
        return library

    @property
    def defaults(self) -> Defaults:
        from cardbase.collection.plan import Defaults

        return self._defaults or Defaults()

    def __repr__(self) -> str:
        who = f", collector={self.collector!r}" if self.collector else ""
        return f"Library({str(self.location)!r}{who})"

    @classmethod
    def create(
        cls, location: str | Path | Location, catalogue: str | Path | None = None
    ) -> Library:
        """A new database at `location` with `catalogue` (a built-in catalogue's name or a
        CSV file; None: $CARDBASE_CATALOGUE, else the config file's, else the game's), read
        and checked first, so a bad file creates nothing. A database that is there already
        is refused: its catalogue is changed with `catalog import`, not here."""
        from cardbase.catalog.choice import catalogue_file, new_database_catalogue
        from cardbase.catalog.load import checked_rows, read_catalogue
        from cardbase.db.connect import create_database

        chosen = catalogue_file(str(catalogue)) if catalogue else new_database_catalogue()
        checked_rows(read_catalogue(chosen), str(chosen), skip_bad=False)
        library = cls(_where(location))
        create_database(library.location, library, chosen)
        return library

    # -- connections --------------------------------------------------------------------

    def connect(self) -> Connection:
        """An open connection of this collector's, which the caller closes; the database is
        created (seeded with the catalogue) or upgraded first when it needs to be."""
        from cardbase.db.connect import open_db

        return open_db(self.location, self)

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection of this collector, closed at the end of the block."""
        conn = self.connect()
        try:
            yield conn
        finally:
            conn.close()

    @contextmanager
    def writing(self, whole: bool = False) -> Iterator[Connection]:
        """One write transaction of this collector's: committed when the block ends, rolled
        back whole on any exception. `whole`: a write beyond this collector's cards."""
        from cardbase.db.connect import write_transaction

        with write_transaction(self.location, self, whole=whole) as conn:
            yield conn

    # The library is the database layer's opener (`cardbase.db.engine.Opener`): it seeds a
    # new database, tells what an upgrade means for its cards, and scopes every connection
    # to its collector.

    def seed(self, conn: Connection, catalogue: Path | None) -> None:
        """A new database's rows: the default collector and the catalogue."""
        from cardbase.catalog.choice import new_database_catalogue
        from cardbase.catalog.load import load_catalogue
        from cardbase.collection.collectors import create_default

        create_default(conn)
        load_catalogue(conn, catalogue or new_database_catalogue())

    def upgraded(self, conn: Connection, version: int) -> None:
        """A database from before the real catalogue (version 5) on the old sample is told,
        once, how to move to the real cards."""
        if version >= 5:
            return
        from cardbase import notices
        from cardbase.catalog.move import MOVE_NOTICE, looks_like_old_sample

        if looks_like_old_sample(conn):  # every database before v5 was made from it, as a rule
            notices.tell(MOVE_NOTICE)

    def scope(self, conn: Connection) -> None:
        """The connection reads and writes as this library's collector."""
        from cardbase.collection.collectors import use_collector

        use_collector(conn, self.collector)
        conn.game = self.game

    # -- the catalogue ------------------------------------------------------------------

    def search(self, query: str = "", limit: int | None = None, **options: Any) -> list[Card]:
        """The cards `query` finds, best first, as `cardbase search` lists them; `options`
        are its plain options (``sphere="chaos"``, ``owned=True``...)."""
        from cardbase.query.search import build_query, search

        with self.reading() as conn:
            return search(conn, build_query(query, options), limit)

    def count(self, query: str = "", **options: Any) -> int:
        """How many cards `query` finds."""
        from cardbase.query.search import build_query, count

        with self.reading() as conn:
            return count(conn, build_query(query, options))

    def card(self, text: str) -> Card:
        """One card by its code (``1 C 14``) or its name in any language the catalogue
        holds; a name several cards share, or none, is refused with the candidates."""
        from cardbase.catalog.names import NameResolver

        with self.reading() as conn:
            return NameResolver(conn).card(text)

    def games(self) -> list[GameSummary]:
        """Every game cardbase knows (its files', `cardbase.games`), with its cards in this
        database and its formats."""
        from cardbase.catalog.gamelist import list_games

        with self.reading() as conn:
            return list_games(conn)

    # -- the collection -----------------------------------------------------------------

    def copies(self, query: str = "", limit: int | None = None, **options: Any) -> list[Copy]:
        """This collector's copies of the cards `query` finds, those its copy terms pass
        (`cardbase collection --copies`)."""
        from cardbase.query.search import build_query, search_copies

        with self.reading() as conn:
            return search_copies(conn, build_query(query, options), limit)

    def add(self, items: Iterable[str], **attributes: Any) -> list[Change]:
        """Add copies: each item a card and how many (``1 C 14 x2``, ``Chugawug Cook foil``).
        `attributes`: foil, condition, language, location, tags, note, dry_run, as the
        command's options read them ("near mint", "French", "Binder 1", ["trade"])."""
        return self._change("add", items, **attributes)

    def remove(self, items: Iterable[str], **attributes: Any) -> list[Change]:
        """Remove copies, never below none; `attributes` pick which (as `add`'s)."""
        return self._change("remove", items, **attributes)

    def set_counts(self, items: Iterable[str], **attributes: Any) -> list[Change]:
        """Make the listed cards' counts exactly those given (``1 C 14 x0`` removes all)."""
        return self._change("set", items, **attributes)

    def _change(
        self,
        verb: str,
        items: Iterable[str],
        *,
        condition: str | None = None,
        language: str | None = None,
        location: str | None = None,
        tags: str | Iterable[str] | None = None,
        **rest: Any,
    ) -> list[Change]:
        chosen = self.selector(condition, language, location, tags)
        return self.change(verb, items, selector=chosen, **rest)

    def change(
        self,
        verb: str,
        items: Iterable[str],
        *,
        selector: Selector | None = None,
        pasted: str = "",
        foil: bool = False,
        note: str | None = None,
        dry_run: bool = False,
        force: bool = False,
    ) -> list[Change]:
        """`add`, `remove` or `set` (`verb`) with attributes already read (`selector`):
        one transaction and one history batch. `pasted`: the lines given for an item ``-``.
        Copies sleeved in built decks are refused (`SleevedError`) unless `force`, which
        takes them out of the decks."""
        from cardbase.collection.changes import ANY, Mode
        from cardbase.collection.items import change_items
        from cardbase.collection.sleeved import releasing

        with releasing(force):
            return change_items(
                self, list(items), Mode(verb), pasted=pasted, foil=foil,
                selector=selector or ANY, note=note,
                defaults=self.defaults, dry_run=dry_run,
            )  # fmt: skip

    def move(
        self,
        items: Iterable[str],
        to: str | None = None,
        *,
        tag: str | None = None,
        untag: str | None = None,
        pasted: str = "",
        foil: bool | None = None,
        selector: Selector | None = None,
        dry_run: bool = False,
        force: bool = False,
    ) -> list[Change]:
        """Move copies to location `to`, or `tag` or `untag` them (one of the three): the
        copies become other holdings, so sleeved ones are refused unless `force`."""
        from cardbase.collection.attributes import parse_location
        from cardbase.collection.changes import ANY
        from cardbase.collection.moves import move_items, tagged, to_location, untagged
        from cardbase.collection.sleeved import releasing

        verb, reshape = (
            ("tag", tagged(tag)) if tag is not None
            else ("untag", untagged(untag)) if untag is not None
            else ("move", to_location(parse_location(to or "")))
        )  # fmt: skip
        with releasing(force):
            return move_items(
                self, list(items), reshape, verb, pasted=pasted, foil=foil,
                selector=selector or ANY, dry_run=dry_run,
            )  # fmt: skip

    @staticmethod
    def selector(
        condition: str | None = None,
        language: str | None = None,
        location: str | None = None,
        tags: str | Iterable[str] | None = None,
    ) -> Selector:
        """Copy attributes as people write them, read by the one set of parsers: 'nm' and
        'Near Mint' are NM, 'French' and 'Französisch' fr; a bad one is refused in one line.
        None is "not given"; a location of "" is no location."""
        from cardbase.collection.attributes import (
            parse_condition,
            parse_language,
            parse_location,
            parse_tags,
        )
        from cardbase.collection.changes import Selector

        tag_values = [tags] if isinstance(tags, str) else list(tags or [])
        return Selector(
            parse_condition(condition) if condition is not None else None,
            parse_language(language) if language is not None else None,
            parse_location(location) if location is not None else None,
            parse_tags(tag_values) if tag_values else None,
        )

    def undo(self, progress: Progress | None = None, *, force: bool = False) -> Batch | None:
        """Undo this collector's newest change; None when there is nothing to undo. An undo
        that would take sleeved copies is refused unless `force`."""
        from cardbase.collection.sleeved import releasing
        from cardbase.collection.store import undo_last
        from cardbase.progress import quiet

        with releasing(force):
            return undo_last(self, progress or quiet)

    def stats(self, game: str | None = None) -> CollectionStats:
        """`cardbase stats`: totals and completion of one game's cards, `game` (a key or
        prefix), else this library's game, else the default game: a collection of two games
        is counted one game at a time, the one the user chose."""
        from cardbase.collection.stats import collection_stats
        from cardbase.games import DEFAULT_GAME, known_game

        chosen = known_game(game) if game is not None else self.game or DEFAULT_GAME
        with self.reading() as conn:
            return collection_stats(conn, chosen)

    def history(self, limit: int | None = None, *, undoable: bool = False) -> list[Batch]:
        """This collector's changes newest first; `undoable`: only those an undo would
        revert, newest first, so a face can say what Undo will do before it is pressed."""
        from cardbase.collection.stats import history

        with self.reading() as conn:
            return history(conn, limit, undoable)

    def redo(self, *, force: bool = False) -> Batch | None:
        """Redo the change undone last; None when there is nothing to redo (sleeved copies
        as `undo`)."""
        from cardbase.collection.sleeved import releasing
        from cardbase.collection.store import redo_last

        with releasing(force):
            return redo_last(self)

    # -- trades -------------------------------------------------------------------------

    def trade(
        self,
        other: str,
        give: Iterable[str] = (),
        get: Iterable[str] = (),
        *,
        dry_run: bool = False,
        force: bool = False,
    ) -> Trade:
        """Trade with `other`, a collector of this database: `give`'s copies go to them and
        `get`'s come from them (items as `add` reads them: ``1 C 14 x2 foil lp``), both
        collections in one transaction, and a batch in each side's history that either
        side's `undo` reverts whole. Copies tagged ``trade`` are given first, then the worst
        condition; the `Trade` says which were taken. Copies sleeved in a built deck (of
        either side) are refused unless `force`."""
        from cardbase.collection.sleeved import releasing
        from cardbase.trades.exchange import make_trade

        with releasing(force):
            return make_trade(self, other, give, get, dry_run=dry_run)

    # -- sheets -------------------------------------------------------------------------

    def import_sheet(
        self,
        path: str | Path,
        *,
        sheet: str | None = None,
        mode: str = "add",
        dry_run: bool = False,
        skip_bad: bool = False,
        progress: Progress | None = None,
        force: bool = False,
    ) -> ImportReport:
        """Import a collection spreadsheet (csv, xlsx, xls, ods; other apps' exports as they
        are) in `mode` add, set or replace: all of it in one transaction, or none. A set or
        replace that would take sleeved copies is refused unless `force`."""
        from cardbase.collection.changes import ImportMode
        from cardbase.collection.sleeved import releasing
        from cardbase.progress import quiet
        from cardbase.sheets.importer import import_collection

        with releasing(force):
            return import_collection(
                self, Path(path), sheet, ImportMode(mode).mode, dry_run=dry_run,
                skip_bad=skip_bad, progress=progress or quiet,
                defaults=self.defaults,
            )  # fmt: skip

    def export(
        self,
        path: str | Path,
        what: str = "collection",
        query: str | None = None,
        *,
        force: bool = False,
        bom: bool = False,
        fmt: str | None = None,
        progress: Progress | None = None,
    ) -> ExportReport:
        """Write the collection, the catalogue or a query's cards (`what`: collection,
        catalogue, query) to a csv or xlsx file (`fmt`, else as its suffix says; ``-`` is
        standard output); an existing file is replaced only with `force`."""
        from cardbase.progress import quiet
        from cardbase.sheets.exporter import export_cards

        with self.reading() as conn:
            return export_cards(
                conn, Path(path), what, query, force=force, bom=bom, fmt=fmt,
                progress=progress or quiet,
            )  # fmt: skip

    # -- decks --------------------------------------------------------------------------

    def check_deck(
        self,
        where: str | Path,
        format: str | None = None,
        players: int | None = None,
        owned: bool = False,
        default_format: str | None = None,
    ) -> DeckReport:
        """Check a deck file or saved deck against `format`, else the format the deck names,
        else `default_format`, else Free Realms Constructed: every problem explained, and
        with `owned` the copies this collector lacks."""
        from cardbase.decks.operations import check

        with self.reading() as conn:
            return check(conn, str(where), format, players, owned, default_format)

    def deck_stats(
        self, where: str | Path, format: str | None = None, default_format: str | None = None
    ) -> DeckStats:
        """Card count, gems, sections, colours, spheres, types, Heroes and cost curve of a
        deck file or saved deck; lines that name no card are left out."""
        from cardbase.decks.operations import stats

        with self.reading() as conn:
            return stats(conn, str(where), format, default_format)

    def save_deck(
        self,
        file: str | Path,
        name: str,
        format: str | None = None,
        *,
        replace: bool = False,
        default_format: str | None = None,
    ) -> tuple[SavedDeck, Format]:
        """Save a deck file among this collector's decks; every line must name a card (the
        deck need not be legal); a name taken already only with `replace`."""
        from cardbase.decks.operations import save_file

        return save_file(
            self, Path(file), name, format, replace=replace, default_format=default_format
        )

    def deck_code(
        self, where: str | Path, format: str | None = None, default_format: str | None = None
    ) -> str:
        """A deck file's or saved deck's code: a short text to paste, read by `save_code`."""
        from cardbase.decks.operations import deck_code

        with self.reading() as conn:
            return deck_code(conn, str(where), format, default_format)

    def save_code(
        self, code: str, name: str, format: str | None = None, *, replace: bool = False
    ) -> tuple[SavedDeck, Format]:
        """Save the deck a code holds among this collector's decks."""
        from cardbase.decks.operations import save_code

        return save_code(self, code, name, format, replace)

    def deck_odds(
        self,
        where: str | Path,
        queries: Sequence[str] = (),
        *,
        at_least: int = 1,
        draws: int | None = None,
        turn: int | None = None,
        first_player: bool = True,
    ) -> Odds:
        """The exact chance of at least `at_least` cards matching each query in the deck's
        first `draws` cards (else by `turn`, else in the opening hand)."""
        from cardbase.decks.operations import deck_odds

        with self.reading() as conn:
            return deck_odds(conn, str(where), queries, at_least, draws, turn, first_player)

    def diff_decks(self, old: str | Path, new: str | Path) -> list[CountChange]:
        """What changed from one deck (a file, a saved deck, or a saved deck's version
        ``NAME@N``) to another, per section."""
        from cardbase.decks.operations import diff_decks

        with self.reading() as conn:
            return diff_decks(conn, str(old), str(new))

    def deck_history(self, name: str) -> tuple[SavedDeck, list[Version]]:
        """A saved deck's versions, oldest first, each with what it changed from the one
        before (added, removed and recounted cards)."""
        from cardbase.decks.versions import history

        with self.reading() as conn:
            return history(conn, name)

    def restore_deck(self, name: str, number: int | str) -> Restored:
        """Save version `number` of a saved deck again as its newest version; the versions
        in between stay."""
        from cardbase.decks.versions import restore

        return restore(self, name, number)

    def decks(self) -> list[tuple[SavedDeck, DeckCopies]]:
        """This collector's saved decks, each with its copies owned, in other built decks,
        free for it and sleeved in it (`deck list`)."""
        from cardbase.decks.sleeves import decks_with_copies

        with self.reading() as conn:
            return decks_with_copies(conn)

    def sleeve_deck(
        self, name: str, take: Sequence[str] = (), *, partial: bool = False
    ) -> Sleeving:
        """Mark a saved deck as built: its copies taken from this collector's free copies
        (most worn first, `take`'s items before any), or a built deck brought in line with
        its list. Lacking copies is refused (`ShortOfCopies`) unless `partial`."""
        from cardbase.decks.sleeves import sleeve

        return sleeve(self, name, take, partial=partial)

    def unsleeve_deck(self, name: str) -> Sleeving:
        """A built deck's copies made free again; the deck stays saved."""
        from cardbase.decks.sleeves import unsleeve

        return unsleeve(self, name)

    def deal_hand(
        self, where: str | Path, size: int | None = None, seed: int | None = None
    ) -> Hand:
        """A sample opening hand from the deck, the same for the same seed."""
        from cardbase.decks.operations import deal_hand

        with self.reading() as conn:
            return deal_hand(conn, str(where), size, seed)

    def export_deck(self, name: str, file: str | Path, *, force: bool = False) -> SavedDeck:
        """A saved deck as a text list, or a workbook with a stats sheet and cost chart."""
        from cardbase.decks.operations import export_saved

        with self.reading() as conn:
            return export_saved(conn, name, Path(file), force=force)

    def registration_sheet(
        self, where: str | Path, file: str | Path, player: str = "", paper: str = "a4", *,
        force: bool = False, default_format: str | None = None,
    ) -> DeckReport:  # fmt: skip
        """A deck's (a deck file's or saved deck's) printable registration sheet; an illegal
        deck is refused (`InvalidDeckError`) unless `force`, which marks the sheet NOT
        VALID. A file without a "Format:" line is judged in `default_format`, else the
        default."""
        from cardbase.decks.operations import registration_sheet

        with self.reading() as conn:
            return registration_sheet(
                conn, str(where), Path(file), player, paper, force=force,
                default_format=default_format,
            )  # fmt: skip

    def proxy_sheet(
        self,
        where: str | Path,
        file: str | Path,
        *,
        missing: bool = False,
        paper: str = "a4",
        force: bool = False,
    ) -> ProxySheet:
        """A print-ready PDF of a deck's cards at true size, nine a page with cut marks; with
        `missing` only the copies this collector lacks."""
        from cardbase.decks.operations import proxy_sheet

        with self.reading() as conn:
            return proxy_sheet(
                conn, str(where), Path(file), missing=missing, paper=paper, force=force
            )

    def build_deck(
        self,
        sphere: str,
        heroes: int | None = None,
        *,
        save: bool = False,
        name: str | None = None,
        out: str | Path | None = None,
        force: bool = False,
    ) -> BuiltDeck:
        """The Deck Builder Helper's legal deck of one sphere from this collector's copies,
        saved (`save`, as `name`) and written (`out`) as asked."""
        from cardbase.decks.operations import build_and_keep

        where = None if out is None else Path(out)
        return build_and_keep(self, sphere, heroes, save=save, name=name, out=where, force=force)

    # -- events -------------------------------------------------------------------------
    # A fan tournament's every step is one call and one transaction
    # (`cardbase.events.operations`): a killed process loses nothing stored, and the next
    # call resumes from it.

    def create_event(
        self, name: str, format: str, *, rounds: int | None = None, cut: int = 0,
        best_of: int = 3, seed: int | None = None, tiebreakers: Sequence[str] | None = None,
    ) -> Event:  # fmt: skip
        """A new event in registration; Swiss rounds from the player count unless given, a
        top `cut` of 2 to 64 (0: none), the seed its pairings are drawn from (None: a
        random one, recorded), and the tiebreakers in order (None: omw, gw, ogw)."""
        from cardbase.events.operations import create

        return create(self, name, format, rounds, cut, best_of, seed, tiebreakers)

    def publish_lists(self, event: str, published: bool = True) -> Event:
        """The deck lists shown on the event's public pages (or hidden again)."""
        from cardbase.events.operations import publish

        return publish(self, event, published)

    def events(self) -> list[tuple[Event, int, int]]:
        """Every event with its player count and the rounds paired so far."""
        from cardbase.events.operations import list_events

        return list_events(self)

    def event(self, name: str) -> Snapshot:
        """An event whole: its players, every round's tables and results."""
        from cardbase.events.operations import show

        return show(self, name)

    def register(self, event: str, player: str, deck: str | Path | None = None) -> Player:
        """A player in the event, their deck list (if given) checked at once by the event's
        format: an invalid deck is refused (`RefusedDeck`, with the desk's report)."""
        from cardbase.events.operations import register

        return register(self, event, player, None if deck is None else Path(deck))

    def drop(self, event: str, player: str) -> Player:
        """A player leaves the event; their results stay in everyone's standings."""
        from cardbase.events.operations import drop

        return drop(self, event, player)

    def pair(self, event: str) -> Paired:
        """The next round's tables (Swiss, or the cut's once it has begun), stored."""
        from cardbase.events.operations import pair_next

        return pair_next(self, event)

    def swap(self, event: str, one: str, other: str) -> Swap:
        """Two tables' players exchanged (by table numbers or names), with the rules the
        swap breaks."""
        from cardbase.events.operations import swap

        return swap(self, event, one, other)

    def report(
        self, event: str, result: str, player: str | None = None, table: int | None = None,
        round: int | None = None,
    ) -> Reported:  # fmt: skip
        """A result of the current round ("2-1", "1-1-1", "id"), by player or table; `round`
        if given must be the current one (an earlier round's results are final)."""
        from cardbase.events.operations import report

        return report(self, event, result, player, table, round)

    def report_file(self, event: str, file: str | Path) -> list[Reported]:
        """Many tables' results from a file (`3 2-1` or `Ann 2-1` a line, or a csv of the
        same), all in one transaction: a bad line stores none."""
        from cardbase.events.reports import report_file

        return report_file(self, event, Path(file))

    def player_report(
        self, event: str, code: str, result: str, pairing: int | None = None
    ) -> PlayerReport:
        """A player's result for their own table, by their code; kept for the organiser to
        confirm, never the table's result by itself."""
        from cardbase.events.reports import player_report

        return player_report(self, event, code, result, pairing)

    def pending_reports(self, event: str) -> list[Pending]:
        """The current round's tables with players' reports waiting for the organiser."""
        from cardbase.events.reports import pending_reports

        return pending_reports(self, event)

    def confirm(self, event: str, table: int, result: str | None = None) -> Reported:
        """A table's result as its players sent it, or as given when they disagree."""
        from cardbase.events.reports import confirm

        return confirm(self, event, table, result)

    def player_view(self, event: str, code: str) -> PlayerView:
        """What the player of that code may see: their table, standing and report."""
        from cardbase.events.reports import player_view

        return player_view(self, event, code)

    def standings(self, event: str) -> tuple[Event, list[Standing]]:
        """The Swiss standings, each tiebreaker with how it was reckoned."""
        from cardbase.events.operations import event_standings

        return event_standings(self, event)

    def cut(self, event: str) -> Paired:
        """The top cut's first round seeded by the standings, then its next rounds."""
        from cardbase.events.operations import cut

        return cut(self, event)

    def print_event(
        self, event: str, file: str | Path, what: str = "all", *, codes: bool = True,
        force: bool = False,
    ) -> Path:  # fmt: skip
        """The current round for the tables as a workbook made to print: pairings by table
        and by name, match slips (with their players' codes unless `codes` is False),
        standings; `what` chooses one of them, or all."""
        from cardbase.events.operations import show
        from cardbase.events.prints import write_prints

        return write_prints(show(self, event), Path(file), what, codes=codes, force=force)

    def export_event(self, event: str, file: str | Path, *, force: bool = False) -> Path:
        """The whole event as JSON or CSV, or its standings as a static HTML page."""
        from cardbase.events.export import write_event
        from cardbase.events.operations import show

        return write_event(show(self, event), Path(file), force)


def _where(location: str | Path | Location | None) -> Location:
    """A location as given, or named by text (a path or URL), or None: $CARDBASE_DB, else the
    file in the user's data folder."""
    if isinstance(location, Path | PostgresUrl):
        return location
    from cardbase.db.location import resolve_db_path

    return resolve_db_path(location)
