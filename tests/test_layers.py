"""The import graph holds the layers: the database layer imports nothing above itself, files
in and out (`cardbase.fileio`) nothing but the foundation, the library never imports its
faces (`cli`, `web`), `web` never imports `cli`, and no modules
import each other in a circle.

Every import counts, those inside functions too (they are how a module loads another late),
except those under ``if TYPE_CHECKING:``, which never run. What is not yet as it should be is
listed in `STILL_WRONG` with the issue's reason: the test fails on any new arrow against the
layers and on a listed one that has gone, so the list only ever shrinks.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "cardbase"
# Modules below every package: they import none of cardbase's packages.
FOUNDATION = {
    "cardbase.errors", "cardbase.progress", "cardbase.notices", "cardbase.text",
    "cardbase.limits", "cardbase.naming", "cardbase.fields", "cardbase.games",
    "cardbase.gamefile", "cardbase.gamesources",
    "cardbase.codes", "cardbase.similar", "cardbase.bulk", "cardbase.fieldtypes",
}  # fmt: skip
FACES = ("cardbase.cli", "cardbase.web", "cardbase.__main__")
# The events' pure engines: pairings, standings, the cut and results know no database, so
# that their tests and property tests run on plain values.
EVENT_ENGINES = {
    "cardbase.events.swiss", "cardbase.events.standings", "cardbase.events.cut",
    "cardbase.events.scores",
}  # fmt: skip

# Arrows against the layers that are known and not yet gone, each to be removed, never
# added to (none now; the test's docstring says how the list is used).
STILL_WRONG: set[str] = set()


def _name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


@functools.cache
def _graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(targets) for name, targets in _read_graph().items()}


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports, read once a run (a copy each call)."""
    return defaultdict(set, {name: set(targets) for name, targets in _graph().items()})


def _read_graph() -> dict[str, set[str]]:
    modules = {_name(path): path for path in PACKAGE.rglob("*.py")}

    def module_of(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_lines(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if getattr(node, "lineno", 0) in skipped:
                continue
            if isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    kept = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*kept, base] if base else kept)
                wanted = [f"{base}.{alias.name}" for alias in node.names] + [base]
            else:
                continue
            for target in wanted:
                found = module_of(target) if target.startswith("cardbase") else None
                if found and found not in (name, "cardbase"):
                    graph[name].add(found)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def _in(module: str, *packages: str) -> bool:
    return any(module == package or module.startswith(f"{package}.") for package in packages)


def wrong_arrows(graph: dict[str, set[str]]) -> set[str]:
    wrong = set()
    for source, targets in graph.items():
        for target in targets:
            below_db = _in(target, "cardbase.db") or target in FOUNDATION
            if _in(source, "cardbase.db") and not below_db:
                wrong.add(f"{source} -> {target}")
            # Files in and out know nothing of cards: only the foundation is below them.
            if _in(source, "cardbase.fileio") and not (
                _in(target, "cardbase.fileio") or target in FOUNDATION
            ):
                wrong.add(f"{source} -> {target}")
            if source in FOUNDATION and target not in FOUNDATION:
                wrong.add(f"{source} -> {target}")
            if _in(target, "cardbase.cli") and not _in(source, *FACES):
                wrong.add(f"{source} -> {target}")
            if _in(source, "cardbase.web") and _in(target, "cardbase.cli"):
                wrong.add(f"{source} -> {target}")
            if _in(target, "cardbase.web") and not _in(source, *FACES):
                wrong.add(f"{source} -> {target}")  # the faces alone know the web
            if source == "cardbase.library" and _in(target, *FACES):
                wrong.add(f"{source} -> {target}")
            if source in EVENT_ENGINES and not (target in EVENT_ENGINES or target in FOUNDATION):
                wrong.add(f"{source} -> {target}")
    return wrong


def test_no_arrow_runs_against_the_layers() -> None:
    wrong = wrong_arrows(import_graph())
    assert sorted(wrong - STILL_WRONG) == [], "new arrows against the layers"
    assert sorted(STILL_WRONG - wrong) == [], "gone: take them off STILL_WRONG"


def test_no_modules_import_each_other_in_a_circle() -> None:
    graph = import_graph()
    for arrow in STILL_WRONG:  # a listed arrow is wrong already; its circle is not new
        source, target = arrow.split(" -> ")
        graph[source].discard(target)
    assert _circles(graph) == []


def test_the_checks_see_what_they_look_for() -> None:
    """The graph has the arrows the code has, lazy ones included, and the checks catch a
    planted arrow of each kind."""
    graph = import_graph()
    assert "cardbase.db.engine" in graph["cardbase.db.sqlite"]
    assert "cardbase.library" in graph["cardbase.cli.root"]  # inside a function
    planted = {
        "cardbase.db.engine": {"cardbase.collection.store"},
        "cardbase.library": {"cardbase.cli.render"},
        "cardbase.web.app": {"cardbase.cli.root"},
        "cardbase.errors": {"cardbase.db.engine"},
        "cardbase.fileio.writing": {"cardbase.sheets.columns"},
        "cardbase.decks.check": {"cardbase.web.faces"},
        "cardbase.events.swiss": {"cardbase.events.store"},
    }
    assert wrong_arrows(planted) == {
        f"{source} -> {target}" for source, targets in planted.items() for target in targets
    }
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
