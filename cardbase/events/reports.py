"""Results from the floor: a file of many tables' results from the organiser, and a
player's own table's result sent from a phone, kept apart until the organiser confirms it.

A player is known by their code alone (`store.CODE_ALPHABET`, drawn with `secrets`), so
what a player sends names no table: their table is the one the code sits at, and a table
number or pairing id sent with it must be that one. Nothing a player sends writes a
table's result; `confirm` does, through the same rules as `event report`.
"""

from __future__ import annotations

import csv
import hmac
import io
from pathlib import Path
from typing import Any, NamedTuple

from cardbase.db.engine import Connection, Database
from cardbase.errors import CardbaseError, shorten
from cardbase.events import store
from cardbase.events.operations import Reported, report_in, snapshot, write_result
from cardbase.events.scores import Score, parse_score
from cardbase.events.standings import Standing
from cardbase.events.state import Snapshot
from cardbase.events.store import Event, Player, Seat, SentReport

MAX_RESULTS_FILE = 1_000_000  # bytes: a thousand tables' lines many times over
_HEADERS = {"table", "player"}


class PlayerReport(NamedTuple):
    event: Event
    player: Player
    seat: Seat
    score: Score  # from the player's side


class Pending(NamedTuple):
    """A table of the current round with what its players sent and no confirmed result."""

    seat: Seat
    sent: list[SentReport]

    @property
    def agreed(self) -> Score | None:
        """The result every report gives (one report, or both alike); None if they differ."""
        scores = {_score(report) for report in self.sent}
        return next(iter(scores)) if len(scores) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        agreed = self.agreed
        return {
            "table": self.seat.number, "round": self.seat.round, "first": self.seat.first,
            "second": self.seat.second,
            "sent": [{"player": r.player, "result": str(_score(r)), "at": r.reported_at}
                     for r in self.sent],
            "agreed": None if agreed is None else str(agreed),
            "both": len(self.sent) == 2,
        }  # fmt: skip


class PlayerView(NamedTuple):
    """What one player may see: their table this round, their standing, what they sent."""

    event: Event
    player: Player
    seat: Seat | None
    standing: Standing | None
    sent: Score | None  # their own report for the table, from their side

    def to_dict(self) -> dict[str, Any]:
        seat, standing = self.seat, self.standing
        keys = self.event.tiebreakers
        return {
            "event": self.event.name, "player": self.player.name,
            "table": None if seat is None else seat.to_dict(),
            "standing": None if standing is None else standing.to_dict(keys),
            "sent": None if self.sent is None else str(self.sent),
        }  # fmt: skip


def _score(report: SentReport) -> Score:
    return Score(report.first_games, report.second_games, report.drawn_games,
                 report.intentional_draw)  # fmt: skip


# -- the organiser's file -------------------------------------------------------------------


def report_file(db: Database, name: str, path: Path) -> list[Reported]:
    """Every line's result in one transaction: one bad line (named by its number) and none
    is stored, so a file can be fixed and given again."""
    from cardbase.fileio.bounded import read_bounded
    from cardbase.fileio.reading import decode

    text = decode(read_bounded(path, MAX_RESULTS_FILE, "results file"), str(path))
    try:
        lines = _lines(text, path.suffix.lower() == ".csv")
    except CardbaseError as exc:
        raise CardbaseError(f"{path.name} {exc.message}") from None
    if not lines:
        raise CardbaseError(f"{path}: no results; write one 'table result' a line, as '3 2-1'")
    done: list[Reported] = []
    seen: dict[int, int] = {}
    with db.writing(whole=True) as conn:
        for number, who, result in lines:
            try:
                reported = _report_line(conn, name, who, result)
            except CardbaseError as exc:
                raise CardbaseError(f"{path.name} line {number}: {exc.message}") from None
            if reported.seat.id in seen:
                raise CardbaseError(
                    f"{path.name} line {number}: table {reported.seat.number} is on line "
                    f"{seen[reported.seat.id]} too; give each table once"
                )
            seen[reported.seat.id] = number
            done.append(reported)
    return done


def _report_line(conn: Connection, name: str, who: str, result: str) -> Reported:
    state = snapshot(conn, name)
    if who.isdigit():
        return report_in(conn, state, result, table=int(who))
    return report_in(conn, state, result, player=who)


def _lines(text: str, is_csv: bool) -> list[tuple[int, str, str]]:
    """(line number, table or player, result) of every line that says something."""
    found = []
    rows = csv.reader(io.StringIO(text)) if is_csv else (line.split() for line in text.splitlines())
    for number, cells in enumerate(rows, 1):
        cells = [cell.strip() for cell in cells if cell.strip()]
        if not cells or cells[0].startswith("#"):
            continue
        if number == 1 and cells[0].lower() in _HEADERS:
            continue
        if len(cells) < 2:
            raise CardbaseError(
                f"line {number}: '{shorten(' '.join(cells), 30)}': give a table or a player, "
                "then the result, as '3 2-1' or 'Ann 2-1'"
            )
        found.append((number, " ".join(cells[:-1]), cells[-1]))
    return found


