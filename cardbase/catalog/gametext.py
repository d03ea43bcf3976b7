"""Game text and lore from the user's own game client: `cardbase catalog import-client DIR`.

The repository carries the cards' facts and no copied prose, so a card's game text and lore,
in English and in the client's other languages, are read from a client folder the user has
(`cardbase.client`). A client record is matched to a catalogue card by code and name both:
where the database's card at that code is another card (a catalogue that is not the game's,
such as the old sample), nothing is written to it, and a catalogue that is mostly other
cards is refused whole. One transaction; a SQLite database is backed up beside itself first.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.catalog.cards import name_key
from cardbase.client.cards import ClientCard, read_client_cards
from cardbase.client.folder import find_client
from cardbase.client.locale import LOCALES
from cardbase.client.texts import CardTexts, card_texts
from cardbase.db import tables
from cardbase.db.engine import Connection, Database
from cardbase.db.location import Location
from cardbase.errors import CardbaseError
from cardbase.maintenance import backup_beside
from cardbase.text import plural

ENGLISH = LOCALES["en_us"]
SHOWN = 5  # cards a summary names of each kind it lists
# Past this share of a catalogue's codes naming other cards, the catalogue is not the game's.
MOSTLY_OTHERS = 0.5


class TextImport(NamedTuple):
    """What an import of a client's texts read and what it changed (or would, in a dry run)."""

    folder: Path
    records: int  # client cards read
    languages: tuple[str, ...]  # language tags of the locales found
    matched: int  # client cards found in the catalogue
    changed: int  # of them, cards whose English text or lore changed
    translations: int  # cards' texts in other languages written (new or changed)
    missing: list[str]  # client cards the catalogue lacks, as "code name"
    others: list[str]  # codes where the catalogue has another card
    dry_run: bool
    backup: Path | None
    postgres: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {**self._asdict(), "folder": str(self.folder),
                "backup": str(self.backup) if self.backup else None}  # fmt: skip


class _Plan(NamedTuple):
    english: list[tuple[str, str, int]]  # text, lore, card id: the changed ones
    translated: list[tuple[int, str, str, str]]  # card id, language, text, lore: changed
    matched: list[int]  # card ids
    missing: list[str]
    others: list[str]


def import_client_texts(
    db: Database, folder: Path, *, dry_run: bool = False, backup: bool = True
) -> TextImport:
    """Fill every matched card's game text and lore, in every language the client has."""
    location = db.location
    client = find_client(folder)
    catalogue = read_client_cards(client)
    texts = card_texts(client, catalogue.cards)
    with db.reading() as conn:
        plan = _plan(conn, catalogue.cards, texts)
    if dry_run or not (plan.english or plan.translated):  # nothing to write, nothing to keep
        return _report(folder, catalogue.cards, texts, plan, dry_run, None, _is_postgres(location))
    saved = backup_beside(location, "import-client") if backup else None
    with db.writing(whole=True) as conn:
        plan = _plan(conn, catalogue.cards, texts)
        _write(conn, plan)
    return _report(folder, catalogue.cards, texts, plan, False, saved, _is_postgres(location))


def _is_postgres(location: Location) -> bool:
    return not isinstance(location, Path)


def _plan(
    conn: Connection, cards: list[ClientCard], texts: dict[str, dict[int, CardTexts]]
) -> _Plan:
    """Which catalogue card each client card is, and the rows to write for it."""
    rows = conn.execute(
        f"SELECT id, series, rarity, number, name_key, text, lore FROM {tables.CARD_TABLE} "
        "WHERE game = 'free-realms'"
    ).fetchall()
    by_code = {(r[1], r[2], r[3]): r for r in rows}
    existing = {
        (card_id, language): (text, lore)
        for card_id, language, text, lore in conn.execute(
            f"SELECT card_id, language, text, lore FROM {tables.CARD_TEXT_TABLE}"
        )
    }
    english, translated, matched, missing, others = [], [], [], [], []
    for card in cards:
        row = by_code.get((card.series, card.rarity, card.number))
        if row is None:
            missing.append(f"{card.code} {card.name}")
            continue
        if row[4] != name_key(card.name):
            others.append(card.code)
            continue
        matched.append(row[0])
        own = texts.get(ENGLISH, {}).get(card.archetype)
        text, lore = (own.text, own.lore) if own else ("", "")
        if (text, lore) != (row[5], row[6]):
            english.append((text, lore, row[0]))
        for language, found in texts.items():
            entry = found.get(card.archetype)
            if language == ENGLISH or entry is None:
                continue
            if existing.get((row[0], language)) != (entry.text, entry.lore):
                translated.append((row[0], language, entry.text, entry.lore))
    if others and len(others) > MOSTLY_OTHERS * (len(others) + len(matched)):
        raise CardbaseError(
            f"this database's catalogue is not the game's: {len(others)} of the client's codes "
            f"name other cards here (e.g. {', '.join(others[:3])}); nothing was changed",
            "Move its copies to the real catalogue first: cardbase catalog move-to-real",
        )
    return _Plan(english, translated, matched, missing, others)


def _write(conn: Connection, plan: _Plan) -> None:
    cursor = conn.cursor()
    cursor.executemany(
        f"UPDATE {tables.CARD_TABLE} SET text = ?, lore = ? WHERE id = ?", plan.english
    )
    cursor.executemany(
        f"DELETE FROM {tables.CARD_TEXT_TABLE} WHERE card_id = ? AND language = ?",
        [row[:2] for row in plan.translated],
    )
    columns = ", ".join(tables.CARD_TEXT_COLUMNS)
    cursor.executemany(
        f"INSERT INTO {tables.CARD_TEXT_TABLE} ({columns}) VALUES (?, ?, ?, ?)", plan.translated
    )


def _report(
    folder: Path,
    cards: list[ClientCard],
    texts: dict[str, dict[int, CardTexts]],
    plan: _Plan,
    dry_run: bool,
    saved: Path | None,
    postgres: bool,
) -> TextImport:
    return TextImport(
        folder, len(cards), tuple(texts), len(plan.matched), len(plan.english),
        len(plan.translated), plan.missing, plan.others, dry_run, saved, postgres,
    )  # fmt: skip


def summary_lines(report: TextImport) -> Iterable[str]:
    """The summary a person reads: what was read, what changed, what was left and why."""
    would = "would be " if report.dry_run else ""
    yield (
        f"{report.folder}: {plural(report.records, 'card')} read in "
        f"{plural(len(report.languages), 'language')} ({', '.join(report.languages)})"
    )
    yield (
        f"{plural(report.matched, 'card')} matched; English text or lore {would}changed on "
        f"{plural(report.changed, 'card')}; {plural(report.translations, 'translation')} "
        f"{would}written"
    )
    if report.missing:
        shown = ", ".join(report.missing[:SHOWN])
        more = f" and {len(report.missing) - SHOWN} more" if len(report.missing) > SHOWN else ""
        yield f"not in this catalogue, left out: {shown}{more}"
    if report.others:
        shown = ", ".join(report.others[:SHOWN])
        more = f" and {len(report.others) - SHOWN} more" if len(report.others) > SHOWN else ""
        yield f"another card here at {shown}{more}: left as it is"
    if report.backup:
        yield f"backed up first to {report.backup} (cardbase restore puts it back)"
    elif report.postgres and not report.dry_run:
        yield "PostgreSQL: cardbase takes no backup there (pg_dump -Fc does, pg_restore undoes)"
    if report.dry_run:
        yield "dry run: nothing was changed"
