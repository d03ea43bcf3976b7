"""What each deck command does, as one call: open a deck by file or saved name, check it,
describe it, save it, build one and keep it.

The modules below this one each know one thing (lists, formats, checking, saved decks, the
builder, workbooks); the rules that join them, such as "a deck file if the path exists, else
the saved deck of that name" or "a saved deck is checked in its own format unless told
otherwise", are here, so that the command line only parses and renders.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from cardbase.codes import CollectorCode
from cardbase.db.engine import Connection, Database
from cardbase.decks.builder import BuildResult, build_deck, choose_sphere
from cardbase.decks.check import (
    DeckReport,
    DeckStats,
    check_deck,
    deck_stats,
    format_of_cards,
    get_format,
    own_format,
    place,
)
from cardbase.decks.diff import CountChange
from cardbase.decks.formats import FORMATS, Format, Placed
from cardbase.decks.lists import MAIN, NO_DECK_NAMED, DeckList, format_deck, parse_deck_text
from cardbase.decks.odds import Odds
from cardbase.decks.proxies import ProxySheet
from cardbase.decks.registration import write_registration_sheet
from cardbase.decks.saved import (
    SavedDeck,
    deck_text,
    find_deck,
    save_deck,
    saved_deck_list,
    saved_placed,
)
from cardbase.decks.sheetdecks import read_deck_file
from cardbase.decks.workbooks import write_deck
from cardbase.errors import CardbaseError, InvalidDeckError, first_few, shorten
from cardbase.fields import DEFAULT_FORMAT
from cardbase.fileio.writing import check_target, write_text
from cardbase.games import DEFAULT_GAME
from cardbase.text import plural

SHOWN_PROBLEMS = 5  # problems quoted when a deck cannot be saved
PAPERS = ("a4", "letter")


class OpenedDeck(NamedTuple):
    deck: DeckList
    format: str | None  # a saved deck's own format, or a file's "Format:" line
    saved: SavedDeck | None = None


def open_deck(conn: Connection, where: str) -> OpenedDeck:
    """A deck file if there is one at that path (or it looks like a file), else the saved deck
    of that name."""
    if not where.strip():  # Path("") is the current folder: never what was meant
        raise CardbaseError(NO_DECK_NAMED)
    path = Path(where)
    if path.exists() or path.suffix:
        deck = read_deck_file(path)
        return OpenedDeck(deck, deck.format)
    saved = find_deck(conn, where)
    return OpenedDeck(saved_deck_list(conn, saved), saved.format, saved)


def deck_format(
    opened: OpenedDeck, format_key: str | None, default: str | None, conn: Connection | None = None
) -> Format:
    """The format to judge a deck by: the one asked for, else the deck's own (a saved deck's,
    a file's "Format:" line), else `default` (the config file's), else Free Realms; but a
    deck naming no format whose cards (read on `conn`) are all another game's is judged by
    that game's first format, and a notice says so."""
    if format_key:
        return get_format(format_key)
    fallback = own_format(opened.deck.source, opened.format, default or DEFAULT_FORMAT)
    if opened.format or conn is None:
        return fallback
    return format_of_cards(conn, opened.deck, fallback)


def check(
    conn: Connection,
    where: str,
    format_key: str | None = None,
    players: int | None = None,
    owned: bool = False,
    default_format: str | None = None,
) -> DeckReport:
    """Check a deck file or saved deck: in `format_key`, else its own format, else
    `default_format` (the config file's), else the default."""
    opened = open_deck(conn, where)
    fmt = deck_format(opened, format_key, default_format, conn)
    own = opened.saved.id if opened.saved else None
    return check_deck(conn, opened.deck, fmt.key, players, owned, own=own)


def stats(
    conn: Connection,
    where: str,
    format_key: str | None = None,
    default_format: str | None = None,
) -> DeckStats:
    """Stats of the cards a deck names; lines that name no card are left out. A saved deck's
    cards are the ones saved; a file's names and codes are read as its format's game's (a
    Wildhearts '1 C 1' is not the Free Realms one)."""
    opened = open_deck(conn, where)
    if opened.saved is not None and not format_key:
        return deck_stats(saved_placed(conn, opened.saved))
    fmt = deck_format(opened, format_key, default_format, conn)
    placed, _problems = place(conn, opened.deck, fmt.game)
    return deck_stats(placed)


