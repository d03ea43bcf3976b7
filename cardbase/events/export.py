"""An event written out whole: JSON (players, deck lists and verdicts, rounds, results,
standings), CSV (a row per table of every round, then the standings), or a static HTML page
of the standings to share. The file's suffix chooses; an existing file is replaced only
with `force`, and a failed write leaves it as it was (`fileio.writing.output_file`).
"""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path
from typing import Any

from cardbase.events.standings import Standing, percent
from cardbase.events.state import Snapshot
from cardbase.fileio.writing import FORMULA_STARTS, output_file

SUFFIXES = (".json", ".csv", ".html")


def event_dict(state: Snapshot, with_codes: bool = False) -> dict[str, Any]:
    """The codes only for the organiser (`event show`): an export is for sharing."""
    keys = state.event.tiebreakers
    return {
        "event": state.event.to_dict(),
        "players": [player.to_dict(with_code=with_codes) for player in state.players],
        "rounds": [seat.to_dict() for seat in state.seats],
        "standings": [row.to_dict(keys) for row in state.standings()],
    }


def write_event(state: Snapshot, path: Path, force: bool = False) -> Path:
    writers = {".json": _json, ".csv": _csv, ".html": _html}
    with output_file(path, force=force, suffixes=SUFFIXES) as temporary:
        text = writers[path.suffix.lower()](state)
        temporary.write_text(text, encoding="utf-8", newline="")
    return path


def _json(state: Snapshot) -> str:
    return json.dumps(event_dict(state), ensure_ascii=False, indent=2) + "\n"


def _cell(value: object) -> object:
    """A player's name as a cell a spreadsheet reads as text, never as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return "" if value is None else value


def _csv(state: Snapshot) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "stage", "table", "first", "second", "first_games",
                     "second_games", "drawn_games", "intentional_draw"])  # fmt: skip
    for seat in state.seats:
        writer.writerow([_cell(v) for v in (
            seat.round, seat.stage, seat.number, seat.first, seat.second or "(bye)",
            seat.first_games, seat.second_games, seat.drawn_games, int(seat.intentional_draw),
        )])  # fmt: skip
    writer.writerow([])
    keys = state.event.tiebreakers
    writer.writerow(["place", "player", "points", "matches", *keys, "dropped"])
    for row in state.standings():
        writer.writerow([row.place, _cell(row.record.player), row.record.points,
                         row.record.matches, *(percent(v) for v in row.tiebreaks),
                         int(row.dropped)])  # fmt: skip
    return out.getvalue()


def _html(state: Snapshot) -> str:
    event = state.event
    title = html.escape(event.name)
    heads = "".join(f"<th>{html.escape(key.upper())}</th>" for key in event.tiebreakers)
    body = "\n".join(_html_row(row) for row in state.standings())
    rounds = state.last_round
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: standings</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1rem; color: #1a1a1a; }}
table {{ border-collapse: collapse; }}
th, td {{ padding: .25rem .6rem; border-bottom: 1px solid #ccc; text-align: left; }}
td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
tr.dropped td {{ color: #555; }}
</style></head>
<body>
<h1>{title}</h1>
<p>{html.escape(event.format)}, after {rounds} round{"s" * (rounds != 1)}; \
best of {event.best_of}.</p>
<table>
<thead><tr><th>#</th><th>Player</th><th>Points</th><th>Matches</th>{heads}</tr></thead>
<tbody>
{body}
</tbody></table>
</body></html>
"""


def _html_row(row: Standing) -> str:
    cells = "".join(
        f'<td class="n" title="{html.escape(words)}">{percent(value)}</td>'
        for value, words in zip(row.tiebreaks, row.reckoned, strict=True)
    )
    dropped = " (dropped)" if row.dropped else ""
    kind = ' class="dropped"' if row.dropped else ""
    return (
        f'<tr{kind}><td class="n">{row.place}</td>'
        f"<td>{html.escape(row.record.player)}{dropped}</td>"
        f'<td class="n">{row.record.points}</td><td class="n">{row.record.matches}</td>'
        f"{cells}</tr>"
    )
