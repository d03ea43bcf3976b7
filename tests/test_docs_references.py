"""What cardbase tells a reader to read is there: the reference that was the README's is the
docs site's pages now (docs/*.md), and every page a message or comment names exists."""

from __future__ import annotations

import re

from tests.helpers import ROOT, Run

NAMED_PAGE = re.compile(r"docs/([a-z-]+)\.md")


def test_every_docs_page_the_code_names_exists() -> None:
    named = {
        (path.relative_to(ROOT).as_posix(), page)
        for path in [*(ROOT / "cardbase").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
        for page in NAMED_PAGE.findall(path.read_text(encoding="utf-8"))
    }
    assert named, "no docs page named anywhere: the pattern is wrong"
    assert [
        (where, p) for where, p in sorted(named) if not (ROOT / "docs" / f"{p}.md").is_file()
    ] == []


def test_no_message_points_to_the_readme() -> None:
    pointing = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "cardbase").rglob("*.py")
        if "see the README" in path.read_text(encoding="utf-8")
    ]
    assert pointing == []


def test_search_help_names_the_query_language_page(run: Run) -> None:
    assert "docs/query-language.md" in " ".join(run("search", "--help").stdout.split())