def save_file(
    db: Database,
    file: Path,
    name: str,
    format_key: str | None = None,
    replace: bool = False,
    default_format: str | None = None,
) -> tuple[SavedDeck, Format]:
    """Save a deck list under a name among `collector`'s decks, in `format_key`, else the
    file's "Format:" line, else `default_format` (the config file's); every line must name
    a card (the deck need not be legal)."""
    deck = read_deck_file(file)
    with db.reading() as conn:
        fmt = deck_format(OpenedDeck(deck, deck.format), format_key, default_format, conn)
        placed, problems = place(conn, deck, fmt.game)
    if problems:
        listed = "; ".join(first_few([p.message for p in problems], SHOWN_PROBLEMS))
        raise CardbaseError(f"{file}: {listed}. Nothing was saved")
    return save_deck(db, name, fmt.key, placed, replace=replace), fmt


def deck_code(
    conn: Connection, where: str, format_key: str | None = None, default: str | None = None
) -> str:
    """A deck file's or saved deck's code (`cardbase.decks.deckcode`); every line must name a
    card of one game."""
    opened = open_deck(conn, where)
    return code_of(opened.deck.source, _placed(conn, opened, format_key, default))


def code_of(source: str, placed: list[Placed]) -> str:
    """The code of a deck's cards (of one game)."""
    from cardbase.decks.deckcode import CodedCard, encode

    games = sorted({p.card.game for p in placed})
    if len(games) != 1:
        said = f"cards of {', '.join(games)}" if games else "no cards"
        raise CardbaseError(f"{source}: the deck holds {said}; a code holds one game's")
    copies: dict[tuple[str, CollectorCode], int] = defaultdict(int)
    for p in placed:
        copies[p.line.section, p.card.code] += p.line.copies
    return encode(games[0], [CodedCard(s, c, n) for (s, c), n in copies.items()])


def save_code(
    db: Database, code: str, name: str, format_key: str | None = None, replace: bool = False
) -> tuple[SavedDeck, Format]:
    """Save the deck a code holds under `name`, in `format_key`, else its game's first
    format; every card must be in this database's catalogue."""
    from cardbase.decks.deckcode import decode

    game = code_game(decode(code)[0])  # its game first: a wrong format is said before any card
    fmt = get_format(format_key) if format_key else first_format(game)
    if fmt.game != game:
        raise CardbaseError(f"the code holds a {game} deck; the format {fmt.key} is {fmt.game}'s")
    with db.reading() as conn:
        _game, placed = placed_of_code(conn, code, "Nothing was saved")
    return save_deck(db, name, fmt.key, placed, replace=replace), fmt


def first_format(game: str) -> Format:
    """The format a deck of `game` is checked by when none is named."""
    found = next((f for f in FORMATS.values() if f.game == game), None)  # as format_of_cards
    if found is None:
        raise CardbaseError(f"the game '{game}' has no deck format; name one with --format")
    return found


def code_game(game: str) -> str:
    """A deck code's game, which must be one this cardbase has: a code names a user's game
    by its key, and another person's cardbase may lack that game's file."""
    from cardbase.games import GAMES

    if game not in GAMES:
        raise CardbaseError(
            f"the deck code holds a deck of the game '{shorten(game, 40)}', which this cardbase "
            "does not have; add its game file (cardbase games lists the games it has)"
        )
    return game


def placed_of_code(conn: Connection, code: str, unchanged: str) -> tuple[str, list[Placed]]:
    """The game and the cards a deck code holds; every card must be in this database's
    catalogue, else the error says which and ends with `unchanged` (what was not done)."""
    from cardbase.decks.deckcode import decode

    game, cards = decode(code)
    code_game(game)
    sections: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for card in sorted(cards, key=lambda c: (c.section != MAIN, c.section, c.code)):
        sections[card.section].append((card.copies, str(card.code)))
    deck = parse_deck_text(format_deck(dict(sections)), "the deck code")
    placed, problems = place(conn, deck, game)
    if problems:
        listed = "; ".join(first_few([p.message for p in problems], SHOWN_PROBLEMS))
        raise CardbaseError(f"the deck code: {listed}. {unchanged}")
    return game, placed


def deck_odds(
    conn: Connection,
    where: str,
    queries: Sequence[str],
    at_least: int = 1,
    draws: int | None = None,
    turn: int | None = None,
    first_player: bool = True,
) -> Odds:
    """The chance that a shuffled deck shows `at_least` cards each query matches, in its
    first `draws` cards, else by `turn`, else in its opening hand."""
    opened = open_deck(conn, where)
    placed = _placed(conn, opened)
    return odds_of(conn, opened.deck.source, placed, queries, at_least, draws, turn, first_player)


