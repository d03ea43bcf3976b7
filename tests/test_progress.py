"""Progress on long jobs: every stage moves to its end on a terminal (rich's console,
captured), and piped output carries no progress at all."""

from __future__ import annotations

import io
from pathlib import Path
from typing import ClassVar

import pytest
from rich.console import Console

from cardbase import progress as reports
from cardbase.cli import render
from tests.helpers import MINI_CATALOGUE, Run
from tests.test_trades import add_collector

CATALOGUE_ROWS = "".join(
    f"4 C {n},Dune Walker {n},Trick,,Order,,1,,,Y,Draw a card.,\n" for n in range(1, 41)
)
BAR = "━"  # what rich draws a bar with


class Recording(render.DelayedProgress):
    """The CLI's bar, drawn at once into a captured terminal, with every report kept."""

    consoles: ClassVar[list[Console]] = []
    reports: ClassVar[list[tuple[str, int, int]]] = []

    def __init__(self, delay: float | None = None, console: object = None) -> None:
        console = Console(file=io.StringIO(), force_terminal=True, width=120)
        Recording.consoles.append(console)
        super().__init__(0.0, console)

    def __call__(self, stage: str, done: int, total: int) -> None:
        Recording.reports.append((stage, done, total))
        super().__call__(stage, done, total)


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> type[Recording]:
    """Bars drawn from the first report, every few steps, into captured consoles."""
    Recording.consoles, Recording.reports = [], []
    monkeypatch.setattr(render, "DelayedProgress", Recording)
    monkeypatch.setattr(reports, "EVERY", 3)
    return Recording


def _stages(reports_seen: list[tuple[str, int, int]]) -> dict[str, list[tuple[int, int]]]:
    stages: dict[str, list[tuple[int, int]]] = {}
    for stage, done, total in reports_seen:
        stages.setdefault(stage, []).append((done, total))
    return stages


def _long_jobs(run: Run, tmp_path: Path) -> dict[str, tuple[str, ...]]:
    """Each command that can take long, with what it needs in place, and its stages."""
    catalogue = tmp_path / "more.csv"
    catalogue.write_text(MINI_CATALOGUE.read_text().splitlines()[0] + "\n" + CATALOGUE_ROWS)
    sheet = tmp_path / "mine.csv"
    sheet.write_text("Name,Qty\n" + "".join(f"Dune Walker {n},2\n" for n in range(1, 41)))
    add_collector(run.db_path, "Bo")
    return {
        "catalog import": ("catalog", "import", str(catalogue)),
        "import": ("import", str(sheet)),
        "export": ("export", str(tmp_path / "out.xlsx")),
        "trade match": ("trade", "match", "--with", "Bo"),
        "undo": ("undo",),
        "deck check DIR": ("deck", "check", str(_deck_folder(tmp_path))),
    }


def _deck_folder(tmp_path: Path) -> Path:
    decks = tmp_path / "decks"
    decks.mkdir()
    for n in range(1, 8):
        (decks / f"player{n}.txt").write_text(f"3 Dune Walker {n}\n")
    return decks


STAGES = {
    "catalog import": {"Reading", "Writing", "Indexing"},
    "import": {"Reading the sheet", "Matching cards", "Writing"},
    "export": {"Searching", "Writing", "Saving"},
    "trade match": {"Making my lists", "Making their lists", "Matching"},
    "undo": {"Reading history", "Writing"},
    "deck check DIR": {"Checking decks"},
}


def test_every_stage_of_a_long_job_moves_to_its_end(
    run: Run, tmp_path: Path, terminal: type[Recording]
) -> None:
    seen_by_job = {}
    for job, args in _long_jobs(run, tmp_path).items():
        terminal.reports = seen_by_job[job] = []
        result = run(*args)
        assert result.exit_code == (1 if job == "deck check DIR" else 0), (job, result.output)
        stages = _stages(terminal.reports)
        assert STAGES[job] <= stages.keys(), (job, stages.keys())
        for stage, seen in stages.items():
            done = [d for d, _ in seen]
            assert done == sorted(done), (job, stage, done)  # never backwards
            assert seen[-1][0] == seen[-1][1], (job, stage, seen)  # and to its end
        drawn = terminal.consoles[-1].file.getvalue()  # type: ignore[attr-defined]
        assert BAR in drawn and all(stage in drawn for stage in STAGES[job]), (job, drawn)
    writing = _stages(seen_by_job["undo"])["Writing"]
    assert len(writing) > 3  # the undo of 40 copies moved in steps, not only 0 and all
    checked = _stages(seen_by_job["deck check DIR"])["Checking decks"]
    assert sorted({done for done, _ in checked}) == list(range(8))  # deck by deck


def test_piped_output_carries_no_progress(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not a terminal: no bar, however long the job (the delay is none here)."""
    monkeypatch.setattr(render, "PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(reports, "EVERY", 1)
    for job, args in _long_jobs(run, tmp_path).items():
        result = run(*args)
        assert result.exit_code == (1 if job == "deck check DIR" else 0), (job, result.output)
        assert BAR not in result.output and "\x1b[" not in result.output, job
        for stage in STAGES[job]:
            assert f"{stage} " not in result.stderr, (job, stage)


def test_the_library_reports_nothing_unless_asked() -> None:
    assert list(reports.counted(range(5), "Writing", 5)) == [0, 1, 2, 3, 4]
    heard: list[tuple[str, int, int]] = []
    assert list(reports.counted("abcde", "Reading", 5, lambda *r: heard.append(r))) == list("abcde")
    assert heard[0] == ("Reading", 0, 5) and heard[-1] == ("Reading", 5, 5)