# -- players' reports -----------------------------------------------------------------------


def _by_code(state: Snapshot, code: str) -> Player:
    """The player whose code this is, compared in constant time (a code is a secret)."""
    wanted = "".join(code.split()).upper().encode("utf-8", "replace")
    found = None
    for player in state.players:
        if player.code and hmac.compare_digest(player.code.encode(), wanted):
            found = player
    if found is None:
        raise CardbaseError(
            f"no player of '{state.event.name}' has that code; check the code the organiser "
            "gave you"
        )
    return found


def _own_seat(state: Snapshot, player: Player) -> Seat:
    if state.event.state == "finished":
        raise CardbaseError(f"'{state.event.name}' is over: no more results")
    seat = next((s for s in state.round_seats() if player.name in (s.first, s.second)), None)
    if seat is None:
        raise CardbaseError(f"{player.name} is not paired in round {state.last_round}")
    if seat.second is None:
        raise CardbaseError(f"{player.name} has the bye this round: its result is 2-0")
    return seat


def player_report(
    db: Database, name: str, code: str, result: str, pairing: int | None = None
) -> PlayerReport:
    """A player's result for their own table of the current round, stored as theirs; a
    `pairing` (the table's id, as a form sends it) other than their table is refused, as is
    a table whose result is already confirmed."""
    with db.writing(whole=True) as conn:
        state = snapshot(conn, name)
        player = _by_code(state, code)
        seat = _own_seat(state, player)
        if pairing is not None and pairing != seat.id:
            raise CardbaseError(
                f"that is not {player.name}'s table: report for table {seat.number} only"
            )
        if seat.reported:
            raise CardbaseError(
                f"table {seat.number}'s result is confirmed; ask the organiser to correct it"
            )
        score = parse_score(result, state.event.best_of)
        if seat.stage == "cut" and not score.winner_decided:
            raise CardbaseError(f"result '{score}': a cut match needs a winner")
        ordered = score if seat.first == player.name else score.turned()
        store.put_report(conn, seat, player, (ordered.won, ordered.lost, ordered.drawn),
                         ordered.intentional)  # fmt: skip
        return PlayerReport(state.event, player, seat, score)


def _pending(conn: Connection, state: Snapshot) -> list[Pending]:
    sent = store.sent_reports(conn, state.event)
    found = []
    for seat in state.round_seats():
        mine = [r for r in sent if r.pairing_id == seat.id]
        if mine and not seat.reported:
            order = {seat.first: 0, seat.second: 1}
            found.append(Pending(seat, sorted(mine, key=lambda r: order.get(r.player, 2))))
    return found


def pending_reports(db: Database, name: str) -> list[Pending]:
    """The current round's tables that players reported and the organiser has not confirmed."""
    with db.reading() as conn:
        return _pending(conn, snapshot(conn, name))


def confirm(db: Database, name: str, table: int, result: str | None = None) -> Reported:
    """The table's result as its players sent it (one report, or both alike), or as the
    organiser gives it (its first player's side first) when they disagree."""
    with db.writing(whole=True) as conn:
        state = snapshot(conn, name)
        seats = state.round_seats()
        if not any(seat.number == table for seat in seats):
            raise CardbaseError(
                f"table {table}: round {state.last_round} has tables 1 to {len(seats)}"
                if seats else f"'{state.event.name}' has no round paired yet"
            )  # fmt: skip
        if result is not None:
            return report_in(conn, state, result, table=table)
        pending = next((p for p in _pending(conn, state) if p.seat.number == table), None)
        if pending is None:
            raise CardbaseError(
                f"table {table} has no report waiting in round {state.last_round}; give the result"
            )
        agreed = pending.agreed
        if agreed is None:
            said = "; ".join(f"{r.player} sent {_score(r)}" for r in pending.sent)
            raise CardbaseError(
                f"table {table}'s players disagree ({said}, {pending.seat.first}'s side "
                "first); give the result"
            )
        return write_result(conn, state, pending.seat, agreed)


def player_view(db: Database, name: str, code: str) -> PlayerView:
    """A player's own page: nothing of another player but their opponent's name and the
    standings everyone sees."""
    with db.reading() as conn:
        state = snapshot(conn, name)
        player = _by_code(state, code)
        seat = next((s for s in state.round_seats() if player.name in (s.first, s.second)),
                    None)  # fmt: skip
        standing = next((r for r in state.standings() if r.record.player == player.name), None)
        sent = None
        if seat is not None:
            mine = [r for r in store.sent_reports(conn, state.event)
                    if r.pairing_id == seat.id and r.player == player.name]  # fmt: skip
            if mine:
                score = _score(mine[-1])
                sent = score if seat.first == player.name else score.turned()
        return PlayerView(state.event, player, seat, standing, sent)