def odds_of(
    conn: Connection,
    source: str,
    placed: list[Placed],
    queries: Sequence[str],
    at_least: int = 1,
    draws: int | None = None,
    turn: int | None = None,
    first_player: bool = True,
) -> Odds:
    """`deck_odds` for cards already placed (the Deck Builder's list as it is typed)."""
    from cardbase.decks.odds import Group, draws_by_turn
    from cardbase.decks.odds import at_least as chance
    from cardbase.games import GAMES
    from cardbase.query import nodes as q
    from cardbase.query.search import build_query, search

    size = sum(p.line.copies for p in placed)
    game = GAMES[placed[0].card.game] if placed else GAMES[DEFAULT_GAME]
    if draws is None:
        draws = draws_by_turn(game, turn or 1, first_player)
    ids = tuple(sorted({p.card.id for p in placed}))
    groups: list[Group] = []
    taken: dict[int, str] = {}
    for text in queries:
        query = build_query(text)
        root = q.And((query.root, q.CardIds(ids))) if query.root else q.CardIds(ids)
        matched = {card.id for card in search(conn, q.Query(root))}
        for card_id in matched & taken.keys():
            raise CardbaseError(
                f"'{shorten(text, 40)}' and '{shorten(taken[card_id], 40)}' both match a card "
                "of the deck; ask about cards that no two queries share"
            )
        taken.update(dict.fromkeys(matched, text))
        copies = sum(p.line.copies for p in placed if p.card.id in matched)
        groups.append(Group(text, copies, at_least))
    return Odds(source, size, draws, groups, chance(size, groups, draws))


class Hand(NamedTuple):
    deck: str
    seed: int
    cards: list[str]  # "Name (code)", a copy each, as dealt

    def to_dict(self) -> dict[str, object]:
        return {"deck": self.deck, "seed": self.seed, "cards": self.cards}


def deal_hand(conn: Connection, where: str, size: int | None, seed: int | None) -> Hand:
    """A sample opening hand of the game's size (or `size`), dealt from `seed`; without a
    seed one is chosen and said, so the same hand can be dealt again."""
    opened = open_deck(conn, where)
    return hand_of(opened.deck.source, _placed(conn, opened), size, seed)


def hand_of(source: str, placed: list[Placed], size: int | None, seed: int | None) -> Hand:
    """`deal_hand` for cards already placed."""
    import secrets

    from cardbase.decks.odds import deal, draws_by_turn
    from cardbase.games import GAMES

    game = GAMES[placed[0].card.game] if placed else GAMES[DEFAULT_GAME]
    copies = [p.card.label() for p in placed for _ in range(p.line.copies)]
    chosen = secrets.randbelow(10**6) if seed is None else seed
    size = draws_by_turn(game, 1) if size is None else size
    return Hand(source, chosen, deal(copies, size, chosen))


def diff_decks(conn: Connection, old: str, new: str) -> list[CountChange]:
    """Two decks (files, saved decks or their versions, ``NAME@N``) compared card by card,
    section by section."""
    from cardbase.decks.diff import deck_diff

    return deck_diff(_side(conn, old), _side(conn, new))


def _side(conn: Connection, where: str) -> list[Placed]:
    """A diff's side: a deck file, a saved deck, or a saved deck's version (``NAME@N``); a
    saved deck whose own name holds an '@' is that deck."""
    from cardbase.decks.versions import is_version, version_placed

    if is_version(where) and not _is_saved(conn, where):
        return version_placed(conn, where)[1]
    return _placed(conn, open_deck(conn, where))


def _is_saved(conn: Connection, name: str) -> bool:
    from cardbase.errors import NotFoundError

    try:
        find_deck(conn, name)
    except NotFoundError:
        return False
    return True


def _placed(
    conn: Connection, opened: OpenedDeck, format_key: str | None = None, default: str | None = None
) -> list[Placed]:
    """The deck's cards: a saved deck's as stored, a file's each line resolved (every line
    must name a card, in the game of its format)."""
    if opened.saved is not None:
        return saved_placed(conn, opened.saved)
    fmt = deck_format(opened, format_key, default, conn)
    placed, problems = place(conn, opened.deck, fmt.game)
    if problems:
        listed = "; ".join(first_few([p.message for p in problems], SHOWN_PROBLEMS))
        raise CardbaseError(f"{opened.deck.source}: {listed}. Nothing was done")
    return placed


def export_saved(conn: Connection, name: str, file: Path, force: bool = False) -> SavedDeck:
    """A saved deck as a text list (.txt) or a workbook with stats and a cost chart (.xlsx)."""
    deck = find_deck(conn, name)
    placed = saved_placed(conn, deck)
    about = {"format": deck.format}  # read back as the deck's own, as the saved deck's is
    write_deck(file, deck.name, placed, deck_text(conn, placed, about), about, force=force)
    return deck


