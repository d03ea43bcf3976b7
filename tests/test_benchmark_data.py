"""The benchmark data generator is deterministic and writes what the benchmarks read."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from cardbase.catalog.load import read_catalogue

GENERATOR = Path(__file__).parent.parent / "benchmarks" / "generate.py"


def load_generator():
    spec = importlib.util.spec_from_file_location("generate", GENERATOR)
    assert spec
    assert spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_same_size_same_bytes(tmp_path: Path) -> None:
    generate = load_generator()
    generate.generate("1k", tmp_path / "a")
    generate.generate("1k", tmp_path / "b")
    names = sorted(p.name for p in (tmp_path / "a").iterdir() if p.is_file())
    assert names == [
        "catalogue-1k.csv",
        "collection-1k.csv",
        "collection-1k.xlsx",
        "deck-with-typos-1k.txt",
        "names-1k.txt",
    ]
    for name in names:
        if name.endswith(".xlsx"):
            continue  # the zip container stamps times; its rows come from the same CSV rows
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert len(list((tmp_path / "a" / "decks-1k").glob("*.txt"))) == 20


def test_generated_catalogue_is_a_valid_catalogue(tmp_path: Path) -> None:
    generate = load_generator()
    generate.generate("1k", tmp_path)
    parsed = read_catalogue(tmp_path / "catalogue-1k.csv")
    assert parsed.problems == []
    assert len(parsed.cards) == 1000
    assert len({card.name for card in parsed.cards}) == 1000


def test_a_million_names_are_unique() -> None:
    generate = load_generator()
    names = {generate.card_name(i) for i in range(0, 1_000_000, 997)}
    assert len(names) == len(range(0, 1_000_000, 997))
    sizes = (generate.ADJECTIVES, generate.TRAITS, generate.ROLES, generate.EPITHETS)
    assert len(sizes[0]) * len(sizes[1]) * len(sizes[2]) * len(sizes[3]) >= 1_000_000