def registration_sheet(
    conn: Connection,
    where: str,
    file: Path,
    player: str,
    paper: str,
    force: bool = False,
    default_format: str | None = None,
) -> DeckReport:
    """A deck's (a deck file's or saved deck's) printable tournament registration sheet, on
    A4 or letter paper; a file is judged in its "Format:" line's format, else
    `default_format` (the config file's), else the default.

    An illegal deck is refused (`InvalidDeckError`, nothing written): a sheet handed in for
    a 39-card deck is a game loss. With `force` it is written, marked NOT VALID with the
    reasons."""
    if paper.lower() not in PAPERS:
        raise CardbaseError(f"--paper {paper}: use {' or '.join(PAPERS)}")
    opened = open_deck(conn, where)
    name = opened.saved.name if opened.saved else opened.deck.source
    check_target(file, force, (".xlsx",))
    fmt = deck_format(opened, None, default_format, conn)
    placed = _placed(conn, opened, fmt.key)
    own = opened.saved.id if opened.saved else None
    report = check_deck(conn, opened.deck, fmt.key, own=own)
    if not report.valid and not force:
        reasons = "; ".join(first_few([p.describe() for p in report.problems], SHOWN_PROBLEMS))
        raise InvalidDeckError(
            f"'{name}' is not a valid {report.format.title} deck ({reasons}); nothing "
            "was written. Fix the deck, or add --force for a sheet marked NOT VALID"
        )
    write_registration_sheet(
        file, name, report.format, placed, player, paper.lower(),
        problems=report.problems, force=force,
    )  # fmt: skip
    return report._replace(source=name)


class BuiltDeck(NamedTuple):
    result: BuildResult
    text: str  # the deck list, as `deck check` reads it back
    report: DeckReport | None  # None when the collection cannot make a deck
    stats: DeckStats
    saved_as: str | None


def build_and_keep(
    db: Database,
    sphere: str,
    heroes: int | None,
    *,
    save: bool = False,
    name: str | None = None,
    out: Path | None = None,
    force: bool = False,
) -> BuiltDeck:
    """The Deck Builder Helper's deck, saved and written as asked.

    `out` is refused (it exists, or has the wrong kind) before anything is built or saved;
    a saved deck of the same name is replaced only with `force`.
    """
    if out is not None:
        check_target(out, force, (".txt",))
    chosen = choose_sphere(sphere)
    with db.reading() as conn:
        result = build_deck(conn, chosen, heroes)
        placed = result.placed()
        text = deck_text(conn, placed) if not result.shortage else ""
        # Read back as a user's file would be: the builder's deck must pass the same checks.
        report = check_deck(conn, parse_deck_text(text, f"{chosen} build")) if text else None
    saved_as = None
    if not result.shortage:
        if save:
            saved_as = save_deck(db, name or f"{chosen} build", DEFAULT_FORMAT, placed,
                                 replace=force).name  # fmt: skip
        if out is not None:
            write_text(out, text, force=force)
    return BuiltDeck(result, text, report, deck_stats(placed), saved_as)


def proxy_sheet(
    conn: Connection,
    where: str,
    file: Path,
    *,
    missing: bool = False,
    paper: str = "a4",
    force: bool = False,
) -> ProxySheet:
    """A print-ready PDF of a deck's cards (a deck file or saved deck), every copy its own
    card; with `missing` only the copies this collector lacks. Refused before anything is
    written: an unknown deck or paper, a file there already (without `force`), nothing left
    to print."""
    from cardbase.decks.proxies import check_can_draw, paper_size

    check_can_draw()
    paper_size(paper)
    opened = open_deck(conn, where)
    name = opened.saved.name if opened.saved else opened.deck.source
    placed = _placed(conn, opened)
    check_target(file, force, (".pdf",))
    own = opened.saved.id if opened.saved else None
    return proxies_of(conn, name, placed, file, missing=missing, paper=paper, force=force, own=own)


def proxies_of(
    conn: Connection,
    name: str,
    placed: list[Placed],
    file: Path,
    *,
    missing: bool = False,
    paper: str = "a4",
    force: bool = False,
    own: int | None = None,
) -> ProxySheet:
    """`proxy_sheet` for cards already placed (the Deck Builder's list as it is typed);
    `own`: the saved deck they are, whose sleeved copies count as owned."""
    from cardbase.decks.proxies import check_can_draw, every_copy, missing_copies, write_proxies

    check_can_draw()
    cards, left_out = missing_copies(conn, placed, own) if missing else (every_copy(placed), 0)
    if not cards:
        why = (
            f"you own every card of '{name}' ({plural(left_out, 'copy', 'copies')}); "
            "nothing to print"
            if missing
            else f"'{name}' holds no cards; nothing to print"
        )
        raise CardbaseError(f"{why}, and nothing was written")
    return write_proxies(file, name, cards, paper, force=force, owned_left_out=left_out)
